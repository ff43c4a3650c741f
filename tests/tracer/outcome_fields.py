"""What two runs of the same call must agree on (an outcome's timing may differ)."""

from __future__ import annotations

from tracer import Outcome


def comparable(outcome: Outcome) -> tuple[object, ...]:
    """The fields of `outcome` that a second run of the same call must reproduce."""
    return (
        outcome.status,
        outcome.result,
        outcome.exception,
        outcome.args_after,
        outcome.stdout,
        outcome.trace,
    )

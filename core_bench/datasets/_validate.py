"""Checking a dataset against execution: each call must return the output the row states."""

from __future__ import annotations

from core_bench.datasets._load import SourcedProblem
from core_bench.schemas import SkippedRow
from tracer import Outcome, SandboxPool, same_value


def _failure(index: int, expected: str, outcome: Outcome) -> str | None:
    where = f"call {index + 1}"
    if outcome.status == "exception":
        return f"{where} raised {outcome.exception}"
    if outcome.status == "timeout":
        return f"{where} did not terminate ({outcome.detail or 'timeout'})"
    if outcome.status != "ok":
        return f"{where} ended with {outcome.status}: {outcome.exception or outcome.detail}"
    if outcome.result is None or not same_value(expected, outcome.result):
        return f"{where}: the row says {expected}, execution gives {outcome.result}"
    return None


def validate_problems(
    rows: list[SourcedProblem],
    pool: SandboxPool,
    *,
    timeout_s: float = 5.0,
    memory_mb: int = 512,
) -> tuple[list[SourcedProblem], list[SkippedRow]]:
    """Run every call of every problem in the sandbox; keep the problems that agree.

    A problem is skipped (with its file, line, id and the reason) when a call raises, does not
    terminate within `timeout_s`, or returns something other than the output its row states.

    Returns:
        The kept problems in their order, and the skipped rows.
    """
    outcomes = pool.map(
        [(row.problem.code, row.problem.calls) for row in rows],
        timeout_s=timeout_s,
        memory_mb=memory_mb,
    )
    kept: list[SourcedProblem] = []
    skipped: list[SkippedRow] = []
    for row, results in zip(rows, outcomes, strict=True):
        reason = None
        for index, (expected, outcome) in enumerate(zip(row.problem.outputs, results, strict=True)):
            reason = _failure(index, expected, outcome)
            if reason is not None:
                break
        if reason is None:
            kept.append(row)
        else:
            skipped.append(
                SkippedRow(file=row.file, line=row.line, id=row.problem.id, reason=reason)
            )
    return kept, skipped

"""Whether a probe holds on another trace of the same call (taken under another hash seed)."""

from __future__ import annotations

from core_bench.probes._context import CallContext, same_value
from core_bench.probes._registry import KINDS, answer_type
from core_bench.schemas import Probe
from tracer import Trace


def probe_holds(
    probe: Probe, code: str, trace: Trace, *, context: CallContext | None = None
) -> bool:
    """Whether `trace` (another trace of the probe's call of `code`) asks the same question at
    the probe's anchor and gives an equal answer.

    The build traces every call twice, under two `PYTHONHASHSEED`s; a probe that does not hold
    on both depends on the iteration order of sets or dicts of strings, which no reader of the
    code can know. The question must be the same text (it quotes loop values that single out a
    run), the answer an equal value (a set of strings may print in another order).
    `context`, the `CallContext` of `trace`, spares indexing it again for each probe.

    Raises:
        ValueError: `context` indexes another trace or code.
    """
    if trace.truncated:
        return False
    ctx = CallContext.reuse(context, code, trace)
    anchor = probe.anchor
    reading = KINDS[probe.kind].read(ctx, anchor.line, anchor.occurrence, anchor.variable)
    if reading is None:
        return False
    # what `rebuild_probe` would check, without building the record
    return (
        answer_type(reading.kind, reading.answer) is not None
        and same_value(reading.answer, probe.answer)
        and KINDS[reading.kind].question(ctx, reading) == probe.question
    )

"""Whether a probe holds on another trace of the same call (taken under another hash seed)."""

from __future__ import annotations

from core_bench.probes._build import rebuild_probe
from core_bench.probes._context import CallContext, same_value
from core_bench.probes._registry import KINDS
from core_bench.schemas import Probe
from tracer import Trace


def probe_holds(probe: Probe, code: str, trace: Trace) -> bool:
    """Whether `trace` (another trace of the probe's call of `code`) asks the same question at
    the probe's anchor and gives an equal answer.

    The build traces every call twice, under two `PYTHONHASHSEED`s; a probe that does not hold
    on both depends on the iteration order of sets or dicts of strings, which no reader of the
    code can know. The question must be the same text (it quotes loop values that single out a
    run), the answer an equal value (a set of strings may print in another order).
    """
    if trace.truncated:
        return False
    ctx = CallContext(code, trace)
    anchor = probe.anchor
    reading = KINDS[probe.kind].read(ctx, anchor.line, anchor.occurrence, anchor.variable)
    if reading is None:
        return False
    again = rebuild_probe(ctx, reading, probe, probe.variant_id)
    return (
        again is not None
        and again.question == probe.question
        and same_value(again.answer, probe.answer)
    )

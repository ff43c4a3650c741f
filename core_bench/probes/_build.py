"""Turning a reading into the `Probe` record a build writes."""

from __future__ import annotations

from core_bench.probes._context import CallContext
from core_bench.probes._reading import Reading
from core_bench.probes._registry import KINDS, answer_type, dimensions
from core_bench.schemas import Anchor, Probe, ProbeFeatures


def probe_id(
    variant_id: str, call_index: int, kind: str, line: int, occurrence: int, variable: str | None
) -> str:
    """The id of a probe: `{variant_id}:c{call_index}:{kind}:{line}:{occurrence}:{variable}`
    (an empty variable where the kind has none); unique within a build."""
    return f"{variant_id}:c{call_index}:{kind}:{line}:{occurrence}:{variable or ''}"


def build_probe(
    ctx: CallContext,
    reading: Reading,
    *,
    problem_id: str,
    variant_id: str,
    call_index: int,
    anchored: bool = False,
    id: str | None = None,
) -> Probe | None:
    """The probe record of a reading, or None when its answer does not parse as a literal.

    Features: `step_index` is the anchored step (the number of steps for a line that never
    ran), `iteration` the innermost loop's iteration there, `nesting` the loops around the
    anchor line (its own loop included for a header), `operators` the operators on it (0 for
    the kinds anchored on a `def` line).
    """
    kind_type = answer_type(reading.kind, reading.answer)
    if kind_type is None:
        return None
    on_def = KINDS[reading.kind].on_def_line
    facts = ctx.facts.lines.get(reading.line)
    operators = facts.operators if facts is not None and not on_def else 0
    executed = reading.step < len(ctx.steps)
    features = ProbeFeatures(
        step_index=reading.step,
        iteration=ctx.iteration(reading.step) if executed else None,
        nesting=0 if on_def else ctx.nesting(reading.line),
        operators=operators,
    )
    return Probe(
        id=id
        or probe_id(
            variant_id,
            call_index,
            reading.kind,
            reading.line,
            reading.occurrence,
            reading.variable,
        ),
        problem_id=problem_id,
        variant_id=variant_id,
        call_index=call_index,
        kind=reading.kind,
        dimensions=dimensions(reading.kind, operators),
        question=KINDS[reading.kind].question(ctx, reading),
        anchor=Anchor(line=reading.line, occurrence=reading.occurrence, variable=reading.variable),
        answer=reading.answer,
        answer_type=kind_type,
        features=features,
        anchored=anchored,
    )


def rebuild_probe(
    ctx: CallContext, reading: Reading, like: Probe, variant_id: str, *, id: str | None = None
) -> Probe | None:
    """The probe record of a reading that asks `like`'s question of `variant_id` (the same
    problem and call); anchored when it is another variant's, with the given id."""
    return build_probe(
        ctx,
        reading,
        problem_id=like.problem_id,
        variant_id=variant_id,
        call_index=like.call_index,
        anchored=variant_id != like.variant_id,
        id=id,
    )

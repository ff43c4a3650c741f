"""REval's incremental consistency: coverage -> state -> path -> output, per (variant, call)."""

from __future__ import annotations

from collections import defaultdict

from core_bench.metrics._data import Context, correct
from core_bench.probes import STAGE_OF_KIND
from core_bench.schemas import MetricRow

STAGES = ("coverage", "state", "path", "output")
"""REval's tasks in the order each builds on the one before."""


def incremental_rows(ctx: Context) -> list[MetricRow]:
    """IC x100: the percentage of units whose answers are incrementally consistent.

    A unit is a (variant, call, sample index) with an output sample and probe samples of every
    other stage (`STAGE_OF_KIND`): coverage, state and path. With fewer stages IC is vacuous (a
    unit with one probe and an output is consistent whatever is answered, which gave IC = 100
    to a model wrong on every output), so such units are left out, and without any complete
    unit there is no IC row. A stage is right when every sample of it in the unit is correct.
    The unit is consistent when no stage is right after an earlier stage that is wrong (its
    stages, in `STAGES` order, read right...right wrong...wrong). Interval bootstrapped by
    problem; n = units.
    """
    stages: dict[tuple[str, int, int], dict[str, bool]] = defaultdict(dict)
    problems: dict[tuple[str, int, int], str] = {}
    for sample in ctx.samples:
        key = (sample.variant_id, sample.call_index, sample.sample_index)
        if sample.task == "output":
            stage: str | None = "output"
        elif sample.task == "probe" and sample.probe_id is not None:
            probe = ctx.probes.get(sample.probe_id)
            stage = STAGE_OF_KIND.get(probe.kind) if probe is not None else None
        else:
            stage = None
        if stage is None:
            continue
        seen = stages[key]
        seen[stage] = seen.get(stage, True) and correct(sample)
        problems[key] = sample.problem_id
    tallies: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for key, seen in stages.items():
        if len(seen) < len(STAGES):
            continue
        sequence = [seen[s] for s in STAGES if s in seen]
        first_wrong = sequence.index(False) if False in sequence else len(sequence)
        tally = tallies[problems[key]]
        tally[0] += not any(sequence[first_wrong:])
        tally[1] += 1
    units = [(float(t[0]), float(t[1])) for _, t in sorted(tallies.items())]
    row = ctx.ratio_row("core", "IC", "all", units)
    if row is None:
        return []
    return [row.model_copy(update={"n": sum(t[1] for t in tallies.values())})]

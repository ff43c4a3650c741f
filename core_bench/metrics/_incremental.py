"""REval's incremental consistency: coverage -> state -> path -> output, per (variant, call).

REval (Chen et al., "Reasoning Runtime Behavior of a Program with LLM: How Far Are We?",
ICSE 2025) scores each unit's four results, in `STAGES` order, by how far its right answers
reach while staying incrementally consistent (no right answer after a wrong one): all four right
1, the first three 0.5, the first two 0.25, coverage alone 0.125, anything else 0, and IC is the
mean x100. That is how REval's released evaluation code (its `Consistency` task) computes it, and
the paper's example ({1, 1, 0, 0} scores 1/2^2); a unit with every answer wrong scores 0 there.

Beside `IC` stand three shares that tell what it is made of. `IC_consistent` is the share of
units with no right answer after a wrong one (earlier versions reported this figure as `IC`):
it counts a unit with every answer wrong as consistent, so a model that knows nothing scores
high on it (the code-blind `ref:blind` got 67.4 on the bundled build). `IC_all_wrong` is the
share of units with every answer wrong (consistent vacuously), and `IC_consistent_any_right` the
consistent share of the units with at least one right answer.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from core_bench.metrics._data import Context, Metric, correct
from core_bench.probes import STAGE_OF_KIND
from core_bench.schemas import MetricRow

STAGES = ("coverage", "state", "path", "output")
"""REval's tasks in the order each builds on the one before."""


def reval_score(sequence: Sequence[bool]) -> float:
    """REval's IC score of one unit's results in `STAGES` order: 2^-(wrong stages) when the
    right ones are a non-empty prefix (none right after a wrong one), else 0.

    >>> [reval_score(s) for s in ([1, 1, 1, 1], [1, 1, 0, 0], [0, 0, 0, 0], [0, 1, 1, 1])]
    [1.0, 0.25, 0.0, 0.0]
    """
    right = _right_prefix(sequence)
    if right == 0 or any(sequence[right:]):
        return 0.0
    return 0.5 ** (len(sequence) - right)


def _right_prefix(sequence: Sequence[bool]) -> int:
    """How many results in a row, from the first, are right."""
    return next((i for i, ok in enumerate(sequence) if not ok), len(sequence))


@dataclass(slots=True)
class _Tally:
    """One problem's sums over its units."""

    units: int = 0
    score: float = 0.0
    consistent: int = 0
    all_wrong: int = 0
    any_right: int = 0
    consistent_any_right: int = 0

    def add(self, sequence: Sequence[bool]) -> None:
        consistent = not any(sequence[_right_prefix(sequence) :])
        self.units += 1
        self.score += reval_score(sequence)
        self.consistent += consistent
        if any(sequence):
            self.any_right += 1
            self.consistent_any_right += consistent
        else:
            self.all_wrong += 1


def incremental_rows(ctx: Context) -> list[MetricRow]:
    """IC (REval's score), IC_consistent, IC_all_wrong and IC_consistent_any_right, x100.

    A unit is a (variant, call, sample index) with an output sample and probe samples of every
    other stage (`STAGE_OF_KIND`): coverage, state and path. Units with fewer stages are left
    out (with one probe and an output, consistency holds whatever is answered), and without any
    complete unit there are no rows. A stage is right when every sample of it in the unit is
    correct. Intervals bootstrapped by problem; n = units (for IC_consistent_any_right, the
    units with a right answer; no row when there is none). See the module docstring.
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
    tallies: dict[str, _Tally] = defaultdict(_Tally)
    for key, seen in stages.items():
        if len(seen) == len(STAGES):
            tallies[problems[key]].add([seen[s] for s in STAGES])
    ordered = [t for _, t in sorted(tallies.items())]
    figures = (
        ("IC", lambda t: (t.score, t.units)),
        ("IC_consistent", lambda t: (t.consistent, t.units)),
        ("IC_all_wrong", lambda t: (t.all_wrong, t.units)),
        ("IC_consistent_any_right", lambda t: (t.consistent_any_right, t.any_right)),
    )
    rows = []
    for metric, pick in figures:
        units = [(float(num), float(den)) for num, den in map(pick, ordered) if den > 0]
        row = ctx.ratio_row("core", metric, "all", units)
        if row is not None:
            n = sum(int(den) for _, den in units)
            rows.append(row.model_copy(update={"n": n}))
    return rows


METRIC = Metric(
    incremental_rows,
    {
        "IC": "REval's incremental consistency score per (variant, call) unit with coverage, "
        "state, path and output answers: 1 all right, 0.5 / 0.25 / 0.125 when only the first "
        "3 / 2 / 1 are, 0 otherwise (a right answer after a wrong one, or none right)",
        "IC_consistent": "share of units whose answers never turn right after a wrong one "
        "(high too when every answer is wrong: read it beside IC_all_wrong)",
        "IC_all_wrong": "share of IC's units with every answer wrong (consistent only "
        "vacuously; a model that knows nothing scores high here)",
        "IC_consistent_any_right": "IC_consistent over the units with at least one right answer",
    },
)

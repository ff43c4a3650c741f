"""Output-versus-probe coherence: superficial execution and the 2x2 coherence table."""

from __future__ import annotations

from collections import defaultdict

from core_bench.metrics._data import Context, Metric, Tally, correct
from core_bench.schemas import MetricRow

CELLS = (
    "output_right/probes_right",
    "output_right/probes_wrong",
    "output_wrong/probes_right",
    "output_wrong/probes_wrong",
)


def consistency_rows(ctx: Context) -> list[MetricRow]:
    """superficial_rate (two definitions) and the coherence table, x100.

    A unit is one (variant, call, sample index) of any variant kind that has an output sample
    and at least one probe sample (task "probe"). Its probes are right when every one of them
    is correct.

    - superficial_rate, group "any_probe_wrong": of the units whose output is right, the
      percentage with at least one probe wrong.
    - superficial_rate, group "majority_probes_wrong": of the units whose output is right, the
      percentage with more than half of their probes wrong.
    - coherence, groups `CELLS`: the percentage of all units in each cell of output right/wrong
      x probes (all) right/wrong; the four rows sum to 100.

    Intervals are bootstrapped by problem; n = units.
    """
    outputs: dict[tuple[str, int, int], tuple[str, bool]] = {}
    probes: dict[tuple[str, int, int], list[bool]] = defaultdict(list)
    for sample in ctx.samples:
        key = (sample.variant_id, sample.call_index, sample.sample_index)
        if sample.task == "output":
            outputs[key] = (sample.problem_id, correct(sample))
        elif sample.task == "probe":
            probes[key].append(correct(sample))
    cells: dict[str, dict[str, int]] = {cell: defaultdict(int) for cell in CELLS}
    any_wrong, most_wrong = Tally(), Tally()
    totals: dict[str, int] = defaultdict(int)
    for key, (problem, right) in outputs.items():
        answers = probes.get(key)
        if not answers:
            continue
        all_right = all(answers)
        cell = f"output_{'right' if right else 'wrong'}/probes_{'right' if all_right else 'wrong'}"
        cells[cell][problem] += 1
        totals[problem] += 1
        if right:
            any_wrong.add(problem, not all_right)
            most_wrong.add(problem, 2 * answers.count(False) > len(answers))
    rows: list[MetricRow] = []
    for group, tally in (("any_probe_wrong", any_wrong), ("majority_probes_wrong", most_wrong)):
        row = ctx.share_row("output", "superficial_rate", group, tally)
        if row is not None:
            rows.append(row)
    problems = sorted(totals)
    for cell in CELLS:
        units = [(float(cells[cell].get(p, 0)), float(totals[p])) for p in problems]
        row = ctx.ratio_row("output", "coherence", cell, units)
        if row is not None:
            rows.append(row.model_copy(update={"n": sum(totals.values())}))
    return rows


METRIC = Metric(
    consistency_rows,
    {
        "superficial_rate": "of the right outputs, share whose probes are wrong (superficial "
        "execution)",
        "coherence": "share of units in each cell of output right/wrong x probes right/wrong",
    },
)

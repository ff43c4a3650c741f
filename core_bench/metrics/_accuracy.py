"""Plain accuracy per task and variant kind (the figures `basic_metrics` gave, x100)."""

from __future__ import annotations

from collections import defaultdict

from core_bench.metrics._data import Context, Metric, correct
from core_bench.schemas import MetricRow


def accuracy_rows(ctx: Context) -> list[MetricRow]:
    """accuracy x100 per task, over all samples (group "all") and per variant kind (group
    "original", "equivalent", "mutant"). Failed requests and unparseable answers count as not
    correct. Intervals are bootstrapped by problem; n = samples."""
    tallies: dict[tuple[str, str], dict[str, list[int]]] = defaultdict(dict)
    for sample in ctx.samples:
        for group in ("all", ctx.kind(sample)):
            tally = tallies[(sample.task, group)].setdefault(sample.problem_id, [0, 0])
            tally[0] += correct(sample)
            tally[1] += 1
    rows: list[MetricRow] = []
    for (task, group), problems in sorted(tallies.items()):
        units = [(float(t[0]), float(t[1])) for _, t in sorted(problems.items())]
        row = ctx.ratio_row(task, "accuracy", group, units)
        if row is not None:
            rows.append(row.model_copy(update={"n": sum(t[1] for t in problems.values())}))
    return rows


METRIC = Metric(
    accuracy_rows,
    {
        "accuracy": "share of answers graded correct (failed and unparseable answers count wrong)",
    },
)

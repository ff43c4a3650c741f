"""Plain accuracy per task and variant kind (the figures `basic_metrics` gave, x100)."""

from __future__ import annotations

from collections import defaultdict

from core_bench.metrics._data import Context, Metric, Tally, correct
from core_bench.schemas import MetricRow


def accuracy_rows(ctx: Context) -> list[MetricRow]:
    """accuracy x100 per task, over all samples (group "all") and per variant kind (group
    "original", "equivalent", "mutant"). Failed requests and unparseable answers count as not
    correct. Intervals are bootstrapped by problem; n = samples."""
    tallies: dict[tuple[str, str], Tally] = defaultdict(Tally)
    for sample in ctx.samples:
        for group in ("all", ctx.kind(sample)):
            tallies[(sample.task, group)].add(sample.problem_id, correct(sample))
    ordered = sorted(tallies.items())
    rows = (ctx.share_row(task, "accuracy", group, tally) for (task, group), tally in ordered)
    return [row for row in rows if row is not None]


METRIC = Metric(
    accuracy_rows,
    {
        "accuracy": "share of answers graded correct (failed and unparseable answers count wrong)",
    },
)

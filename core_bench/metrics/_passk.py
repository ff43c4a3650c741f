"""pass@k on the original variants, with grading's unbiased estimator."""

from __future__ import annotations

from collections import defaultdict

from core_bench.grading import pass_at_k
from core_bench.metrics._data import Context, Metric, correct
from core_bench.schemas import MetricRow

PASS_KS = (1, 5, 10)


def pass_rows(ctx: Context) -> list[MetricRow]:
    """pass@k x100 for output and input prediction on originals.

    Per task (variant, call) the unbiased estimator of k among its n samples; per problem the
    mean over its tasks; the figure is the mean over tasks (each problem weighted by its tasks),
    with a bootstrap interval resampled by problem. k runs over 1, 5, 10 up to the fewest
    samples of a task. n = problems.
    """
    rows: list[MetricRow] = []
    for task in ("output", "input"):
        per_task: dict[tuple[str, str], list[bool]] = defaultdict(list)
        for sample in ctx.samples:
            if sample.task == task and ctx.kind(sample) == "original":
                per_task[(sample.problem_id, sample.task_id)].append(correct(sample))
        if not per_task:
            continue
        fewest = min(len(v) for v in per_task.values())
        for k in PASS_KS:
            if k > fewest:
                break
            by_problem: dict[str, list[float]] = defaultdict(list)
            for (problem, _), outcomes in per_task.items():
                by_problem[problem].append(pass_at_k(len(outcomes), sum(outcomes), k))
            units = [(sum(v), float(len(v))) for _, v in sorted(by_problem.items())]
            row = ctx.ratio_row(task, f"pass@{k}", "original", units)
            if row is not None:
                rows.append(row)
    return rows


METRIC = Metric(
    pass_rows,
    {
        "pass@1": "share of calls answered right by one sample, on the original functions",
        "pass@5": "chance that at least one of 5 samples is right, on the original functions",
        "pass@10": "chance that at least one of 10 samples is right, on the original functions",
    },
)

"""Metrics of a run: the rows of summary.json, per model and strategy.

    from core_bench.metrics import summarize

    rows = summarize(samples, benchmark, model="openai:gpt-4o-mini")

Every figure but mcnemar_p (a p-value in 0..1, no interval) and core_budget (mean item counts)
is a percentage (x100, as CoRE reports), with a 95% percentile-bootstrap interval resampled by
problem (`_stats.Bootstrap`, seeded by the benchmark's seed, 1000 resamples). Failed requests
and unparseable answers count as not correct everywhere.
Rows come from the metric modules, one per metric (its `METRIC`: how it makes its rows, and
each metric name's one-line meaning, which the report's glossary shows), in the order of
`METRIC_MODULES` (`_registry`); each module's docstring and row function say exactly what it
computes.
Adding a metric is its module (with its `METRIC`) and one line in `METRIC_MODULES`.
"""

from __future__ import annotations

from collections.abc import Iterable

from core_bench.benchmark import Benchmark
from core_bench.metrics._core import Budget, draw_budget, expected_strict
from core_bench.metrics._data import (
    Context,
    Graded,
    GradedSample,
    Metric,
    MutantOutputs,
    Traces,
)
from core_bench.metrics._faithfulness import claimed_trace, parse_steps
from core_bench.metrics._mutants import stored_mutant_outputs
from core_bench.metrics._probes import position_bucket
from core_bench.metrics._registry import MEANING, METRIC_MODULES, METRICS
from core_bench.metrics._stats import Bootstrap, mcnemar, percentile
from core_bench.schemas import MetricRow

__all__ = [
    "MEANING",
    "METRICS",
    "METRIC_MODULES",
    "Bootstrap",
    "Budget",
    "Graded",
    "GradedSample",
    "Metric",
    "MutantOutputs",
    "Traces",
    "claimed_trace",
    "draw_budget",
    "expected_strict",
    "mcnemar",
    "parse_steps",
    "percentile",
    "position_bucket",
    "summarize",
]


def summarize(
    samples: Iterable[Graded],
    benchmark: Benchmark,
    model: str = "",
    *,
    mutant_outputs: MutantOutputs | None = None,
    traces: Traces | None = None,
    seed: int | None = None,
) -> list[MetricRow]:
    """Every metric row of a run, per strategy (see the module docstring).

    Args:
        samples: the run's graded samples (one model).
        benchmark: the benchmark the run used.
        model: the model spec written into every row.
        mutant_outputs: (variant id, call index) -> repr of the mutant's output (default: the
            benchmark's `Variant.outputs` of its mutants).
        traces: (variant id, call index) -> the real trace rendered "core"; without it there
            are no trace-faithfulness rows.
        seed: seed of the bootstrap (default: the benchmark's seed).

    Returns:
        Rows sorted by strategy, then in the order of `METRIC_MODULES`.
    """
    bootstrap = Bootstrap(seed=benchmark.manifest.seed if seed is None else seed)
    if mutant_outputs is None:
        mutant_outputs = stored_mutant_outputs(benchmark)
    rows: list[MetricRow] = []
    contexts = Context.split(
        samples, benchmark, model, bootstrap, mutant_outputs=mutant_outputs, traces=traces
    )
    for ctx in contexts:
        for metric in METRICS:
            rows.extend(metric.rows(ctx))
    return rows

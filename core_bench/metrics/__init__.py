"""Metrics of a run: the rows of summary.json, per model and strategy.

    from core_bench.metrics import summarize

    rows = summarize(samples, benchmark, model="openai:gpt-4o-mini")

Every figure but mcnemar_p (a p-value in 0..1, no interval) and core_budget (mean item counts)
is a percentage (x100, as CoRE reports), with a 95% percentile-bootstrap interval resampled by
problem (`_stats.Bootstrap`, seeded by the benchmark's seed, 1000 resamples). Failed requests
and unparseable answers count as not correct everywhere.
Rows (metric: task, group; exact definitions in each function's docstring):

- accuracy: per task, group "all" / variant kind (`_accuracy.accuracy_rows`).
- pass@1, pass@5, pass@10: output and input prediction on originals, group "original"
  (`_passk.pass_rows`).
- robustness_gap, mcnemar_p: output and input, group "all" / transform
  (`_robustness.robustness_rows`).
- core_I, core_Is, I_call (task output), core_W, core_Ws, W_call (task probe), core_RCS,
  core_Cons, core_budget (task core): CoRE's eqs. 6-9 on a CoRE-sized budget drawn by a
  seeded rule (`_core.core_rows`; formulas and budget in `_core`'s docstring).
- IC (REval's incremental consistency score), IC_consistent, IC_all_wrong,
  IC_consistent_any_right (task core) (`_incremental.incremental_rows`).
- superficial_rate (groups any_probe_wrong, majority_probes_wrong) and coherence (four cells)
  (`_consistency.consistency_rows`).
- accuracy_by_kind, accuracy_by_dimension, accuracy_by_position (task probe)
  (`_probes.probe_rows`).
- mutant_sensitivity, mutant_stale (task output) (`_mutants.mutant_rows`), from the mutants'
  outputs the benchmark stores (`Variant.outputs`) or those given.
- trace_precision, trace_recall, trace_faithful, trace_first_divergence (task trace, strategy
  trace), only when the real traces are given (`_faithfulness.faithfulness_rows`);
  `core-bench grade` traces the calls in the sandbox.
"""

from __future__ import annotations

from collections.abc import Iterable

from core_bench.build import Benchmark
from core_bench.metrics._accuracy import accuracy_rows
from core_bench.metrics._consistency import consistency_rows
from core_bench.metrics._core import Budget, core_rows, draw_budget, expected_strict
from core_bench.metrics._data import Context, Graded, GradedSample
from core_bench.metrics._faithfulness import (
    Traces,
    claimed_trace,
    faithfulness_rows,
    parse_steps,
)
from core_bench.metrics._incremental import incremental_rows
from core_bench.metrics._mutants import MutantOutputs, mutant_rows, stored_mutant_outputs
from core_bench.metrics._passk import pass_rows
from core_bench.metrics._probes import position_bucket, probe_rows
from core_bench.metrics._robustness import robustness_rows
from core_bench.metrics._stats import Bootstrap, mcnemar, percentile
from core_bench.schemas import MetricRow

__all__ = [
    "Bootstrap",
    "Budget",
    "Graded",
    "GradedSample",
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
        Rows sorted by strategy, then in the order of the module docstring.
    """
    bootstrap = Bootstrap(seed=benchmark.manifest.seed if seed is None else seed)
    originals = {p.id: p.outputs for p in benchmark.problems}
    if mutant_outputs is None:
        mutant_outputs = stored_mutant_outputs(benchmark)
    rows: list[MetricRow] = []
    for ctx in Context.split(samples, benchmark, model, bootstrap):
        rows.extend(accuracy_rows(ctx))
        rows.extend(pass_rows(ctx))
        rows.extend(robustness_rows(ctx))
        rows.extend(core_rows(ctx))
        rows.extend(incremental_rows(ctx))
        rows.extend(consistency_rows(ctx))
        rows.extend(probe_rows(ctx))
        rows.extend(mutant_rows(ctx, mutant_outputs, originals))
        if traces is not None:
            rows.extend(faithfulness_rows(ctx, traces))
    return rows

"""The metric rows of a run's summary.json, computed the same way by `run` and `grade`.

Both give `summarize` the same inputs from the same tasks: the mutants' outputs are the
tasks' expected outputs (read from the benchmark's `Variant.outputs`, so nothing is run
again), and the real traces of the calls asked with the `trace` strategy are traced in the
sandbox. So `core-bench run` and `core-bench grade` write byte-identical summary.json files
from the same responses.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from core_bench.benchmark import Benchmark
from core_bench.metrics import Graded, MutantOutputs, Traces, summarize
from core_bench.runs._tasks import Task
from core_bench.runs._usage import truncation_rows
from core_bench.schemas import MetricRow
from tracer import SandboxPool


def mutant_outputs(tasks: Sequence[Task]) -> MutantOutputs:
    """(variant id, call index) -> the mutant's output, for the mutants' output and input
    tasks (a call without a literal result has no task, so no entry)."""
    return {
        (task.variant_id, task.call_index): task.output
        for task in tasks
        if task.variant_kind == "mutant" and task.kind in ("output", "input")
    }


def real_traces(tasks: Sequence[Task], pool: Callable[[], SandboxPool], timeout_s: float) -> Traces:
    """The real traces ("core" rendering) of the calls asked with the `trace` strategy."""
    wanted: dict[tuple[str, int], tuple[str, str]] = {}
    for task in tasks:
        if task.strategy == "trace" and task.kind in ("output", "input"):
            wanted[(task.variant_id, task.call_index)] = (task.code, task.call)
    if not wanted:
        return {}
    by_code: dict[str, list[tuple[tuple[str, int], str]]] = {}
    for key, (code, call) in wanted.items():
        by_code.setdefault(code, []).append((key, call))
    jobs = [(code, [call for _, call in items]) for code, items in by_code.items()]
    outcomes = pool().map(jobs, timeout_s=timeout_s, trace=True)
    found: dict[tuple[str, int], str] = {}
    for items, batch in zip(by_code.values(), outcomes, strict=True):
        for (key, _), outcome in zip(items, batch, strict=True):
            if outcome.trace is not None:
                found[key] = outcome.trace.render("core")
    return found


def summary_rows(
    samples: Sequence[Graded],
    benchmark: Benchmark,
    model: str,
    tasks: Sequence[Task],
    traces: Traces,
) -> list[MetricRow]:
    """Every metric row of a run (`core_bench.metrics.summarize`), mutant and trace rows
    included, then the share of responses cut at the token limit (`truncation_rows`).

    Args:
        samples: the run's samples, sorted by task id and sample index.
        benchmark: the run's benchmark.
        model: the model spec.
        tasks: the run's tasks (`make_tasks` with the run's options).
        traces: `real_traces(tasks, ...)`.
    """
    rows = summarize(
        samples, benchmark, model=model, mutant_outputs=mutant_outputs(tasks), traces=traces
    )
    return [*rows, *truncation_rows(samples, model)]

"""Grading a run again from its stored responses, without the model (`core-bench grade`).

Every response in the run's cache.sqlite is graded afresh by the current grader (so a fixed
grader or a new float tolerance applies to old runs), samples.jsonl is rewritten with the new
verdicts, and summary.json with the metrics computed as `run` computes them (`summary_rows`:
the same responses give a byte-identical summary.json). Samples whose request has no stored
response (failed requests) are kept as they were.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from core_bench._lock import exclusive
from core_bench.benchmark import Benchmark, load_benchmark
from core_bench.endpoint import Endpoint
from core_bench.errors import UsageError
from core_bench.runs._client import Sampling
from core_bench.runs._config import RunConfig
from core_bench.runs._rundir import (
    RunManifest,
    benchmark_ref,
    read_samples,
    sample_lines,
    write_atomic,
    write_manifest,
    write_summary,
)
from core_bench.runs._session import Session
from core_bench.runs._summary import summary_rows
from core_bench.schemas import MetricRow, Sample
from core_bench.stopping import run_stoppable
from core_bench.suites import select_suite
from tracer import SandboxPool


@dataclass(slots=True)
class GradeResult:
    """What a regrade did.

    Attributes:
        samples: every sample written, sorted by task id and sample index.
        metrics: the rows written to summary.json.
        regraded: samples graded again from a stored response.
        kept: samples kept as they were (no stored response).
        changed: regraded samples whose verdict changed.
    """

    samples: list[Sample]
    metrics: list[MetricRow]
    regraded: int
    kept: int
    changed: int


def _config(manifest: RunManifest, out: Path, bench: Path | None) -> RunConfig:
    data: dict[str, Any] = dict(manifest.config)
    names = {f.name for f in dataclasses.fields(Sampling)}
    sampling = Sampling(**{k: v for k, v in manifest.sampling.items() if k in names})
    names = {f.name for f in dataclasses.fields(Endpoint)}
    endpoint = Endpoint(**{k: v for k, v in data.items() if k in names})
    endpoint = replace(
        endpoint,
        base_urls=tuple(manifest.base_urls),
        api_key="unused",  # the model is never asked
    )
    fields = {f.name for f in dataclasses.fields(RunConfig)}
    data = {k: v for k, v in data.items() if k in fields}
    data.update(
        model=manifest.model,
        bench=bench if bench is not None else Path(data.get("bench") or manifest.benchmark.path),
        out=out,
        tasks=tuple(data.get("tasks", ())),
        strategies=tuple(data.get("strategies", ())),
        sampling=sampling,
        endpoint=endpoint,
        cache=Path(data["cache"]) if data.get("cache") else None,
    )
    return RunConfig(**data)


def regrade(
    out: Path | str,
    *,
    bench: Path | str | None = None,
    float_tolerance: float | None = None,
    pool: SandboxPool | None = None,
) -> GradeResult:
    """Grade a run directory again from its cached responses and rewrite its results.

    Args:
        out: the run directory (manifest.json, cache.sqlite, samples.jsonl).
        bench: the benchmark directory, when it moved since the run (default: the manifest's).
        float_tolerance: a new float tolerance (default: the run's).
        pool: the sandbox pool for input predictions (else one is made and closed).

    Raises:
        UsageError: not a run directory, the benchmark differs from the run's, or another
            process is writing the run directory.
    """
    out = Path(out)
    bench = Path(bench) if bench is not None else None
    path = out / "manifest.json"
    try:
        manifest = RunManifest.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(f"{out}: not a run directory ({path}: {exc})") from None
    with exclusive(out, "run or regrade"):
        config = _config(manifest, out, bench)
        if float_tolerance is not None:
            config = replace(config, float_tolerance=float_tolerance)
        try:
            benchmark = load_benchmark(config.bench)
        except ValueError as exc:
            raise UsageError(f"{exc} (pass --bench where the run's benchmark now is)") from None
        if benchmark_ref(benchmark).sha256 != manifest.benchmark.sha256:
            raise UsageError(f"{config.bench}: not the benchmark the run used (sha256 differs)")
        benchmark = select_suite(benchmark, config.suite, seed=config.suite_seed).benchmark
        old = read_samples(out / "samples.jsonl") if (out / "samples.jsonl").is_file() else []
        result = run_stoppable(_regrade(config, manifest, benchmark, old, pool))
        if float_tolerance is not None:
            manifest = manifest.model_copy(update={"config": config.public()})
            write_manifest(out, manifest)
        write_atomic(out / "samples.jsonl", sample_lines(result.samples))
        write_summary(out, manifest, result.metrics)
        return result


async def _regrade(
    config: RunConfig,
    manifest: RunManifest,
    benchmark: Benchmark,
    old: list[Sample],
    given_pool: SandboxPool | None,
) -> GradeResult:
    async with Session(config, benchmark, given_pool) as session:
        # Forget stored grades, so every stored response is graded again.
        found = session.found
        items = [
            (r, replace(found[r.key], verdict=None)) for r in session.requests if r.key in found
        ]
        fresh = await session.loop().grade_cached(items)
        traces = await session.traces()
    tasks = session.tasks
    before = {(s.task_id, s.sample_index): s for s in old}
    done = {(s.task_id, s.sample_index) for s in fresh}
    kept = [s for key, s in before.items() if key not in done]
    changed = sum(
        1
        for s in fresh
        if (s.task_id, s.sample_index) in before
        and before[(s.task_id, s.sample_index)].verdict != s.verdict
    )
    samples = sorted([*fresh, *kept], key=lambda s: (s.task_id, s.sample_index))
    rows = summary_rows(samples, benchmark, manifest.model, tasks, traces)
    return GradeResult(samples, rows, len(fresh), len(kept), changed)

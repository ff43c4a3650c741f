"""One run, start to end: plan the requests (`_session`), ask and grade them (`_loop`), and
write the run directory (manifest.json, samples.jsonl, summary.json).

Rerunning the same config resumes: cached responses are replayed first, and a request that
failed is asked again by the next run of the same command.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from core_bench._lock import exclusive
from core_bench.benchmark import Benchmark, load_benchmark
from core_bench.runs._config import RunConfig, resolve_endpoint
from core_bench.runs._loop import Loop
from core_bench.runs._rundir import (
    RunManifest,
    benchmark_ref,
    git_commit,
    package_versions,
    read_samples,
    write_manifest,
    write_summary,
)
from core_bench.runs._samplefile import read_graded
from core_bench.runs._session import Session
from core_bench.runs._summary import summary_rows
from core_bench.runs._usage import usage_summary
from core_bench.schemas import MetricRow, Sample
from core_bench.stopping import run_stoppable
from core_bench.suites import select_suite
from tracer import SandboxPool, default_isolation


@dataclass(slots=True, repr=False)
class RunResult:
    """What a run did.

    Attributes:
        out: the run directory.
        manifest: the manifest written.
        verdicts: how many samples got each verdict.
        metrics: the summary's rows.
        counts: tasks, samples, cached, requested, failed, retries.
        seconds: wall-clock time of the run.
    """

    out: Path
    manifest: RunManifest
    verdicts: dict[str, int]
    metrics: list[MetricRow]
    counts: dict[str, int]
    seconds: float

    @property
    def samples(self) -> list[Sample]:
        """Every sample, sorted by task id and sample index, read from samples.jsonl now (a
        run keeps none in memory; a later run into the same directory rewrites the file)."""
        return read_samples(self.out / "samples.jsonl")

    def __repr__(self) -> str:
        # asyncio formats the result of the run's task; the default repr of every sample
        # would cost as much as the rest of a replay.
        return f"RunResult(out={self.out!r}, counts={self.counts!r}, seconds={self.seconds:.3f})"


def run(
    config: RunConfig,
    *,
    benchmark: Benchmark | None = None,
    pool: SandboxPool | None = None,
    progress: bool = True,
) -> RunResult:
    """Run one model over a benchmark and write its run directory.

    Rerunning the same config resumes: cached responses are not requested again, and the run
    directory ends the same as an uninterrupted run's. The report is not part of a run (it
    views one): `core_bench.report.write_report` draws it, as `core-bench run` does after each.

    Args:
        config: what to run (see `RunConfig`).
        benchmark: the benchmark, when already loaded (else read from `config.bench`).
        pool: the sandbox pool for grading input predictions (else one is made and closed).
        progress: show a progress bar (on a terminal).

    Raises:
        ValueError: a bad model spec, or no API key for OpenAI.
        UsageError: another process is writing `config.out` (a run or a regrade).
    """
    with _fewer_collections(), exclusive(config.out, "run or regrade"):
        return run_stoppable(_run(config, benchmark, pool, progress))


@contextlib.contextmanager
def _fewer_collections() -> Iterator[None]:
    """Collect garbage less often while the run lasts: a run makes many small objects while
    a large benchmark is alive, and each young-generation collection walks them all (a
    quarter of a replay's time at the default threshold)."""
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], 50_000), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


async def _run(
    config: RunConfig,
    benchmark: Benchmark | None,
    given_pool: SandboxPool | None,
    progress: bool,
) -> RunResult:
    started = time.perf_counter()
    started_at = datetime.now(UTC).isoformat(timespec="seconds")
    config = resolve_endpoint(config)
    bench = benchmark if benchmark is not None else load_benchmark(config.bench)
    bench = select_suite(bench, config.suite, seed=config.suite_seed).benchmark
    out = config.out
    out.mkdir(parents=True, exist_ok=True)
    # The manifest a run that stops now leaves: Ctrl-C (the main task cancelled at its next
    # await), a cancelled task or a bug anywhere from the first manifest to the last never
    # leaves "running". None before the first manifest and after the last.
    stopped: Callable[[], RunManifest] | None = None
    try:
        async with Session(config, bench, given_pool, lookup=False) as session:
            backend = session.backend
            manifest = RunManifest(
                model=config.model,
                api=backend.api,
                base_urls=list(backend.base_urls),
                sampling={**asdict(config.sampling), "samples": config.samples},
                seed=config.sampling.seed,
                config=config.public(),
                benchmark=benchmark_ref(bench),
                package_versions=package_versions(),
                git_commit=git_commit(),
                started_at=started_at,
                isolation=given_pool.isolation if given_pool else default_isolation()[0],
            )
            write_manifest(out, manifest)
            loop = session.loop()
            task_count = len(session.tasks)
            stopped = functools.partial(_stopped, manifest, loop, task_count)
            total = len(session.requests)
            verdicts = await loop.run(session.requests, out, progress)
            session.requests = []  # answered: the samples are on disk
            traces = await session.traces()
        # What `summary_rows` reads of the tasks is the mutants' outputs: keep those only.
        tasks = [t for t in session.tasks if t.variant_kind == "mutant"]
        session.tasks = []
        graded = list(read_graded(out / "samples.jsonl"))  # the metrics read the samples back
        rows = summary_rows(graded, bench, config.model, tasks, traces)
        counts = {
            "tasks": task_count,
            "samples": total,
            "cached": loop.cached,
            "requested": loop.requested,
            "failed": loop.failed,
            "retries": backend.retries,
        }
        manifest = manifest.model_copy(
            update={
                "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
                "status": "incomplete" if loop.failed else "complete",
                "counts": counts,
                "usage": usage_summary(
                    graded, seconds=time.perf_counter() - started, requested=loop.requested
                ),
            }
        )
        await asyncio.sleep(0)  # a Ctrl-C during the metrics stops the run before it is done
        write_manifest(out, manifest)
        write_summary(out, manifest, rows)
        stopped = None
    except BaseException:
        if stopped is not None:
            write_manifest(out, stopped())
        raise
    return RunResult(out, manifest, dict(verdicts), rows, counts, time.perf_counter() - started)


def _stopped(manifest: RunManifest, loop: Loop, tasks: int) -> RunManifest:
    """The manifest of a run stopped before its end: what was done, and that it stopped."""
    counts = {
        "tasks": tasks,
        "cached": loop.cached,
        "requested": loop.requested,
        "failed": loop.failed,
    }
    return manifest.model_copy(
        update={
            "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "status": "interrupted",
            "counts": counts,
        }
    )


__all__ = ["RunResult", "run"]

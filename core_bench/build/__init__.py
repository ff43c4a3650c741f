"""`core-bench build`: a dataset of functions in, a benchmark directory out.

    result = build_benchmark(BuildOptions(dataset="bundled"), Path("bench"))

The directory holds problems.jsonl, variants.jsonl, probes.jsonl and manifest.json (DESIGN.md,
"Benchmark files"). Work is kept per problem as it finishes, so a killed build started again
with the same options resumes where it stopped.
"""

from __future__ import annotations

import os
import platform
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from core_bench._lock import exclusive
from core_bench.build._authors import CACHE_FILE, AuthorOptions, ask_authors, check_authors
from core_bench.build._finished import Done, Finished, finish
from core_bench.build._hash_stable import ALT_HASH_SEED
from core_bench.build._options import BuildOptions
from core_bench.build._parallel import build_guarded, build_in_processes
from core_bench.build._problem import build_problem, traced_output, variant_id
from core_bench.build._reimplement import ProblemExtras, extras_of, with_authored
from core_bench.build._store import WorkStore, write_benchmark
from core_bench.datasets import LoadedDataset, load_dataset, validate_problems
from core_bench.errors import UsageError
from core_bench.progress import Progress
from core_bench.schemas import Manifest, Problem, SkippedRow
from tracer import SandboxPool

__all__ = [
    "AuthorOptions",
    "BuildOptions",
    "BuildResult",
    "build_benchmark",
    "check_authors",
    "traced_output",
    "variant_id",
]


@dataclass(slots=True)
class BuildResult:
    """What a build wrote, with its counts and how long each stage took.

    Attributes:
        manifest: the manifest written.
        stage_seconds: wall-clock seconds of the load, validate, problems and write stages.
        problem_seconds: seconds spent in each stage of building a problem (calls, variants,
            traces, probes), summed over problems built in this run (threads overlap, so the
            sum exceeds the wall-clock time of the problems stage).
    """

    manifest: Manifest
    stage_seconds: dict[str, float] = field(default_factory=dict)
    problem_seconds: dict[str, float] = field(default_factory=dict)


def _versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for name in ("core-bench", "libcst", "pydantic", "openai"):
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def _counts(done: list[Done], skipped: list[SkippedRow], authored: Counter[str]) -> dict[str, int]:
    counts: Counter[str] = Counter({"problems": 0, "skipped": len(skipped)})
    counts.update(authored)
    for item in done:
        counts.update(item.tally)
    return dict(sorted(counts.items()))


def build_benchmark(
    options: BuildOptions,
    out: Path | str,
    *,
    pool: SandboxPool | None = None,
    on_skip: Callable[[SkippedRow], None] | None = None,
    processes: int | None = None,
    author_cache: Path | str | None = None,
) -> BuildResult:
    """Build the benchmark of `options` into the directory `out`.

    Bad dataset rows (and problems whose build failed) are reported through `on_skip` as they
    are found and listed in the manifest; the build goes on without them.

    Args:
        options: what to build.
        out: the benchmark directory (created; a build left unfinished there resumes).
        pool: the sandbox pool for validation (and for building with one process).
        on_skip: called with each skipped row as it is found.
        processes: build problems in this many processes (default: one per CPU), each with
            its own sandbox worker; 1 builds in this process with `pool`. The files do not
            depend on it.
        author_cache: the cache of `options.authors`' requests (default
            `out/authors.sqlite`).

    Raises:
        UsageError: an author spec is bad, OpenAI's API is used without a key, or another
            process is writing `out`.
    """
    out = Path(out)
    started = time.perf_counter()
    loaded = load_dataset(options.dataset)  # a bad dataset is refused before `out` exists
    with exclusive(out, "build"):
        return _build(options, loaded, out, started, pool, on_skip, processes, author_cache)


def _build(
    options: BuildOptions,
    loaded: LoadedDataset,
    out: Path,
    started: float,
    pool: SandboxPool | None,
    on_skip: Callable[[SkippedRow], None] | None,
    processes: int | None,
    author_cache: Path | str | None,
) -> BuildResult:
    author_cache = Path(author_cache) if author_cache is not None else None
    stages: dict[str, float] = {}
    rows = loaded.rows[: options.limit] if options.limit is not None else loaded.rows
    skipped = list(loaded.skipped)
    for bad in skipped:
        if on_skip:
            on_skip(bad)
    stages["load"] = time.perf_counter() - started
    own_pool = pool is None
    active = pool if pool is not None else SandboxPool()
    try:
        mark = time.perf_counter()
        kept, invalid = validate_problems(rows, active, timeout_s=options.timeout_s)
        for bad in invalid:
            skipped.append(bad)
            if on_skip:
                on_skip(bad)
        stages["validate"] = time.perf_counter() - mark
        extras = extras_of(loaded)
        authored: Counter[str] = Counter()
        if options.authors is not None:
            mark = time.perf_counter()
            try:
                asked = ask_authors(
                    [r.problem for r in kept],
                    options.authors,
                    seed=options.seed,
                    cache=author_cache or out / CACHE_FILE,
                )
            except ValueError as exc:
                raise UsageError(f"--authors: {exc}") from None
            extras, authored = with_authored(extras, asked.implementations), asked.counts
            stages["authors"] = time.perf_counter() - mark
        mark = time.perf_counter()
        store = WorkStore(out, options.fingerprint(loaded.info.sha256))
        count = processes if processes is not None else (os.cpu_count() or 1)
        done = _build_all([r.problem for r in kept], options, active, store, count, extras)
        stages["problems"] = time.perf_counter() - mark
    finally:
        if own_pool:
            active.close()
    for row, result in zip(kept, done, strict=True):
        for part in result.skipped:
            skipped.append(part)
            if on_skip:
                on_skip(part)
        if result.failure is not None:
            failed = SkippedRow(
                file=row.file, line=row.line, id=row.problem.id, reason=result.failure
            )
            skipped.append(failed)
            if on_skip:
                on_skip(failed)
    manifest = Manifest(
        dataset=loaded.info,
        seed=options.seed,
        options=options.as_dict(),
        package_versions=_versions(),
        counts=_counts(done, skipped, authored),
        skipped=skipped,
        built_at=datetime.now(UTC).isoformat(timespec="seconds"),
        isolation=active.isolation,
    )
    mark = time.perf_counter()
    write_benchmark(out, store, len(done), manifest)
    store.discard()
    stages["write"] = time.perf_counter() - mark
    per_problem: Counter[str] = Counter()
    for item in done:
        per_problem.update(item.seconds)
    return BuildResult(manifest, stages, dict(per_problem))


def _build_all(
    problems: list[Problem],
    options: BuildOptions,
    pool: SandboxPool,
    store: WorkStore,
    processes: int,
    extras: Mapping[str, ProblemExtras] | None = None,
) -> list[Done]:
    """Build every problem not already in `store`, saving each as it finishes.

    Only counts stay in memory: a CRUXEval-sized build holds hundreds of thousands of probes.
    """
    results: list[Done | None] = []
    for index in range(len(problems)):
        earlier = store.load(index)
        results.append(None if earlier is None else earlier.done)
    todo = [i for i, r in enumerate(results) if r is None]
    failures = sum(r is not None and r.failure is not None for r in results)
    with Progress("build", total=len(problems), unit="problem") as bar, ExitStack() as stack:
        bar.advance(len(problems) - len(todo))
        finished: Iterable[tuple[int, Finished]]
        if processes > 1 and len(todo) > 1:
            finished = build_in_processes(
                [(i, problems[i]) for i in todo], options, processes, extras
            )
        else:
            # Sandbox runs overlap with LibCST work when two problems are in flight per worker.
            executor = stack.enter_context(ThreadPoolExecutor(max_workers=max(2, 2 * pool.workers)))
            hash_pool = stack.enter_context(
                SandboxPool(workers=pool.workers, hash_seed=ALT_HASH_SEED)
            )

            def one(index: int) -> Finished:
                extra = extras.get(problems[index].id) if extras else None
                return finish(
                    build_guarded(
                        problems[index],
                        options,
                        pool,
                        build_problem,
                        extras=extra,
                        hash_pool=hash_pool,
                    )
                )

            finished = zip(todo, executor.map(one, todo), strict=True)
        for index, result in finished:
            store.save(index, result)
            results[index] = result.done  # its records stay on disk only
            failures += result.done.failure is not None
            bar.advance()
            bar.note(failed=failures)
    return [r for r in results if r is not None]

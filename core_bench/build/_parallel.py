"""Building problems in several processes: LibCST work is CPU-bound Python, so one process
cannot use more than one core however many sandbox workers it has."""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from core_bench.build._finished import Finished, finish
from core_bench.build._hash_stable import ALT_HASH_SEED
from core_bench.build._options import BuildOptions
from core_bench.build._problem import ProblemBuild, build_problem
from core_bench.build._reimplement import ProblemExtras
from core_bench.schemas import Problem
from tracer import SandboxPool, die_with_parent

# The sandbox pool of a build process, made by its initializer: a process pool's tasks cannot
# carry a pool of live worker processes with them.
_process_pool: SandboxPool | None = None
_hash_pool: SandboxPool | None = None


GC_THRESHOLDS = (20_000, 20, 10)
"""The cyclic garbage collector's thresholds in a build process (Python's are (700, 10, 10)).

A build process allocates millions of short-lived objects (LibCST nodes, trace steps, probe
readings) while it holds large caches and trees: with the default thresholds the collector
ran 1,800 times on 60 CRUXEval problems and took 16% of the process's CPU, most of it in full
collections that scanned the long-lived objects again and again. With these, and the objects
made at start-up frozen out of the collections, it took 5% for the same peak memory (timed
by `gc.callbacks` around `build_problem`: 1.7 of 10.3 CPU-s, then 0.4 of 9.2; peak 105 and
106 MiB). The build's files do not depend on it.
"""


def _collect_less() -> None:
    """Freeze what start-up made and make the collector run less often (`GC_THRESHOLDS`)."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def _start(workers: int, parent: int | None = None) -> None:
    global _process_pool, _hash_pool
    die_with_parent(parent)  # a build killed with SIGKILL takes its processes with it
    _process_pool = SandboxPool(workers=workers)
    _hash_pool = SandboxPool(workers=workers, hash_seed=ALT_HASH_SEED)
    _collect_less()


def build_guarded(
    problem: Problem,
    options: BuildOptions,
    pool: SandboxPool,
    build: Callable[..., ProblemBuild] = build_problem,
    extras: ProblemExtras | None = None,
    hash_pool: SandboxPool | None = None,
) -> ProblemBuild:
    """Build one problem; a bug on one problem becomes its failure, not the build's.

    `extras` (other implementations, imported probes) and `hash_pool` (workers under another
    hash seed) are passed on to `build` only when given.
    """
    given: dict[str, object] = {}
    if extras is not None:
        given["extras"] = extras
    if hash_pool is not None:
        given["hash_pool"] = hash_pool
    try:
        return build(problem, options, pool, **given)
    except Exception as exc:
        return ProblemBuild(problem, failure=f"build failed: {type(exc).__name__}: {exc}")


def _build_in_process(
    problem: Problem, options: BuildOptions, extras: ProblemExtras | None = None
) -> Finished:
    assert _process_pool is not None, "the build process was started without its initializer"
    return finish(
        build_guarded(
            problem, options, _process_pool, build_problem, extras=extras, hash_pool=_hash_pool
        )
    )


def build_in_processes(
    items: list[tuple[int, Problem]],
    options: BuildOptions,
    processes: int,
    extras: Mapping[str, ProblemExtras] | None = None,
) -> Iterator[tuple[int, Finished]]:
    """Yield `(index, finished)` as problems finish, over `processes` processes with one
    sandbox worker each. At most two problems per process are queued, so a killed build has
    little work in flight. Each process serialises its records (`finish`): the parent only
    writes their lines."""
    context = multiprocessing.get_context("spawn")  # the parent holds threads and pipes
    with ProcessPoolExecutor(
        max_workers=processes, mp_context=context, initializer=_start, initargs=(1, os.getpid())
    ) as executor:
        todo = iter(items)
        running: dict[Future[Finished], int] = {}

        def refill() -> None:
            while len(running) < 2 * processes:
                item = next(todo, None)
                if item is None:
                    return
                extra = extras.get(item[1].id) if extras else None
                future = executor.submit(_build_in_process, item[1], options, extra)
                running[future] = item[0]

        try:
            refill()
            while running:
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    index = running.pop(future)
                    yield index, future.result()
                refill()
        except BaseException:  # stopped (Ctrl-C, SIGTERM): start none of the queued problems
            executor.shutdown(cancel_futures=True)
            raise

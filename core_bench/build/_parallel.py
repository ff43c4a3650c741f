"""Building problems in several processes: LibCST work is CPU-bound Python, so one process
cannot use more than one core however many sandbox workers it has."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from core_bench.build._hash_stable import ALT_HASH_SEED
from core_bench.build._options import BuildOptions
from core_bench.build._problem import ProblemBuild, build_problem
from core_bench.schemas import Problem
from tracer import SandboxPool

# The sandbox pool of a build process, made by its initializer: a process pool's tasks cannot
# carry a pool of live worker processes with them.
_process_pool: SandboxPool | None = None
_hash_pool: SandboxPool | None = None


def _start(workers: int) -> None:
    global _process_pool, _hash_pool
    _process_pool = SandboxPool(workers=workers)
    _hash_pool = SandboxPool(workers=workers, hash_seed=ALT_HASH_SEED)


def build_guarded(
    problem: Problem,
    options: BuildOptions,
    pool: SandboxPool,
    build: Callable[..., ProblemBuild] = build_problem,
    hash_pool: SandboxPool | None = None,
) -> ProblemBuild:
    """Build one problem; a bug on one problem becomes its failure, not the build's.
    `hash_pool` (workers under another hash seed) is passed on to `build` when given."""
    try:
        if hash_pool is not None:
            return build(problem, options, pool, hash_pool)
        return build(problem, options, pool)
    except Exception as exc:
        return ProblemBuild(problem, failure=f"build failed: {type(exc).__name__}: {exc}")


def _build_in_process(problem: Problem, options: BuildOptions) -> ProblemBuild:
    assert _process_pool is not None, "the build process was started without its initializer"
    return build_guarded(problem, options, _process_pool, build_problem, _hash_pool)


def build_in_processes(
    items: list[tuple[int, Problem]], options: BuildOptions, processes: int
) -> Iterator[tuple[int, ProblemBuild]]:
    """Yield `(index, build)` as problems finish, over `processes` processes with one sandbox
    worker each. At most two problems per process are queued, so a killed build has little
    work in flight."""
    context = multiprocessing.get_context("spawn")  # the parent holds threads and pipes
    with ProcessPoolExecutor(
        max_workers=processes, mp_context=context, initializer=_start, initargs=(1,)
    ) as executor:
        todo = iter(items)
        running: dict[Future[ProblemBuild], int] = {}

        def refill() -> None:
            while len(running) < 2 * processes:
                item = next(todo, None)
                if item is None:
                    return
                running[executor.submit(_build_in_process, item[1], options)] = item[0]

        refill()
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                index = running.pop(future)
                yield index, future.result()
            refill()

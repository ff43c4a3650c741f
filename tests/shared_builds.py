"""Benchmarks built once per test session, shared by every pytest-xdist worker.

Each xdist worker is its own process with its own session fixtures; a build written to disk is
made once for the whole run instead: under `shared_root` (the run's base temporary directory,
the parent of each worker's), by the first worker that asks for it, while the others wait on a
file lock and then read it. Without xdist `shared_root` is the session's base directory.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core_bench.build import BuildOptions


def shared_root(basetemp: Path) -> Path:
    """The directory shared by all workers of this run: `basetemp`'s parent under xdist
    (`.../pytest-N/popen-gw0` -> `.../pytest-N`), `basetemp` itself otherwise."""
    return Path(basetemp).parent if os.environ.get("PYTEST_XDIST_WORKER") else Path(basetemp)


def small_benchmark(root: Path) -> Path:
    """A small benchmark (3 bundled problems, 2 variants and 1 mutant each), built once per
    test session under `root` (pytest's base temporary directory; its parent, shared by every
    worker, under pytest-xdist) and shared by test files."""
    from core_bench.build import BuildOptions, build_benchmark

    options = BuildOptions(limit=3, variants=2, mutants=1, calls=3, probes=2)
    out = shared_root(Path(root)) / "runs-small-benchmark"
    return build_shared(out, lambda directory: build_benchmark(options, directory))


def build_shared(out: Path, build: Callable[[Path], object]) -> Path:
    """Run `build(out)` unless another worker of this run already did; returns `out`.

    A build is complete once `out/manifest.json` exists (the build writes it last); a
    directory left without one (a worker that failed mid-build) is built again.
    """
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out.parent / f"{out.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not (out / "manifest.json").is_file():
                shutil.rmtree(out, ignore_errors=True)
                build(out)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return out


def cruxeval_build_options(dataset: str) -> BuildOptions:
    """The options of the one CRUXEval-wide build the slow tests share (`build_once`): every
    800 problems, with fewer variants, calls and probes than the default build."""
    from core_bench.build import BuildOptions

    return BuildOptions(dataset=dataset, variants=2, mutants=1, calls=3, probes=2)

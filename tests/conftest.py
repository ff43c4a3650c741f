"""Settings shared by every test.

Tests that run models write their reports without plots and without running the reference
baselines, unless a test asks for them (`plots=True`, `baselines=True`): drawing was 69% of a
small run's time (issue 12). The variables are inherited by CLI subprocesses too.

The suite runs on two pytest-xdist workers by default (`-n auto`, at most 2: pyproject's
addopts; `-n 0` runs it in one process). Builds on disk are made once for the whole run and
shared by the workers (`shared_builds`); tests that share an expensive fixture held in
memory run on one worker (`--dist loadgroup`, groups set below), so it is made once.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from hashlib import sha256
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from shared_builds import build_shared, shared_root

if TYPE_CHECKING:
    from core_bench.build import BuildOptions

os.environ.setdefault("CORE_BENCH_NO_PLOTS", "1")
os.environ.setdefault("CORE_BENCH_NO_BASELINES", "1")

MAX_WORKERS = 2
"""More workers than 2 would build each worker's session fixtures (sandbox pools, agent runs)
once more for little gain: the suite's long fixtures are already split between two."""

SESSION_GROUPS = ("agent_runs", "cruxeval_generation")
"""Session fixtures held in memory and expensive to make: every test that uses one runs on the
same worker."""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: one worker per core, at most MAX_WORKERS."""
    return max(1, min(MAX_WORKERS, os.cpu_count() or 1))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Group tests for `--dist loadgroup`: those that use a fixture of SESSION_GROUPS by its
    name, the others that use a module-scoped fixture by their module, so that the fixture is
    made on one worker only. Without xdist the marks do nothing."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        names = set(info.names_closure)
        group = next((name for name in SESSION_GROUPS if name in names), None)
        if group is None and any(
            definition.scope in ("module", "class")
            for name in names
            for definition in info.name2fixturedefs.get(name, ())
        ):
            group = item.nodeid.split("::", 1)[0]
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture(scope="session")
def build_once(tmp_path_factory: pytest.TempPathFactory) -> Callable[[BuildOptions], Path]:
    """Build a benchmark once per run per set of options: `build_once(options)` returns the
    directory of the build, shared by every test (and every xdist worker) that asks for the
    same options."""
    from core_bench.build import build_benchmark  # after the settings above

    root = shared_root(tmp_path_factory.getbasetemp())

    def build(options: BuildOptions) -> Path:
        key = sha256(repr(options).encode()).hexdigest()[:16]
        return build_shared(root / f"build-{key}", lambda out: build_benchmark(options, out))

    return build

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

import json
import os
import shutil
import tempfile
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


GROUPS_DIR = "CORE_BENCH_TEST_GROUPS"
"""Environment variable naming the directory where each xdist worker writes the group of every
test it collected, for the controller's scheduler (it collects nothing itself)."""


def pytest_configure(config: pytest.Config) -> None:
    """On the xdist controller: a directory for the workers' groups (inherited by them)."""
    if config.getoption("dist", "no") != "no" and not os.environ.get("PYTEST_XDIST_WORKER"):
        os.environ[GROUPS_DIR] = tempfile.mkdtemp(prefix="core-bench-groups-")


def pytest_unconfigure(config: pytest.Config) -> None:
    if not os.environ.get("PYTEST_XDIST_WORKER") and os.environ.get(GROUPS_DIR):
        shutil.rmtree(os.environ.pop(GROUPS_DIR), ignore_errors=True)


def _group(item: pytest.Item) -> str | None:
    """The group of a test: a fixture of SESSION_GROUPS it uses, else its module when it uses a
    module- or class-scoped fixture, else none (the test is scheduled on its own)."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    names = set(info.names_closure)
    group = next((name for name in SESSION_GROUPS if name in names), None)
    if group is None and any(
        definition.scope in ("module", "class")
        for name in names
        for definition in info.name2fixturedefs.get(name, ())
    ):
        group = item.nodeid.split("::", 1)[0]
    return group


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """On an xdist worker: write the group of every test for the controller's scheduler."""
    worker, where = os.environ.get("PYTEST_XDIST_WORKER"), os.environ.get(GROUPS_DIR)
    if not (worker and where):
        return
    groups = {item.nodeid: group for item in items if (group := _group(item)) is not None}
    partial = Path(where) / f"{worker}.json.partial"
    partial.write_text(json.dumps(groups), encoding="utf-8")
    os.replace(partial, partial.with_suffix(""))


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """`--dist loadgroup` with the groups of `_group` (xdist's own reads `xdist_group` marks
    through a node id suffix that pytest 9.2 no longer lets it set): a group's tests run on
    one worker, one after the other; tests of no group are spread one by one."""
    if config.getoption("dist") != "loadgroup" or not os.environ.get(GROUPS_DIR):
        return None
    from xdist.scheduler import LoadScopeScheduling

    where = Path(os.environ[GROUPS_DIR])

    class FixtureGroups(LoadScopeScheduling):
        groups: dict[str, str] | None = None

        def _split_scope(self, nodeid: str) -> str:
            if self.groups is None:  # the workers wrote them before reporting their collection
                self.groups = {}
                for path in where.glob("*.json"):
                    self.groups.update(json.loads(path.read_text(encoding="utf-8")))
            return self.groups.get(nodeid, nodeid)

    return FixtureGroups(config, log)


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

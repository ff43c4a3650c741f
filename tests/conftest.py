"""Settings shared by every test.

Tests that run models write their reports without plots and without running the reference
baselines, unless a test asks for them (`plots=True`, `baselines=True`): drawing was 69% of a
small run's time (issue 12). The variables are inherited by CLI subprocesses too.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from core_bench.build import BuildOptions

os.environ.setdefault("CORE_BENCH_NO_PLOTS", "1")
os.environ.setdefault("CORE_BENCH_NO_BASELINES", "1")


@pytest.fixture(scope="session")
def build_once(tmp_path_factory: pytest.TempPathFactory) -> Callable[[BuildOptions], Path]:
    """Build a benchmark once per session per set of options: `build_once(options)` returns
    the directory of the build, shared by every test that asks for the same options."""
    from core_bench.build import build_benchmark  # after the settings above

    built: dict[BuildOptions, Path] = {}

    def build(options: BuildOptions) -> Path:
        if options not in built:
            out = tmp_path_factory.mktemp("build")
            build_benchmark(options, out)
            built[options] = out
        return built[options]

    return build

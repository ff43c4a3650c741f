"""Session fixtures of the core_bench tests: the small benchmark, one sandbox pool, and the
reference agents' runs on it.

`bench` is `fake_openai.small_benchmark` (3 bundled problems), built and loaded once per
session; `pool` is one two-worker sandbox pool for every test that grades or runs code and
does not need a pool of its own (another hash seed, bubblewrap on and off); `agent_runs` are
the four reference agents with every strategy on `bench`, read by the run and plot tests. A
file that defines a fixture of the same name uses its own.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fake_openai import small_benchmark

from core_bench.build import Benchmark, load_benchmark
from core_bench.runs import STRATEGIES, RunConfig, RunResult, run
from tracer import SandboxPool


@pytest.fixture(scope="session")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Benchmark:
    return load_benchmark(small_benchmark(tmp_path_factory.getbasetemp()))


@pytest.fixture(scope="session")
def pool() -> Iterator[SandboxPool]:
    with SandboxPool(workers=2) as shared:
        yield shared


@pytest.fixture(scope="session")
def agent_runs(
    bench: Benchmark, pool: SandboxPool, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, RunResult]:
    """The four reference agents run on `bench` with every strategy, once per session."""
    root = tmp_path_factory.mktemp("agents")
    done = {}
    for agent in ("oracle", "superficial", "style-biased", "echo"):
        config = RunConfig(
            model=f"ref:{agent}", bench=bench.root, out=root / agent, strategies=STRATEGIES
        )
        done[agent] = run(config, benchmark=bench, pool=pool, progress=False)
    return done

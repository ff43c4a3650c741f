"""Session fixtures of the core_bench tests: the small benchmark, one sandbox pool, and the
reference agents' runs on it.

`bench` is `shared_builds.small_benchmark` (3 bundled problems), built and loaded once per
session; `pool` is one two-worker sandbox pool for every test that grades or runs code and
does not need a pool of its own (another hash seed, bubblewrap on and off); `agent_runs` are
the four reference agents with every strategy on `bench`, read by the run and plot tests. A
file that defines a fixture of the same name uses its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest
from shared_builds import small_benchmark

from core_bench.benchmark import Benchmark, load_benchmark
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
def run_agents(
    pool: SandboxPool, tmp_path_factory: pytest.TempPathFactory
) -> Callable[..., dict[str, RunResult]]:
    """`run_agents(bench, agents, **config)` runs each reference agent on `bench` (RunConfig
    fields in `config`) into a fresh directory (`run` writes no report): agent -> result."""

    def run_each(bench: Benchmark, agents: Iterable[str], **config: Any) -> dict[str, RunResult]:
        root = tmp_path_factory.mktemp("agents")
        return {
            agent: run(
                RunConfig(model=f"ref:{agent}", bench=bench.root, out=root / agent, **config),
                benchmark=bench,
                pool=pool,
                progress=False,
            )
            for agent in agents
        }

    return run_each


@pytest.fixture(scope="session")
def agent_runs(
    bench: Benchmark, run_agents: Callable[..., dict[str, RunResult]]
) -> dict[str, RunResult]:
    """The four reference agents run on `bench` with every strategy, once per session."""
    return run_agents(
        bench, ("oracle", "superficial", "style-biased", "echo"), strategies=STRATEGIES
    )

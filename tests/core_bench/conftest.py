"""Session fixtures of the core_bench tests: the small benchmark and one sandbox pool.

`bench` is `fake_openai.small_benchmark` (3 bundled problems), built and loaded once per
session; `pool` is one two-worker sandbox pool for every test that grades or runs code and
does not need a pool of its own (another hash seed, bubblewrap on and off). A file that
defines a fixture of the same name uses its own.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fake_openai import small_benchmark

from core_bench.build import Benchmark, load_benchmark
from tracer import SandboxPool


@pytest.fixture(scope="session")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Benchmark:
    return load_benchmark(small_benchmark(tmp_path_factory.getbasetemp()))


@pytest.fixture(scope="session")
def pool() -> Iterator[SandboxPool]:
    with SandboxPool(workers=2) as shared:
        yield shared

"""Shared fixtures of the transform tests.

`cruxeval_generation` generates the variants of all 800 CRUXEval problems once per session,
with the build's default settings (4 composed variants, 4 singles, 2 mutants, no distractors);
every CRUXEval-wide check of the generated variants shares it. Skipped when
`CORE_BENCH_CRUXEVAL` is unset.

A test that takes `case` runs once per case of its module's `CASES` table
(`transform_cases`), so a module checks its whole table with `def test_case(case)`.
"""

from __future__ import annotations

import os

import pytest
from cruxeval_generation import Generation, generate


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    table = getattr(metafunc.module, "CASES", None)
    if "case" in metafunc.fixturenames and table is not None:
        metafunc.parametrize("case", table)


@pytest.fixture(scope="session")
def cruxeval_generation() -> Generation:
    path = os.environ.get("CORE_BENCH_CRUXEVAL")
    if not path:
        pytest.skip("CORE_BENCH_CRUXEVAL is not set (path to cruxeval.jsonl)")
    return generate(path)

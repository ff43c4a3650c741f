"""Shared fixtures of the transform tests.

`cruxeval_generation` generates the variants of all 800 CRUXEval problems once per session,
with the build's default settings (4 composed variants, 4 singles, 2 mutants, no distractors);
every CRUXEval-wide check of the generated variants shares it. Skipped when
`CORE_BENCH_CRUXEVAL` is unset.
"""

from __future__ import annotations

import os

import pytest
from cruxeval_generation import Generation, generate


@pytest.fixture(scope="session")
def cruxeval_generation() -> Generation:
    path = os.environ.get("CORE_BENCH_CRUXEVAL")
    if not path:
        pytest.skip("CORE_BENCH_CRUXEVAL is not set (path to cruxeval.jsonl)")
    return generate(path)

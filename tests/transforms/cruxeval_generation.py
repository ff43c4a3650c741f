"""The CRUXEval-wide generation shared by the CRUXEval checks (see conftest.py)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

from transforms._generate import GenerationReport, Problem, generate_variants_many

#: The build's defaults (core_bench.build.BuildOptions): composed variants, singles, mutants.
K = 4
SINGLES = 4
MUTANTS = 2


@dataclass
class Generation:
    """Variants of every CRUXEval problem, in dataset order."""

    problems: list[Problem]
    ids: list[str]
    reports: list[GenerationReport]
    seconds: float


def generate(path: str) -> Generation:
    """Generate the variants of every problem of `path` (a cruxeval.jsonl)."""
    rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()]
    problems = [Problem(row["code"], (f"f({row['input']})",)) for row in rows]
    start = time.perf_counter()
    reports = generate_variants_many(problems, k=K, singles=SINGLES, mutants=MUTANTS, seed=0)
    seconds = time.perf_counter() - start
    return Generation(problems, [row["id"] for row in rows], reports, seconds)

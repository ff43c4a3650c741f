"""Every CRUXEval sample traces without error and gives the dataset's output."""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path

import pytest

from tracer import trace

CRUXEVAL = os.environ.get("CORE_BENCH_CRUXEVAL")


@pytest.mark.slow
@pytest.mark.skipif(not CRUXEVAL, reason="CORE_BENCH_CRUXEVAL is not set")
def test_all_cruxeval_samples_trace_to_their_outputs() -> None:
    rows = [json.loads(line) for line in Path(str(CRUXEVAL)).read_text().splitlines() if line]
    assert len(rows) == 800
    failures = []
    for row in rows:
        t = trace(row["code"], f"f({row['input']})")
        if t.exception or t.truncated or t.result is None:
            failures.append((row["id"], t.exception, t.truncated))
        elif ast.literal_eval(t.result) != ast.literal_eval(row["output"]):
            failures.append((row["id"], t.result, row["output"]))
        assert t.steps and t.steps[0].event == "call" and t.steps[0].depth == 0
    assert failures == []

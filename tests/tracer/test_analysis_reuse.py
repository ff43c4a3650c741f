"""A code's `Analysis` (compiled module, code map, line effects) is computed once and shared
by every traced call of the code, in a worker and in `trace(..., analysis=...)`: the traces
are exactly those of analysing the code afresh for each call, and tracing leaves the analysis
as it was."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest

from tracer import SandboxPool, TraceError
from tracer._trace import analyse, trace

ROOT = Path(__file__).resolve().parents[2]
CRUXEVAL = os.environ.get("CORE_BENCH_CRUXEVAL")

SHARED_STATE = """\
seen = []

def f(xs, k):
    seen.append(k)
    total = 0
    for i, x in enumerate(xs):
        if x % k == 0:
            total += x
        elif i > 2:
            break
    return total, len(seen)
"""


def _cases(path: Path, limit: int | None = None) -> list[tuple[str, list[str]]]:
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines()[:limit]:
        row = json.loads(line)
        calls = row.get("calls") or [f"f({row['input']})"]
        cases.append((row["code"], [str(c) for c in calls]))
    return cases


def _same_traces(code: str, calls: list[str]) -> None:
    analysis = analyse(code)
    before = copy.deepcopy((analysis.code_map, analysis.effects))
    for call in calls:
        try:
            fresh = trace(code, call).to_json()
        except TraceError as exc:
            with pytest.raises(TraceError, match=str(exc).split(":")[0]):
                trace(code, call, analysis=analysis)
            continue
        assert trace(code, call, analysis=analysis).to_json() == fresh, (code, call)
    assert (analysis.code_map, analysis.effects) == before  # tracing changed nothing of it


def test_shared_analysis_gives_the_fresh_traces_on_module_state_and_loops() -> None:
    _same_traces(SHARED_STATE, ["f([3, 6, 7, 9, 12], 3)", "f([1, 2], 2)", "f([], 5)", "f(1, 1)"])


def test_shared_analysis_gives_the_fresh_traces_on_every_bundled_problem() -> None:
    cases = _cases(ROOT / "data" / "bundled.jsonl")
    assert len(cases) > 200
    for code, calls in cases:
        _same_traces(code, calls)


@pytest.mark.slow
@pytest.mark.skipif(not CRUXEVAL, reason="CORE_BENCH_CRUXEVAL is not set")
def test_shared_analysis_gives_the_fresh_traces_on_every_cruxeval_problem() -> None:
    for code, calls in _cases(Path(str(CRUXEVAL))):
        _same_traces(code, calls)


def test_a_worker_analyses_once_per_request_and_traces_as_in_process() -> None:
    calls = ["f([3, 6, 7, 9, 12], 3)", "f([1, 2], 2)", "f('x', 2)", "f([4], 4)"]
    with SandboxPool(workers=1) as pool:
        outcomes = pool.run_batch(SHARED_STATE, calls, trace=True)
        broken = pool.run_batch("def f(:\n", ["f()", "f()"], trace=True)
    for call, outcome in zip(calls, outcomes, strict=True):
        assert outcome.trace is not None
        assert outcome.trace.to_json() == trace(SHARED_STATE, call).to_json()
    # code that does not parse fails each call alike, as when every call analysed it
    assert [o.status for o in broken] == ["exception", "exception"]
    assert broken[0].exception == broken[1].exception and "parse" in str(broken[0].exception)

"""The exception_line and call_count kinds on real functions, their answers re-derived by a
`sys.settrace` hook written here (not the `tracer` package)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from programs import asked_variables, derived

from core_bench.probes import KINDS, candidate_probes
from tracer import trace

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = ROOT / "data" / "bundled.jsonl"
CRUXEVAL = os.environ.get("CORE_BENCH_CRUXEVAL")
FILE = "<rederive>"


def events(code: str, call: str) -> list[tuple[str, str, int]]:
    """(event, function or exception name, line) of every call and exception of the code."""
    namespace: dict[str, Any] = {}
    exec(compile(code, FILE, "exec"), namespace)
    seen: list[tuple[str, str, int]] = []

    def hook(frame: FrameType, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename != FILE:
            return None
        if event == "call":
            seen.append(("call", frame.f_code.co_name, frame.f_lineno))
        elif event == "exception":
            seen.append(("exception", arg[0].__name__, frame.f_lineno))
        return hook

    sys.settrace(hook)
    try:
        eval(compile(call, FILE + "call", "eval"), namespace)
    except Exception:
        pass
    finally:
        sys.settrace(None)
    return seen


def cruxeval_row(sample: str) -> dict[str, str]:
    rows = [json.loads(line) for line in Path(str(CRUXEVAL)).read_text().splitlines() if line]
    return next(r for r in rows if r["id"] == sample)


def test_call_counts_of_bundled_helpers_match_an_independent_hook() -> None:
    checked = 0
    for line in BUNDLED.read_text().splitlines():
        row = json.loads(line)
        for index, call in enumerate(row["calls"]):
            t = trace(row["code"], call)
            for probe in candidate_probes(
                row["id"], "v", row["code"], index, t, kinds=["call_count"]
            ):
                name = probe.anchor.variable
                count = sum(1 for e in events(row["code"], call) if e[:2] == ("call", name))
                assert probe.answer == repr(count), (row["id"], call, probe)
                assert probe.answer_type == "int"
                checked += 1
    assert checked >= 10


@pytest.mark.skipif(not CRUXEVAL, reason="CORE_BENCH_CRUXEVAL is not set")
def test_recursive_calls_count_the_entry_call() -> None:
    row = cruxeval_row("sample_531")
    call = f"f({row['input']})"
    probes = candidate_probes("p", "v", row["code"], 0, trace(row["code"], call))
    counts = [p for p in probes if p.kind == "call_count"]
    assert [p.anchor.variable for p in counts] == ["f"]
    assert counts[0].answer == repr(sum(1 for e in events(row["code"], call) if e[0] == "call"))
    assert "itself counts as the 1st" in counts[0].question


@pytest.mark.skipif(not CRUXEVAL, reason="CORE_BENCH_CRUXEVAL is not set")
def test_a_caught_exception_is_asked_with_its_line() -> None:
    code = cruxeval_row("sample_81")["code"]  # `list(dic).index(inx)` inside a `try`
    call = "f({'Bulls': 23, 'White Sox': 45}, 'Cubs')"
    probes = candidate_probes("p", "v", code, 0, trace(code, call), kinds=["exception_line"])
    first = next(e for e in events(code, call) if e[0] == "exception")
    assert [p.answer for p in probes] == [repr(first[1:])]
    assert first[1] == "ValueError"
    quiet = "f({'Bulls': 23, 'White Sox': 45}, 'Bulls')"  # raises nothing: nothing asked
    assert candidate_probes("p", "v", code, 0, trace(code, quiet), kinds=["exception_line"]) == []


HELPER_ONCE = (
    "def helper(s):\n"  # 1
    "    return s.strip()\n"  # 2
    "\n"  # 3
    "def f(s, n):\n"  # 4
    "    t = helper(s)\n"  # 5
    "    out = []\n"  # 6
    "    for i in range(n):\n"  # 7
    "        out.append(twice(t, i))\n"  # 8
    "    return out\n"  # 9
    "\n"  # 10
    "def twice(t, i):\n"  # 11
    "    return t * i\n"  # 12
)


def test_a_helper_called_once_from_straight_line_code_is_not_asked() -> None:
    call = "f(' ab ', 3)"
    found = derived(HELPER_ONCE, call, "call_count")
    assert found == {"helper": ("1", "1"), "twice": ("3", None)}  # in a loop: running tells
    assert asked_variables(HELPER_ONCE, call, "call_count") == {"twice"}


def test_the_new_kinds_have_blind_rules_and_rows() -> None:
    for kind in ("exception_line", "call_count"):
        row = KINDS[kind]
        assert row.blind in row.guesses and row.static is not None and row.keep_guessed < 1

"""The packed trace a worker sends: read back, it is the trace `Trace.to_json` round-trips to,
and anything a worker could not have packed is refused."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tracer import SandboxPool, Trace, trace
from tracer._packed import pack_trace, reply_outcome, unpack_trace

CRUXEVAL = os.environ.get("CORE_BENCH_CRUXEVAL")

CASES = [
    # locals that change, appear and stay; a loop's iterations; branches
    (
        "def f(xs):\n"
        "    total = 0\n"
        "    for i, x in enumerate(xs):\n"
        "        if x % 2:\n"
        "            total += x\n"
        "        seen = i\n"
        "    return total",
        "f([1, 2, 3, 4, 5])",
    ),
    # recursion: frames interleave, each with its own last locals
    ("def f(n):\n    if n < 2:\n        return n\n    return f(n - 1) + f(n - 2)", "f(5)"),
    # a helper called from a loop, a generator resumed (one frame id across resumptions)
    (
        "def g(n):\n    for i in range(n):\n        yield i * i\n"
        "def h(a):\n    return a + 1\n"
        "def f(n):\n    out = []\n    for v in g(n):\n        out.append(h(v))\n    return out",
        "f(4)",
    ),
    # a variable deleted and bound again; an exception raised and caught; opaque values
    (
        "def f(s):\n    x = 1\n    del x\n    x = object()\n    try:\n        int(s)\n"
        "    except ValueError as e:\n        msg = str(e)\n    return [x is None, msg]",
        "f('abc')",
    ),
    # the call raises; nested comprehension frames; non-ASCII text
    ("def f(d):\n    keys = [k for k in d]\n    return d['caf\u00e9'] / len(keys)", "f({'a': 1})"),
    # cut by the step limit
    ("def f():\n    i = 0\n    while True:\n        i += 1", "f()"),
]


def _round_trip(t: Trace) -> Trace:
    return Trace.from_json(json.loads(json.dumps(t.to_json())))


def _packed_round_trip(t: Trace) -> Trace:
    return unpack_trace(json.loads(json.dumps(pack_trace(t))), t.code, t.call)


@pytest.mark.parametrize(("code", "call"), CASES, ids=range(len(CASES)))
def test_a_packed_trace_reads_back_as_the_json_round_trip(code: str, call: str) -> None:
    t = trace(code, call, max_steps=200)
    assert len(t.steps) > 3
    assert _packed_round_trip(t) == _round_trip(t)


def test_a_packed_trace_is_smaller() -> None:
    t = trace(*CASES[0])
    packed = len(json.dumps(pack_trace(t)))
    assert packed < 0.6 * len(json.dumps(t.to_json()))


@pytest.mark.slow
@pytest.mark.skipif(not CRUXEVAL, reason="CORE_BENCH_CRUXEVAL is not set")
def test_every_cruxeval_trace_reads_back_as_the_json_round_trip() -> None:
    rows = [json.loads(line) for line in Path(str(CRUXEVAL)).read_text().splitlines() if line]
    for row in rows:
        t = trace(row["code"], f"f({row['input']})")
        assert _packed_round_trip(t) == _round_trip(t), row["id"]


def _packed(**changes: Any) -> dict[str, Any]:
    base = pack_trace(trace(*CASES[0]))
    base.update(changes)
    return json.loads(json.dumps(base))


def _with_step(index: int, row: list[Any]) -> dict[str, Any]:
    data = _packed()
    data["steps"][index] = row
    return data


@pytest.mark.parametrize(
    "data",
    [
        [],
        _packed(steps={}),
        _packed(result=1),
        _packed(truncated=0),
        _packed(args_after=[1]),
        _with_step(0, ["call", "f", 1, 0, 1]),  # too short
        _with_step(0, ["jump", "f", 1, 0, 1, {}]),
        _with_step(0, ["call", "f", True, 0, 1, {}]),  # a boolean is no frame id
        _with_step(0, ["call", "f", 1, 0, 1.5, {}]),
        _with_step(0, ["call", "f", 1, 0, 1, {"x": 1}]),
        _with_step(0, ["call", "f", 1, 0, 1, [{}]]),  # a change with no locals before it
        _with_step(2, ["line", "f", 1, 0, 3, [{"nobody": "1"}]]),
        _with_step(2, ["line", "f", 1, 0, 3, [{}, {}]]),
        _with_step(0, ["call", "f", 1, 0, 1, {}, [1]]),  # iterations not in pairs
        _with_step(0, ["call", "f", 1, 0, 1, {}, [], "yes"]),
        _with_step(0, ["call", "f", 1, 0, 1, {}, [], None, 3]),
        _with_step(0, ["call", "f", 1, 0, 1, {}, [], None, None, [1]]),
        _with_step(0, ["call", "f", 1, 0, 1, {}, [], None, None, [], 0]),
    ],
    ids=range(18),
)
def test_a_malformed_packed_trace_is_refused(data: Any) -> None:
    with pytest.raises(ValueError):
        unpack_trace(data, "code", "f()")
    reply = {"status": "ok", "result": "1", "trace": data}
    with pytest.raises(ValueError, match="trace is malformed"):
        reply_outcome(reply, "code", "f()")


@pytest.mark.parametrize("untrusted", [False, True], ids=["reused", "forked"])
def test_a_sandboxed_trace_is_the_in_process_trace(untrusted: bool) -> None:
    with SandboxPool(workers=1) as pool:
        for code, call in CASES[:4]:
            out = pool.run(code, call, trace=True, max_steps=200, untrusted=untrusted)
            assert out.trace == trace(code, call, max_steps=200), (code, call)

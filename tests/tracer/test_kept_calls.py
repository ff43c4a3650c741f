"""A reused worker keeps the calls it read for later requests: what they give is what a fresh
worker, reading every call anew, gives."""

from __future__ import annotations

import pytest
from outcome_fields import comparable

from tracer import SandboxPool, trace
from tracer._call import compile_call, parse_call

CODES = [
    "def f(xs, k=1):\n    xs.append(k)\n    return sum(xs)",
    "def f(xs, k=1):\n    return [x * k for x in xs]",
    "def f(xs, k=1):\n    raise ValueError(len(xs))",
    "def f(:\n    pass",  # the module does not parse: reported before the call
]
CALLS = [
    "f([1, 2], k=3)",
    "f([1, 2])",
    "f(*[[4]], **{'k': 2})",
    "f([1, 2]",  # does not parse
    "f(await x)",  # parses, an argument does not compile
    "g(1)",  # names nothing
    "f([len(str(i)) for i in range(3)])",
]


@pytest.mark.parametrize("traced", [False, True], ids=["plain", "traced"])
def test_kept_calls_give_what_fresh_reading_gives(traced: bool) -> None:
    with SandboxPool(workers=1) as kept:
        # Every code in turn against the same calls: the worker reads them once.
        reused = [kept.run_batch(code, CALLS, trace=traced) for code in CODES]
    for code, outcomes in zip(CODES, reused, strict=True):
        # A fresh worker for the code: each call read for the first time.
        with SandboxPool(workers=1) as fresh:
            reference = fresh.run_batch(code, CALLS, trace=traced)
        assert list(map(comparable, outcomes)) == list(map(comparable, reference)), code
    assert reused[0][0].status == "ok"
    assert reused[0][3].status == "exception" and "does not parse" in str(reused[0][3].exception)
    assert reused[3][0].exception is not None and "executing" not in reused[3][0].exception


def test_a_traced_call_given_compiled_is_the_call_read_from_text() -> None:
    code = CODES[0]
    call = CALLS[2]
    assert trace(code, call, compiled_call=compile_call(parse_call(call))) == trace(code, call)

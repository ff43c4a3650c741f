"""Guess rules for probes a reader answers from the code alone, on real functions."""

from __future__ import annotations

from core_bench.probes import KINDS, CallContext, guessed
from tracer import trace

# CRUXEval sample_2's shape: a list built from an input that is empty in this call.
EMPTY_INPUT = (
    "def f(text, k):\n"
    "    chars = [x for x in text]\n"
    "    seen = set(text[k:])\n"
    "    total = 0\n"
    "    for c in text:\n"
    "        total += ord(c)\n"
    "    return chars, seen, total\n"
)


def _state_after(code: str, call: str, variable: str) -> list[tuple[str, bool]]:
    ctx = CallContext(code, trace(code, call))
    return [
        (r.answer, guessed(ctx, r))
        for r in KINDS["state_after"].each(ctx)
        if r.variable == variable
    ]


def test_a_container_built_from_an_empty_input_is_guessed_empty() -> None:
    assert _state_after(EMPTY_INPUT, "f('', 0)", "chars") == [("[]", True)]
    assert _state_after(EMPTY_INPUT, "f('abc', 5)", "seen") == [("set()", True)]


def test_a_container_built_from_a_real_input_is_not_guessed() -> None:
    assert _state_after(EMPTY_INPUT, "f('ab', 0)", "chars") == [("['a', 'b']", False)]
    assert _state_after(EMPTY_INPUT, "f('abc', 1)", "seen") != []
    assert not any(hit for _, hit in _state_after(EMPTY_INPUT, "f('abc', 1)", "seen"))


# An index loop over an argument: the header's test runs once per item and once more.
WHILE_OVER_ARGUMENT = (
    "def f(items):\n"
    "    i = 0\n"
    "    total = 0\n"
    "    while i < len(items):\n"
    "        total += items[i]\n"
    "        i += 1\n"
    "    return total\n"
)


def _readings(code: str, call: str, kind: str, line: int) -> list[tuple[str, bool]]:
    ctx = CallContext(code, trace(code, call))
    return [(r.answer, guessed(ctx, r)) for r in KINDS[kind].each(ctx) if r.line == line]


def test_a_while_over_the_length_of_an_argument_is_guessed_like_a_for() -> None:
    call = "f([4, 5, 6, 7, 8, 9, 10])"
    assert _readings(WHILE_OVER_ARGUMENT, call, "run_count", 4) == [("8", True)]
    assert _readings(WHILE_OVER_ARGUMENT, call, "loop_iterations", 4) == [("7", True)]


def test_a_while_that_skips_items_is_not_guessed() -> None:
    skipping = WHILE_OVER_ARGUMENT.replace("i += 1", "i += 2")
    call = "f([4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16])"
    assert _readings(skipping, call, "run_count", 4) == [("8", False)]
    assert _readings(skipping, call, "loop_iterations", 4) == [("7", False)]


ONE_LINE = "def f(text):\n    return text.upper()\n"


def test_the_trace_of_a_one_line_function_is_guessed() -> None:
    assert _readings(ONE_LINE, "f('ab')", "full_trace", 1) == [("[[2, {}]]", True)]


def test_the_trace_of_a_longer_function_is_not_guessed() -> None:
    code = "def f(text):\n    up = text.upper()\n    return up\n"
    answers = _readings(code, "f('ab')", "full_trace", 1)
    assert answers == [("[[2, {'up': 'AB'}], [3, {}]]", False)]

"""Guess rules for probes a reader answers from the code alone, on real functions."""

from __future__ import annotations

from core_bench.probes import KINDS, CallContext, guessed
from core_bench.probes._answerable import for_call
from core_bench.probes._guesses import _arguments, call_name
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


def test_guess_rules_read_calls_with_tracers_call_type() -> None:
    assert call_name("f([1, 2], n=3)") == "f"
    assert call_name("obj.f(1)") == ""  # not a plain name
    assert call_name("None(1)") == ""
    assert call_name("f(1") == ""
    code = "def f(a, b, c=0):\n    for x in a:\n        c += x\n    return c\n"
    assert _arguments(code, "f", "f([1, 2], *rest, c=3, **kw)") == (
        ("a", "[1, 2]"),
        ("b", "*rest"),
        ("c", "3"),
    )
    assert for_call(code, "f([1, 2, 3], 0)").loop_counts == {2: 3}
    assert for_call(code, "f(*args)").loop_counts == {}

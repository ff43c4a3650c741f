"""Guess rules for probes a reader answers from the code alone, on real functions."""

from __future__ import annotations

import pytest

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


def _exit_states(code: str, call: str) -> dict[str, tuple[str, bool]]:
    ctx = CallContext(code, trace(code, call))
    return {
        r.variable or "": (r.answer, guessed(ctx, r)) for r in KINDS["loop_exit_state"].each(ctx)
    }


UNPACKED_LOOPS = [
    # (loop header, call, {variable: (answer, guessed)}); the body only counts.
    ("for i, ch in enumerate(xs):", "f('AbCdU')", {"ch": ("'U'", True), "i": ("4", True)}),
    (
        "for item, (qty, price) in xs:",
        "f([('fig', (2, 3)), ('kiwi', (1, 5))])",
        {"item": ("'kiwi'", True), "price": ("5", True)},
    ),
    ("for a, b in zip(xs, ys):", "f([1, 2, 3], [10, 20])", {"a": ("2", True), "b": ("20", True)}),
    ("for k, v in xs.items():", "f({'a': 1, 'b': 2})", {"v": ("2", True)}),
    # A loop left by `break` ends before the argument's last item: no guess.
    (
        "for i, ch in enumerate(xs):\n        if ch == 'D': break",
        "f('abcDe')",
        {"ch": ("'D'", False)},
    ),
]


@pytest.mark.parametrize(("header", "call", "expected"), UNPACKED_LOOPS)
def test_an_unpacked_loop_target_after_the_loop_is_guessed_from_the_argument(
    header: str, call: str, expected: dict[str, tuple[str, bool]]
) -> None:
    # The reviewer's find: after `for i, ch in enumerate(word)` ends, `ch` is word[-1], and
    # after `for item, qty in orders`, the last order's parts; no execution needed.
    code = f"def f(xs, ys=()):\n    steps = 0\n    {header}\n        steps += 3\n    return steps\n"
    found = _exit_states(code, call)
    assert {name: found[name] for name in expected} == expected
    assert found["steps"][1] is False  # what the body computes needs running


@pytest.mark.parametrize(
    ("copy", "call", "expected"),
    [
        ("items = list(xs)", "f('AbCdU')", ("'U'", True)),
        ("items = xs[:]", "f([3, 1, 2])", ("2", True)),
        ("items = xs.copy()", "f([('a', 1), ('b', 2)])", ("('b', 2)", True)),
        ("items = xs", "f((5, 6))", ("6", True)),
        # Sorted is no copy: its last item is not the argument's.
        ("items = sorted(xs)", "f([3, 1, 2])", ("3", False)),
    ],
)
def test_a_loop_over_a_local_copy_of_an_argument_is_guessed_from_the_argument(
    copy: str, call: str, expected: tuple[str, bool]
) -> None:
    # A loop over a copy (`result = list(arr)`, then `for item in result`): the target's last
    # value is the argument's last item, no execution needed.
    code = (
        f"def f(xs):\n    {copy}\n    steps = 0\n    for item in items:\n"
        "        steps += 3\n    return steps\n"
    )
    found = _exit_states(code, call)
    assert found["item"] == expected
    assert found["steps"][1] is False


def test_a_loop_over_a_list_built_from_the_argument_is_guessed_to_end_on_its_last_item() -> None:
    # The bundled cb-002:eq2: `for item in result` after `result.append(...)` for each char of
    # the text; for 'a1b2c3' the loop ends on '3', the text's last char, which a blind reader
    # says without running. With the copy rule above, the bundled build lost 9 probes
    # (78,552 -> 78,543); the other loops over a name whose answer is the argument's last
    # item that a scan finds (97) are the kind's guessed controls (20% of guessed probes).
    code = (
        "def f(text):\n    result = []\n    for ch in text:\n"
        "        result.append(ch.upper() if ch.isalpha() else ch)\n"
        "    joined = ''\n    for item in result:\n        joined = joined + item\n"
        "    return joined\n"
    )
    assert _exit_states(code, "f('a1b2c3')")["item"] == ("'3'", True)
    # Where the built list ends otherwise, the guess misses and the probe stays a question.
    assert _exit_states(code, "f('a1b2c')")["item"] == ("'C'", False)
    assert _exit_states(code, "f('a1b2c')")["joined"][1] is False

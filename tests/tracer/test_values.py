"""Reading reprs back and comparing them at each strictness (tracer's one values module)."""

from __future__ import annotations

import math

import pytest

from tracer import read_literal, same_value, values_equal


def test_read_literal_reads_reprs_literal_eval_does_not() -> None:
    ok, value = read_literal("[inf, -inf, frozenset({1}), tuple(), dict(), float('1.5')]")
    assert ok and value[0] == math.inf and value[1] == -math.inf
    assert value[2:] == [frozenset({1}), (), {}, 1.5]
    assert read_literal("__import__('os')") == (False, None)
    assert read_literal("x" * 300_000) == (False, None)
    assert read_literal("[" * 5000 + "]" * 5000) == (False, None)  # too deep: not a crash


def test_values_equal_never_raises_on_deep_values() -> None:
    deep: list[object] = []
    for _ in range(5000):
        deep = [deep]
    for strictness in ("python", "typed", "strict"):
        assert values_equal(deep, deep, strictness=strictness) in (True, False)  # type: ignore[arg-type]


# (a, b, python, typed, strict)
CASES = [
    ("{'a', 'b'}", "{'b', 'a'}", True, True, True),  # set order is not part of a value
    ("[{1, 2}, ('x',)]", "[{2, 1}, ('x',)]", True, True, True),
    ("frozenset({1, 2})", "frozenset({2, 1})", True, True, True),
    ("nan", "float('nan')", True, True, True),  # NaN equals NaN, however it is written
    ("1", "1.0", True, False, False),  # Python says equal; another state of the program
    ("1", "True", True, False, False),
    ("[1]", "[1.0]", True, True, False),  # "typed" looks at the top only
    ("[1]", "(1,)", False, False, False),
    ("{'a': 1, 'b': 2}", "{'b': 2, 'a': 1}", True, True, False),  # dict order is observable
    ("{1}", "{1.0}", True, True, False),
    ("frozenset({1})", "{1}", True, False, False),
    ("<generator object>", "<generator object>", True, True, True),  # identical text
    ("<a object>", "<b object>", False, False, False),  # not literals: text only
    (None, "1", False, False, False),
]


@pytest.mark.parametrize(("a", "b", "python", "typed", "strict"), CASES)
def test_same_value_at_each_strictness(
    a: str | None, b: str | None, python: bool, typed: bool, strict: bool
) -> None:
    assert same_value(a, b) is python  # "python" is the default: CRUXEval's own check
    assert same_value(a, b, strictness="typed") is typed
    assert same_value(a, b, strictness="strict") is strict
    assert same_value(b, a, strictness="strict") is strict  # symmetric


def test_float_tolerance_applies_to_python_and_typed_only() -> None:
    assert not same_value("0.1", "0.10001")
    assert same_value("0.1", "0.10001", float_tolerance=1e-3)
    assert same_value("[0.1]", "[0.10001]", strictness="typed", float_tolerance=1e-3)
    assert not same_value("0.1", "0.10001", strictness="strict", float_tolerance=1e-3)


def test_long_texts_are_compared_the_same_as_short_ones() -> None:
    # Short texts are remembered after their first reading; long ones are read every time.
    long_a = "[" + ", ".join(map(str, range(2000))) + "]"
    long_b = long_a[:-1] + ",]"  # the same list, written with a trailing comma
    assert len(long_a) > 512 and long_a != long_b
    assert same_value(long_a, long_b, strictness="strict")
    assert same_value("{1, 2}", "{2, 1}") and same_value("{1, 2}", "{2, 1}")

"""The one value grader: literal parsing, Python equality, NaN, tolerance, unparseable."""

from __future__ import annotations

import pytest

from core_bench.grading import grade_response, grade_trace, grade_value


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("1", "1.0"),  # Python equality: 1 == 1.0
        ("True", "1"),  # and True == 1: Python's semantics are kept, as DESIGN.md says
        ("False", "0"),
        ("{3, 1, 2}", "{1, 2, 3}"),  # set order ignored
        ("{'b': 2, 'a': 1}", "{'a': 1, 'b': 2}"),  # dict order ignored
        ("frozenset({1, 2})", "{2, 1}"),  # frozenset == set in Python
        ("set()", "set()"),
        ("nan", "nan"),  # NaN equals NaN here
        ("[nan, 1]", "[float('nan'), 1]"),
        ("{'x': (1, nan)}", "{'x': (1, float('nan'))}"),
        ("-inf", "float('-inf')"),
        ("'abc'", '"abc"'),
        ("b'ab'", "b'ab'"),
        ("(1,)", "(1, )"),
        ("1+2j", "(1+2j)"),
        ("[\n  1,\n  2,\n]", "[1, 2]"),
        ("  [1, 2]  ", "[1, 2]"),
        ("None", "None"),
    ],
)
def test_equal_values_are_correct(answer: str, expected: str) -> None:
    assert grade_value(answer, expected) == ("correct", "")


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("[1, 2]", "(1, 2)"),  # a list never equals a tuple
        ("[1, 2]", "[2, 1]"),
        ("'1'", "1"),
        ("1.0000001", "1.0"),  # exact without a tolerance
        ("nan", "1.0"),
        ("{1: 2}", "{1: 3}"),
        ("b'a'", "'a'"),
        ("True", "2"),
    ],
)
def test_different_values_are_wrong(answer: str, expected: str) -> None:
    verdict, reason = grade_value(answer, expected)
    assert verdict == "wrong" and "expected" in reason


def test_float_tolerance_is_relative_and_absolute() -> None:
    assert grade_value("0.30000000000000004", "0.3")[0] == "wrong"
    assert grade_value("0.30000000000000004", "0.3", float_tolerance=1e-9)[0] == "correct"
    assert (
        grade_value("[1.0000001, {'a': 2.0}]", "[1, {'a': 2.0000001}]", float_tolerance=1e-6)[0]
        == "correct"
    )
    assert grade_value("{1.0000001, 5.0}", "{1.0, 5.0}", float_tolerance=1e-6)[0] == "correct"
    assert grade_value("1000001.0", "1000000", float_tolerance=1e-6)[0] == "correct"
    assert grade_value("1.1", "1.0", float_tolerance=1e-6)[0] == "wrong"
    assert grade_value("'1.0'", "1.0", float_tolerance=0.5)[0] == "wrong"
    with pytest.raises(ValueError):
        grade_value("1", "1", float_tolerance=-1)


@pytest.mark.parametrize(
    "answer",
    [None, "", "hello", "[1, 2", "'a' + 'b'", "f(1)", "x", "[1] * 3", "{**a}", "set([x])"],
)
def test_missing_or_non_literal_answers_are_unparseable(answer: str | None) -> None:
    verdict, reason = grade_value(answer, "'ab'")
    assert verdict == "unparseable" and reason


def test_expected_that_is_not_a_literal_is_compared_as_text() -> None:
    assert grade_value("<object>", "<object>") == ("correct", "")
    assert grade_value("1", "<object>")[0] == "wrong"


def test_grade_response_extracts_then_grades() -> None:
    text = "Tracing...\n[ANSWER]assert f('a#b') == 'A#B'  # upper[/ANSWER]"
    assert grade_response(text, task="output", expected="'A#B'", call="f('a#b')") == (
        "'A#B'",
        "correct",
        "",
    )
    answer, verdict, _ = grade_response("I don't know.", task="output", expected="1")
    assert (answer, verdict) == (None, "unparseable")
    answer, verdict, _ = grade_response("[ANSWER]f(x) == ??[/ANSWER]", task="output", expected="1")
    assert verdict == "unparseable" and answer is not None
    assert grade_response("Answer: yes", task="probe", expected="True")[1] == "correct"
    with pytest.raises(ValueError, match="grade_inputs"):
        grade_response("[ANSWER]f(1)[/ANSWER]", task="input", expected="1")


def test_full_trace_is_compared_pair_by_pair() -> None:
    expected = "[[2, {'x': 1}], [3, {'y': [1]}], [4, {}]]"
    right = '```json\n[[2, {"x": 1}], [3, {"y": [1]}], [4, {}]]\n```'
    assert grade_response(right, task="full_trace", expected=expected)[1:] == ("correct", "")
    wrong = "[ANSWER][[2, {'x': 1}], [3, {'y': [2]}], [4, {}]][/ANSWER]"
    _, verdict, reason = grade_response(wrong, task="full_trace", expected=expected)
    assert verdict == "wrong" and reason.startswith("step 2:")
    short_trace = "[ANSWER][(2, {'x': 1.0})][/ANSWER]"
    _, verdict, reason = grade_response(short_trace, task="full_trace", expected=expected)
    assert verdict == "wrong" and "1 steps, expected 3" in reason
    assert grade_trace("[[2, 'x']]", expected)[0] == "unparseable"
    assert grade_trace(None, expected)[0] == "unparseable"
    with pytest.raises(ValueError):
        grade_trace("[]", "not a trace")

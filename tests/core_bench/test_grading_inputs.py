"""Input predictions are graded by running the predicted call in the sandbox."""

from __future__ import annotations

from core_bench.grading import extract_answer, grade_inputs
from tracer import SandboxPool

CODE = """\
def f(text, n):
    while n < 0:
        pass
    if n == 0:
        raise ValueError('n must not be zero')
    return text[:n] * 2
"""


def test_inputs_are_graded_by_running_them(pool: SandboxPool) -> None:
    items: list[tuple[str, str | None, str]] = [
        (CODE, "f('abc', 2)", "'abab'"),  # right
        (CODE, "f('xyz', 1)", "'abab'"),  # wrong result
        (CODE, "f('abc', 0)", "'abab'"),  # raises
        (CODE, "f('abc', -1)", "'abab'"),  # loops
        (CODE, "f(text='ab', n=5)", "'abab'"),  # keywords: right
        (CODE, "f('abc', 2", "'abab'"),  # does not parse
        (CODE, "'abc', 2", "'abab'"),  # not a call
        (CODE, None, "'abab'"),  # nothing extracted
        (CODE, "str('abab')", "'abab'"),  # right value, but not the function under test
        (CODE, "f(undefined, 2)", "'abab'"),  # the arguments raise
    ]
    results = grade_inputs(items, pool, timeout_s=1.0)
    verdicts = [verdict for verdict, _ in results]
    assert verdicts == [
        "correct",
        "wrong",
        "wrong",
        "timeout",
        "correct",
        "unparseable",
        "unparseable",
        "unparseable",
        "wrong",
        "wrong",
    ]
    assert "ValueError" in results[2][1]
    assert "returns 'xx'" in results[1][1]


def test_results_compare_by_the_value_graders_rules(pool: SandboxPool) -> None:
    code = "def f(x):\n    return {x, 1.0, float('nan')}\n"
    (verdict, _), (other, _) = grade_inputs(
        [(code, "f(2)", "{nan, 2, 1}"), (code, "f(3)", "{nan, 2, 1}")], pool
    )
    assert (verdict, other) == ("correct", "wrong")


def test_extracted_answers_feed_grading(pool: SandboxPool) -> None:
    response = "<think>maybe f('a', 3)</think>\n[ANSWER]assert f('ab', 2) == 'abab'[/ANSWER]"
    call = extract_answer(response, task="input", call="f(??)").answer
    assert call == "f('ab', 2)"
    assert grade_inputs([(CODE, call, "'abab'")], pool) == [("correct", "")]


def test_many_predictions_for_one_problem_keep_their_order(pool: SandboxPool) -> None:
    items: list[tuple[str, str | None, str]] = [
        (CODE, f"f('a', {n})", repr("a" * 2)) for n in range(1, 80)
    ]
    assert all(v == "correct" for v, _ in grade_inputs(items, pool))
    items = [(CODE, f"f('abc', {n})", repr("abc"[:n] * 2)) for n in (3, 1, 2) * 30]
    assert all(v == "correct" for v, _ in grade_inputs(items, pool))

"""Branch outcomes for every condition form the tracer records, on every supported Python.

Each case names a line and the outcomes its line steps must record, in order; the outcomes
follow from the call's arguments by reading the code (they are not copied from a tracer run).
"""

from __future__ import annotations

import sys
import textwrap

import pytest

from tracer import trace

IFEXP_BARE_NAME = """
def f(text, chars):
    return text.rstrip(chars) if text else text
"""
IFEXP_CALL = """
def f(c, x, y):
    return x if c.isdecimal() else y
"""
SAME_LINE_RETURN = """
def f(x):
    if x: return 1
    return 2
"""
SAME_LINE_PASS = """
def f(x):
    if x > 0: pass
    return x
"""

# name -> (code, call, line, function, outcomes of that line's steps in that function, in order)
CASES: dict[str, tuple[str, str, int, str, list[bool | None]]] = {
    "ifexp bare-name test, false (issue 10)": (IFEXP_BARE_NAME, "f('', '')", 2, "f", [False]),
    "ifexp bare-name test, true": (IFEXP_BARE_NAME, "f('abb', 'b')", 2, "f", [True]),
    "ifexp call test, false (issue 10)": (IFEXP_CALL, "f('a', 1, 2)", 2, "f", [False]),
    "ifexp call test, true": (IFEXP_CALL, "f('7', 1, 2)", 2, "f", [True]),
    "ifexp in an assignment with a compound test": (
        """
        def f(xs):
            out = []
            for x in xs:
                v = x * 2 if x > 1 and x % 2 else -x
                out.append(v)
            return out
        """,
        "f([1, 2, 3, 5, 4])",
        4,
        "f",
        [False, False, True, True, False],
    ),
    "ifexp with or and not": (
        """
        def f(xs):
            n = 0
            for x in xs:
                n += 1 if not x or x == 'b' else 10
            return n
        """,
        "f(['', 'a', 'b', 'c'])",
        4,
        "f",
        [True, False, True, False],
    ),
    "ifexp whose body comes first in the line": (
        """
        def f(a, b):
            return [a, b] if a < b else [b, a]
        """,
        "f(3, 1)",
        2,
        "f",
        [False],
    ),
    "ifexp argument of a call": (
        """
        def f(s):
            return len(s.upper() if s.islower() else s + '!')
        """,
        "f('AB')",
        2,
        "f",
        [False],
    ),
    "ifexp test calls a traced helper": (
        """
        def g(x):
            return x > 2

        def f(xs):
            return 5 if g(xs[-1]) else 7
        """,
        "f([1, 3])",
        5,
        "f",
        [True],
    ),
    "same-line if body taken (issue 10)": (SAME_LINE_RETURN, "f(1)", 2, "f", [True]),
    "same-line if body skipped": (SAME_LINE_RETURN, "f(0)", 2, "f", [False]),
    "same-line if with continue": (
        """
        def f(xs):
            n = 0
            for x in xs:
                if x < 0: continue
                n += x
            return n
        """,
        "f([1, -2, 3, -4])",
        4,
        "f",
        [False, True, False, True],
    ),
    "same-line if with break and or": (
        """
        def f(xs, stop):
            for x in xs:
                if x == stop or x > 9: break
            return x
        """,
        "f([1, 2, 3, 4], 3)",
        3,
        "f",
        [False, False, True],
    ),
    "same-line if with pass": (SAME_LINE_PASS, "f(5)", 2, "f", [True]),
    "same-line if with pass, false": (SAME_LINE_PASS, "f(-5)", 2, "f", [False]),
    "same-line if / elif / else": (
        """
        def f(xs):
            out = []
            for x in xs:
                if x > 5: out.append('big')
                elif x > 2: out.append('mid')
                else: out.append('small')
            return out
        """,
        "f([7, 3, 1])",
        5,
        "f",
        [True, False],  # the elif runs for 3 and 1 only
    ),
    "if with a negated compound test": (
        """
        def f(a, b):
            if not (a and b):
                return 'not both'
            return 'both'
        """,
        "f(1, 0)",
        2,
        "f",
        [True],
    ),
    "if with a test spread over lines and a same-line body": (
        """
        def f(a, b):
            if (a > 1 and
                    b > 1): return 'both'
            return 'no'
        """,
        "f(2, 0)",
        2,
        "f",
        [False],
    ),
    "while with a same-line body": (
        """
        def f(n):
            while n > 0: n -= 2
            return n
        """,
        "f(3)",
        2,
        "f",
        [True, False],  # 3 > 0; the body jumps back into the line (3 -> 1 -> -1), then -1 > 0
    ),
    "elif chain on separate lines": (
        """
        def f(n):
            if n < 0:
                return 'neg'
            elif n == 0:
                return 'zero'
            return 'pos'
        """,
        "f(0)",
        4,
        "f",
        [True],
    ),
    "ifexp inside a lambda is recorded in the lambda's frame": (
        """
        def f(xs):
            return sorted(xs, key=lambda v: -v if v < 0 else v)
        """,
        "f([3, -1, -5])",
        2,
        "<lambda>",
        [False, True, True],
    ),
    "conditional expression spread over lines: the test's line holds the outcome": (
        """
        def f(x):
            y = (x
                 if x > 1
                 else -x)
            return y
        """,
        "f(0)",
        3,
        "f",
        [False],
    ),
    "nested conditional expressions: the outer one": (
        """
        def f(a, b):
            return (1 if a else 2) if b else (3 if a else 4)
        """,
        "f(1, 0)",
        2,
        "f",
        [False],
    ),
    "chained conditional expressions: the first test": (
        """
        def f(x):
            return 'a' if x == 1 else 'b' if x == 2 else 'c'
        """,
        "f(2)",
        2,
        "f",
        [False],
    ),
    "conditional expression in an f-string": (
        """
        def f(s):
            return f'{s if s else "empty"}!'
        """,
        "f('')",
        2,
        "f",
        [False],
    ),
    "if with an assignment expression and a same-line return": (
        """
        def f(xs):
            for x in xs:
                if (y := x * 2) > 4: return y
            return -1
        """,
        "f([1, 2, 3])",
        3,
        "f",
        [False, False, True],
    ),
    "same-line if raising inside try/finally": (
        """
        def f(x):
            try:
                if x: raise ValueError
            finally:
                z = 1
            return z
        """,
        "f(0)",
        3,
        "f",
        [False],
    ),
    "conditional expression in a method and in a decorated function": (
        """
        def deco(fn):
            return fn

        class C:
            @deco
            def m(self, x):
                return 'p' if x > 0 else 'n'

        def f(x):
            return C().m(x) + C().m(-x)
        """,
        "f(1)",
        7,
        "m",
        [True, False],
    ),
    "if with not and a same-line else": (
        """
        def f(x):
            if not x: pass
            else: x = 0
            return x
        """,
        "f(2)",
        2,
        "f",
        [False],
    ),
    "chained comparison with a same-line body": (
        """
        def f(xs):
            n = 0
            for x in xs:
                if 0 < x < 10: n += 1
            return n
        """,
        "f([5, -1, 20])",
        4,
        "f",
        [True, False, False],
    ),
    "conditional expression with a chained comparison": (
        """
        def f(xs):
            return [('in' if 0 < x < 10 else 'out') for x in xs]
        """,
        "f([20])",
        2,
        "<listcomp>" if sys.version_info < (3, 12) else "f",
        [False, None],  # the second step only finds the iterator exhausted
    ),
    "conditional expression with not in, is not and a generator": (
        """
        def f(x):
            y = 'y' if x not in (1, 2) and x is not None else 'n'
            z = 1 if any(v > 2 for v in (x or 0, 1)) else 0
            return y, z
        """,
        "f(3)",
        2,
        "f",
        [True],
    ),
    "assert that holds, fails, and fails in a helper": (
        """
        def g(x):
            assert x != 3, 'three'
            return x

        def f(xs):
            out = []
            for x in xs:
                try:
                    assert x > 0
                    out.append(g(x))
                except AssertionError:
                    out.append(None)
            return out
        """,
        "f([1, -1, 3])",
        9,
        "f",
        [True, False, True],  # 3 > 0 holds here; g's own assert is the one that fails
    ),
    "assert in a helper": (
        """
        def g(x):
            assert x != 3, 'three'
            return x

        def f(xs):
            out = []
            for x in xs:
                try:
                    out.append(g(x))
                except AssertionError:
                    out.append(None)
            return out
        """,
        "f([1, 3])",
        2,
        "g",
        [True, False],
    ),
    "assert whose test raises": (
        """
        def f(d):
            try:
                assert d['k'] > 0
            except KeyError:
                return 'no k'
            return 'ok'
        """,
        "f({})",
        3,
        "f",
        [None],
    ),
    "if in a generator": (
        """
        def g(xs):
            for x in xs:
                if x % 2: yield x

        def f(xs):
            return list(g(xs))
        """,
        "f([1, 2, 3])",
        3,
        "g",
        [True, False, True],
    ),
}


def outcomes(code: str, call: str, line: int, func: str) -> list[bool | None]:
    t = trace(textwrap.dedent(code).lstrip("\n"), call)
    return [s.branch for s in t.steps if s.event == "line" and s.line == line and s.func == func]


@pytest.mark.parametrize("name", list(CASES))
def test_branch_outcome(name: str) -> None:
    code, call, line, func, expected = CASES[name]
    assert outcomes(code, call, line, func) == expected


def test_while_with_same_line_body_outcomes_follow_each_evaluation() -> None:
    # n = 5: 5 > 0 (body: 3), 3 > 0 (body: 1), 1 > 0 (body: -1), -1 > 0 fails. How many line
    # steps the header gets differs by nothing but the loop shape; each step's outcome is the
    # first evaluation of the test after the step starts, so the last step must say False and
    # every earlier one True.
    code = "def f(n):\n    while n > 0: n -= 2\n    return n\n"
    got = outcomes(code, "f(5)", 2, "f")
    assert got and got[-1] is False and all(o is True for o in got[:-1])


def test_no_outcome_on_a_comprehension_frame_of_an_if_line() -> None:
    # Python 3.11 runs the comprehension in its own frame on the `if` line; that frame does not
    # evaluate the `if`'s test, so its steps carry no outcome.
    # From 3.12 it runs inline, and its iterations start more steps of the line in `f`: only the
    # first evaluates the test.
    code = "def f(xs):\n    if xs: ys = [x + 1 for x in xs]\n    return ys\n"
    t = trace(code, "f([1, 2])")
    assert all(s.branch is None for s in t.steps if s.func != "f")
    got = [s.branch for s in t.steps if s.func == "f" and s.line == 2 and s.event == "line"]
    assert got[0] is True and all(o is None for o in got[1:])


def test_comprehension_in_the_test_gives_the_outcome_to_the_line_s_first_step() -> None:
    # From 3.12 the comprehension runs inline, and each of its iterations starts a line step of
    # the same line; the `if` is decided once, after the last of them, for the first step.
    code = "def f(xs):\n    if [x for x in xs if x > 2]: return 'some'\n    return 'none'\n"
    for call, outcome in (("f([1, 2])", False), ("f([1, 3])", True)):
        got = outcomes(code, call, 2, "f")
        assert got[0] is outcome and all(o is None for o in got[1:]), (call, got)


def test_test_that_raises_has_no_outcome() -> None:
    code = (
        "def f(d):\n    try:\n        return 1 if d['k'] else 2\n"
        "    except KeyError:\n        return 3\n"
    )
    t = trace(code, "f({})")
    assert [s.branch for s in t.steps if s.event == "line" and s.line == 3] == [None]
    assert t.result == "3"


@pytest.mark.skipif(sys.version_info < (3, 12), reason="sys.monitoring is new in 3.12")
def test_traced_code_that_frees_every_monitoring_tool_still_traces() -> None:
    code = textwrap.dedent(
        """
        import sys

        def g(x):
            return 'a' if x else 'b'

        def f(x):
            for tool in range(6):
                try:
                    sys.monitoring.free_tool_id(tool)
                except ValueError:
                    pass
            return g(x) + ('c' if x else 'd')
        """
    )
    t = trace(code, "f(1)")
    assert t.result == "'ac'" and t.exception is None and not t.truncated
    assert {s.branch for s in t.steps if s.line == 5 and s.event == "line"} <= {True, None}


def test_comprehension_if_clauses_on_a_conditional_expression_line_leave_its_outcome_right() -> (
    None
):
    # The comprehension's own `if` jumps (inline from 3.12) must not be taken for the outcome of
    # the line's conditional expression, whether the comprehension runs before its test or in it.
    code = textwrap.dedent(
        """
        def f(xs, flag):
            n = len([a for a in xs if a > 1]) + (10 if flag else 20)
            m = [a for a in xs if a] if n > 15 else []
            return n, m
        """
    )
    for call, first, second in (("f([1, 2, 3], 0)", False, True), ("f([0, 5], 1)", True, False)):
        got2 = [o for o in outcomes(code, call, 2, "f") if o is not None]
        got3 = [o for o in outcomes(code, call, 3, "f") if o is not None]
        assert (got2, got3) == ([first], [second]), call

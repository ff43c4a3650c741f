"""Dead code: never-taken branches and never-read assignments."""

from __future__ import annotations

import pytest
from transform_cases import Case, Declines, Equivalent, KeepsLines, Rewrite, cases
from transform_testing import code, transform

from transforms._deadcode import DeadAssignment, DeadBranch

LOOP = """
def f(nums):
    output = []
    for n in nums:
        output.append(n)
    return output
"""


CASES = cases(
    dead_branch_other_tests=Rewrite(
        DeadBranch,
        LOOP,
        """
        def f(nums):
            output = []
            if 0:
                output.append(n)
            for n in nums:
                output.append(n)
            return output
        """,
        seed=1,
    ),
)


def test_dead_branch_after_docstring_copies_a_statement() -> None:
    result = Rewrite(
        DeadBranch,
        '''
        def f(nums):
            """Sort pairs."""
            output = []
            for n in nums:
                output.append(n)
            return output
        ''',
        '''
        def f(nums):
            """Sort pairs."""
            output = []
            for n in nums:
                if 11 < 6:
                    return nums
                output.append(n)
            return output
        ''',
    ).check()
    assert result.provenance.line_map == {1: [1], 2: [2], 3: [3], 4: [4], 5: [7], 6: [8]}


def test_dead_assignment_fresh_name_or_overwritten_local() -> None:
    Rewrite(
        DeadAssignment,
        LOOP,
        """
        def f(nums):
            output = []
            for n in nums:
                output.append(n)
            nums_copy = nums
            return output
        """,
    ).check()
    result = Rewrite(
        DeadAssignment,
        LOOP,
        """
        def f(nums):
            output = None
            output = []
            for n in nums:
                output.append(n)
            return output
        """,
        seed=1,
    ).check()
    assert result.provenance.line_map == {1: [1], 2: [3], 3: [4], 4: [5], 5: [6]}


@pytest.mark.parametrize("cls", [DeadBranch, DeadAssignment])
def test_declines(cls: type) -> None:
    Declines(cls, "x = 1\nprint(x)\n").check()  # no function
    # A global statement: an inserted assignment could clash with the declaration.
    Declines(cls, "def f(t):\n    global g\n    g = t\n    return g\n").check()
    Declines(cls, "class C:\n    x = 1\n    y = x\n").check()  # a class body is no function


@pytest.mark.parametrize("cls", [DeadBranch, DeadAssignment])
def test_keeps_formatting(cls: type) -> None:
    KeepsLines(
        cls,
        """
        def f(a,b):   # odd spacing
            # add them
            s  =  a+b
            return s   # done
        """,
        ["def f(a,b):   # odd spacing", "    # add them", "    s  =  a+b", "    return s   # done"],
    ).check()


@pytest.mark.parametrize("cls", [DeadBranch, DeadAssignment])
def test_equivalent(cls: type) -> None:
    Equivalent(
        cls,
        """
        def f(text, k):
            out = []
            count = 0
            for i, ch in enumerate(text):
                if ch.isdigit():
                    count += int(ch)
                    continue
                out.append(ch * k)
            result = ''.join(out)
            return result, count
        """,
        [("a1b22", 2), ("", 0), ("99", 1)],
        seeds=range(25),
    ).check()


def test_dead_assignment_leaves_overwritten_locals_in_try_alone() -> None:
    # Inside a try, the next statement could raise and the handler would see the dead value.
    source = """
        def f(x):
            try:
                y = int(x)
            except ValueError:
                return y
            return y
        """
    for seed in range(30):
        result = transform(DeadAssignment, code(source), seed=seed)
        assert result is not None
        assert "    y = " not in result.code.replace("        y = int(x)", "")


def test_case(case: Case) -> None:
    case.check()

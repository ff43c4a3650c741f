"""idiom rewrites between returning a condition and branching on it; f-strings."""

from __future__ import annotations

from transform_testing import assert_declines, assert_equivalent, assert_transform

from transforms._idioms_returns import BranchToReturnCondition, ReturnConditionToBranch
from transforms._idioms_strings import ConcatToFString


def test_returned_comparison_becomes_branch() -> None:
    before = """
        def f(a, b):
            return a[::-1] == b
        """
    after = """
        def f(a, b):
            if a[::-1] == b:
                return True
            return False
        """
    assert_transform(ReturnConditionToBranch, before, after)
    assert_equivalent(before, after, [("ab", "ba"), ("ab", "ab"), ([1], [1])])
    # `a and b` returns one of its operands, not a bool.
    assert_declines(ReturnConditionToBranch, "def f(a, b):\n    return a and b\n")


def test_branch_becomes_returned_condition() -> None:
    before = """
        def f(text):
            if text.isupper():
                return True
            else:
                return False
        """
    after = """
        def f(text):
            return text.isupper()
        """
    assert_transform(BranchToReturnCondition, before, after)
    assert_equivalent(before, after, [("AB",), ("",), ("a",)])
    before = """
        def f(xs):
            if xs:
                return False
            return True
        """
    after = """
        def f(xs):
            return not xs
        """
    assert_transform(BranchToReturnCondition, before, after)
    assert_equivalent(before, after, [([],), ([0],), ("",)])
    before = """
        def f(n):
            if n % 3:
                return True
            return False
        """
    after = """
        def f(n):
            return bool(n % 3)
        """
    assert_transform(BranchToReturnCondition, before, after)
    assert_equivalent(before, after, [(3,), (4,)])


def test_concatenation_becomes_fstring() -> None:
    before = """
        def f(name, n):
            return 'hi ' + name.title() + ': ' + str(n) + " {x}"
        """
    after = """
        def f(name, n):
            return f'hi {name.title()}: {n} {{x}}'
        """
    assert_transform(ConcatToFString, before, after)
    assert_equivalent(before, after, [("bob", 3), ("", [1, "a"]), ("x", None)])


def test_fstring_declines_operands_that_may_not_be_strings() -> None:
    # `x` may be an int: `'a' + x` raises TypeError, f'a{x}' would not.
    assert_declines(ConcatToFString, "def f(x):\n    return 'a' + x\n")
    # The only evidence that `x` is a str is the concatenation being rewritten.
    assert_declines(ConcatToFString, "def f(x):\n    return x + '!'\n")
    # `str(1)` would become a literal in braces.
    assert_declines(ConcatToFString, "def f():\n    return 'a' + str(1)\n")

"""idiom rewrites: returned conditions and branches, f-strings, counters and swaps."""

from __future__ import annotations

from transform_testing import assert_declines, assert_equivalent, assert_transform

from transforms._idioms_counters import CounterToEnumerate, SwapToTemp
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


def test_branch_on_a_comparison_returns_the_inverted_comparison_never_not_before_it() -> None:
    before = """
        def f(nums, k):
            if len(nums) < k:
                return False
            return True
        """
    after = """
        def f(nums, k):
            return len(nums) >= k
        """
    assert_transform(BranchToReturnCondition, before, after)
    assert_equivalent(before, after, [([1], 1), ([], 1)])
    # Operands of unknown type: before, `return not num < k`; the branch stays now.
    assert_declines(
        BranchToReturnCondition,
        """
        def f(num, k):
            if num < k:
                return False
            return True
        """,
    )


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


def test_counter_becomes_enumerate() -> None:
    before = """
        def f(text):
            lines = text.splitlines()
            i = 0
            for line in lines:
                if not line:
                    return i
                i += 1
            return -1
        """
    after = """
        def f(text):
            lines = text.splitlines()
            for i, line in enumerate(lines):
                if not line:
                    return i
            return -1
        """
    assert_transform(CounterToEnumerate, before, after)
    assert_equivalent(before, after, [("a\n\nb",), ("a",), ("",)])
    # The counter is read after the loop: enumerate would leave it one lower.
    assert_declines(
        CounterToEnumerate,
        """
        def f(xs):
            n = 0
            for x in xs:
                print(x)
                n += 1
            return n
        """,
    )


def test_tuple_swap_becomes_temporary() -> None:
    before = """
        def f(xs, i):
            xs[i], xs[i + 1] = xs[i + 1], xs[i]
            return xs
        """
    after = """
        def f(xs, i):
            temp = xs[i]
            xs[i] = xs[i + 1]
            xs[i + 1] = temp
            return xs
        """
    assert_transform(SwapToTemp, before, after)
    assert_equivalent(before, after, [([1, 2, 3], 0), ([1, 2], 1), ({0: "a", 1: "b"}, 0)])
    # An index that reads the container being changed.
    assert_declines(
        SwapToTemp, "def f(xs):\n    xs[0], xs[xs[0]] = xs[xs[0]], xs[0]\n    return xs\n"
    )

"""A returned computation held in a local variable, and the variable inlined again."""

from __future__ import annotations

from transform_testing import (
    assert_declines,
    assert_equivalent,
    assert_equivalent_over_seeds,
    assert_transform,
)

from transforms._variables import InlineReturnedVariable, NameReturnedValue


def test_a_returned_computation_gets_a_name_that_says_what_it_holds() -> None:
    # CRUXEval sample_15: no other rewrite applies to it.
    before = """
        def f(text, wrong, right):
            new_text = text.replace(wrong, right)
            return new_text.upper()
        """
    after = """
        def f(text, wrong, right):
            new_text = text.replace(wrong, right)
            upper_new_text = new_text.upper()
            return upper_new_text
        """
    result = assert_transform(NameReturnedValue, before, after)
    assert result.provenance.line_map == {1: [1], 2: [2], 3: [3, 4]}
    assert_equivalent(before, after, [("abc", "b", "x"), ("", "a", "b")])
    assert_transform(
        NameReturnedValue,
        """
        def f(nums, k):
            if k in nums:  # found
                return nums.index(k) + 1
            return 0
        """,
        """
        def f(nums, k):
            if k in nums:  # found
                result = nums.index(k) + 1
                return result
            return 0
        """,
    )


def test_a_returned_slice_is_a_result_not_a_helper_name() -> None:
    # CRUXEval sample_16. Before: `part_of = text[:-len(suffix)]`.
    assert_transform(
        NameReturnedValue,
        """
        def f(text, suffix):
            if text.endswith(suffix):
                return text[:-len(suffix)]
            return text
        """,
        """
        def f(text, suffix):
            if text.endswith(suffix):
                result = text[:-len(suffix)]
                return result
            return text
        """,
    )


def test_a_taken_result_is_no_new_result() -> None:
    # Issue 9 (reviewer's find): `new_result = slice_result(result)`.
    before = """
        def slice_result(result):
            return result[:-1]

        def f(s, sep):
            result = ''
            for e in s.split(sep):
                result += e + ';'
            return slice_result(result)
        """
    assert_transform(
        NameReturnedValue,
        before,
        before.replace(
            "    return slice_result(result)",
            "    res = slice_result(result)\n            return res",
        ),
    )
    every = "def f(result, res, output, answer):\n    return result[res:output] + answer\n"
    assert_declines(NameReturnedValue, every)


def test_naming_a_returned_value_declines() -> None:
    assert_declines(NameReturnedValue, "def f(x):\n    return x\n")
    assert_declines(NameReturnedValue, "def f(x, y):\n    return x, y\n")
    assert_declines(NameReturnedValue, "def f(xs):\n    return (x for x in xs)\n")
    assert_declines(NameReturnedValue, "def f(x):\n    return eval('x + 1')\n")
    # Reviewer's find: `result = -1` then `return result`; `-1` parses as an operation.
    assert_declines(NameReturnedValue, "def f(x):\n    if x:\n        return 2\n    return -1\n")


def test_a_variable_returned_right_away_is_inlined() -> None:
    before = """
        def f(text, wrong, right):
            new_text = text.replace(wrong, right)
            return new_text
        """
    after = """
        def f(text, wrong, right):
            return text.replace(wrong, right)
        """
    result = assert_transform(InlineReturnedVariable, before, after)
    assert result.provenance.line_map == {1: [1], 2: [2], 3: [2]}
    assert_equivalent(before, after, [("abc", "b", "x")])
    assert_transform(
        InlineReturnedVariable,
        "def f(a, b):\n    pair = a, b\n    return pair\n",
        "def f(a, b):\n    return a, b\n",
    )


def test_inlining_declines_where_the_variable_is_used_elsewhere() -> None:
    # Read before the return, read in a nested scope, or assigned twice.
    assert_declines(
        InlineReturnedVariable,
        "def f(x):\n    y = x + 1\n    print(y)\n    y = y * 2\n    return y\n",
    )
    assert_declines(
        InlineReturnedVariable,
        "def f(xs):\n    n = len(xs)\n    g = lambda: n\n    n = n + 1\n    return n\n",
    )
    assert_declines(
        InlineReturnedVariable,
        "def f(x):\n    if x:\n        y = 1\n    y = 2\n    return y\n",
    )
    assert_declines(InlineReturnedVariable, "def f(x):\n    y = x\n    z = 1\n    return y\n")


def test_both_equivalent() -> None:
    source = """
        def f(nums, k):
            total = sum(n * k for n in nums)
            if total > 10:
                return [n for n in nums if n > k]
            out = total - k
            return out
        """
    calls = [([1, 2, 3], 2), ([], 0), ([5, 6], 3)]
    assert_equivalent_over_seeds(NameReturnedValue, source, calls, seeds=range(6))
    assert_equivalent_over_seeds(InlineReturnedVariable, source, calls, seeds=range(3))

"""Constant unfolding: literals replaced by expressions that compute them."""

from __future__ import annotations

from transform_testing import (
    assert_declines,
    assert_equivalent_over_seeds,
    assert_keeps_lines,
    assert_transform,
)

from transforms._constants import ConstantUnfold

PARITY = """
def f(text, n):
    if n % 2 == 0:
        return "-".join(text[:n])
    return text * -3
"""


def test_unfolds_integers_with_parentheses_where_needed() -> None:
    result = assert_transform(
        ConstantUnfold,
        PARITY,
        """
        def f(text, n):
            if n % 2 == 1 - 1:
                return "-".join(text[:n])
            return text * -3
        """,
    )
    assert result.provenance.line_map == {1: [1], 2: [2], 3: [3], 4: [4]}
    assert_transform(
        ConstantUnfold,
        PARITY,
        """
        def f(text, n):
            if n % (4 // 2) == 0:
                return "-".join(text[:n])
            return text * -3
        """,
        seed=1,
    )


def test_unfolds_strings_into_concatenations() -> None:
    assert_transform(
        ConstantUnfold,
        """
        def f(xs):
            return "abc".join(xs) + "%s!" % -7
        """,
        """
        def f(xs):
            return "abc".join(xs) + ("%s" + "!") % -7
        """,
    )
    assert_transform(
        ConstantUnfold,
        """
        def f(xs):
            return "abc".join(xs) + "%s!" % -7
        """,
        """
        def f(xs):
            return ("a" + "bc").join(xs) + "%s!" % -7
        """,
        seed=1,
    )


def test_declines() -> None:
    # Docstrings, f-strings, escapes, one-character strings, floats, module-level code.
    assert_declines(
        ConstantUnfold,
        '''
        def f(x):
            """Doc string."""
            return f"{x}ab" + "\\n" + "q" + 'x' 'yz' + str(1.5)
        ''',
    )
    assert_declines(ConstantUnfold, "X = 12\n")
    assert_declines(ConstantUnfold, "def f(x: 'int' = None) -> None:\n    return x\n")


def test_keeps_formatting() -> None:
    assert_keeps_lines(
        ConstantUnfold,
        """
        def f(x):
            # scale
            y  =  x   # copy
            return y * 10
        """,
        ["    # scale", "    y  =  x   # copy"],
    )


def test_equivalent() -> None:
    assert_equivalent_over_seeds(
        ConstantUnfold,
        """
        def f(s, n):
            out = s[1:-2] + 'xyz' * 3
            for i in range(0, n, 2):
                out += str(i ** 2 - 10) + '%d|%s' % (i, 'ab')
            return out.replace('ab', 'cd'), n // 4, -n % 7, 2 ** -1
        """,
        [("hello", 5), ("", 0), ("a", 9)],
        seeds=range(30),
    )

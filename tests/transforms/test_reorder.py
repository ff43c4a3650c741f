"""Reordering of independent adjacent statements."""

from __future__ import annotations

from transform_cases import Case, Equivalent, KeepsLines, Rewrite, cases, declines

from transforms._reorder import ReorderStatements

INITS = """
def f(text, lower, upper):
    # counters
    count = 0
    new_text = list()
    flag = len(text) > 3
    for ch in text:
        count += 1
    return count, new_text, flag
"""


CASES = cases(
    comment_above_a_statement_moves_with_it=Rewrite(
        ReorderStatements,
        INITS,
        """
        def f(text, lower, upper):
            new_text = list()
            # counters
            count = 0
            flag = len(text) > 3
            for ch in text:
                count += 1
            return count, new_text, flag
        """,
        seed=1,
    ),
    keeps_formatting=KeepsLines(
        ReorderStatements,
        """
        def f(x):
            a  =  1   # one
            b = 2
            return a + b + x   # sum
        """,
        ["    a  =  1   # one", "    b = 2", "    return a + b + x   # sum"],
    ),
    equivalent=Equivalent(
        ReorderStatements,
        """
        def f(s, n):
            i = 0
            out = ''
            k = n * 2
            size = len(s)
            while i < size:
                a = s[i]
                b = i % 3
                c, d = b + 1, k
                out += a * b
                i += 1
            return out, c if size else None, d if size else None
        """,
        [("abcde", 2), ("", 0), ("x", -1)],
        seeds=range(20),
    ),
    declines=declines(
        ReorderStatements,
        # data dependence
        "def f(x):\n    a = x + 1\n    b = a * 2\n    return b\n",
        "def f(x):\n    a = x\n    x = 2\n    return a, x\n",
        # both may raise: the exception that surfaces could change
        "def f(x, y):\n    a = x[0]\n    b = y[1]\n    return a, b\n",
        # `i` may be unbound (empty range): UnboundLocalError must stay first
        "def f(n, s):\n    for i in range(n):\n        pass\n    a = i\n    b = s[0]\n"
        "    return a, b\n",
        # calls with effects, stores into objects (aliasing)
        "def f(x, y):\n    a = x.pop()\n    b = y.pop()\n    return a, b\n",
        "def f(x, y):\n    x[0] = 1\n    y[0] = 2\n    return x, y\n",
        # both consume the same iterable
        "def f(it):\n    a = list(it)\n    b = list(it)\n    return a, b\n",
        # inside try
        "def f(x):\n    try:\n        a = 1\n        b = int(x)\n    except ValueError:\n"
        "        return a\n    return a, b\n",
    ),
)


def test_swaps_independent_initialisations() -> None:
    result = Rewrite(
        ReorderStatements,
        INITS,
        """
        def f(text, lower, upper):
            # counters
            count = 0
            flag = len(text) > 3
            new_text = list()
            for ch in text:
                count += 1
            return count, new_text, flag
        """,
    ).check()
    assert result.provenance.line_map == {
        1: [1], 3: [3], 4: [5], 5: [4], 6: [6], 7: [7], 8: [8],
    }  # fmt: skip


def test_case(case: Case) -> None:
    case.check()

"""Boolean rewrites: De Morgan and flipped comparisons."""

from __future__ import annotations

from transform_cases import Case, Declines, Equivalent, KeepsLines, Rewrite, cases, declines

from transforms._booleans import DeMorgan, FlipComparison

CASES = cases(
    # Reviewer's find: `a <= x and y` became `not (not a <= x or not y)`.
    de_morgan_never_writes_a_double_negation=[
        Declines(
            DeMorgan,
            """
            def f(a, x, y):
                if a <= x and y:
                    return 1
                return 0
            """,
        ),
        Declines(DeMorgan, "def f(c):\n    if c.isnumeric() or c in 'ab':\n        return 1\n"),
        # Reviewer's find (bundled cb-063): `k in new and old[k] != new[k]` became
        # `not (k not in new or old[k] == new[k])`.
        Declines(DeMorgan, "def f(d, k, v):\n    if k in d and d[k] != v:\n        return 1\n"),
        Declines(DeMorgan, "def f(x, y):\n    if x is None and y > 3:\n        return 1\n"),
        Rewrite(
            DeMorgan,
            """
            def f(a, x, y):
                if a <= 3 and not y:
                    return 1
                return 0
            """,
            """
            def f(a, x, y):
                if not (a > 3 or y):
                    return 1
                return 0
            """,
        ),
    ],
    de_morgan_simplifies_negated_comparisons_where_exact=[
        # An int or str on one side: the order is total (a float NaN is left to verification).
        Rewrite(
            DeMorgan,
            "def f(s, k):\n    return not (len(s) < k and s.find('a') >= 0)\n",
            "def f(s, k):\n    return len(s) >= k or s.find('a') < 0\n",
        ),
        # Int arithmetic on such values (`len(s) - 1`) and str results (`s.lower()`) too.
        Rewrite(
            DeMorgan,
            "def f(s, k):\n    return not (len(s) - 1 < k and s.lower() > k)\n",
            "def f(s, k):\n    return len(s) - 1 >= k or s.lower() <= k\n",
        ),
    ],
    # Sets are ordered by inclusion: `not a < b` is not `a >= b`. Before, this gave
    # `return not a < b or not c`, which nobody writes; the original stays.
    de_morgan_leaves_a_comparison_it_cannot_invert_rather_than_write_not_before_it=Declines(
        DeMorgan, "def f(a, b, c):\n    return not (a < b and c)\n"
    ),
    de_morgan_negations_equivalent_on_sets_and_nan=Equivalent(
        DeMorgan,
        """
        def f(a, b, n):
            r = []
            if not (a < b and n > 0):
                r.append(1)
            if len(a) >= n and a <= b:
                r.append(2)
            r.append(not (a == b or len(b) < 2))
            return r
        """,
        [({1}, {1, 2}, 1), ({1, 2}, {1}, 0), ("ab", "abc", 2), ([1], [1, 2], 3), ({3}, {4}, -1)],
        seeds=range(15),
    ),
    de_morgan_both_directions_on_values=[
        Rewrite(
            DeMorgan,
            "def f(a, b):\n    return not (a and b)\n",
            "def f(a, b):\n    return not a or not b\n",
            back_seed=0,
        ),
        Rewrite(
            DeMorgan,
            "def f(x, y):\n    ok = x and not (y or x > 2)\n    return ok\n",
            "def f(x, y):\n    ok = x and (not y and x <= 2)\n    return ok\n",
        ),
    ],
    # `a and b` as a value is an operand, not a bool: no rewrite keeps it.
    de_morgan_declines=declines(
        DeMorgan,
        "def f(a, b):\n    return a and b\n",
        "def f(a):\n    return not a\n",
        "ok = not (a and b)\n",
    ),
    de_morgan_keeps_formatting=KeepsLines(
        DeMorgan,
        """
        def f(a, b):
            c  =  a + b   # sum
            while a > 0 and not b:
                a -= 1
            return c   # done
        """,
        ["    c  =  a + b   # sum", "        a -= 1", "    return c   # done"],
    ),
    de_morgan_equivalent=Equivalent(
        DeMorgan,
        """
        def f(a, b, c):
            r = []
            if a and (b or not c):
                r.append(1)
            r.append(not (a or b))
            r.append(not a and not c)
            while b and c > 0:
                c -= 1
            r.append([x for x in (a, b, c) if x or a == b])
            return r, not (a == 1 and b != 2), c
        """,
        [(0, 1, 3), (1, 0, 0), (1, 2, 2), ("", [], None), (1, 1, 5)],
        seeds=range(15),
    ),
    flip_comparison=[
        Rewrite(
            FlipComparison,
            """
            def f(xs, limit):
                while len(xs) > limit:
                    xs.pop()
                return xs
            """,
            """
            def f(xs, limit):
                while limit < len(xs):
                    xs.pop()
                return xs
            """,
        ),
        # A literal first is turned round; a literal last stays where a person puts it.
        Rewrite(
            FlipComparison,
            "def f(xs):\n    while 1 < len(xs):\n        xs.pop()\n    return xs\n",
            "def f(xs):\n    while len(xs) > 1:\n        xs.pop()\n    return xs\n",
        ),
        Rewrite(
            FlipComparison,
            "def f(a, b):\n    return a <= b, a == b, a is None\n",
            "def f(a, b):\n    return a <= b, b == a, a is None\n",
        ),
    ],
    flip_comparison_declines=declines(
        FlipComparison,
        # Both operands may have effects or raise: their order matters.
        "def f(a, b):\n    return a.pop() < b.pop()\n",
        "def f(a, b):\n    return a[0] < b[1]\n",
        # Chains and membership tests are not flipped.
        "def f(a, b):\n    return 0 < a < b, a in b\n",
        # Flipped, a literal or constant would come first (`while 1 < len(xs)`).
        "def f(xs):\n    while len(xs) > 1:\n        xs.pop()\n    return xs\n",
        "def f(x):\n    return x % 2 == 0, x is None, x != -1, x > 2 ** 8, x == (1, 2)\n",
        "def f(x):\n    return x >= LIMIT\n\n\nLIMIT = 3\n",
        # Reviewer's find: the loop's own variable stays first in its test (`while e > i`).
        "def f(xs, e):\n    i = 0\n    while i < e:\n        i += 1\n    return i\n",
        "def f(s, c):\n    i = 0\n    while i < len(s) and s[i].isdigit():\n        i = i + 1\n"
        "    return i\n",
    ),
    flip_comparison_keeps_formatting=KeepsLines(
        FlipComparison,
        """
        def f(n):
            # threshold
            limit  =  10
            return n >= limit   # compare
        """,
        ["    # threshold", "    limit  =  10"],
    ),
    flip_comparison_equivalent=Equivalent(
        FlipComparison,
        """
        def f(a, b):
            out = [a < b, a <= b, a > b, a >= b, a == b, a != b, a is b, a is not None]
            if len(str(a)) > 1:
                out.append("long")
            return out
        """,
        [(1, 2), (2, 2), (3.5, 1), (float("nan"), 1.0), ("ab", "b")],
        seeds=range(20),
    ),
)


def test_de_morgan_in_boolean_context() -> None:
    result = Rewrite(
        DeMorgan,
        """
        def f(ch, n):
            if len(ch) > n or ch not in "ab":
                return 1
            return 0
        """,
        """
        def f(ch, n):
            if not (len(ch) <= n and ch in "ab"):
                return 1
            return 0
        """,
    ).check()
    assert result.provenance.line_map == {1: [1], 2: [2], 3: [3], 4: [4]}


def test_de_morgan_inverts_no_comparison_only_to_negate_it_back() -> None:
    # Issue 9 (reviewer's find, with flip_comparison): `while not (len(s) <= j or s[j] ==
    # c)`; a person keeps `j < len(s) and s[j] != c`.
    Declines(
        DeMorgan,
        """
        def f(s, c):
            j = 0
            while j < len(s) and s[j] != c:
                j += 1
            if len(s) > j or s == "a":
                return j
            return -1
        """,
    ).check()


def test_case(case: Case) -> None:
    case.check()

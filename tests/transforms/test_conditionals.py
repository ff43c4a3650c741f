"""if/else swap, conditional expression -> if statement, and back."""

from __future__ import annotations

from transform_cases import Case, Declines, Equivalent, KeepsLines, Rewrite, cases, declines

from transforms._conditionals import IfElseSwap, IfToTernary, TernaryToIf

CASES = cases(
    if_else_swap_one_line_suites_and_parenthesized_test=Rewrite(
        IfElseSwap,
        """
        def f(x):
            if(x > 0 and x < 10): return "small"
            else: return "other"
        """,
        """
        def f(x):
            if x <= 0 or x >= 10: return "other"
            else: return "small"
        """,
    ),
    if_else_swap_never_writes_not_before_a_comparison=[
        # `num < k` with operands of unknown type (sets order by inclusion) cannot become
        # `num >= k` exactly; before, the swap wrote `if not num < k:`. It declines now.
        Declines(
            IfElseSwap,
            """
            def f(num, k):
                if num < k:
                    return num
                else:
                    return k
            """,
            seeds=range(10),
        ),
        # Where one side is an int (`len(...) - 1`), the operator is inverted.
        Rewrite(
            IfElseSwap,
            """
            def f(nums, k):
                if len(nums) - 1 < k:
                    return nums
                else:
                    return k
            """,
            """
            def f(nums, k):
                if len(nums) - 1 >= k:
                    return k
                else:
                    return nums
            """,
        ),
    ],
    if_else_swap_removes_a_not=Rewrite(
        IfElseSwap,
        """
        def f(d, k):
            if not k in d:
                d[k] = 1
            else:
                d[k] += 1
            return d
        """,
        """
        def f(d, k):
            if k in d:
                d[k] += 1
            else:
                d[k] = 1
            return d
        """,
    ),
    if_else_swap_declines=declines(
        IfElseSwap,
        "def f(x):\n    if x:\n        return 1\n    return 2\n",
        "def f(x):\n    if x:\n        return 1\n    elif x == 0:\n        return 0\n",
        "if x:\n    y = 1\nelse:\n    y = 2\n",
    ),
    if_else_swap_keeps_formatting=KeepsLines(
        IfElseSwap,
        """
        def f(x):
            y  =  x * 2   # double
            if y > 3:
                y -= 1
            else:
                y += 1
            return y   # result
        """,
        ["    y  =  x * 2   # double", "    return y   # result"],
    ),
    if_else_swap_equivalent=Equivalent(
        IfElseSwap,
        """
        def f(a, b):
            out = []
            if a < b:
                out.append("lt")
            else:
                out.append("ge")
            if a is None or not b:
                out.append("empty")
            elif a in (1, 2):
                out.append("small")
            else:
                out.append("other")
            return out
        """,
        [(1, 2), (2, 1), (None, 0), (float("nan"), 1.0), (3, 3)],
    ),
    nested_ternary_becomes_elif_chain=Rewrite(
        TernaryToIf,
        """
        def f(n):
            return "neg" if n < 0 else "zero" if n == 0 else "pos"
        """,
        """
        def f(n):
            if n < 0:
                return "neg"
            elif n == 0:
                return "zero"
            else:
                return "pos"
        """,
    ),
    # Only a conditional expression that is the whole value of an assignment/return.
    ternary_to_if_declines=declines(
        TernaryToIf,
        "def f(x):\n    return [1 if x else 2]\n",
        "def f(x):\n    return x\n",
        "y = 1 if x else 2\n",
    ),
    ternary_to_if_keeps_formatting=KeepsLines(
        TernaryToIf,
        """
        def f(x):
            # sign
            s = -1 if x < 0 else 1
            return s  *  x   # magnitude
        """,
        ["    # sign", "    return s  *  x   # magnitude"],
    ),
    ternary_to_if_equivalent=Equivalent(
        TernaryToIf,
        """
        def f(x, acc):
            acc += [x] if x else []
            y = x * 2 if x > 1 else -x
            return (y if y % 2 else y + 1), acc
        """,
        [(0, [1]), (3, []), (-2, [5])],
    ),
    if_to_ternary_assignment=Rewrite(
        IfToTernary,
        """
        def f(x, y):
            if x > y:
                m = x
            else:
                m = y
            return m
        """,
        """
        def f(x, y):
            m = x if x > y else y
            return m
        """,
    ),
    if_to_ternary_parenthesizes_where_needed=Rewrite(
        IfToTernary,
        """
        def f(a, b):
            if a:
                return lambda: a
            else:
                return b or a
        """,
        """
        def f(a, b):
            return (lambda: a) if a else b or a
        """,
    ),
    # Different targets, several statements, an elif, or comments that would be lost.
    if_to_ternary_declines=declines(
        IfToTernary,
        "def f(x):\n    if x:\n        a = 1\n    else:\n        b = 1\n",
        "def f(x):\n    if x:\n        a = 1\n        a += 1\n    else:\n        a = 2\n"
        "    return a\n",
        "def f(x):\n    if x:\n        return 1  # one\n    else:\n        return 2\n",
    ),
    if_to_ternary_keeps_formatting=KeepsLines(
        IfToTernary,
        """
        def f(x):
            k  =  x % 3   # remainder
            if k:
                r = 'odd'
            else:
                r = 'even'
            return r   # done
        """,
        ["    k  =  x % 3   # remainder", "    return r   # done"],
    ),
    if_to_ternary_equivalent=Equivalent(
        IfToTernary,
        """
        def f(a, b):
            if a and b:
                c = a
            else:
                c = b
            if c is None:
                return -1
            if c:
                c += 1
            else:
                c += 2
            return c
        """,
        [(1, 2), (0, 3), (None, None), (4, 0)],
    ),
)


def test_if_else_swap_inverts_equality_and_keeps_header_comments() -> None:
    before = """
        def f(string, encryption):
            if encryption == 0:  # plain
                return string
            else:
                return string.upper()
        """
    after = """
        def f(string, encryption):
            if encryption != 0:  # plain
                return string.upper()
            else:
                return string
        """
    result = Rewrite(IfElseSwap, before, after, calls=[("ab", 0), ("ab", 1)]).check()
    assert result.provenance.line_map == {1: [1], 2: [2], 3: [5], 5: [3]}


def test_ternary_to_if() -> None:
    before = """
        def f(text, lower, upper):
            out = []
            for ch in text:
                ch = lower if ch.isdecimal() else upper  # pick
                out.append(ch)
            return out
        """
    after = """
        def f(text, lower, upper):
            out = []
            for ch in text:
                if ch.isdecimal():  # pick
                    ch = lower
                else:
                    ch = upper
                out.append(ch)
            return out
        """
    result = Rewrite(TernaryToIf, before, after, calls=[("a1b2", "x", "y"), ("", "x", "y")]).check()
    assert result.provenance.line_map[4] == [4, 5, 6, 7]


def test_if_to_ternary_on_returns() -> None:
    result = Rewrite(
        IfToTernary,
        """
        def f(text, suffix):
            if text.endswith(suffix):
                return text[:-len(suffix)]
            return text
        """,
        """
        def f(text, suffix):
            return text[:-len(suffix)] if text.endswith(suffix) else text
        """,
    ).check()
    assert result.provenance.line_map == {1: [1], 2: [2], 3: [2], 4: [2]}


def test_case(case: Case) -> None:
    case.check()

"""`x op= y` <-> `x = x op y`, only for immutable values."""

from __future__ import annotations

from transform_cases import Case, Equivalent, KeepsLines, Rewrite, cases, declines

from transforms._augassign import AugAssignContract, AugAssignExpand

CASES = cases(
    # Every update of `total` is expanded (before: `total **= 2` was left beside
    # `total = total * (n - 1)`, two spellings of one update).
    expand_parenthesizes_the_right_operand=Rewrite(
        AugAssignExpand,
        """
        def f(x, n):
            total = 1
            total *= n - 1
            total **= 2
            return total
        """,
        """
        def f(x, n):
            total = 1
            total = total * (n - 1)
            total = total ** 2
            return total
        """,
        seed=1,
    ),
    expand_declines_for_mutable_or_unknown_values=declines(
        AugAssignExpand,
        # A list's += extends in place (the caller sees it); + would build a new list.
        "def f(xs):\n    xs += [1]\n    return xs\n",
        "def f(x):\n    out = []\n    out += x\n    return out\n",
        # Unknown: a parameter, a subscript, a value from an unknown call, a global.
        "def f(s):\n    s += 'a'\n    return s\n",
        "def f(d):\n    d['k'] += 1\n    return d\n",
        "def f(g):\n    y = g()\n    y += 1\n    return y\n",
        "N = 0\ndef f():\n    global N\n    N = 1\n    N += 1\n    return N\n",
        # A number times something unknown may be a list (3 * [1]).
        "def f(x):\n    y = 3 * x\n    y += [1]\n    return y\n",
    ),
    expand_keeps_formatting=KeepsLines(
        AugAssignExpand,
        """
        def f(xs):
            # total of squares
            total  =  0
            for x in xs:
                total += x * x
            return total   # result
        """,
        ["    # total of squares", "    total  =  0", "    return total   # result"],
    ),
    expand_equivalent_including_tuples_and_strings=Equivalent(
        AugAssignExpand,
        """
        def f(n, s):
            t = ()
            word = ''
            k = 1
            for i in range(n):
                t += (i,)
                word += s[i % len(s)]
                k *= i + 1
                k -= 1
                k //= 2
                k %= 97
                k <<= 1
            return t, word, k
        """,
        [(4, "ab"), (0, "x"), (7, "xyz")],
        seeds=range(20),
    ),
    contract=Rewrite(
        AugAssignContract,
        """
        def f(n):
            i = 0
            while i < n:
                i = i + 2
            return i
        """,
        """
        def f(n):
            i = 0
            while i < n:
                i += 2
            return i
        """,
    ),
    contract_declines_and_keeps_formatting=[
        *declines(
            AugAssignContract,
            "def f(xs):\n    xs = xs + [1]\n    return xs\n",
            "def f(x):\n    y = []\n    y = y + x\n    return y\n",
            "def f(x):\n    x = 1\n    x = 2 + x\n    return x\n",
        ),
        KeepsLines(
            AugAssignContract,
            """
            def f(n):
                # halve
                k  =  0
                k = k - n
                return k   # done
            """,
            ["    # halve", "    k  =  0", "    return k   # done"],
        ),
    ],
    contract_equivalent=Equivalent(
        AugAssignContract,
        """
        def f(n):
            s = ''
            c = 0
            for i in range(n):
                s = s + str(i)
                c = c + i * 2
            return s, c
        """,
        [(3,), (0,)],
    ),
    # Bundled cb-027: every update changes (before: `out = out + rep` beside `out += c`).
    expand_rewrites_every_update_of_its_function=Rewrite(
        AugAssignExpand,
        """
        def f(s, ch, k, rep):
            count = 0
            out = ''
            for c in s:
                if c == ch:
                    count += 1
                    if count % k == 0:
                        out += rep
                        continue
                out += c
            return out
        """,
        """
        def f(s, ch, k, rep):
            count = 0
            out = ''
            for c in s:
                if c == ch:
                    count = count + 1
                    if count % k == 0:
                        out = out + rep
                        continue
                out = out + c
            return out
        """,
        calls=[("banana", "a", 2, "@"), ("aaaaa", "a", 1, ""), ("", "a", 3, "!")],
    ),
    # Every update of the function, whatever its name.
    contract_rewrites_every_update_of_its_function=Rewrite(
        AugAssignContract,
        """
        def f(n):
            t = 0
            i = 0
            while i < n:
                t = t + i
                i = i + 1
            t = t * 2
            return t
        """,
        """
        def f(n):
            t = 0
            i = 0
            while i < n:
                t += i
                i += 1
            t *= 2
            return t
        """,
        seed=1,
        calls=[(0,), (4,)],
    ),
)


def test_expand_counter_keeps_trailing_comment() -> None:
    result = Rewrite(
        AugAssignExpand,
        """
        def f(text):
            count = 0
            out = ""
            for ch in text:
                count += 1  # tally
                out += ch * 2
            return count, out
        """,
        """
        def f(text):
            count = 0
            out = ""
            for ch in text:
                count = count + 1  # tally
                out = out + ch * 2
            return count, out
        """,
        seed=1,
    ).check()
    assert result.provenance.line_map == {i: [i] for i in range(1, 8)}


def test_case(case: Case) -> None:
    case.check()

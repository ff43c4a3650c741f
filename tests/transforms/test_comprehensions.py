"""Comprehension -> loop and loop -> comprehension."""

from __future__ import annotations

from transform_cases import Case, Declines, Equivalent, KeepsLines, Rewrite, cases, declines
from transform_testing import assert_equivalent, code, transform

from transforms._comprehensions import ComprehensionToLoop, LoopToComprehension

CASES = cases(
    generator_consumed_by_join_is_hoisted=Rewrite(
        ComprehensionToLoop,
        """
        def f(text):
            return "".join(c for c in text if c.isdigit())
        """,
        """
        def f(text):
            values = []
            for c in text:
                if c.isdigit():
                    values.append(c)
            return "".join(values)
        """,
    ),
    dict_and_nested_comprehensions=[
        Rewrite(
            ComprehensionToLoop,
            """
            def f(d):
                return {k: v * 2 for k, v in d.items()}
            """,
            """
            def f(d):
                values = {}
                for k, v in d.items():
                    values[k] = v * 2
                return values
            """,
        ),
        Rewrite(
            ComprehensionToLoop,
            """
            def f(rows):
                return sum([x for row in rows for x in row if x > 0])
            """,
            """
            def f(rows):
                values = []
                for row in rows:
                    for x in row:
                        if x > 0:
                            values.append(x)
                return sum(values)
            """,
        ),
    ],
    comprehension_to_loop_declines=declines(
        ComprehensionToLoop,
        # The loop variable is used elsewhere in the function: leaking it would clobber it.
        "def f(x, xs):\n    ys = [x * 2 for x in xs]\n    return x, ys\n",
        # any() stops early: a list built beforehand would evaluate every element.
        "def f(xs):\n    return any(x > 1 for x in xs)\n",
        "def f(xs):\n    return list(xs)\n",
        "ys = [x for x in range(3)]\n",  # module level
    ),
    comprehension_to_loop_keeps_formatting=KeepsLines(
        ComprehensionToLoop,
        """
        def f(xs):
            # squares
            sq  =  [x * x for x in xs]   # build
            total = sum( sq )   # spacing kept
            return total
        """,
        ["    # squares", "    total = sum( sq )   # spacing kept", "    return total"],
    ),
    comprehension_to_loop_equivalent=Equivalent(
        ComprehensionToLoop,
        """
        def f(words, k):
            lengths = {w: len(w) for w in words if w}
            firsts = set(w[0] for w in words if w)
            big = [n for n in lengths.values() if n > k]
            return sorted(big), sorted(firsts), ",".join(w.upper() for w in words)
        """,
        [(["ab", "", "abc", "b"], 1), ([], 0)],
    ),
    filtered_nested_set_and_dict_accumulations=[
        Rewrite(
            LoopToComprehension,
            """
            def f(text):
                a = []
                for i in range(len(text)):
                    if not text[i].isdecimal():
                        a.append(text[i])
                return "".join(a)
            """,
            """
            def f(text):
                a = [text[i] for i in range(len(text)) if not text[i].isdecimal()]
                return "".join(a)
            """,
        ),
        Rewrite(
            LoopToComprehension,
            """
            def f(grid):
                seen = set()
                for row in grid:
                    for x in row:
                        seen.add(x % 3)
                return seen
            """,
            """
            def f(grid):
                seen = {x % 3 for row in grid for x in row}
                return seen
            """,
        ),
        Rewrite(
            LoopToComprehension,
            """
            def f(keys):
                d = {}
                for k in keys:
                    d[k] = len(k)
                return d
            """,
            """
            def f(keys):
                d = {k: len(k) for k in keys}
                return d
            """,
        ),
    ],
    loop_to_comprehension_declines=declines(
        LoopToComprehension,
        # The loop variable is read after the loop (a comprehension would not leak it).
        "def f(xs):\n    out = []\n    for x in xs:\n        out.append(x)\n    return out, x\n",
        # The accumulator is read inside the loop.
        "def f(xs):\n    out = []\n    for x in xs:\n        out.append(len(out))\n"
        "    return out\n",
        # The loop does more than append.
        "def f(xs):\n    out = []\n    for x in xs:\n        print(x)\n        out.append(x)\n"
        "    return out\n",
        # A comment that would be lost.
        "def f(xs):\n    out = []\n    for x in xs:\n        out.append(x)  # keep\n"
        "    return out\n",
    ),
    loop_to_comprehension_keeps_formatting=KeepsLines(
        LoopToComprehension,
        """
        def f(xs):
            n  =  len(xs)   # size
            out = []
            for x in xs:
                out.append(x + n)
            return out   # result
        """,
        ["    n  =  len(xs)   # size", "    return out   # result"],
    ),
    loop_to_comprehension_equivalent=Equivalent(
        LoopToComprehension,
        """
        def f(words):
            lengths = {}
            for w in words:
                lengths[w] = len(w)
            caps = []
            for w2 in words:
                if w2:
                    for c in w2:
                        caps.append(c.upper())
            return lengths, caps
        """,
        [(["ab", "", "abc"],), ([],)],
    ),
)


def test_list_comprehension_assigned_to_a_name() -> None:
    before = """
        def f(s, sep):
            reverse = ["*" + e for e in s.split(sep) if e]  # stars
            return ";".join(reversed(reverse))
        """
    after = """
        def f(s, sep):
            reverse = []  # stars
            for e in s.split(sep):
                if e:
                    reverse.append("*" + e)
            return ";".join(reversed(reverse))
        """
    result = Rewrite(ComprehensionToLoop, before, after, calls=[("a,b,,c", ","), ("", ",")]).check()
    assert result.provenance.line_map == {1: [1], 2: [2, 3, 4, 5], 3: [6]}


def test_accumulation_loop_becomes_list_comprehension() -> None:
    before = """
        def f(nums):
            # collect pairs
            output = []
            for n in nums:
                output.append((nums.count(n), n))
            output.sort(reverse=True)
            return output
        """
    after = """
        def f(nums):
            # collect pairs
            output = [(nums.count(n), n) for n in nums]
            output.sort(reverse=True)
            return output
        """
    result = Rewrite(LoopToComprehension, before, after, calls=[([1, 1, 3],), ([],)]).check()
    assert result.provenance.line_map == {1: [1], 3: [3], 4: [3], 5: [3], 6: [4], 7: [5]}


def test_partial_collections_stay_invisible_to_closures() -> None:
    # `g` reads `out` while the comprehension runs: it must see the old value.
    source = """
        def f(xs):
            out = 'old'
            g = lambda: out
            out = [g() for x in xs]
            return out
        """
    result = transform(ComprehensionToLoop, code(source), seed=0)
    assert result is not None and "out = []" not in result.code
    assert_equivalent(source, result.code, [([1, 2],), ([],)])
    Declines(
        LoopToComprehension,
        """
        def f(xs):
            out = []
            g = lambda: len(out)
            for x in xs:
                out.append(g())
            return out
        """,
    ).check()


def test_case(case: Case) -> None:
    case.check()


def test_an_unrolled_comprehension_builds_the_assigned_name_not_an_alias_of_it() -> None:
    # Reviewer's find (cb-086, cb-099): `values = set()` ... `present = values`, then only
    # `present` used; a later comprehension reading `present` runs after the loop.
    Rewrite(
        ComprehensionToLoop,
        """
        def f(text):
            present = {c for c in text.lower() if 'a' <= c <= 'z'}
            missing = [chr(i) for i in range(97, 123) if chr(i) not in present]
            return missing
        """,
        """
        def f(text):
            present = set()
            for c in text.lower():
                if 'a' <= c <= 'z':
                    present.add(c)
            missing = [chr(i) for i in range(97, 123) if chr(i) not in present]
            return missing
        """,
        seed=1,
        calls=[("Hello, World",), ("",)],
    ).check()
    # A lambda may run while the loop builds the value: it keeps its own name then.
    result = transform(
        ComprehensionToLoop,
        code(
            """
            def f(text):
                check = lambda ch: ch in present
                present = {c for c in text if c.isalpha()}
                return list(filter(check, text))
            """
        ),
        seed=1,
    )
    assert result is not None and "    present = result\n" in result.code, result

"""Helper extraction: an expression or a loop body moved into a new function."""

from __future__ import annotations

import libcst as cst
import pytest
from transform_cases import Case, Declines, Equivalent, KeepsLines, Rewrite, cases, declines
from transform_testing import assert_equivalent, code, transform

from transforms._helper_names import expression_helper_names
from transforms._helpers import ExtractHelperExpr, ExtractLoopBody

CASES = cases(
    extract_expression_inside_a_comprehension_and_keeps_globals=[
        Rewrite(
            ExtractHelperExpr,
            """
            def f(text, sep):
                parts = text.strip().split(sep)
                return [p.strip().lower() for p in parts if p], len(parts) * 2
            """,
            """
            def lower_text(p):
                return p.strip().lower()

            def f(text, sep):
                parts = text.strip().split(sep)
                return [lower_text(p) for p in parts if p], len(parts) * 2
            """,
            seed=0,
        ),
        Rewrite(
            ExtractHelperExpr,
            """
            X = 10

            def f(a, b):
                if a > X:
                    return a - b
                return (a + b) * X
            """,
            """
            X = 10

            def compute_product(a, b):
                return (a + b) * X

            def f(a, b):
                if a > X:
                    return a - b
                return compute_product(a, b)
            """,
            seed=2,
        ),
    ],
    a_single_operator_or_call_is_never_a_helper=[
        # Before: `def is_in_nums(y, nums): return y in nums`, `def pick(...)`; one operation
        # is not what a person moves into a named helper.
        Declines(
            ExtractHelperExpr,
            """
            def f(nums, y, a, b):
                if y in nums:
                    return nums.index(y)
                z = a if y else b
                return len(nums), a + b, z
            """,
            seeds=range(25),
        ),
        # A loop body of one operation (`total += x * 2`) is not a block worth a helper.
        Declines(
            ExtractLoopBody,
            """
            def f(nums):
                total = 0
                for x in nums:
                    total += x * 2
                return total
            """,
            seeds=range(25),
        ),
        # Two operations are.
        Rewrite(
            ExtractHelperExpr,
            """
            def f(nums, y):
                if y in nums:
                    return nums.index(y) * 2
                return 0
            """,
            """
            def compute_product(nums, y):
                return nums.index(y) * 2

            def f(nums, y):
                if y in nums:
                    return compute_product(nums, y)
                return 0
            """,
        ),
    ],
    the_call_replacing_a_bracketed_expression_gets_no_extra_parentheses=Rewrite(
        ExtractHelperExpr,
        """
        def f(a, b, k):
            c = (a + b) * k
            return (a - b) * k, c
        """,
        """
        def compute_product(a, b, k):
            return (a - b) * k

        def f(a, b, k):
            c = (a + b) * k
            return compute_product(a, b, k), c
        """,
    ),
    extract_expression_declines=declines(
        ExtractHelperExpr,
        # `y` may be unbound where the expression stands (a helper call would evaluate it).
        """
        def f(x):
            if x:
                y = 1
            return x and y + 1
        """,
        "def f(x):\n    return x\n",
        "def f(x):\n    return eval('x + 1')\n",
        "def f(x):\n    global g\n    g = x + 1\n    return g\n",
    ),
    extract_expression_keeps_formatting=KeepsLines(
        ExtractHelperExpr,
        """
        # module comment
        def f(a,b):
            # explain
            c = a*b - a   # result
            return c
        """,
        ["# module comment", "    # explain"],
    ),
    extract_expression_equivalent=Equivalent(
        ExtractHelperExpr,
        """
        BASE = 3

        def f(words, n):
            out = {}
            for i, w in enumerate(words):
                if len(w) > n and w[0] not in out:
                    out[w[0]] = (i * BASE + n) % 7
            best = max(out.values()) if out else None
            return sorted(out.items(), key=lambda kv: (kv[1], kv[0])), best
        """,
        [(["apple", "bob", "avocado", "cat"], 2), ([], 0), (["zz", "zy"], 1)],
        seeds=range(25),
    ),
    extract_while_body=Rewrite(
        ExtractLoopBody,
        """
        def f(digits):
            total = 0
            while digits:
                digit = digits.pop()
                total = total * 10 + digit
            return total
        """,
        """
        def update_total(digits, total):
            digit = digits.pop()
            total = total * 10 + digit
            return total

        def f(digits):
            total = 0
            while digits:
                total = update_total(digits, total)
            return total
        """,
    ),
    extract_loop_body_keeps_formatting=KeepsLines(
        ExtractLoopBody,
        """
        def f(xs):
            # running sum
            total  =  0   # start
            for x in xs:
                x *= 2
                total += x   # add
            return total   # done
        """,
        [
            "    # running sum",
            "    total  =  0   # start",
            "    total += x   # add",
            "    return total   # done",
        ],
    ),
    extract_loop_body_equivalent=Equivalent(
        ExtractLoopBody,
        """
        def f(rows, k):
            seen = set()
            best = None
            n = 0
            for row in rows:
                n += 1
                for x in row:
                    if x in seen:
                        continue
                    seen.add(x)
                    if best is None or x * k > best:
                        best = x * k
            while n > 0:
                n -= 2
                k = k + n
            return sorted(seen), best, n, k
        """,
        [([[1, 2], [2, 3]], 2), ([], 1), ([[5], [], [5, -1]], -1)],
        seeds=range(10),
    ),
    extract_loop_body_declines_when_a_closure_reads_what_it_updates=Declines(
        ExtractLoopBody,
        """
        def f(xs):
            count = 0
            def seen():
                return count
            out = []
            for x in xs:
                count += 1
                out.append(seen())
            return out
        """,
    ),
    closures_and_lazy_generators_are_not_moved=[
        # Moved into a helper, the lambda and the generator would see the helper's `k`, not
        # the caller's later value.
        Equivalent(
            ExtractHelperExpr,
            """
            def f(values, k):
                m = map(lambda c: c + k, values)
                g = (c * k for c in values)
                k = 10
                return list(m), list(g), sorted(values, key=lambda c: -c)
            """,
            [([1, 2], 3), ([], 0)],
            seeds=range(30),
        ),
        Declines(
            ExtractLoopBody,
            """
            def f(xs, k):
                fs = []
                for x in xs:
                    fs.append(lambda: x + k)
                k = 100
                return [g() for g in fs]
            """,
        ),
    ],
    trivial_or_unused_expressions_are_not_extracted=declines(
        ExtractHelperExpr,
        # Reviewer's finds: `compute(registry)` for `registry.copy()`, `compute(occurrences)`
        # for a bare `occurrences.sort()` (a helper returning None), `check(index, elements)`
        # for a while bound, `def f(t): return compute(t)`.
        """
        def f(d, nums):
            d = d.copy()
            nums.sort()
            n = len(nums)
            i = 0
            while i < len(nums):
                i += 1
            return d, n
        """,
        "def f(s):\n    return sum([t.istitle() for t in s.split()])\n",
    ),
    # Reviewer's find: `test_value`/`evaluate` say nothing of what the helper computes.
    helpers_are_named_for_what_they_compute=Rewrite(
        ExtractHelperExpr,
        """
        def f(text):
            return [ch for ch in text if ch.lower() in 'aeiou']
        """,
        """
        def is_vowel(ch):
            return ch.lower() in 'aeiou'

        def f(text):
            return [ch for ch in text if is_vowel(ch)]
        """,
    ),
    extract_loop_body_declines=declines(
        ExtractLoopBody,
        # leaves the loop
        "def f(xs):\n    for x in xs:\n        if x:\n            return x\n    return None\n",
        "def f(xs):\n    for x in xs:\n        if x:\n            break\n    return xs\n",
        # `last` may be unbound before the loop and is only assigned conditionally
        "def f(xs):\n    for x in xs:\n        if x:\n            last = x\n    return xs\n",
        # inside a try: a partial update could be observed by the handler
        "def f(xs):\n    n = 0\n    try:\n        for x in xs:\n            n += 1 / x\n"
        "    except ZeroDivisionError:\n        return n\n    return n\n",
    ),
)


def test_extract_expression_passes_free_variables() -> None:
    result = Rewrite(
        ExtractHelperExpr,
        """
        def f(text, sep):
            parts = text.strip().split(sep)
            return [p.strip().lower() for p in parts if p], len(parts) * 2
        """,
        """
        def split_text(text, sep):
            return text.strip().split(sep)

        def f(text, sep):
            parts = split_text(text, sep)
            return [p.strip().lower() for p in parts if p], len(parts) * 2
        """,
        seed=2,
    ).check()
    assert result.provenance.line_map == {1: [4], 2: [2, 5], 3: [6]}


def test_a_helper_call_after_return_keeps_only_the_parentheses_it_needs() -> None:
    # `return(x)`: the parentheses are all that separates the keyword from the call.
    result = Rewrite(
        ExtractHelperExpr,
        """
        def f(a, b):
            a += 1
            return(a + b) * 2
        """,
        """
        def compute_product(a, b):
            return (a + b) * 2

        def f(a, b):
            a += 1
            return(compute_product(a, b))
        """,
    ).check()
    compile(result.code, "<variant>", "exec")


def test_a_helper_call_in_arithmetic_drops_the_parentheses_of_the_expression_it_replaces() -> None:
    # Reviewer's find: `mapping[k] = (choose_occ(mapping, k)) + 1`.
    Rewrite(
        ExtractHelperExpr,
        """
        def f(text):
            occ = {}
            for ch in text:
                occ[ch] = (occ[ch] if ch in occ else 0) + 1
            return list(occ.items())
        """,
        """
        def choose_value(occ, ch):
            return occ[ch] if ch in occ else 0

        def f(text):
            occ = {}
            for ch in text:
                occ[ch] = choose_value(occ, ch) + 1
            return list(occ.items())
        """,
        calls=[("abca",), ("",)],
    ).check()


def test_extract_loop_body_returns_what_it_assigns() -> None:
    before = """
        def f(text, lower, upper):
            count = 0
            new_text = []
            for char in text:
                char = lower if char.isdecimal() else upper
                if char in ["p", "C"]:
                    count += 1
                new_text.append(char)
            return count, "".join(new_text)
        """
    # `char` is rebound by the loop header before each run and not read after the loop:
    # only `count` flows out of the helper.
    after = """
        def update_count(char, lower, upper, count, new_text):
            char = lower if char.isdecimal() else upper
            if char in ["p", "C"]:
                count += 1
            new_text.append(char)
            return count

        def f(text, lower, upper):
            count = 0
            new_text = []
            for char in text:
                count = update_count(char, lower, upper, count, new_text)
            return count, "".join(new_text)
        """
    result = Rewrite(
        ExtractLoopBody, before, after, calls=[("a1p2", "p", "C"), ("", "x", "y")]
    ).check()
    assert result.provenance.line_map[1] == [8]
    assert result.provenance.line_map[5] == [2, 12]


def test_extract_loop_body_returns_only_what_the_caller_reads_after_the_call() -> None:
    # Reviewer's find: a helper returned `word`, a local nobody reads after the call.
    before = """
        def f(text):
            out = []
            total = 0
            for part in text.split():
                word = part.strip(".")
                total += len(word)
                out.append(word.upper())
            return out, total
        """
    after = """
        def update_total(part, total, out):
            word = part.strip(".")
            total += len(word)
            out.append(word.upper())
            return total

        def f(text):
            out = []
            total = 0
            for part in text.split():
                total = update_total(part, total, out)
            return out, total
        """
    Rewrite(ExtractLoopBody, before, after, calls=[("a. bc d.",), ("",)]).check()
    # The same local read after the loop is returned.
    read_after = before.replace("return out, total", "return out, total, word")
    result = transform(ExtractLoopBody, code(read_after), seed=0)
    assert result is not None and "word, total = update_text_and_total(" in result.code, result
    assert_equivalent(code(read_after), result.code, [("a. bc d.",)])
    read_by_test = """
        def f(num):
            step = 1
            while num > step:
                step = num // 3 + 1
                num -= step
            return num
        """
    # ... but a body that rebinds what the `while` test reads stays in its loop.
    assert transform(ExtractLoopBody, code(read_by_test), seed=0) is None


# What the variables of the expressions below hold (`transforms._roles`); the others say
# nothing ("value").
ROLES = {
    "text": "text", "s": "text", "word": "text", "sep": "text", "name": "text", "w": "text",
    "mode": "text", "items": "list", "nums": "list", "jumps": "list", "seen": "set",
    "count": "counter", "total": "counter", "limit": "number", "n": "number", "x": "number",
    "num": "number", "step": "number", "k": "number", "i": "index", "size": "length",
    "ch": "char", "occ": "dict",
}  # fmt: skip


@pytest.mark.parametrize(
    ("expr", "predicate", "name"),
    [
        ("n % 2 == 0", True, "is_even"),
        ("x > 0", True, "is_positive"),
        ("ch.isdigit()", True, "is_digit"),
        ("word in seen", True, "is_in_set"),
        ("len(text) > limit", True, "is_longer_than"),
        ("text.split(sep)", False, "split_text"),
        ("len(items)", False, "count_items"),
        ("s[::-1]", False, "reverse_text"),
        ("pair[::-1]", False, "reverse_copy"),
        ("total // 2", False, "halve_count"),
        ("a(b)", False, None),
        ("not w.startswith(a)", True, "does_not_start_with"),  # was `not_starts_with`
        # Predicates read as questions, not `is_differs_from_limit` or `is_is_limit`.
        ("count != limit", True, None),
        ("x != 0", True, "is_nonzero"),
        ("word not in seen", True, "is_not_in_set"),
        ("not (name is None)", True, "has_text"),
        ("not (count != limit)", True, None),
        ("len(text) <= 5", True, "is_length_at_most_5"),
        ("count == total", True, None),
        ("mode == 'fast'", True, "is_fast"),
        ("node is other", True, None),
        ("name is not None and n % 2 == 0", True, "has_text_and_is_even"),
        ("not len(text)", True, None),  # never a helper called `not`
        # Computations are verb phrases, not the nouns `combined`, `part_of_text`, `nums_at`.
        ("count + step", False, "combine_count"),
        # Reviewer's finds: `is_zero` for a divisibility test, `maketrans_text` for a method
        # a name cannot say, `differs_from_limit` when no limit is involved, `check_x`.
        ("i % a == 0", True, "is_multiple"),
        ("i % step != 0", True, "is_not_multiple_of_number"),
        ("len(items) == 0", True, "is_empty"),
        ("a - b == 0", True, None),
        ("(i % a == 0) != (i % b == 0)", True, None),
        ("text.maketrans(a, b)", False, None),
        ("text.count(c) == 0", True, None),
        ("x > 1 or y.isdigit()", True, None),
        ("a + b < c", True, None),
        # `compute_sum` for a count plus one, `swapcase_text` for one item's case.
        ("occ.get(name, 0) + 1", False, None),
        ("count + 1", False, "next_count"),
        ("text[i].swapcase()", False, "swapped_case"),
        ("text[1:].swapcase()", False, "swapcase_text"),
        ("(a + b) * 2", False, "compute_product"),
        ("text[1:]", False, "slice_text"),
        ("nums[i]", False, "pick_from_items"),
        ("str(num)", False, "number_to_text"),
        ("sorted(items)", False, "sort_items"),
        ("word if flag else other", False, "choose_text"),
        ("text[lower:upper].isascii()", False, "is_ascii"),  # was `isascii_text`
        ("(i + k) % size", False, "compute_remainder"),
        # Reviewer's find (bundled cb-160): `subtract_from_length_xs(xs)` for `len(xs) - 1`.
        ("len(jumps) - 1", False, "last_index"),
        ("len(jumps) - step", False, "subtract_from_length"),
        ("'%s!' % (name * 2)", False, "format_text"),
        # Reviewer's finds (issue 9): a name spelling the arguments it reads (`is_xs_above_c`
        # once renamed), `compute_sum` for a rotation, `multiply_char` for a repetition.
        ("xs[k] > c", True, None),
        ("len(xs) < c", True, "is_shorter_than"),
        ("a[k:] + a[:k]", False, "rotate"),
        ("a[k:] + b[:k]", False, None),
        ("a + b", False, None),
        ("nums + [n]", False, "combine_items"),
        ("ch * n", False, "repeat_char"),
        ("x > 1 or y.isdigit()", True, None),
        # Read on a build after the fix: `combine_items` for `items[idx:] + items[0:idx]`,
        # `multiply_count` for `cnt * t.title()`, `is_item_at_least_0` for `>= 0`.
        ("nums[k:] + nums[0:k]", False, "rotate"),
        ("count * s.title()", False, "repeat_text"),
        ("nums[i] >= 0", True, "is_non_negative"),
        # Reviewer's find (bundled cb-220): `pair_text(pw)` returned `zip` of three slices.
        ("zip(text, text[1:])", False, "pair_text"),
        ("zip(text, text[1:], text[2:])", False, "get_triples_of_text"),
        ("zip(s, s[1:], s[2:], s[3:])", False, "get_groups_of_text"),
    ],
)
def test_helper_names_from_the_expression(expr: str, predicate: bool, name: str | None) -> None:
    found = expression_helper_names(cst.parse_expression(expr), predicate, ROLES)
    assert found == ([name] if name else [])


def test_case(case: Case) -> None:
    case.check()


def test_a_helper_call_keeps_none_of_the_parentheses_the_expression_needed() -> None:
    # Reviewer's find (cb-105): `if (is_zero(i, a)) != (i % b == 0):`; the parentheses
    # belonged to the comparison, a call needs none. The same test in the `elif` moves too,
    # and so does the same test of `b`, calling the helper with its own variables.
    Rewrite(
        ExtractHelperExpr,
        """
        def f(limit, a, b):
            total = 0
            for i in range(1, limit):
                if (i % a == 0) != (i % b == 0):
                    total += i
                elif i % a == 0:
                    total -= 1
            return total
        """,
        """
        def is_multiple(i, a):
            return i % a == 0

        def f(limit, a, b):
            total = 0
            for i in range(1, limit):
                if is_multiple(i, a) != is_multiple(i, b):
                    total += i
                elif is_multiple(i, a):
                    total -= 1
            return total
        """,
        seed=1,
        calls=[(20, 3, 5), (16, 2, 4), (1, 2, 3)],
    ).check()


def test_an_if_test_in_parentheses_becomes_a_bare_call() -> None:
    Rewrite(
        ExtractHelperExpr,
        """
        def f(nums, k):
            if (len(nums) > k):
                return nums[:k]
            return nums
        """,
        """
        def is_longer_than(nums, k):
            return len(nums) > k

        def f(nums, k):
            if is_longer_than(nums, k):
                return nums[:k]
            return nums
        """,
        calls=[([1, 2, 3], 2), ([], 0)],
    ).check()


def test_no_helper_when_the_same_test_must_stay_inline_or_no_name_fits() -> None:
    # The second `i % a == 0` is an assignment target's subscript: it cannot move, so the
    # first does not either; `(i % a == 0) != b` has no name that says what it returns (it
    # was `differs_from_limit`), and `text.maketrans(a, b)` neither (it was `maketrans_text`).
    Declines(
        ExtractHelperExpr,
        """
        def f(i, a, b, seen, text):
            seen[i % a == 0] = 1
            t = text.maketrans(a, b)
            return (i % a == 0) != b, i % a == 0, t
        """,
        seeds=range(25),
    ).check()


def test_a_loop_body_helper_needs_a_name_that_says_what_it_updates() -> None:
    # Reviewer's finds: `loop_step`, `handle_i`, `update_a_and_b` name nothing.
    Declines(
        ExtractLoopBody,
        """
        def f(n):
            a, b = 0, 1
            for i in range(n):
                c = a + b
                a, b = b, c
            return a
        """,
        seeds=range(25),
    ).check()
    # Issue 9: nor `update_prev_and_cur`, which spells the variables it reads (renamed, it
    # would leak the old names or read `update_x_and_y`); nothing tells what they hold.
    Declines(
        ExtractLoopBody,
        """
        def f(n):
            prev, cur = 0, 1
            for i in range(n):
                nxt = prev + cur
                prev, cur = cur, nxt
            return prev
        """,
        seeds=range(25),
    ).check()
    Rewrite(
        ExtractLoopBody,
        """
        def f(text):
            total = 0
            for ch in text:
                if ch.isdigit():
                    total += int(ch)
            return total
        """,
        """
        def handle_char(ch, total):
            if ch.isdigit():
                total += int(ch)
            return total

        def f(text):
            total = 0
            for ch in text:
                total = handle_char(ch, total)
            return total
        """,
        calls=[("a1b23",), ("",)],
    ).check()


def test_tests_of_one_shape_named_apart_get_no_helper() -> None:
    # `is_multiple_of_step(i, size)` would be wrong for `i % size == 0`, and a helper for
    # one of them would leave the other inline.
    Declines(
        ExtractHelperExpr,
        """
        def f(i, step, size):
            return i % step == 0 and i % size == 0
        """,
        seeds=range(25),
    ).check()


def test_no_helper_for_a_test_that_is_branched_on_only_to_return_it() -> None:
    # Issue 9 (reviewer's find): `if is_x(...): return True` + `return False` around a
    # helper call, once idiom_return_branch had branched on the comparison.
    Declines(
        ExtractHelperExpr,
        """
        def f(text, limit):
            if len(text) > limit:
                return True
            return False
        """,
        seeds=range(25),
    ).check()
    Rewrite(
        ExtractHelperExpr,
        """
        def f(text, limit):
            if len(text) > limit:
                return text
            return ""
        """,
        """
        def is_longer_than(text, limit):
            return len(text) > limit

        def f(text, limit):
            if is_longer_than(text, limit):
                return text
            return ""
        """,
        calls=[("ab ", 1), ("", 0)],
    ).check()


def test_no_helper_for_the_left_part_of_a_longer_chain() -> None:
    # Reviewer's find (CRUXEval-like prefix sums): `compute_sum(m, r, c, pre) - pre[r][c]`
    # cut `a + b + c - d` where the parser groups, not where the meaning does.
    source = """
        def f(m, pre, r, c):
            pre[r + 1][c + 1] = m[r][c] + pre[r][c + 1] + pre[r + 1][c] - pre[r][c]
            return pre
        """
    for seed in range(25):
        out = transform(ExtractHelperExpr, code(source), seed=seed)
        if out is None:
            continue
        helper = out.code.split("def f(")[0]
        assert "return m[r][c] + pre[r][c + 1] + pre[r + 1][c]\n" not in helper, out.code
        assert "return m[r][c] + pre[r][c + 1]\n" not in helper, out.code
    # A parenthesized group is a unit of meaning: it may still move.
    grouped = "def f(xs, lo, hi):\n    return (xs[0] + xs[-1]) * (hi - lo)\n"
    helpers = set()
    for seed in range(25):
        out = transform(ExtractHelperExpr, grouped, seed=seed)
        if out is not None:
            helpers.add(out.code.split("def f(")[0].splitlines()[1].strip())
    assert "return xs[0] + xs[-1]" in helpers


ADVANCING_LOOPS = [
    # was `total, count, a, b = update_total_and_count(b, total, count, a)`
    "def f(limit):\n    a, b = 0, 1\n    total = count = 0\n    while b < limit:\n"
    "        if b % 2 == 0:\n            total += b\n            count += 1\n"
    "        a, b = b, a + b\n    return total, count\n",
    # was `i, out = add_to_out(items, i, out)`
    "def f(items):\n    out = []\n    i = 0\n    while i < len(items):\n        x = items[i]\n"
    "        i += 1\n        if x > 0:\n            out.append(x * 2)\n    return out\n",
]


@pytest.mark.parametrize("source", ADVANCING_LOOPS)
def test_a_while_loop_body_helper_never_advances_the_loop(source: str) -> None:
    Declines(ExtractLoopBody, source, seeds=range(25)).check()

"""idiom rewrites of straight-line str/list methods: removeprefix/removesuffix, ljust/rjust,
count, sort, and str.format as an f-string."""

from __future__ import annotations

from transform_cases import Case, Declines, Equivalent, Rewrite, cases, declines

from transforms._idioms_strings import FormatToFString
from transforms._idioms_text import (
    CountToSplit,
    InToFind,
    JustifyToConcat,
    RemovePrefixToSlice,
    SortToSorted,
)

CASES = cases(
    # CRUXEval sample_567-like: a literal affix slices by its length.
    removeprefix_and_removesuffix_with_literals_become_conditional_slices=Rewrite(
        RemovePrefixToSlice,
        """
        def f(s):
            return s.removeprefix('ab') + s.removesuffix('yz')
        """,
        """
        def f(s):
            return (s[2:] if s.startswith('ab') else s) + (s[:-2] if s.endswith('yz') else s)
        """,
        calls=[("abxyz",), ("",), ("ab",), ("yz",), ("a",)],
    ),
    # A str name: `len(s) - len(p)` keeps all of `s` for an empty `p` (`s[:-0]` would not).
    removesuffix_with_a_str_name_slices_by_both_lengths=Rewrite(
        RemovePrefixToSlice,
        """
        def f(text, suffix):
            suffix = suffix.strip()
            return text.removesuffix(suffix)
        """,
        """
        def f(text, suffix):
            suffix = suffix.strip()
            return text[:len(text) - len(suffix)] if text.endswith(suffix) else text
        """,
        calls=[("abc", "bc"), ("abc", ""), ("abc", " "), ("bc", "abc"), ("", "")],
    ),
    removeprefix_with_a_str_name=Rewrite(
        RemovePrefixToSlice,
        """
        def f(text, prefix):
            prefix = prefix.lower()
            out = text.removeprefix(prefix)
            return out
        """,
        """
        def f(text, prefix):
            prefix = prefix.lower()
            out = text[len(prefix):] if text.startswith(prefix) else text
            return out
        """,
        calls=[("abc", "AB"), ("abc", ""), ("a", "abc"), ("xab", "ab")],
    ),
    # CRUXEval sample_199: a parameter nothing types may be a str (removeprefix raises on
    # anything else, a tuple included, which verification sees).
    removesuffix_with_an_untyped_name=Rewrite(
        RemovePrefixToSlice,
        """
        def f(text, char):
            base = char * (text.count(char) + 1)
            return text.removesuffix(base)
        """,
        """
        def f(text, char):
            base = char * (text.count(char) + 1)
            return text[:len(text) - len(base)] if text.endswith(base) else text
        """,
        calls=[("mnmnj krupa...##!@#!@#$$@##", "@"), ("aa", "a"), ("", "x")],
    ),
    removeprefix_declines=declines(
        RemovePrefixToSlice,
        # `p` is shown to be a list.
        "def f(s, p):\n    p.append(1)\n    return s.removeprefix(p)\n",
        # An empty literal removes nothing.
        "def f(s):\n    return s.removeprefix('')\n",
        # `s` is shown to be a list.
        "def f(s):\n    s.append(1)\n    return s.removeprefix('a')\n",
        # A conditional expression as the test of an `if` reads as no one writes it.
        "def f(s, p):\n    if s.removeprefix('a'):\n        return s\n    return p\n",
        # The receiver would be evaluated three times.
        "def f(s):\n    return s.lower().removeprefix('a')\n",
    ),
    ljust_and_rjust_become_concatenated_fill=Rewrite(
        JustifyToConcat,
        """
        def f(s, n):
            return s.ljust(n + 1, '*'), s.rjust(10)
        """,
        """
        def f(s, n):
            return s + '*' * (n + 1 - len(s)), ' ' * (10 - len(s)) + s
        """,
        calls=[("ab", 4), ("abcdef", 2), ("", 0), ("x", -3)],
    ),
    # CRUXEval sample_267: a width computed from the length is kept as it is.
    ljust_by_a_width_computed_from_the_length=Rewrite(
        JustifyToConcat,
        """
        def f(text, space):
            if space < 0:
                return text
            return text.ljust(len(text) // 2 + space)
        """,
        """
        def f(text, space):
            if space < 0:
                return text
            return text + ' ' * (len(text) // 2 + space - len(text))
        """,
        calls=[("abcd", 1), ("abcdef", 5), ("", 0), ("x", -1)],
    ),
    justify_equivalent_over_seeds=Equivalent(
        JustifyToConcat,
        """
        def f(text, width):
            line = text.rjust(width, '0')
            return line.ljust(width * 2, '-')
        """,
        calls=[("12", 5), ("123456", 3), ("", 1), ("a", 0), ("ab", 2.5)],
    ),
    justify_declines=declines(
        JustifyToConcat,
        # ljust takes a one-character fill only; `*` repeats any str.
        "def f(s, c):\n    return s.ljust(5, c)\n",
        "def f(s):\n    return s.ljust(5, '--')\n",
        # The width would be evaluated after the fill and `len(s)`: it must not act.
        "def f(s, xs):\n    return s.ljust(xs.pop())\n",
        # `s` is shown to be a list.
        "def f(s):\n    s.append(0)\n    return s.ljust(3)\n",
        # CRUXEval sample_40: `s + '#' * (len(s) + 1 - len(s))` pads as no one does.
        "def f(s):\n    return s.ljust(len(s) + 1, '#')\n",
    ),
    count_of_a_substring_becomes_split_pieces=Rewrite(
        CountToSplit,
        """
        def f(text):
            text = text.lower()
            return text.count('ab') * 2
        """,
        """
        def f(text):
            text = text.lower()
            return (len(text.split('ab')) - 1) * 2
        """,
        calls=[("abab",), ("aBAb",), ("",), ("aaa",)],
    ),
    # Overlapping occurrences: both count 'aa' in 'aaaa' twice, not three times.
    count_split_equivalent_on_overlaps=Equivalent(
        CountToSplit,
        "def f(s):\n    s = s.lower()\n    return s.count('aa') + s.count('a')\n",
        calls=[("aaaa",), ("aaa",), ("",), ("baab",)],
    ),
    count_split_declines=declines(
        CountToSplit,
        # A list counts items and has no split: the receiver must be a proven str.
        "def f(s):\n    return s.count('ab')\n",
        # An empty needle: count gives len(s) + 1, split raises ValueError.
        "def f(s):\n    s = s.lower()\n    return s.count('')\n",
        "def f(s, x):\n    s = s.lower()\n    return s.count(x)\n",
    ),
    sort_becomes_sorted_into_the_whole_slice=Rewrite(
        SortToSorted,
        """
        def f(nums):
            nums.sort(key=lambda n: -n, reverse=True)
            return nums
        """,
        """
        def f(nums):
            nums[:] = sorted(nums, key=lambda n: -n, reverse=True)
            return nums
        """,
        calls=[([3, 1, 2],), ([],), ([1, 1, 0],)],
    ),
    # CRUXEval sample_164: slicing shows a sequence, and of those only a list has sort().
    sort_of_a_sliced_sequence=Rewrite(
        SortToSorted,
        """
        def f(lst):
            lst.sort()
            return lst[0:3]
        """,
        """
        def f(lst):
            lst[:] = sorted(lst)
            return lst[0:3]
        """,
        calls=[([5, 8, 1, 3, 0],), ([],)],
    ),
    # CRUXEval sample_0: a local list nothing else holds is rebound to its sorted copy.
    sort_of_an_unshared_local_rebinds_it=Rewrite(
        SortToSorted,
        """
        def f(nums):
            output = []
            for n in nums:
                output.append((nums.count(n), n))
            output.sort(reverse=True)
            return output
        """,
        """
        def f(nums):
            output = []
            for n in nums:
                output.append((nums.count(n), n))
            output = sorted(output, reverse=True)
            return output
        """,
        calls=[([1, 1, 3, 1, 3, 1],), ([],)],
    ),
    # An alias (or a list kept inside another) must see the order: the slice keeps it.
    sort_of_a_shared_local_assigns_the_slice=[
        Rewrite(
            SortToSorted,
            """
            def f(nums):
                out = nums
                out.sort()
                return nums
            """,
            """
            def f(nums):
                out = nums
                out[:] = sorted(out)
                return nums
            """,
            calls=[([3, 1, 2],)],
        ),
        Rewrite(
            SortToSorted,
            """
            def f(nums):
                out = list(nums)
                res = [out]
                out.sort()
                return res
            """,
            """
            def f(nums):
                out = list(nums)
                res = [out]
                out[:] = sorted(out)
                return res
            """,
            calls=[([3, 1, 2],)],
        ),
    ],
    # The caller's list is sorted in place by both (argument state is compared).
    sort_equivalent_on_the_argument=Equivalent(
        SortToSorted,
        """
        def f(words, key):
            words.sort()
            return key in words
        """,
        calls=[(["b", "a"], "a"), ([], "x")],
    ),
    sort_declines=declines(
        SortToSorted,
        # While sort() runs the list looks empty to a key that reads it.
        "def f(xs):\n    xs.sort(key=xs.index)\n    return xs\n",
        "def f(xs):\n    g = lambda x: len(xs)\n    xs.sort(key=g)\n    return xs\n",
        # `xs` is shown to be a str.
        "def f(xs):\n    xs = xs.lower()\n    xs.sort()\n    return xs\n",
    ),
    # CRUXEval sample_237: partition shows `text` is a str.
    membership_in_a_str_becomes_find=Rewrite(
        InToFind,
        """
        def f(text, char):
            if char in text:
                suff, char, pref = text.partition(char)
                return suff + pref
            return text
        """,
        """
        def f(text, char):
            if text.find(char) != -1:
                suff, char, pref = text.partition(char)
                return suff + pref
            return text
        """,
        calls=[("abc", "b"), ("abc", "z"), ("", ""), ("abc", 1)],
    ),
    # No parentheses after `if ` for a test that started with a quote.
    negated_membership_becomes_find_equal_minus_one=Rewrite(
        InToFind,
        """
        def f(text):
            if ',' not in text.lower():
                return 1
            return 0
        """,
        """
        def f(text):
            if text.lower().find(',') == -1:
                return 1
            return 0
        """,
        calls=[("a,b",), ("ab",), ("",)],
    ),
    in_find_declines=declines(
        InToFind,
        # `in` on a list or a dict tests items or keys.
        "def f(xs, x):\n    return x in xs\n",
        "def f(xs, x):\n    xs.append(x)\n    return x in xs\n",
        # CRUXEval sample_89: `'AEIOU'.find(char) != -1` is not how a person tests a letter.
        "def f(char):\n    char = char.lower()\n    return char in 'aeiou'\n",
        # A call on each side: find would evaluate them in the other order.
        "def f(s, t):\n    return t.lower() in s.upper()\n",
    ),
    format_becomes_an_fstring=Rewrite(
        FormatToFString,
        """
        def f(name, n):
            return '{} has {!r:>4} items'.format(name, n)
        """,
        """
        def f(name, n):
            return f'{name} has {n!r:>4} items'
        """,
        calls=[("x", 3), ("", "ab")],
    ),
    # Numbered fields in another order, escaped braces, and the quote the text needs.
    format_with_numbered_fields_and_escapes=Rewrite(
        FormatToFString,
        """
        def f(a, b):
            return "{{{1}}}'s {0}".format(a, b[1:])
        """,
        """
        def f(a, b):
            return f"{{{b[1:]}}}'s {a}"
        """,
        calls=[(1, "xyz"), ("", "")],
    ),
    format_declines=declines(
        FormatToFString,
        # An argument used twice, or not at all.
        "def f(a):\n    return '{0}{0}'.format(a)\n",
        "def f(a, b):\n    return '{}'.format(a, b)\n",
        # Named fields, attributes and items are not plain fields.
        "def f(a):\n    return '{x}'.format(x=a)\n",
        "def f(a):\n    return '{0[1]}'.format(a)\n",
        # With a spec, format evaluates `b[0]` (which may raise) before formatting `a`.
        "def f(a, b):\n    return '{:d}{}'.format(a, b[0])\n",
        # Auto and manual numbering mixed: format raises ValueError.
        "def f(a, b):\n    return '{}{1}'.format(a, b)\n",
        # A call may act: the f-string would run it at another moment.
        "def f(a, xs):\n    return '{}{}'.format(xs.pop(), a)\n",
    ),
    # Both `format` calls of the function change (before: one of the two, seed by seed).
    every_format_call_of_the_function_becomes_an_fstring=Rewrite(
        FormatToFString,
        """
        def f(a, b):
            head = '{}:'.format(a)
            return '{} {}'.format(head, b)
        """,
        """
        def f(a, b):
            head = f'{a}:'
            return f'{head} {b}'
        """,
        calls=[("x", 1), ("", "")],
    ),
)


def test_case(case: Case) -> None:
    case.check()


def test_format_with_a_raising_spec_raises_alike() -> None:
    """`'{:d}'` on a str raises ValueError both as a call of format and as an f-string."""
    Equivalent(
        FormatToFString,
        "def f(a, b):\n    return 'n={:d}, m={}'.format(a, b)\n",
        calls=[(3, "x"), ("3", "x"), (True, None)],
    ).check()
    # Without arguments there is no field to move into an f-string.
    Declines(FormatToFString, "def f():\n    return 'x'.format()\n").check()

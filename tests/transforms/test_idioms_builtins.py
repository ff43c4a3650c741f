"""idiom rewrites between builtins, dict methods and the operations they stand for."""

from __future__ import annotations

import libcst as cst
from transform_cases import Case, Declines, Rewrite, Rewrites, cases, declines
from transform_testing import assert_equivalent

from transforms._analysis import ModuleInfo
from transforms._base import analysed
from transforms._idioms_builtins import (
    CopyComprehension,
    DictKeys,
    JoinComprehension,
    LenToTruth,
    LoopToCollectionComprehension,
    MapToComprehension,
    MembershipToGet,
    NegativeIndex,
    ReversedRange,
    ReverseSlice,
    StrConcatToJoin,
    StrMethodSwap,
)
from transforms._idioms_common import INT, STR, Kinds

CASES = cases(
    # CRUXEval sample_260 and sample_154: a slice assignment and a join take any iterable,
    # and `[::-1]` pins the value to a sequence, whose reversed() has the same items.
    reversed_into_a_slice_assignment_and_a_join=[
        Rewrite(
            ReverseSlice,
            """
            def f(nums, start, k):
                nums[start:start+k] = nums[start:start + k][::-1]
                return nums
            """,
            """
            def f(nums, start, k):
                nums[start:start+k] = reversed(nums[start:start + k])
                return nums
            """,
            calls=[([1, 2, 3, 4, 5, 6], 4, 2), ([], 0, 1), ([1, 2, 3], 0, 3)],
        ),
        Rewrite(
            ReverseSlice,
            """
            def f(s, c):
                s = s.split(' ')
                return c + '  ' + '  '.join(s[::-1])
            """,
            """
            def f(s, c):
                s = s.split(' ')
                return c + '  ' + '  '.join(reversed(s))
            """,
            calls=[("a b c", "x"), ("", "")],
        ),
        Rewrite(
            ReverseSlice,
            """
            def f(nums):
                nums[:] = nums[::-1]
                return nums
            """,
            """
            def f(nums):
                nums[:] = reversed(nums)
                return nums
            """,
            calls=[([1, 2, 3],), ([],)],
        ),
    ],
    len_comparison_becomes_truth_test=[
        Rewrites(
            LenToTruth,
            """
            def f(items):
                items.append(0)
                if len(items) == 0:
                    return 'empty'
                return 'full' if len(items) > 0 else 'none'
            """,
            {
                1: """
            def f(items):
                items.append(0)
                if not items:
                    return 'empty'
                return 'full' if len(items) > 0 else 'none'
            """,
                0: """
            def f(items):
                items.append(0)
                if len(items) == 0:
                    return 'empty'
                return 'full' if items else 'none'
            """,
            },
            calls=[([],), ([1],)],
        ),
    ],
    truth_test_becomes_len_comparison=[
        Rewrite(
            LenToTruth,
            """
            def f(text):
                t = text.lower()
                while t:
                    t = t[1:]
                return t
            """,
            """
            def f(text):
                t = text.lower()
                while len(t) > 0:
                    t = t[1:]
                return t
            """,
            calls=[("abc",), ("",)],
        ),
        Rewrite(
            LenToTruth,
            """
            def f(xs):
                xs.append(1)
                if not xs:
                    return 0
                return 1
            """,
            """
            def f(xs):
                xs.append(1)
                if len(xs) == 0:
                    return 0
                return 1
            """,
        ),
    ],
    # len() pins `x` to the builtins with a length, each true exactly when it is not 0 long
    # (on a number or a generator len() raises TypeError, which verification sees).
    len_of_an_untyped_name_becomes_its_truth=Rewrite(
        LenToTruth,
        """
        def f(x):
            return len(x) == 0
        """,
        """
        def f(x):
            return not x
        """,
        calls=[("",), ("a",), ([],), ((1,),), ({},), ({1: 2},), (set(),), (range(0),)],
    ),
    len_truth_declines_unknown_kinds_and_value_contexts=declines(
        LenToTruth,
        # `x` may be a number (truth without a length) or a generator.
        """
        def f(x):
            if x:
                return 0
            return 1
        """,
        # `len(xs) > 0` as a value is a bool; `xs` would be the list itself.
        """
        def f(xs):
            xs.append(1)
            return len(xs) > 0
        """,
    ),
    counting_branch_becomes_get=[
        Rewrite(
            MembershipToGet,
            """
            def f(x):
                cache = {}
                for item in x:
                    if item in cache:
                        cache[item] += 1
                    else:
                        cache[item] = 1
                return max(cache.values())
            """,
            """
            def f(x):
                cache = {}
                for item in x:
                    cache[item] = cache.get(item, 0) + 1
                return max(cache.values())
            """,
            calls=[([1, 2, 1],), ("abca",), ([],)],
        ),
        Rewrite(
            MembershipToGet,
            """
            def f(x):
                counts = {}
                for item in x:
                    if item not in counts:
                        counts[item] = 2
                    else:
                        counts[item] = counts[item] + 2
                return counts
            """,
            """
            def f(x):
                counts = {}
                for item in x:
                    counts[item] = counts.get(item, 0) + 2
                return counts
            """,
            calls=[([1, 2, 1],), ([],)],
        ),
    ],
    missing_key_initialisation_becomes_setdefault=[
        # `word[0]` is not a simple key: evaluating it again is fine, but the rewrite keeps to
        # names and literals.
        Declines(
            MembershipToGet,
            """
            def f(words):
                groups = {}
                for word in words:
                    if word[0] not in groups:
                        groups[word[0]] = []
                    groups[word[0]].append(word)
                return groups
            """,
        ),
        Rewrite(
            MembershipToGet,
            """
            def f(words):
                groups = {}
                for word in words:
                    first = word[0]
                    if first not in groups:
                        groups[first] = []
                    groups[first].append(word)
                return groups
            """,
            """
            def f(words):
                groups = {}
                for word in words:
                    first = word[0]
                    groups.setdefault(first, [])
                    groups[first].append(word)
                return groups
            """,
            calls=[(["ab", "ac", "b"],), ([],)],
        ),
    ],
    membership_get_declines_non_dicts_and_effectful_defaults=declines(
        MembershipToGet,
        # A list: `in` tests the items, `.get` does not exist.
        """
        def f(xs, k):
            xs.append(k)
            if k in xs:
                xs[k] += 1
            else:
                xs[k] = 1
            return xs
        """,
        # The default is a call: `.get` would evaluate it when the key is present too.
        """
        def f(k):
            d = {1: 2}
            if k in d:
                v = d[k]
            else:
                v = input()
            return v
        """,
        # Different increments: `get(k, 0) + 1` would store 1 where the original stores 5.
        """
        def f(k):
            d = {}
            if k in d:
                d[k] += 1
            else:
                d[k] = 5
            return d
        """,
    ),
    reverse_slice_becomes_reversed=[
        Rewrite(
            ReverseSlice,
            """
            def f(text):
                s = text.lower()
                return s[::-1]
            """,
            """
            def f(text):
                s = text.lower()
                return ''.join(reversed(s))
            """,
            calls=[("aBc",), ("",)],
        ),
        Rewrite(
            ReverseSlice,
            """
            def f(xs):
                xs.append(1)
                out = []
                for x in xs[::-1]:
                    out.append(x)
                return xs[::-1], out
            """,
            """
            def f(xs):
                xs.append(1)
                out = []
                for x in xs[::-1]:
                    out.append(x)
                return list(reversed(xs)), out
            """,
            calls=[([3, 2],), ([],)],
        ),
    ],
    reverse_slice_iterates_reversed_when_the_loop_leaves_the_sequence_alone=Rewrite(
        ReverseSlice,
        """
        def f(text):
            text = text.upper()
            n = 0
            for ch in text[::-1]:
                if ch == 'A':
                    n += 1
            return n
        """,
        """
        def f(text):
            text = text.upper()
            n = 0
            for ch in reversed(text):
                if ch == 'A':
                    n += 1
            return n
        """,
        calls=[("banana",), ("",)],
    ),
    # The body changes the list: `reversed` would see the change, the slice copy would not.
    reverse_slice_stays_when_the_loop_changes_the_list=Declines(
        ReverseSlice,
        """
        def f(xs):
            xs.append(0)
            for x in xs[::-1]:
                xs.pop()
            return xs
        """,
    ),
    reversed_becomes_reverse_slice=[
        Rewrite(
            ReverseSlice,
            """
            def f(text):
                return ''.join(reversed(text.strip()))
            """,
            """
            def f(text):
                return text.strip()[::-1]
            """,
            calls=[(" ab ",), ("",)],
        ),
        # `''.join(reversed(xs))` of a list of strs is a str, `xs[::-1]` a list.
        Declines(
            ReverseSlice,
            """
            def f(xs):
                xs.append('a')
                return ''.join(reversed(xs))
            """,
        ),
    ],
    join_of_list_comprehension_becomes_generator_and_back=[
        Rewrite(
            JoinComprehension,
            """
            def f(text, letter):
                return ''.join([letter if c == 'a' else c for c in text])
            """,
            """
            def f(text, letter):
                return ''.join(letter if c == 'a' else c for c in text)
            """,
            calls=[("banana", "x"), ("", "y")],
            back_seed=0,
        ),
        Rewrite(
            JoinComprehension,
            """
            def f(text):
                t = list(text)
                return ':'.join([c for c in t])
            """,
            """
            def f(text):
                t = list(text)
                return ':'.join(t)
            """,
            calls=[("abc",), ("",)],
        ),
    ],
    join_comprehension_declines_non_str_receivers=Declines(
        JoinComprehension,
        """
        def f(path, parts):
            path = path.copy()
            path.append(0)
            return path.join([p for p in parts])
        """,
    ),
    dict_filling_loop_becomes_dict_comprehension=Rewrite(
        LoopToCollectionComprehension,
        """
        def f(nums):
            copy = nums.copy()
            new = dict()
            for k in copy:
                new[k] = len(copy[k])
            return new
        """,
        """
        def f(nums):
            copy = nums.copy()
            new = {k: len(copy[k]) for k in copy}
            return new
        """,
        calls=[({"a": "xy", "b": ""},), ({},), ({"a": 1},)],
    ),
    set_filling_loop_with_a_test_becomes_set_comprehension=Rewrite(
        LoopToCollectionComprehension,
        """
        def f(nums):
            seen = set()
            for x in nums:
                if x > 2:
                    seen.add(x * 2)
            return sorted(seen)
        """,
        """
        def f(nums):
            seen = {x * 2 for x in nums if x > 2}
            return sorted(seen)
        """,
        calls=[([1, 3, 5, 3],), ([],), (["a"],)],
    ),
    collection_comprehension_declines_leaking_loop_variables_and_self_reads=declines(
        LoopToCollectionComprehension,
        # `k` is read after the loop: the comprehension would not bind it.
        """
        def f(xs):
            d = {}
            for k in xs:
                d[k] = 1
            return d, k
        """,
        # The value reads the dict being built.
        """
        def f(xs):
            d = {}
            for k in xs:
                d[k] = len(d)
            return d
        """,
        # Key and value may both raise: the loop raises the value's error first, the
        # comprehension the key's.
        """
        def f(xs):
            d = {}
            for k in xs:
                d[k[0]] = 1 // k[1]
            return d
        """,
    ),
    countdown_range_becomes_reversed_range_and_back=[
        Rewrite(
            ReversedRange,
            """
            def f(nums):
                out = []
                for i in range(len(nums) - 1, -1, -1):
                    out.append(nums[i])
                return out
            """,
            """
            def f(nums):
                out = []
                for i in reversed(range(len(nums))):
                    out.append(nums[i])
                return out
            """,
            calls=[([1, 2, 3],), ([],)],
            back_seed=0,
        ),
        Rewrites(
            ReversedRange,
            """
            def f(text):
                out = [k for k in range(10, 3, -1)]
                for i in range(len(text) - 1, 0, -1):
                    out.append(text[i])
                return out
            """,
            {
                0: """
                def f(text):
                    out = [k for k in range(10, 3, -1)]
                    for i in reversed(range(1, len(text))):
                        out.append(text[i])
                    return out
                """,
                1: """
                def f(text):
                    out = [k for k in reversed(range(4, 11))]
                    for i in range(len(text) - 1, 0, -1):
                        out.append(text[i])
                    return out
                """,
            },
            calls=[("abc",), ("",), ("a",)],
        ),
        # `n` may be a float: `range` raises where `n - 1` would not.
        Declines(
            ReversedRange,
            """
            def f(n):
                return [i for i in range(n - 2, -1, -1)]
            """,
        ),
    ],
    string_concatenation_in_a_loop_becomes_parts_and_join=[
        Rewrite(
            StrConcatToJoin,
            """
            def f(text):
                result = ''
                count = 0
                for ch in text:
                    if ch.isupper():
                        result += ch.lower()
                    else:
                        result += 'x'
                        count += 1
                return result, count
            """,
            """
            def f(text):
                parts = []
                count = 0
                for ch in text:
                    if ch.isupper():
                        parts.append(ch.lower())
                    else:
                        parts.append('x')
                        count += 1
                result = ''.join(parts)
                return result, count
            """,
            seed=2,
            calls=[("aBcD",), ("",)],
        ),
        Rewrite(
            StrConcatToJoin,
            """
            def f(num, l):
                t = ""
                while l > len(num):
                    t += '0'
                    l -= 1
                return t + num
            """,
            """
            def f(num, l):
                parts = []
                while l > len(num):
                    parts.append('0')
                    l -= 1
                t = ''.join(parts)
                return t + num
            """,
            seed=2,
            calls=[("12", 5), ("123", 1)],
        ),
    ],
    concat_parts_declines_reads_inside_the_loop_and_unknown_pieces=declines(
        StrConcatToJoin,
        # The loop reads the string it builds.
        """
        def f(text):
            s = ''
            for ch in text.lower():
                if ch not in s:
                    s += ch
            return s
        """,
        # `x` may be a list: `s += x` raises at once, the join only after the loop.
        """
        def f(xs):
            s = ''
            for x in xs:
                s += x
                print(x)
            return s
        """,
    ),
    loop_folds_skip_statements_that_do_not_mention_the_accumulator=[
        Rewrite(
            "idiom_loop_sum",
            """
            def f(s):
                count = 0
                digits = [d for d in s if d.isdigit()]
                for c in s:
                    if c.isdigit():
                        count += 1
                return digits, count
            """,
            """
            def f(s):
                digits = [d for d in s if d.isdigit()]
                count = sum(1 for c in s if c.isdigit())
                return digits, count
            """,
            calls=[("a1b22",), ("",)],
        ),
        # `total` is read between its initialisation and the loop.
        Declines(
            "idiom_loop_sum",
            """
            def f(xs):
                total = 0
                print(total)
                for x in xs:
                    total += len(x)
                return total
            """,
        ),
    ],
    comparison_with_an_empty_display_becomes_truth_test=[
        Rewrite(
            LenToTruth,
            """
            def f(names):
                names.sort()
                if names == []:
                    return ""
                return names[0]
            """,
            """
            def f(names):
                names.sort()
                if not names:
                    return ""
                return names[0]
            """,
            calls=[([],), (["b", "a"],)],
        ),
        # `x` may be 0 or None: falsy, but not equal to [].
        Declines(
            LenToTruth,
            """
            def f(x):
                if x == []:
                    return 1
                return 2
            """,
        ),
    ],
    str_methods_swap_declines_other_separators_and_counts=declines(
        StrMethodSwap,
        # `sep` may be None (split on whitespace): partition would raise.
        """
        def f(text, sep):
            return text.split(sep)[0]
        """,
        # maxsplit 0 keeps the whole string as the first field.
        """
        def f(text):
            return text.split(',', 0)[0]
        """,
        # A dict has no count(), but `in` tests its keys.
        """
        def f(d, x):
            d.setdefault(x, 0)
            if d.count(x) > 0:
                return 1
            return 0
        """,
    ),
    map_and_filter_become_comprehensions=[
        # Both calls of the statement become comprehensions together.
        Rewrite(
            MapToComprehension,
            """
            def f(nums):
                return list(map(lambda n: n * 2, nums)), list(filter(lambda n: n > 1, nums))
            """,
            """
            def f(nums):
                return [n * 2 for n in nums], [n for n in nums if n > 1]
            """,
            calls=[([1, 2, 3],), ([],)],
        ),
        Rewrite(
            MapToComprehension,
            """
            def f(nums):
                return ''.join(map(str, nums))
            """,
            """
            def f(nums):
                return ''.join(str(item) for item in nums)
            """,
            calls=[([1, 22],), ([],)],
        ),
    ],
    # Every site of the statement but `min(w, 3)`, whose only equivalent conditional puts
    # the literal first (`3 if 3 < w else w`).
    two_argument_max_and_min_become_conditionals=[
        Rewrite(
            MapToComprehension,
            """
            def f(text, w, lo=0):
                return text.zfill(max(1, w)), min(w, 3), max(lo, w)
            """,
            """
            def f(text, w, lo=0):
                return text.zfill(w if w > 1 else 1), min(w, 3), w if w > lo else lo
            """,
            calls=[("7", 3), ("7", -2), ("7", 1)],
        ),
        # `next` inside map stops map quietly but escapes a comprehension.
        Declines(
            MapToComprehension,
            """
            def f(its):
                return list(map(next, its))
            """,
        ),
    ],
    reverse_slice_handed_to_a_consumer_becomes_reversed=Rewrite(
        ReverseSlice,
        """
        def f(a):
            return dict(list(a.items())[::-1])
        """,
        """
        def f(a):
            return dict(reversed(list(a.items())))
        """,
        calls=[({1: 2, 3: 4},), ({},)],
    ),
    find_becomes_index_behind_a_membership_test=[
        Rewrite(
            StrMethodSwap,
            """
            def f(text, ch):
                text = text.lower()
                return text.find(ch)
            """,
            """
            def f(text, ch):
                text = text.lower()
                return text.index(ch) if ch in text else -1
            """,
            calls=[("abcb", "b"), ("abc", "z"), ("", ""), ("abc", 1)],
        ),
        # `items` is shown to be a list: it has index() but no find().
        Declines(
            StrMethodSwap,
            """
            def f(items, x):
                items.append(x)
                return items.find(x)
            """,
        ),
    ],
    startswith_becomes_find_at_zero=[
        Rewrite(
            StrMethodSwap,
            """
            def f(text, prefix):
                if text.startswith('ab'):
                    return 1
                return 0
            """,
            """
            def f(text, prefix):
                if text.find('ab') == 0:
                    return 1
                return 0
            """,
            calls=[("abc",), ("cab",), ("",), ("a",)],
        ),
        # The prefix may be a tuple, which startswith takes and find does not.
        Declines(
            StrMethodSwap,
            """
            def f(text, prefix):
                if text.startswith(prefix):
                    return 1
                return 0
            """,
        ),
    ],
    list_call_and_copying_comprehension_swap=[
        # Reviewer's find: `t = [item for item in text]`; a copy is spelled `list(text)`, so
        # only the comprehension becomes the call, never back.
        Rewrite(
            CopyComprehension,
            """
            def f(text):
                t = [item for item in text]
                t.append('!')
                return t
            """,
            """
            def f(text):
                t = list(text)
                t.append('!')
                return t
            """,
            calls=[("abc",), ("",), ({"a": 1},)],
        ),
        # A copy is `list(text)` or `[*text]`, back and forth.
        Rewrite(
            CopyComprehension,
            """
            def f(text):
                t = list(text)
                t.append('!')
                return t, set(text.split())
            """,
            """
            def f(text):
                t = [*text]
                t.append('!')
                return t, set(text.split())
            """,
            calls=[("abc",), ("",), ({"a": 1},), (5,)],
            back_seed=0,
        ),
        Rewrite(
            CopyComprehension,
            """
            def f(text):
                return {*text.split()}
            """,
            """
            def f(text):
                return set(text.split())
            """,
            calls=[("a b a",), ("",)],
        ),
        Rewrite(
            CopyComprehension,
            """
            def f(xs):
                return set(x * 2 for x in xs)
            """,
            """
            def f(xs):
                return {x * 2 for x in xs}
            """,
            calls=[([1, 2, 1],), ([],)],
        ),
        # `next` raising StopIteration ends the generator quietly, not a comprehension.
        Declines(
            CopyComprehension,
            """
            def f(its):
                return list(next(it) for it in its)
            """,
        ),
    ],
    reviewed_forms_stay_out=[
        # `for c in [ch for ch in s]` and `not s.find(p) == 0` are not what a person writes.
        Declines(
            CopyComprehension,
            """
            def f(ans):
                return len([c for c in list(ans) if c not in '02468'])
            """,
        ),
        Declines(
            StrMethodSwap,
            """
            def f(text):
                if not text.startswith('a'):
                    return 1
                return 0
            """,
        ),
    ],
    dict_keys_call_and_direct_iteration_swap=[
        # `d` is shown to be a list, which has no keys().
        Declines(
            DictKeys,
            """
            def f(d):
                d.sort()
                total = 0
                for key in d.keys():
                    total += d[key]
                return total
            """,
        ),
        Rewrite(
            DictKeys,
            """
            def f(d):
                d.get(0)
                total = 0
                for key in d.keys():
                    total += d[key]
                return total
            """,
            """
            def f(d):
                d.get(0)
                total = 0
                for key in d:
                    total += d[key]
                return total
            """,
            calls=[({"a": 1, "b": 2},), ({},)],
            back_seed=0,
        ),
    ],
    per_character_str_tests_become_all_over_the_characters=Rewrite(
        StrMethodSwap,
        """
        def f(text):
            text = text.strip()
            return not text.isdigit()
        """,
        """
        def f(text):
            text = text.strip()
            return not (len(text) > 0 and all(c.isdigit() for c in text))
        """,
        seed=0,
        calls=[(" 123 ",), ("",), ("12a",), ("\u0663",), ("  ",)],
    ),
    # A loop's character: `len(c) > 0 and all(...)` over one character is not natural.
    a_loop_character_is_not_asked_all_over_its_characters=Declines(
        StrMethodSwap,
        """
        def f(text):
            text = text.lower()
            n = 0
            for c in text:
                if c.isdigit():
                    n += 1
            return n
        """,
    ),
    last_item_by_negative_index_or_length=[
        Rewrite(
            NegativeIndex,
            """
            def f(text):
                text = text.lower()
                return text[-1]
            """,
            """
            def f(text):
                text = text.lower()
                return text[len(text) - 1]
            """,
            calls=[("abC",), ("",)],
            back_seed=0,
        ),
        # `text[-2]` of a one-character str raises; `text[len(text) - 2]` is `text[-1]`.
        Declines(
            NegativeIndex,
            """
            def f(text):
                text = text.lower()
                return text[-2]
            """,
        ),
    ],
)


def test_lookup_branch_and_conditional_become_get() -> None:
    before = """
        def f(d, key, default):
            d.items()
            if key in d:
                value = d[key]
            else:
                value = default
            return value, d[key] if key in d else None
        """
    after_branch = """
        def f(d, key, default):
            d.items()
            value = d.get(key, default)
            return value, d[key] if key in d else None
        """
    after_ifexp = before.replace("d[key] if key in d else None", "d.get(key)")
    calls = [({"a": 1}, "a", 0), ({"a": 1}, "b", 0), ({}, "b", [])]
    Rewrites(MembershipToGet, before, {1: after_branch, 0: after_ifexp}, calls).check()


def _kinds(source: str) -> Kinds:
    wrapper = analysed(source)
    assert wrapper is not None
    info = ModuleInfo.of(wrapper)
    func = info.module.body[0]
    assert isinstance(func, cst.FunctionDef)
    return Kinds(func, info)


def test_kinds_follow_a_name_rebound_from_itself() -> None:
    assert (
        _kinds("def f(text):\n    t = text.lower()\n    while t:\n        t = t[1:]\n").of_name("t")
        == STR
    )
    # `t + x` is a str whatever x is (or raises): still a str.
    assert _kinds("def f(x):\n    t = 'a'\n    t = t + x\n    t = t[0]\n").of_name("t") == STR
    assert _kinds("def f(x):\n    t = 'a'\n    t = [t]\n").of_name("t") is None


def _kinds_of(source: str, *names: str) -> dict[str, object]:
    """The kind that the analysis of `source`'s function gives each of `names`."""
    kinds = _kinds(source)
    return {name: kinds.of_name(name) for name in names}


def test_kinds_of_loop_items_over_a_str() -> None:
    source = "def f(text, items):\n    t = text.lower()\n    for c in t:\n        pass\n"
    source += "    for i, ch in enumerate(t):\n        pass\n    for x in items:\n        pass\n"
    # `items` is a parameter with no evidence: its items may be anything.
    assert _kinds_of(source, "c", "ch", "i", "x") == {"c": STR, "ch": STR, "i": INT, "x": None}


def test_kinds_of_str_method_arguments_and_str_additions() -> None:
    source = "def f(text, sub, rep, tail, n):\n    t = text.lower()\n"
    source += "    k = t.count(sub) + t.find(rep, n)\n    return t + tail, n\n"
    # Only the first argument of find is a str.
    kinds = {"sub": STR, "rep": STR, "tail": STR, "n": None}
    assert _kinds_of(source, *kinds) == kinds


def test_str_methods_swap_for_equivalent_str_methods() -> None:
    before = """
        def f(text):
            return text.strip('x')
        """
    after = """
        def f(text):
            return text.lstrip('x').rstrip('x')
        """
    Rewrite(StrMethodSwap, before, after).check()
    Rewrite(StrMethodSwap, after, before).check()
    assert_equivalent(before, after, [("xxaxbxx",), ("",), ("xxx",)])
    before = """
        def f(text):
            return text.split(':')[0], text.split('.')[-1]
        """
    # Both sites of the statement change together, whichever the seed picks.
    after = """
        def f(text):
            return text.partition(':')[0], text.rpartition('.')[2]
        """
    Rewrite(StrMethodSwap, before, after, seed=1).check()
    Rewrite(StrMethodSwap, before, after, seed=0).check()
    assert_equivalent(before, after, [("a:b:c.d.e",), ("",), ("abc",), (":.",)])
    before = """
        def f(text, sub):
            text = text.lower()
            if text.count(sub) > 0:
                return 1
            return 0
        """
    after = """
        def f(text, sub):
            text = text.lower()
            if sub in text:
                return 1
            return 0
        """
    Rewrite(StrMethodSwap, before, after, calls=[("abc", "b"), ("abc", "z"), ("", "")]).check()


def test_case(case: Case) -> None:
    case.check()

"""idiom rewrites between builtins, dict methods and the operations they stand for."""

from __future__ import annotations

import libcst as cst
from transform_testing import assert_declines, assert_equivalent, assert_transform

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


def test_len_comparison_becomes_truth_test() -> None:
    before = """
        def f(items):
            items.append(0)
            if len(items) == 0:
                return 'empty'
            return 'full' if len(items) > 0 else 'none'
        """
    after = """
        def f(items):
            items.append(0)
            if not items:
                return 'empty'
            return 'full' if len(items) > 0 else 'none'
        """
    assert_transform(LenToTruth, before, after, seed=1)
    after_truth = """
        def f(items):
            items.append(0)
            if len(items) == 0:
                return 'empty'
            return 'full' if items else 'none'
        """
    assert_transform(LenToTruth, before, after_truth, seed=0)
    assert_equivalent(before, after, [([],), ([1],)])
    assert_equivalent(before, after_truth, [([],), ([1],)])


def test_truth_test_becomes_len_comparison() -> None:
    before = """
        def f(text):
            t = text.lower()
            while t:
                t = t[1:]
            return t
        """
    after = """
        def f(text):
            t = text.lower()
            while len(t) > 0:
                t = t[1:]
            return t
        """
    assert_transform(LenToTruth, before, after)
    assert_equivalent(before, after, [("abc",), ("",)])
    before = """
        def f(xs):
            xs.append(1)
            if not xs:
                return 0
            return 1
        """
    after = """
        def f(xs):
            xs.append(1)
            if len(xs) == 0:
                return 0
            return 1
        """
    assert_transform(LenToTruth, before, after)


def test_len_truth_declines_unknown_kinds_and_value_contexts() -> None:
    # `x` may be a number (truth without a length) or a generator.
    assert_declines(
        LenToTruth,
        """
        def f(x):
            if x:
                return len(x) == 0
            return 1
        """,
    )
    # `len(xs) > 0` as a value is a bool; `xs` would be the list itself.
    assert_declines(
        LenToTruth,
        """
        def f(xs):
            xs.append(1)
            return len(xs) > 0
        """,
    )


def test_counting_branch_becomes_get() -> None:
    before = """
        def f(x):
            cache = {}
            for item in x:
                if item in cache:
                    cache[item] += 1
                else:
                    cache[item] = 1
            return max(cache.values())
        """
    after = """
        def f(x):
            cache = {}
            for item in x:
                cache[item] = cache.get(item, 0) + 1
            return max(cache.values())
        """
    assert_transform(MembershipToGet, before, after)
    assert_equivalent(before, after, [([1, 2, 1],), ("abca",), ([],)])
    before = """
        def f(x):
            counts = {}
            for item in x:
                if item not in counts:
                    counts[item] = 2
                else:
                    counts[item] = counts[item] + 2
            return counts
        """
    after = """
        def f(x):
            counts = {}
            for item in x:
                counts[item] = counts.get(item, 0) + 2
            return counts
        """
    assert_transform(MembershipToGet, before, after)
    assert_equivalent(before, after, [([1, 2, 1],), ([],)])


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
    after_ifexp = """
        def f(d, key, default):
            d.items()
            if key in d:
                value = d[key]
            else:
                value = default
            return value, d.get(key)
        """
    assert_transform(MembershipToGet, before, after_branch, seed=1)
    assert_transform(MembershipToGet, before, after_ifexp, seed=0)
    calls = [({"a": 1}, "a", 0), ({"a": 1}, "b", 0), ({}, "b", [])]
    assert_equivalent(before, after_branch, calls)
    assert_equivalent(before, after_ifexp, calls)


def test_missing_key_initialisation_becomes_setdefault() -> None:
    before = """
        def f(words):
            groups = {}
            for word in words:
                if word[0] not in groups:
                    groups[word[0]] = []
                groups[word[0]].append(word)
            return groups
        """
    # `word[0]` is not a simple key: evaluating it again is fine, but the rewrite keeps to
    # names and literals.
    assert_declines(MembershipToGet, before)
    before = """
        def f(words):
            groups = {}
            for word in words:
                first = word[0]
                if first not in groups:
                    groups[first] = []
                groups[first].append(word)
            return groups
        """
    after = """
        def f(words):
            groups = {}
            for word in words:
                first = word[0]
                groups.setdefault(first, [])
                groups[first].append(word)
            return groups
        """
    assert_transform(MembershipToGet, before, after)
    assert_equivalent(before, after, [(["ab", "ac", "b"],), ([],)])


def test_membership_get_declines_non_dicts_and_effectful_defaults() -> None:
    # A list: `in` tests the items, `.get` does not exist.
    assert_declines(
        MembershipToGet,
        """
        def f(xs, k):
            xs.append(k)
            if k in xs:
                xs[k] += 1
            else:
                xs[k] = 1
            return xs
        """,
    )
    # The default is a call: `.get` would evaluate it when the key is present too.
    assert_declines(
        MembershipToGet,
        """
        def f(k):
            d = {1: 2}
            if k in d:
                v = d[k]
            else:
                v = input()
            return v
        """,
    )
    # Different increments: `get(k, 0) + 1` would store 1 where the original stores 5.
    assert_declines(
        MembershipToGet,
        """
        def f(k):
            d = {}
            if k in d:
                d[k] += 1
            else:
                d[k] = 5
            return d
        """,
    )


def test_reverse_slice_becomes_reversed() -> None:
    before = """
        def f(text):
            s = text.lower()
            return s[::-1]
        """
    after = """
        def f(text):
            s = text.lower()
            return ''.join(reversed(s))
        """
    assert_transform(ReverseSlice, before, after)
    assert_equivalent(before, after, [("aBc",), ("",)])
    before = """
        def f(xs):
            xs.append(1)
            out = []
            for x in xs[::-1]:
                out.append(x)
            return xs[::-1], out
        """
    after_list = """
        def f(xs):
            xs.append(1)
            out = []
            for x in xs[::-1]:
                out.append(x)
            return list(reversed(xs)), out
        """
    assert_transform(ReverseSlice, before, after_list)
    assert_equivalent(before, after_list, [([3, 2],), ([],)])


def test_reverse_slice_iterates_reversed_when_the_loop_leaves_the_sequence_alone() -> None:
    before = """
        def f(text):
            text = text.upper()
            n = 0
            for ch in text[::-1]:
                if ch == 'A':
                    n += 1
            return n
        """
    after = """
        def f(text):
            text = text.upper()
            n = 0
            for ch in reversed(text):
                if ch == 'A':
                    n += 1
            return n
        """
    assert_transform(ReverseSlice, before, after)
    assert_equivalent(before, after, [("banana",), ("",)])
    # The body changes the list: `reversed` would see the change, the slice copy would not.
    assert_declines(
        ReverseSlice,
        """
        def f(xs):
            xs.append(0)
            for x in xs[::-1]:
                xs.pop()
            return xs
        """,
    )


def test_reversed_becomes_reverse_slice() -> None:
    before = """
        def f(text):
            return ''.join(reversed(text.strip()))
        """
    after = """
        def f(text):
            return text.strip()[::-1]
        """
    assert_transform(ReverseSlice, before, after)
    assert_equivalent(before, after, [(" ab ",), ("",)])
    # `''.join(reversed(xs))` of a list of strs is a str, `xs[::-1]` a list.
    assert_declines(
        ReverseSlice,
        """
        def f(xs):
            xs.append('a')
            return ''.join(reversed(xs))
        """,
    )


def test_join_of_list_comprehension_becomes_generator_and_back() -> None:
    before = """
        def f(text, letter):
            return ''.join([letter if c == 'a' else c for c in text])
        """
    after = """
        def f(text, letter):
            return ''.join(letter if c == 'a' else c for c in text)
        """
    assert_transform(JoinComprehension, before, after)
    assert_equivalent(before, after, [("banana", "x"), ("", "y")])
    assert_transform(JoinComprehension, after, before)
    before = """
        def f(text):
            t = list(text)
            return ':'.join([c for c in t])
        """
    after = """
        def f(text):
            t = list(text)
            return ':'.join(t)
        """
    assert_transform(JoinComprehension, before, after)
    assert_equivalent(before, after, [("abc",), ("",)])


def test_join_comprehension_declines_non_str_receivers() -> None:
    assert_declines(
        JoinComprehension,
        """
        def f(path, parts):
            return path.join([p for p in parts])
        """,
    )


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


def test_dict_filling_loop_becomes_dict_comprehension() -> None:
    before = """
        def f(nums):
            copy = nums.copy()
            new = dict()
            for k in copy:
                new[k] = len(copy[k])
            return new
        """
    after = """
        def f(nums):
            copy = nums.copy()
            new = {k: len(copy[k]) for k in copy}
            return new
        """
    assert_transform(LoopToCollectionComprehension, before, after)
    assert_equivalent(before, after, [({"a": "xy", "b": ""},), ({},), ({"a": 1},)])


def test_set_filling_loop_with_a_test_becomes_set_comprehension() -> None:
    before = """
        def f(nums):
            seen = set()
            for x in nums:
                if x > 2:
                    seen.add(x * 2)
            return sorted(seen)
        """
    after = """
        def f(nums):
            seen = {x * 2 for x in nums if x > 2}
            return sorted(seen)
        """
    assert_transform(LoopToCollectionComprehension, before, after)
    assert_equivalent(before, after, [([1, 3, 5, 3],), ([],), (["a"],)])


def test_collection_comprehension_declines_leaking_loop_variables_and_self_reads() -> None:
    # `k` is read after the loop: the comprehension would not bind it.
    assert_declines(
        LoopToCollectionComprehension,
        """
        def f(xs):
            d = {}
            for k in xs:
                d[k] = 1
            return d, k
        """,
    )
    # The value reads the dict being built.
    assert_declines(
        LoopToCollectionComprehension,
        """
        def f(xs):
            d = {}
            for k in xs:
                d[k] = len(d)
            return d
        """,
    )
    # Key and value may both raise: the loop raises the value's error first, the
    # comprehension the key's.
    assert_declines(
        LoopToCollectionComprehension,
        """
        def f(xs):
            d = {}
            for k in xs:
                d[k[0]] = 1 // k[1]
            return d
        """,
    )


def test_countdown_range_becomes_reversed_range_and_back() -> None:
    before = """
        def f(nums):
            out = []
            for i in range(len(nums) - 1, -1, -1):
                out.append(nums[i])
            return out
        """
    after = """
        def f(nums):
            out = []
            for i in reversed(range(len(nums))):
                out.append(nums[i])
            return out
        """
    assert_transform(ReversedRange, before, after)
    assert_transform(ReversedRange, after, before)
    assert_equivalent(before, after, [([1, 2, 3],), ([],)])
    before = """
        def f(text):
            out = [k for k in range(10, 3, -1)]
            for i in range(len(text) - 1, 0, -1):
                out.append(text[i])
            return out
        """
    after = """
        def f(text):
            out = [k for k in range(10, 3, -1)]
            for i in reversed(range(1, len(text))):
                out.append(text[i])
            return out
        """
    assert_transform(ReversedRange, before, after, seed=0)
    assert_equivalent(before, after, [("abc",), ("",), ("a",)])
    after = """
        def f(text):
            out = [k for k in reversed(range(4, 11))]
            for i in range(len(text) - 1, 0, -1):
                out.append(text[i])
            return out
        """
    assert_transform(ReversedRange, before, after, seed=1)
    assert_equivalent(before, after, [("abc",), ("",)])
    # `n` may be a float: `range` raises where `n - 1` would not.
    assert_declines(
        ReversedRange,
        """
        def f(n):
            return [i for i in range(n - 2, -1, -1)]
        """,
    )


def test_string_concatenation_in_a_loop_becomes_parts_and_join() -> None:
    before = """
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
        """
    after = """
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
        """
    assert_transform(StrConcatToJoin, before, after, seed=2)
    assert_equivalent(before, after, [("aBcD",), ("",)])
    before = """
        def f(num, l):
            t = ""
            while l > len(num):
                t += '0'
                l -= 1
            return t + num
        """
    after = """
        def f(num, l):
            parts = []
            while l > len(num):
                parts.append('0')
                l -= 1
            t = ''.join(parts)
            return t + num
        """
    assert_transform(StrConcatToJoin, before, after, seed=2)
    assert_equivalent(before, after, [("12", 5), ("123", 1)])


def test_concat_parts_declines_reads_inside_the_loop_and_unknown_pieces() -> None:
    # The loop reads the string it builds.
    assert_declines(
        StrConcatToJoin,
        """
        def f(text):
            s = ''
            for ch in text.lower():
                if ch not in s:
                    s += ch
            return s
        """,
    )
    # `x` may be a list: `s += x` raises at once, the join only after the loop.
    assert_declines(
        StrConcatToJoin,
        """
        def f(xs):
            s = ''
            for x in xs:
                s += x
                print(x)
            return s
        """,
    )


def test_kinds_of_loop_items_over_a_str() -> None:
    source = "def f(text, items):\n    t = text.lower()\n    for c in t:\n        pass\n"
    source += "    for i, ch in enumerate(t):\n        pass\n    for x in items:\n        pass\n"
    kinds = _kinds(source)
    assert kinds.of_name("c") == STR
    assert kinds.of_name("ch") == STR
    assert kinds.of_name("i") == INT
    # `items` is a parameter with no evidence: its items may be anything.
    assert kinds.of_name("x") is None


def test_kinds_of_str_method_arguments_and_str_additions() -> None:
    source = "def f(text, sub, rep, tail, n):\n    t = text.lower()\n"
    source += "    k = t.count(sub) + t.find(rep, n)\n    return t + tail, n\n"
    kinds = _kinds(source)
    assert kinds.of_name("sub") == STR
    assert kinds.of_name("rep") == STR
    assert kinds.of_name("tail") == STR
    # Only the first argument of find is a str.
    assert kinds.of_name("n") is None


def test_loop_folds_skip_statements_that_do_not_mention_the_accumulator() -> None:
    before = """
        def f(s):
            count = 0
            digits = [d for d in s if d.isdigit()]
            for c in s:
                if c.isdigit():
                    count += 1
            return digits, count
        """
    after = """
        def f(s):
            digits = [d for d in s if d.isdigit()]
            count = sum(1 for c in s if c.isdigit())
            return digits, count
        """
    assert_transform("idiom_loop_sum", before, after)
    assert_equivalent(before, after, [("a1b22",), ("",)])
    # `total` is read between its initialisation and the loop.
    assert_declines(
        "idiom_loop_sum",
        """
        def f(xs):
            total = 0
            print(total)
            for x in xs:
                total += len(x)
            return total
        """,
    )


def test_comparison_with_an_empty_display_becomes_truth_test() -> None:
    before = """
        def f(names):
            names.sort()
            if names == []:
                return ""
            return names[0]
        """
    after = """
        def f(names):
            names.sort()
            if not names:
                return ""
            return names[0]
        """
    assert_transform(LenToTruth, before, after)
    assert_equivalent(before, after, [([],), (["b", "a"],)])
    # `x` may be 0 or None: falsy, but not equal to [].
    assert_declines(
        LenToTruth,
        """
        def f(x):
            if x == []:
                return 1
            return 2
        """,
    )


def test_str_methods_swap_for_equivalent_str_methods() -> None:
    before = """
        def f(text):
            return text.strip('x')
        """
    after = """
        def f(text):
            return text.lstrip('x').rstrip('x')
        """
    assert_transform(StrMethodSwap, before, after)
    assert_transform(StrMethodSwap, after, before)
    assert_equivalent(before, after, [("xxaxbxx",), ("",), ("xxx",)])
    before = """
        def f(text):
            return text.split(':')[0], text.split('.')[-1]
        """
    after_first = """
        def f(text):
            return text.partition(':')[0], text.split('.')[-1]
        """
    after_last = """
        def f(text):
            return text.split(':')[0], text.rpartition('.')[2]
        """
    assert_transform(StrMethodSwap, before, after_first, seed=1)
    assert_transform(StrMethodSwap, before, after_last, seed=0)
    calls = [("a:b:c.d.e",), ("",), ("abc",), (":.",)]
    assert_equivalent(before, after_first, calls)
    assert_equivalent(before, after_last, calls)
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
    assert_transform(StrMethodSwap, before, after)
    assert_equivalent(before, after, [("abc", "b"), ("abc", "z"), ("", "")])


def test_str_methods_swap_declines_other_separators_and_counts() -> None:
    # `sep` may be None (split on whitespace): partition would raise.
    assert_declines(
        StrMethodSwap,
        """
        def f(text, sep):
            return text.split(sep)[0]
        """,
    )
    # maxsplit 0 keeps the whole string as the first field.
    assert_declines(
        StrMethodSwap,
        """
        def f(text):
            return text.split(',', 0)[0]
        """,
    )
    # A list's count and `in` agree only up to identity: the receiver must be a str.
    assert_declines(
        StrMethodSwap,
        """
        def f(xs, x):
            if xs.count(x) > 0:
                return 1
            return 0
        """,
    )


def test_map_and_filter_become_comprehensions() -> None:
    before = """
        def f(nums):
            return list(map(lambda n: n * 2, nums)), list(filter(lambda n: n > 1, nums))
        """
    after_map = """
        def f(nums):
            return [n * 2 for n in nums], list(filter(lambda n: n > 1, nums))
        """
    after_filter = """
        def f(nums):
            return list(map(lambda n: n * 2, nums)), [n for n in nums if n > 1]
        """
    assert_transform(MapToComprehension, before, after_map, seed=1)
    assert_transform(MapToComprehension, before, after_filter, seed=0)
    assert_equivalent(before, after_map, [([1, 2, 3],), ([],)])
    assert_equivalent(before, after_filter, [([1, 2, 3],), ([],)])
    before = """
        def f(nums):
            return ''.join(map(str, nums))
        """
    after = """
        def f(nums):
            return ''.join(str(item) for item in nums)
        """
    assert_transform(MapToComprehension, before, after)
    assert_equivalent(before, after, [([1, 22],), ([],)])


def test_two_argument_max_and_min_become_conditionals() -> None:
    before = """
        def f(text, w):
            return text.zfill(max(1, w)), min(w, 3)
        """
    after = """
        def f(text, w):
            return text.zfill(w if w > 1 else 1), min(w, 3)
        """
    assert_transform(MapToComprehension, before, after, seed=1)
    assert_equivalent(before, after, [("7", 3), ("7", -2), ("7", 1)])
    # `next` inside map stops map quietly but escapes a comprehension.
    assert_declines(
        MapToComprehension,
        """
        def f(its):
            return list(map(next, its))
        """,
    )


def test_reverse_slice_handed_to_a_consumer_becomes_reversed() -> None:
    before = """
        def f(a):
            return dict(list(a.items())[::-1])
        """
    after = """
        def f(a):
            return dict(reversed(list(a.items())))
        """
    assert_transform(ReverseSlice, before, after)
    assert_equivalent(before, after, [({1: 2, 3: 4},), ({},)])


def test_find_becomes_index_behind_a_membership_test() -> None:
    before = """
        def f(text, ch):
            text = text.lower()
            return text.find(ch)
        """
    after = """
        def f(text, ch):
            text = text.lower()
            return text.index(ch) if ch in text else -1
        """
    assert_transform(StrMethodSwap, before, after)
    assert_equivalent(before, after, [("abcb", "b"), ("abc", "z"), ("", ""), ("abc", 1)])
    # `items` may be a list: it has index() but no find().
    assert_declines(
        StrMethodSwap,
        """
        def f(items, x):
            return items.find(x)
        """,
    )


def test_startswith_becomes_find_at_zero() -> None:
    before = """
        def f(text, prefix):
            if text.startswith('ab'):
                return 1
            return 0
        """
    after = """
        def f(text, prefix):
            if text.find('ab') == 0:
                return 1
            return 0
        """
    assert_transform(StrMethodSwap, before, after)
    assert_equivalent(before, after, [("abc",), ("cab",), ("",), ("a",)])
    # The prefix may be a tuple, which startswith takes and find does not.
    assert_declines(
        StrMethodSwap,
        """
        def f(text, prefix):
            if text.startswith(prefix):
                return 1
            return 0
        """,
    )


def test_list_call_and_copying_comprehension_swap() -> None:
    before = """
        def f(text):
            t = list(text)
            t.append('!')
            return t
        """
    after = """
        def f(text):
            t = [item for item in text]
            t.append('!')
            return t
        """
    assert_transform(CopyComprehension, before, after, seed=2)
    assert_transform(CopyComprehension, after, before)
    assert_equivalent(before, after, [("abc",), ("",), ({"a": 1},)])
    before = """
        def f(xs):
            return set(x * 2 for x in xs)
        """
    after = """
        def f(xs):
            return {x * 2 for x in xs}
        """
    assert_transform(CopyComprehension, before, after)
    assert_equivalent(before, after, [([1, 2, 1],), ([],)])
    # `next` raising StopIteration ends the generator quietly, not a comprehension.
    assert_declines(
        CopyComprehension,
        """
        def f(its):
            return list(next(it) for it in its)
        """,
    )


def test_reviewed_forms_stay_out() -> None:
    # `for c in [ch for ch in s]` and `not s.find(p) == 0` are not what a person writes.
    assert_declines(
        CopyComprehension,
        """
        def f(ans):
            return len([c for c in list(ans) if c not in '02468'])
        """,
    )
    assert_declines(
        StrMethodSwap,
        """
        def f(text):
            if not text.startswith('a'):
                return 1
            return 0
        """,
    )


def test_dict_keys_call_and_direct_iteration_swap() -> None:
    # `d[key]` does not show a dict, and `.keys()` is the rewritten code itself.
    assert_declines(
        DictKeys,
        """
        def f(d):
            total = 0
            for key in d.keys():
                total += d[key]
            return total
        """,
    )
    before = """
        def f(d):
            d.get(0)
            total = 0
            for key in d.keys():
                total += d[key]
            return total
        """
    after = """
        def f(d):
            d.get(0)
            total = 0
            for key in d:
                total += d[key]
            return total
        """
    assert_transform(DictKeys, before, after)
    assert_transform(DictKeys, after, before)
    assert_equivalent(before, after, [({"a": 1, "b": 2},), ({},)])


def test_per_character_str_tests_become_all_over_the_characters() -> None:
    before = """
        def f(text):
            text = text.strip()
            return not text.isdigit()
        """
    after = """
        def f(text):
            text = text.strip()
            return not (len(text) > 0 and all(c.isdigit() for c in text))
        """
    assert_transform(StrMethodSwap, before, after, seed=0)
    assert_equivalent(before, after, [(" 123 ",), ("",), ("12a",), ("\u0663",), ("  ",)])
    # A loop's character: `len(c) > 0 and all(...)` over one character is not natural.
    assert_declines(
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
    )


def test_last_item_by_negative_index_or_length() -> None:
    before = """
        def f(text):
            text = text.lower()
            return text[-1]
        """
    after = """
        def f(text):
            text = text.lower()
            return text[len(text) - 1]
        """
    assert_transform(NegativeIndex, before, after)
    assert_transform(NegativeIndex, after, before)
    assert_equivalent(before, after, [("abC",), ("",)])
    # `text[-2]` of a one-character str raises; `text[len(text) - 2]` is `text[-1]`.
    assert_declines(
        NegativeIndex,
        """
        def f(text):
            text = text.lower()
            return text[-2]
        """,
    )

"""idiom rewrites of str/list/dict methods into operators, slices and loops."""

from __future__ import annotations

from transform_testing import (
    assert_declines,
    assert_equivalent,
    assert_transform,
    transform,
)

from transforms._idioms_methods import (
    AppendToAugAssign,
    AugAssignToAppend,
    ComprehensionToMapFilter,
    CountToSum,
    DictGetToMembership,
    FindToIn,
    FromkeysToComprehension,
    ItemsToKeyLookup,
    ListMethodToSlice,
    PopToDel,
    ReplaceToSplitJoin,
    StartswithToSlice,
)


def test_startswith_and_endswith_become_slice_comparisons() -> None:
    before = """
        def f(s):
            return s.startswith('ab') or not s.endswith('xyz')
        """
    after = """
        def f(s):
            return s[:2] == 'ab' or not s.endswith('xyz')
        """
    assert_transform(StartswithToSlice, before, after, seed=1)
    after = """
        def f(s):
            return s.startswith('ab') or s[-3:] != 'xyz'
        """
    assert_transform(StartswithToSlice, before, after, seed=0)
    assert_equivalent(before, after, [("abxyz",), ("",), ("xy",), ("abc",)])


def test_startswith_a_str_variable_uses_its_length() -> None:
    before = """
        def f(text, prefix):
            prefix = prefix.lower()
            return text.strip().startswith(prefix)
        """
    after = """
        def f(text, prefix):
            prefix = prefix.lower()
            return text.strip()[:len(prefix)] == prefix
        """
    assert_transform(StartswithToSlice, before, after)
    assert_equivalent(before, after, [("abc", "AB"), ("abc", ""), ("a", "abc")])


def test_startswith_declines_empty_literal_tuple_and_extra_arguments() -> None:
    assert_declines(
        StartswithToSlice,
        """
        def f(s, p):
            return s.endswith('') or s.startswith(('a', 'b')) or s.startswith('a', 1)
        """,
    )
    # `p` may be a tuple of prefixes.
    assert_declines(StartswithToSlice, "def f(s, p):\n    return s.lower().startswith(p)\n")
    # Nothing else shows that `s` is a str: on a list, startswith raises but the slice
    # comparison would not.
    assert_declines(StartswithToSlice, "def f(s):\n    return s.startswith('a')\n")


def test_find_comparison_becomes_membership() -> None:
    before = """
        def f(text, sub):
            if text.find(sub) == -1:
                return 'missing'
            return text.find('x') >= 0
        """
    after = """
        def f(text, sub):
            if sub not in text:
                return 'missing'
            return text.find('x') >= 0
        """
    assert_transform(FindToIn, before, after, seed=1)
    assert_equivalent(before, after, [("abc", "b"), ("abc", "z"), ("xa", ""), ("", "")])
    # A find() used for its position is not a membership test.
    assert_declines(FindToIn, "def f(s):\n    return s.find('a') > 0\n")


def test_count_of_a_character_becomes_sum() -> None:
    before = """
        def f(text):
            return text.lower().count('a') * 2
        """
    after = """
        def f(text):
            return sum(1 for x in text.lower() if x == 'a') * 2
        """
    assert_transform(CountToSum, before, after, seed=0)
    assert_equivalent(before, after, [("bAnana",), ("",)])
    # The same generator counts a list's items and a string's characters.
    before = """
        def f(values):
            items = list(values)
            return items.count('a')
        """
    after = """
        def f(values):
            items = list(values)
            return sum(1 for x in items if x == 'a')
        """
    assert_transform(CountToSum, before, after, seed=0)
    assert_equivalent(before, after, [("banana",), (["a", "b", "a"],), (("a",),)])
    # A dict has no count(): nothing shows that `d` is not one.
    assert_declines(CountToSum, "def f(d):\n    return d.count('a')\n")
    # A longer needle counts non-overlapping substrings of a str but items of a list.
    assert_declines(CountToSum, "def f(s):\n    return s.count('aa') + s.count('')\n")


def test_replace_becomes_split_and_join() -> None:
    before = """
        def f(text):
            return text.replace('ab', '-').upper()
        """
    after = """
        def f(text):
            return '-'.join(text.split('ab')).upper()
        """
    assert_transform(ReplaceToSplitJoin, before, after)
    assert_equivalent(before, after, [("abab c ab",), ("",), ("aab",), ("ababab",)])
    # replace('') inserts between characters; split('') raises.
    assert_declines(
        ReplaceToSplitJoin, "def f(s, t):\n    return s.replace('', '-') + s.replace(t, 'a')\n"
    )


def test_append_and_extend_become_augmented_assignment() -> None:
    before = """
        def f(nums):
            out = []
            for n in nums:
                out.append(n * 2)
            return out
        """
    after = """
        def f(nums):
            out = []
            for n in nums:
                out += [n * 2]
            return out
        """
    assert_transform(AppendToAugAssign, before, after)
    assert_equivalent(before, after, [([1, 2],), ([],)])
    before = """
        def f(nums, extra):
            nums.sort()
            nums.extend(extra)
            return nums
        """
    after = """
        def f(nums, extra):
            nums.sort()
            nums += extra
            return nums
        """
    assert_transform(AppendToAugAssign, before, after)
    assert_equivalent(before, after, [([1], (2, 3)), ([], "ab")])
    # Nothing but the call itself shows that `xs` is a list: on a str, append raises
    # AttributeError and `+=` TypeError.
    assert_declines(AppendToAugAssign, "def f(xs):\n    xs.append(1)\n    return xs\n")


def test_append_declines_non_local_and_unknown_receivers() -> None:
    # A global list: `+=` would make it local and raise UnboundLocalError.
    assert_declines(
        AppendToAugAssign,
        """
        items = []
        def f(x):
            items.append(x)
            return items
        """,
    )
    # An attribute or an item: `a[0] += [x]` also stores back into `a`.
    assert_declines(AppendToAugAssign, "def f(a, x):\n    a[0].append(x)\n    return a\n")


def test_pop_becomes_lookup_and_del() -> None:
    before = """
        def f(pairs, key):
            d = dict(pairs)
            value = d.pop(key)
            return value, d
        """
    after = """
        def f(pairs, key):
            d = dict(pairs)
            value = d[key]
            del d[key]
            return value, d
        """
    assert_transform(PopToDel, before, after)
    assert_equivalent(before, after, [({"a": 1, "b": 2}, "a"), ({"a": 1}, "z")])
    before = """
        def f(nums):
            nums.append(0)
            nums.pop()
            return nums
        """
    after = """
        def f(nums):
            nums.append(0)
            del nums[-1]
            return nums
        """
    assert_transform(PopToDel, before, after)
    assert_equivalent(before, after, [([1, 2],), ([],)])


def test_pop_declines_sets_defaults_and_self_reference() -> None:
    # Without an argument the receiver may be a set, which has no items by index.
    assert_declines(PopToDel, "def f(s):\n    x = s.pop()\n    return x\n")
    assert_declines(PopToDel, "def f(d, k):\n    x = d.pop(k, None)\n    return x\n")
    assert_declines(PopToDel, "def f(xs, i):\n    xs.sort()\n    i = xs.pop(i)\n    return i\n")
    # A str has no pop(): nothing shows that `xs` is a list or a dict.
    assert_declines(PopToDel, "def f(xs):\n    return xs.pop(0)\n")


def test_get_becomes_membership_test() -> None:
    before = """
        def f(words):
            counts = {}
            for w in words:
                counts[w] = counts.get(w, 0) + 1
            return counts
        """
    after = """
        def f(words):
            counts = {}
            for w in words:
                counts[w] = (counts[w] if w in counts else 0) + 1
            return counts
        """
    assert_transform(DictGetToMembership, before, after)
    assert_equivalent(before, after, [(["a", "b", "a"],), ([],)])
    # The default would be evaluated only when the key is missing.
    assert_declines(DictGetToMembership, "def f(d, k):\n    return d.get(k, print('miss'))\n")


def test_items_loop_becomes_key_loop_with_lookup() -> None:
    before = """
        def f(pairs):
            d = dict(pairs)
            out = []
            for k, v in d.items():
                out.append(k * v)
            return out
        """
    after = """
        def f(pairs):
            d = dict(pairs)
            out = []
            for k in d:
                v = d[k]
                out.append(k * v)
            return out
        """
    assert_transform(ItemsToKeyLookup, before, after)
    assert_equivalent(before, after, [({1: 2, 3: 4},), ({},)])
    # The body rebinds the dict.
    assert_declines(
        ItemsToKeyLookup,
        """
        def f(d):
            d = {}
            for k, v in d.items():
                d = {}
            return d
        """,
    )
    # CRUXEval sample_695: `dj` is an item of a list and may be a str, on which items()
    # raises AttributeError but `dj[kk]` TypeError.
    assert_declines(
        ItemsToKeyLookup,
        """
        def f(d):
            result = {}
            for li in d.values():
                for dj in li:
                    for kk, l in dj.items():
                        result[kk] = l
            return result
        """,
    )


def test_list_methods_become_slice_and_item_operations() -> None:
    cases = [
        ("nums.reverse()", "nums[:] = nums[::-1]"),
        ("nums.clear()", "del nums[:]"),
        ("nums.insert(0, 9)", "nums[:0] = [9]"),
        ("nums.insert(i, 9)", "nums[i:i] = [9]"),
        ("nums.remove(2)", "del nums[nums.index(2)]"),
    ]
    for call, statement in cases:
        before = f"def f(nums, i):\n    nums.sort()\n    {call}\n    return nums\n"
        after = f"def f(nums, i):\n    nums.sort()\n    {statement}\n    return nums\n"
        result = transform(ListMethodToSlice, before, seed=0)
        assert result is not None and result.code == after, (call, result)
        assert_equivalent(before, after, [([3, 2, 1], 1), ([2], 5), ([2, 2], -9)])
    # A set also has remove() and clear(): nothing shows `s` is a list.
    assert_declines(ListMethodToSlice, "def f(s):\n    s.remove(1)\n    return s\n")


def test_copy_and_single_key_update() -> None:
    before = """
        def f(pairs, k):
            d = dict(pairs)
            e = d.copy()
            e.update({k: 0})
            return d, e
        """
    after = """
        def f(pairs, k):
            d = dict(pairs)
            e = dict(d)
            e.update({k: 0})
            return d, e
        """
    assert_transform(ListMethodToSlice, before, after, seed=1)
    after = """
        def f(pairs, k):
            d = dict(pairs)
            e = d.copy()
            e[k] = 0
            return d, e
        """
    assert_transform(ListMethodToSlice, before, after, seed=0)
    assert_equivalent(before, after, [({"a": 1}, "a"), ({}, "b")])


def test_list_augassign_becomes_append_and_extend() -> None:
    before = """
        def f(nums):
            out = []
            for n in nums:
                out += [n]
            out += nums
            return out
        """
    after = """
        def f(nums):
            out = []
            for n in nums:
                out.append(n)
            out += nums
            return out
        """
    assert_transform(AugAssignToAppend, before, after, seed=1)
    assert_equivalent(before, after, [([1, 2],), ([],)])
    # `s` may be a str, where += concatenates.
    assert_declines(AugAssignToAppend, "def f(s):\n    s += [1]\n    return s\n")


def test_fromkeys_becomes_dict_comprehension() -> None:
    before = """
        def f(keys, fill):
            return dict.fromkeys(keys, fill)
        """
    after = """
        def f(keys, fill):
            return {k: fill for k in keys}
        """
    assert_transform(FromkeysToComprehension, before, after, seed=0)
    assert_equivalent(before, after, [(["a", "b", "a"], 1), ("xy", None)])
    # A mutable default is shared by every key with fromkeys(), fresh with a comprehension.
    assert_declines(FromkeysToComprehension, "def f(k):\n    return dict.fromkeys(k, [])\n")


def test_comprehension_becomes_map_or_filter() -> None:
    before = """
        def f(nums):
            return ''.join(str(n) for n in nums)
        """
    after = """
        def f(nums):
            return ''.join(map(str, nums))
        """
    assert_transform(ComprehensionToMapFilter, before, after)
    assert_equivalent(before, after, [([1, 22],), ([],)])
    before = """
        def f(words):
            kept = [w for w in words if len(w) > 2]
            return kept
        """
    after = """
        def f(words):
            kept = list(filter(lambda w: len(w) > 2, words))
            return kept
        """
    assert_transform(ComprehensionToMapFilter, before, after)
    assert_equivalent(before, after, [(["abc", "d", "efgh"],), ([],)])
    # A generator that is not consumed at once stays lazy either way, but one passed on
    # elsewhere is left alone.
    assert_declines(ComprehensionToMapFilter, "def f(xs):\n    return g(str(x) for x in xs)\n")


def test_a_negated_startswith_becomes_an_inequality_not_not_before_a_comparison() -> None:
    # CRUXEval sample_125 after a guard clause. Before: `if not text[:1] == '!':`.
    before = """
        def f(text):
            if not text.startswith('!'):
                return text
            return text.lower()
        """
    after = """
        def f(text):
            if text[:1] != '!':
                return text
            return text.lower()
        """
    assert_transform(StartswithToSlice, before, after)
    assert_equivalent(before, after, [("!a",), ("a",), ("",)])

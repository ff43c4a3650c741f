"""idiom rewrites of str/list/dict methods into operators, slices and loops."""

from __future__ import annotations

from transform_cases import Case, Declines, Rewrite, Rewrites, cases, declines
from transform_testing import assert_equivalent, transform

from transforms import verify_equivalent
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

CASES = cases(
    # Both sites of one statement change together (a person writes both one way), each
    # `not` folded into its comparison.
    startswith_and_endswith_become_slice_comparisons=Rewrite(
        StartswithToSlice,
        """
        def f(s):
            return s.startswith('ab') or not s.endswith('xyz')
        """,
        """
        def f(s):
            return s[:2] == 'ab' or s[-3:] != 'xyz'
        """,
        calls=[("abxyz",), ("",), ("xy",), ("abc",)],
    ),
    # CRUXEval sample_125 after a guard clause. Before: `if not text[:1] == '!':`.
    a_negated_startswith_becomes_an_inequality_not_not_before_a_comparison=Rewrite(
        StartswithToSlice,
        """
        def f(text):
            if not text.startswith('!'):
                return text
            return text.lower()
        """,
        """
        def f(text):
            if text[:1] != '!':
                return text
            return text.lower()
        """,
        calls=[("!a",), ("a",), ("",)],
    ),
    startswith_a_str_variable_uses_its_length=Rewrite(
        StartswithToSlice,
        """
        def f(text, prefix):
            prefix = prefix.lower()
            return text.strip().startswith(prefix)
        """,
        """
        def f(text, prefix):
            prefix = prefix.lower()
            return text.strip()[:len(prefix)] == prefix
        """,
        calls=[("abc", "AB"), ("abc", ""), ("a", "abc")],
    ),
    startswith_declines_empty_literal_tuple_and_extra_arguments=declines(
        StartswithToSlice,
        """
        def f(s, p):
            return s.endswith('') or s.startswith(('a', 'b')) or s.startswith('a', 1)
        """,
        # `p` may be a tuple of prefixes.
        "def f(s, p):\n    return s.lower().startswith(p)\n",
        # `s` is shown to be a list: startswith raises on it, the slice comparison would not.
        "def f(s):\n    s.append(1)\n    return s.startswith('a')\n",
    ),
    # Both membership tests of `text` change (before: `return text.find('x') >= 0` was left
    # beside `if sub not in text:`).
    find_comparison_becomes_membership=[
        Rewrite(
            FindToIn,
            """
            def f(text, sub):
                if text.find(sub) == -1:
                    return 'missing'
                return text.find('x') >= 0
            """,
            """
            def f(text, sub):
                if sub not in text:
                    return 'missing'
                return 'x' in text
            """,
            seed=1,
            calls=[("abc", "b"), ("abc", "z"), ("xa", ""), ("", "")],
        ),
        # A find() used for its position is not a membership test.
        Declines(
            FindToIn,
            "def f(s):\n    return s.find('a') > 0\n",
        ),
    ],
    replace_becomes_split_and_join=[
        Rewrite(
            ReplaceToSplitJoin,
            """
            def f(text):
                return text.replace('ab', '-').upper()
            """,
            """
            def f(text):
                return '-'.join(text.split('ab')).upper()
            """,
            calls=[("abab c ab",), ("",), ("aab",), ("ababab",)],
        ),
        # replace('') inserts between characters; split('') raises.
        Declines(
            ReplaceToSplitJoin,
            "def f(s, t):\n    return s.replace('', '-') + s.replace(t, 'a')\n",
        ),
    ],
    append_and_extend_become_augmented_assignment=[
        Rewrite(
            AppendToAugAssign,
            """
            def f(nums):
                out = []
                for n in nums:
                    out.append(n * 2)
                return out
            """,
            """
            def f(nums):
                out = []
                for n in nums:
                    out += [n * 2]
                return out
            """,
            calls=[([1, 2],), ([],)],
        ),
        Rewrite(
            AppendToAugAssign,
            """
            def f(nums, extra):
                nums.sort()
                nums.extend(extra)
                return nums
            """,
            """
            def f(nums, extra):
                nums.sort()
                nums += extra
                return nums
            """,
            calls=[([1], (2, 3)), ([], "ab")],
        ),
        # `xs` is shown to be a str: append raises AttributeError on it, `+=` TypeError.
        Declines(
            AppendToAugAssign,
            "def f(xs):\n    xs = xs.lower()\n    xs.append(1)\n    return xs\n",
        ),
    ],
    append_declines_non_local_and_unknown_receivers=declines(
        AppendToAugAssign,
        # A global list: `+=` would make it local and raise UnboundLocalError.
        """
        items = []
        def f(x):
            items.append(x)
            return items
        """,
        # An attribute or an item: `a[0] += [x]` also stores back into `a`.
        "def f(a, x):\n    a[0].append(x)\n    return a\n",
    ),
    pop_becomes_lookup_and_del=[
        Rewrite(
            PopToDel,
            """
            def f(pairs, key):
                d = dict(pairs)
                value = d.pop(key)
                return value, d
            """,
            """
            def f(pairs, key):
                d = dict(pairs)
                value = d[key]
                del d[key]
                return value, d
            """,
            calls=[({"a": 1, "b": 2}, "a"), ({"a": 1}, "z")],
        ),
        Rewrite(
            PopToDel,
            """
            def f(nums):
                nums.append(0)
                nums.pop()
                return nums
            """,
            """
            def f(nums):
                nums.append(0)
                del nums[-1]
                return nums
            """,
            calls=[([1, 2],), ([],)],
        ),
    ],
    pop_declines_sets_defaults_and_self_reference=declines(
        PopToDel,
        # Without an argument the receiver may be a set, which has no items by index.
        "def f(s):\n    x = s.pop()\n    return x\n",
        "def f(d, k):\n    x = d.pop(k, None)\n    return x\n",
        "def f(xs, i):\n    xs.sort()\n    i = xs.pop(i)\n    return i\n",
        # `xs` is shown to be a str, which has no pop().
        "def f(xs):\n    xs = xs.upper()\n    x = xs.pop(0)\n    return x\n",
        # A local of unknown kind may be a defaultdict, where `d[k]` adds a missing key.
        """
        import collections
        def f(k):
            d = collections.defaultdict(int)
            x = d.pop(k)
            return x
        """,
    ),
    get_becomes_membership_test=[
        Rewrite(
            DictGetToMembership,
            """
            def f(words):
                counts = {}
                for w in words:
                    counts[w] = counts.get(w, 0) + 1
                return counts
            """,
            """
            def f(words):
                counts = {}
                for w in words:
                    counts[w] = (counts[w] if w in counts else 0) + 1
                return counts
            """,
            calls=[(["a", "b", "a"],), ([],)],
        ),
        # The default would be evaluated only when the key is missing.
        Declines(
            DictGetToMembership,
            "def f(d, k):\n    return d.get(k, print('miss'))\n",
        ),
    ],
    items_loop_becomes_key_loop_with_lookup=[
        Rewrite(
            ItemsToKeyLookup,
            """
            def f(pairs):
                d = dict(pairs)
                out = []
                for k, v in d.items():
                    out.append(k * v)
                return out
            """,
            """
            def f(pairs):
                d = dict(pairs)
                out = []
                for k in d:
                    v = d[k]
                    out.append(k * v)
                return out
            """,
            calls=[({1: 2, 3: 4},), ({},)],
        ),
        *declines(
            ItemsToKeyLookup,
            # The body rebinds the dict.
            """
            def f(d):
                d = {}
                for k, v in d.items():
                    d = {}
                return d
            """,
            # `s` is shown to be a str: items() raises AttributeError on it, `s[k]` TypeError.
            """
            def f(s):
                s = s.strip()
                for k, v in s.items():
                    pass
                return s
            """,
        ),
    ],
    copy_and_single_key_update=[
        Rewrites(
            ListMethodToSlice,
            """
            def f(pairs, k):
                d = dict(pairs)
                e = d.copy()
                e.update({k: 0})
                return d, e
            """,
            {
                1: """
                def f(pairs, k):
                    d = dict(pairs)
                    e = dict(d)
                    e.update({k: 0})
                    return d, e
                """,
                0: """
                def f(pairs, k):
                    d = dict(pairs)
                    e = d.copy()
                    e[k] = 0
                    return d, e
                """,
            },
            calls=[({"a": 1}, "a"), ({}, "b")],
        ),
    ],
    # Both `out += ...` change (before: `out += nums` was left beside `out.append(n)`).
    list_augassign_becomes_append_and_extend=[
        Rewrite(
            AugAssignToAppend,
            """
            def f(nums):
                out = []
                for n in nums:
                    out += [n]
                out += nums
                return out
            """,
            """
            def f(nums):
                out = []
                for n in nums:
                    out.append(n)
                out.extend(nums)
                return out
            """,
            seed=1,
            calls=[([1, 2],), ([],)],
        ),
        # `s` may be a str, where += concatenates.
        Declines(
            AugAssignToAppend,
            "def f(s):\n    s += [1]\n    return s\n",
        ),
    ],
    fromkeys_becomes_dict_comprehension=[
        Rewrite(
            FromkeysToComprehension,
            """
            def f(keys, fill):
                return dict.fromkeys(keys, fill)
            """,
            """
            def f(keys, fill):
                return {k: fill for k in keys}
            """,
            seed=0,
            calls=[(["a", "b", "a"], 1), ("xy", None)],
        ),
        # A mutable default is shared by every key with fromkeys(), fresh with a comprehension.
        Declines(
            FromkeysToComprehension,
            "def f(k):\n    return dict.fromkeys(k, [])\n",
        ),
    ],
    comprehension_becomes_map_or_filter=[
        Rewrite(
            ComprehensionToMapFilter,
            """
            def f(nums):
                return ''.join(str(n) for n in nums)
            """,
            """
            def f(nums):
                return ''.join(map(str, nums))
            """,
            calls=[([1, 22],), ([],)],
        ),
        Rewrite(
            ComprehensionToMapFilter,
            """
            def f(words):
                kept = [w for w in words if len(w) > 2]
                return kept
            """,
            """
            def f(words):
                kept = list(filter(lambda w: len(w) > 2, words))
                return kept
            """,
            calls=[(["abc", "d", "efgh"],), ([],)],
        ),
        # The bundled cb-234: a test that only calls a function of the module (or a builtin)
        # with the item filters by that function, not by `lambda n: is_prime(n)`.
        Rewrite(
            ComprehensionToMapFilter,
            """
            def is_prime(n):
                return n > 1 and all(n % d for d in range(2, n))

            def f(nums):
                return [n for n in nums if is_prime(n)], [s for s in nums if bool(s)]
            """,
            """
            def is_prime(n):
                return n > 1 and all(n % d for d in range(2, n))

            def f(nums):
                return list(filter(is_prime, nums)), list(filter(bool, nums))
            """,
            calls=[([1, 2, 3, 4, 5, 0],), ([],)],
            seed=0,
        ),
        Rewrite(
            ComprehensionToMapFilter,
            "def f(words):\n    return [w for w in words if callable(w)]\n",
            "def f(words):\n    return list(filter(callable, words))\n",
            calls=[(["a", len],), ([],)],
        ),
        # A method, or a function the item is not the only argument of, keeps the lambda.
        Rewrite(
            ComprehensionToMapFilter,
            "def f(words):\n    return [w for w in words if w.isdigit()]\n",
            "def f(words):\n    return list(filter(lambda w: w.isdigit(), words))\n",
            calls=[(["1", "a"],), ([],)],
        ),
        # A generator that is not consumed at once stays lazy either way, but one passed on
        # elsewhere is left alone.
        Declines(
            ComprehensionToMapFilter,
            "def f(xs):\n    return g(str(x) for x in xs)\n",
        ),
    ],
    # Bundled cb-203: both branches extend (before: `out += f(...)` in one, `out.extend(f(...))`
    # in the other).
    augassign_becomes_extend_in_every_branch=Rewrite(
        AugAssignToAppend,
        """
        def f(n, opened=0, closed=0, cur=''):
            if closed == n:
                return [cur]
            out = []
            if opened < n:
                out += f(n, opened + 1, closed, cur + '(')
            if closed < opened:
                out += f(n, opened, closed + 1, cur + ')')
            return out
        """,
        """
        def f(n, opened=0, closed=0, cur=''):
            if closed == n:
                return [cur]
            out = []
            if opened < n:
                out.extend(f(n, opened + 1, closed, cur + '('))
            if closed < opened:
                out.extend(f(n, opened, closed + 1, cur + ')'))
            return out
        """,
        calls=[(0,), (2,), (3,)],
    ),
    # append and extend on one list are one operation: both become `+=` (a second list
    # keeps its own spelling only when it is another operation's receiver).
    append_and_extend_on_one_list_all_become_augassign=Rewrite(
        AppendToAugAssign,
        """
        def f(xs, ys):
            out = []
            for x in xs:
                out.append(x)
            out.extend(ys)
            out.append(len(ys))
            return out
        """,
        """
        def f(xs, ys):
            out = []
            for x in xs:
                out += [x]
            out += ys
            out += [len(ys)]
            return out
        """,
        calls=[([1, 2], [3]), ([], [])],
    ),
    # A `get` on `d` that cannot change (its key is a call) keeps every `get` on `d` as it
    # is: before, `d[k] if k in d else 0` stood beside `d.get(k.lower(), 0)`.
    get_declines_when_another_get_on_the_dict_cannot_change=declines(
        DictGetToMembership,
        """
        def f(d, k):
            a = d.get(k, 0)
            b = d.get(k.lower(), 0)
            return a + b
        """,
    ),
    # A chain of replaces changes as a whole (before: one of the two, seed by seed).
    chained_replaces_all_become_split_and_join=Rewrite(
        ReplaceToSplitJoin,
        """
        def f(s):
            return s.replace('a', 'b').replace('c', 'd')
        """,
        """
        def f(s):
            return 'd'.join('b'.join(s.split('a')).split('c'))
        """,
        calls=[("abcabc",), ("",)],
    ),
    # CRUXEval sample_224: a pop used inside an expression cannot change, so neither does
    # the pop statement on the same list (before: `del array[-1]` beside `array.pop()`).
    pop_declines_when_another_pop_of_the_list_cannot_change=declines(
        PopToDel,
        """
        def f(array, value):
            array.reverse()
            array.pop()
            odd = []
            while len(array) > 0:
                odd.append({array.pop(): value})
            return odd
        """,
    ),
    # Every pop statement of a list changes together (`append` makes `xs` a list, for the
    # bare `pop()`).
    pop_statements_of_one_list_all_become_del=Rewrite(
        PopToDel,
        """
        def f(xs):
            xs.append(0)
            xs.pop(0)
            last = xs.pop()
            return last, xs
        """,
        """
        def f(xs):
            xs.append(0)
            del xs[0]
            last = xs[-1]
            del xs[-1]
            return last, xs
        """,
        calls=[([1, 2, 3],), ([1, 2],)],
    ),
    # CRUXEval sample_261: both lists grow by `+=` (before: `higgs += [i]` beside
    # `lows.append(i)`, two spellings of one operation in one loop).
    every_list_of_the_function_grows_one_way=Rewrite(
        AppendToAugAssign,
        """
        def f(nums, target):
            lows, higgs = [], []
            for i in nums:
                if i < target:
                    lows.append(i)
                else:
                    higgs.append(i)
            lows.clear()
            return lows, higgs
        """,
        """
        def f(nums, target):
            lows, higgs = [], []
            for i in nums:
                if i < target:
                    lows += [i]
                else:
                    higgs += [i]
            lows.clear()
            return lows, higgs
        """,
        calls=[([1, 5, 2], 3), ([], 0)],
    ),
    # An append that cannot change (to an item of a dict) keeps the function's others.
    append_declines_where_another_append_of_the_function_cannot_change=declines(
        AppendToAugAssign,
        """
        def f(words):
            groups = {}
            out = []
            for w in words:
                groups.setdefault(w[0], []).append(w)
                out.append(w)
            return groups, out
        """,
    ),
    # CRUXEval sample_446: both in-place changes of `array` become slice operations
    # (before: `array[:] = array[::-1]` in one branch, `array.clear()` in the other).
    every_list_method_on_one_list_becomes_a_slice_operation=Rewrite(
        ListMethodToSlice,
        """
        def f(array):
            l = len(array)
            if l % 2 == 0:
                array.clear()
            else:
                array.reverse()
            return array
        """,
        """
        def f(array):
            l = len(array)
            if l % 2 == 0:
                del array[:]
            else:
                array[:] = array[::-1]
            return array
        """,
        calls=[([1, 2],), ([1, 2, 3],)],
    ),
)


def test_count_of_a_character_becomes_sum() -> None:
    before = """
        def f(text):
            return text.lower().count('a') * 2
        """
    after = """
        def f(text):
            return sum(1 for x in text.lower() if x == 'a') * 2
        """
    Rewrite(CountToSum, before, after, seed=0).check()
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
    Rewrite(CountToSum, before, after, seed=0).check()
    assert_equivalent(before, after, [("banana",), (["a", "b", "a"],), (("a",),)])
    # A dict has no count(): `d` is shown to be one.
    Declines(CountToSum, "def f(d):\n    d.setdefault('a', 0)\n    return d.count('a')\n").check()
    # A longer needle counts non-overlapping substrings of a str but items of a list.
    Declines(CountToSum, "def f(s):\n    return s.count('aa') + s.count('')\n").check()


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
    Declines(ListMethodToSlice, "def f(s):\n    s.remove(1)\n    return s\n").check()


def test_case(case: Case) -> None:
    case.check()


def test_the_method_name_pins_the_receiver_kind() -> None:
    """A parameter nothing else types is taken as the only builtin kind with the method:
    the rewrite is exact there, and elsewhere the original raises AttributeError, which
    differential verification sees (the next test)."""
    before = """
        def f(text, d, xs):
            xs.insert(0, d.get('k', 0))
            return text.startswith('ab') and text.find('c') != -1
        """
    Rewrite(
        StartswithToSlice,
        before,
        """
        def f(text, d, xs):
            xs.insert(0, d.get('k', 0))
            return text[:2] == 'ab' and text.find('c') != -1
        """,
    ).check()
    Rewrite(
        FindToIn,
        before,
        """
        def f(text, d, xs):
            xs.insert(0, d.get('k', 0))
            return text.startswith('ab') and 'c' in text
        """,
    ).check()
    Rewrite(
        DictGetToMembership,
        before,
        """
        def f(text, d, xs):
            xs.insert(0, d['k'] if 'k' in d else 0)
            return text.startswith('ab') and text.find('c') != -1
        """,
    ).check()
    Rewrite(
        ListMethodToSlice,
        before,
        """
        def f(text, d, xs):
            xs[:0] = [d.get('k', 0)]
            return text.startswith('ab') and text.find('c') != -1
        """,
    ).check()
    for after in (
        "def f(text, d, xs):\n    xs[:0] = [d['k'] if 'k' in d else 0]\n"
        "    return text[:2] == 'ab' and 'c' in text\n",
    ):
        assert_equivalent(
            before, after, [("abc", {"k": 1}, [2]), ("xbc", {}, []), ("", {"j": 0}, [1, 2])]
        )


def test_verification_rejects_a_pinned_rewrite_on_another_kind() -> None:
    """On a list, `xs.pop(0)` and `xs[0]` + `del xs[0]` agree; on a str pop raises
    AttributeError and the item lookup does not, so the variant is dropped."""
    original = "def f(xs):\n    x = xs.pop(0)\n    return x\n"
    variant = "def f(xs):\n    x = xs[0]\n    del xs[0]\n    return x\n"
    Rewrite(PopToDel, original, variant).check()
    assert verify_equivalent(original, variant, ["f([1, 2])", "f({0: 'a'})"]).kept
    rejected = verify_equivalent(original, variant, ["f([1, 2])", "f('ab')"])
    assert (rejected.kept, rejected.reason) == (False, "differs: exception")


def test_a_sliced_receiver_of_a_list_method_is_a_list() -> None:
    """Slicing rules out a dict and a set, remove() a str and a tuple (CRUXEval
    sample_180 slices `nums` and removes from it)."""
    Rewrite(
        ListMethodToSlice,
        """
        def f(nums, x):
            head = nums[:1]
            nums.remove(x)
            return head + nums
        """,
        """
        def f(nums, x):
            head = nums[:1]
            del nums[nums.index(x)]
            return head + nums
        """,
        calls=[([-1, 1, 1, 2], 1), ([3, 3], 3), ([1], 2)],
    ).check()


def test_a_local_of_unknown_kind_is_not_pinned_where_a_deque_differs() -> None:
    """A deque has insert() and reverse() but no slices: only a parameter (a value of the
    call) or a proven list takes the slice forms."""
    Declines(
        ListMethodToSlice,
        "import collections\ndef f(x):\n    q = collections.deque([1])\n    q.insert(0, x)\n"
        "    q.reverse()\n    return q\n",
    ).check()


def test_a_copy_or_an_alias_of_an_argument_is_a_builtin_value() -> None:
    """CRUXEval sample_324 and sample_433: a copy or a slice of an argument, or an argument
    rebound to a known kind, holds a builtin value, never a deque."""
    Rewrite(
        ListMethodToSlice,
        """
        def f(nums):
            asc, desc = nums.copy(), []
            rev = nums[:]
            rev.reverse()
            return rev
        """,
        """
        def f(nums):
            asc, desc = nums.copy(), []
            rev = nums[:]
            rev[:] = rev[::-1]
            return rev
        """,
        calls=[([1, 2, 3],), ([],)],
    ).check()
    Rewrite(
        PopToDel,
        """
        def f(text):
            text = text.split(',')
            text.pop(0)
            return text
        """,
        """
        def f(text):
            text = text.split(',')
            del text[0]
            return text
        """,
        calls=[("a,b,c",), ("",)],
    ).check()

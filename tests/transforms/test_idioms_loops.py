"""idiom rewrites between loops and builtins: sum, ''.join, any/all, flags, enumerate, sort."""

from __future__ import annotations

from transform_testing import (
    assert_declines,
    assert_equivalent,
    assert_equivalent_over_seeds,
    assert_transform,
    code,
    transform,
)

from transforms._idioms_loops import (
    AccumulatorToLoop,
    AnyAllToLoop,
    EarlyReturnToFlag,
    IndexLoopToEnumerate,
    JoinToLoop,
    LoopToAnyAll,
    LoopToJoin,
    LoopToSum,
    SortedToSort,
)


def test_counting_loop_becomes_sum() -> None:
    before = """
        def f(nums):
            count = 0
            for n in nums:
                if n % 2 == 0:
                    count += 1
            return count
        """
    after = """
        def f(nums):
            count = sum(1 for n in nums if n % 2 == 0)
            return count
        """
    assert_transform(LoopToSum, before, after)
    assert_equivalent(before, after, [([1, 2, 4],), ([],), ([3],)])


def test_sum_loop_with_if_else_becomes_conditional_term() -> None:
    before = """
        def f(words):
            total = 0
            for w in words:
                if w.isupper():
                    total += len(w)
                else:
                    total += 1
            return total
        """
    after = """
        def f(words):
            total = sum(len(w) if w.isupper() else 1 for w in words)
            return total
        """
    assert_transform(LoopToSum, before, after)
    assert_equivalent(before, after, [(["AB", "c", "DEF"],), ([],)])


def test_sum_declines_float_terms_and_used_loop_variable() -> None:
    # Floats: sum() adds them with compensation on Python >= 3.12, += does not.
    assert_declines(
        LoopToSum,
        """
        def f(xs):
            total = 0
            for x in xs:
                total += x / 2
            return total
        """,
    )
    # The loop variable is read after the loop: a generator would not leak it.
    assert_declines(
        LoopToSum,
        """
        def f(s):
            n = 0
            for i in range(len(s)):
                n += 1
            return n, i
        """,
    )


def test_string_building_loop_becomes_join() -> None:
    before = """
        def f(text):
            result = ''
            for ch in text:
                if ch.isalpha():
                    result += ch.upper()
            return result
        """
    after = """
        def f(text):
            result = ''.join(ch.upper() for ch in text if ch.isalpha())
            return result
        """
    assert_transform(LoopToJoin, before, after)
    assert_equivalent(before, after, [("ab1c",), ("",), ("123",)])


def test_join_loop_over_proven_str_items() -> None:
    before = """
        def f(text):
            out = ''
            for c in text:
                if c.isdigit():
                    out += c
            return out
        """
    after = """
        def f(text):
            out = ''.join(c for c in text if c.isdigit())
            return out
        """
    assert_transform(LoopToJoin, before, after)
    assert_equivalent(before, after, [("a1b22",), ("",)])


def test_join_declines_items_that_may_not_be_strings() -> None:
    # `x` may be an int: `out += x` fails at once, join() only after the whole loop.
    assert_declines(
        LoopToJoin,
        """
        def f(items):
            out = ''
            for x in items:
                out += x
            return out
        """,
    )
    # The accumulator is initialised one statement earlier than the loop: not adjacent.
    assert_declines(
        LoopToJoin,
        """
        def f(text):
            out = ''
            print(out)
            for c in text:
                out += c.upper()
            return out
        """,
    )


def test_sum_and_join_become_loops() -> None:
    before = """
        def f(text):
            vowels = sum(1 for c in text if c in 'aeiou')
            return vowels
        """
    after = """
        def f(text):
            vowels = 0
            for c in text:
                if c in 'aeiou':
                    vowels += 1
            return vowels
        """
    assert_transform(AccumulatorToLoop, before, after)
    assert_equivalent(before, after, [("banana",), ("",)])
    before = """
        def f(words):
            return ''.join(w.capitalize() for w in words)
        """
    after = """
        def f(words):
            out = ''
            for w in words:
                out += w.capitalize()
            return out
        """
    assert_transform(AccumulatorToLoop, before, after)
    assert_equivalent(before, after, [(["ab", "cd"],), ([],)])


def test_accumulator_loop_declines_unknown_terms() -> None:
    assert_declines(
        AccumulatorToLoop,
        """
        def f(xs):
            return sum(x for x in xs)
        """,
    )
    assert_declines(
        AccumulatorToLoop,
        """
        def f(xs):
            return ''.join(x for x in xs)
        """,
    )


def test_searching_loop_becomes_any_and_all() -> None:
    before = """
        def f(nums, target):
            for n in nums:
                if n == target:
                    return True
            return False
        """
    after = """
        def f(nums, target):
            return any(n == target for n in nums)
        """
    assert_transform(LoopToAnyAll, before, after)
    assert_equivalent(before, after, [([1, 2], 2), ([], 1), ([3], 1)])
    before = """
        def f(text):
            for c in text:
                if c != 'a':
                    return False
            return True
        """
    after = """
        def f(text):
            return all(c == 'a' for c in text)
        """
    assert_transform(LoopToAnyAll, before, after)
    assert_equivalent(before, after, [("aa",), ("",), ("ab",)])


def test_any_all_declines_non_boolean_returns() -> None:
    assert_declines(
        LoopToAnyAll,
        """
        def f(nums):
            for n in nums:
                if n > 3:
                    return n
            return False
        """,
    )


def test_any_becomes_loop() -> None:
    before = """
        def f(text):
            return all(c.isdigit() for c in text)
        """
    after = """
        def f(text):
            for c in text:
                if not c.isdigit():
                    return False
            return True
        """
    assert_transform(AnyAllToLoop, before, after)
    assert_equivalent(before, after, [("12",), ("",), ("1a",)])
    assert_declines(
        AnyAllToLoop,
        """
        def f(xs):
            return any(x for x in xs if x)
        """,
    )


def test_early_return_becomes_flag() -> None:
    before = """
        def f(words, prefix):
            for w in words:
                if w.startswith(prefix):
                    return True
            return False
        """
    after = """
        def f(words, prefix):
            matched = False
            for w in words:
                if w.startswith(prefix):
                    matched = True
                    break
            return matched
        """
    assert_transform(EarlyReturnToFlag, before, after)
    assert_equivalent(before, after, [(["ab", "cd"], "c"), ([], "a"), (["x"], "y")])
    assert_equivalent_over_seeds(EarlyReturnToFlag, before, [(["ab"], "a"), (["b"], "a")])


def test_index_loop_becomes_direct_iteration_or_enumerate() -> None:
    before = """
        def f(text):
            text = text.strip()
            out = []
            for i in range(len(text)):
                if text[i].isupper():
                    out.append(text[i])
            return out
        """
    after = """
        def f(text):
            text = text.strip()
            out = []
            for char in text:
                if char.isupper():
                    out.append(char)
            return out
        """
    assert_transform(IndexLoopToEnumerate, before, after)
    assert_equivalent(before, after, [(" aBcD",), ("",)])
    before = """
        def f(nums):
            nums.append(0)
            out = []
            for i in range(len(nums)):
                out.append(nums[i] * i)
            return out
        """
    after = """
        def f(nums):
            nums.append(0)
            out = []
            for i, num in enumerate(nums):
                out.append(num * i)
            return out
        """
    assert_transform(IndexLoopToEnumerate, before, after)
    assert_equivalent(before, after, [([3, 4],), ([],)])


def test_index_loop_declines_unknown_kind_and_mutation() -> None:
    # `d` may be a dict: d[i] is then a key lookup, not the i-th item.
    assert_declines(
        IndexLoopToEnumerate,
        """
        def f(d):
            out = []
            for i in range(len(d)):
                out.append(d[i])
            return out
        """,
    )
    # The loop changes the list it walks.
    assert_declines(
        IndexLoopToEnumerate,
        """
        def f(nums):
            nums.append(1)
            for i in range(len(nums)):
                nums[i] = nums[i] + 1
            return nums
        """,
    )


def test_sorted_becomes_copy_and_sort() -> None:
    before = """
        def f(words):
            ordered = sorted(words, key=len, reverse=True)
            return ordered
        """
    after = """
        def f(words):
            ordered = list(words)
            ordered.sort(key=len, reverse=True)
            return ordered
        """
    assert_transform(SortedToSort, before, after)
    assert_equivalent(before, after, [(["bb", "a", "ccc", "dd"],), ((),)])
    assert_declines(
        SortedToSort,
        """
        def f(xs):
            xs = sorted(xs, key=lambda x: xs.index(x))
            return xs
        """,
    )


def test_return_sorted_becomes_copy_sort_and_return() -> None:
    before = """
        def f(d):
            return sorted(d.items(), key=lambda x: x[1])
        """
    after = """
        def f(d):
            result = list(d.items())
            result.sort(key=lambda x: x[1])
            return result
        """
    assert_transform(SortedToSort, before, after)
    assert_equivalent(before, after, [({"a": 2, "b": 1},), ({},)])


def test_loop_of_several_additions_becomes_one_term() -> None:
    before = """
        def f(lines, width):
            result = ''
            for l in lines:
                result += l.center(width)
                result += '|'
            return result
        """
    after = """
        def f(lines, width):
            result = ''.join(l.center(width) + '|' for l in lines)
            return result
        """
    assert_transform(LoopToJoin, before, after)
    assert_equivalent(before, after, [(["ab", "c"], 5), ([], 3)])


def test_join_becomes_loop_with_separator_guard() -> None:
    # Reviewer's find: the `enumerate` form became `items = list(enumerate(parts))` and a
    # `while` over it after for_to_while; a person writes an index loop or trims the end.
    before = """
        def f(words):
            ordered = sorted(words)
            return ', '.join(ordered)
        """
    trimmed = """
        def f(words):
            ordered = sorted(words)
            out = ''
            for part in ordered:
                out += part + ', '
            return out[:-2]
        """
    indexed = """
        def f(words):
            ordered = sorted(words)
            joined = ''
            for index in range(len(ordered)):
                if index > 0:
                    joined += ', '
                joined += ordered[index]
            return joined
        """
    assert_transform(JoinToLoop, before, trimmed, seed=0)
    assert_transform(JoinToLoop, before, indexed, seed=1)
    for after in (trimmed, indexed):
        assert_equivalent(before, after, [(["b", "a"],), ([],), (["x"],), (["", ""],)])
    assert_transform(
        JoinToLoop,
        """
        def f(xs, words):
            s = '-'.join([x.upper() for x in xs])
            return s + ' '.join(words)
        """,
        """
        def f(xs, words):
            s = ''
            for x in xs:
                s += x.upper() + '-'
            s = s[:-1]
            return s + ' '.join(words)
        """,
    )
    # Items of a generator that may fail later: join() evaluates them all before raising.
    assert_declines(
        JoinToLoop,
        """
        def f(xs):
            return ', '.join(x for x in xs)
        """,
    )


def test_direct_iteration_becomes_index_loop() -> None:
    before = """
        def f(text):
            t = text.upper()
            n = 0
            for ch in t:
                if ch == 'A':
                    n += 1
            return n
        """
    after = """
        def f(text):
            t = text.upper()
            n = 0
            for i in range(len(t)):
                ch = t[i]
                if ch == 'A':
                    n += 1
            return n
        """
    assert_transform("idiom_iterate_by_index", before, after, seed=2)
    assert_equivalent(before, after, [("banana",), ("",)])
    before = """
        def f(xs):
            xs.append(1)
            n = 0
            for i, x in enumerate(xs):
                n += x * i
            return n, i, x
        """
    after = """
        def f(xs):
            xs.append(1)
            n = 0
            for i in range(len(xs)):
                x = xs[i]
                n += x * i
            return n, i, x
        """
    assert_transform("idiom_iterate_by_index", before, after)
    assert_equivalent(before, after, [([3, 4],), ([],)])


def test_iterate_by_index_declines_changed_lists_and_unknown_iterables() -> None:
    # The body grows the list: iteration would see the new items, range(len(...)) would not.
    assert_declines(
        "idiom_iterate_by_index",
        """
        def f(xs):
            xs.append(1)
            for x in xs:
                if x < 3:
                    xs.append(x + 5)
            return xs
        """,
    )
    # `items` may be a dict or a set: they cannot be indexed.
    assert_declines(
        "idiom_iterate_by_index",
        """
        def f(items):
            n = 0
            for x in items:
                n += 1
            return n
        """,
    )


def test_join_of_split_or_sorted_becomes_loop() -> None:
    before = """
        def f(name):
            return '*'.join(name.split(' '))
        """
    result = transform("idiom_join_loop", code(before))
    assert result is not None
    assert "for " in result.code and "name.split(' ')" in result.code
    assert_equivalent(before, result.code, [("a b  c",), ("",), ("abc",)])
    before = """
        def f(text):
            letters = ''.join(sorted(text))
            return letters
        """
    result = transform("idiom_join_loop", code(before))
    assert result is not None
    assert_equivalent(before, result.code, [("cab",), ("",)])
    # The items are built by a call that may change things: not a site.
    assert_declines(
        "idiom_join_loop",
        """
        def f(parts):
            return ''.join(parts.pop())
        """,
    )

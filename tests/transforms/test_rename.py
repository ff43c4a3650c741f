"""Renaming transforms: four styles, scope-correct, with an exact rename map."""

from __future__ import annotations

import re

import pytest
from transform_testing import (
    assert_declines,
    assert_equivalent_over_seeds,
    assert_keeps_lines,
    assert_transform,
    code,
    transform,
)

from transforms import all_transforms
from transforms._analysis import RESERVED_NAMES, identifiers
from transforms._rename import (
    RenameAbbreviated,
    RenameDescriptive,
    RenameMisleading,
    RenameObfuscated,
    RenameShort,
    RenameVerbose,
)

STYLES = [
    "rename_short",
    "rename_descriptive",
    "rename_abbreviated",
    "rename_verbose",
    "rename_misleading",
    "rename_obfuscated",
]

VOWELS = """
def f(text, n):
    # count the vowels
    count = 0
    for ch in text:
        if ch in 'aeiou':
            count += n
    return count
"""


def test_rename_short() -> None:
    result = assert_transform(
        RenameShort,
        VOWELS,
        """
        def f(s, x):
            # count the vowels
            c = 0
            for w in s:
                if w in 'aeiou':
                    c += x
            return c
        """,
    )
    assert result.provenance.renames == {"text": "s", "n": "x", "count": "c", "ch": "w"}
    assert result.provenance.line_map == {1: [1], 3: [3], 4: [4], 5: [5], 6: [6], 7: [7]}
    assert result.kind == "equivalent" and result.name == "rename_short"


def test_rename_descriptive() -> None:
    assert_transform(
        RenameDescriptive,
        VOWELS,
        """
        def f(string, x):
            # count the vowels
            total = 0
            for char in string:
                if char in 'aeiou':
                    total += x
            return total
        """,
    )


def test_rename_descriptive_names_roles_from_use() -> None:
    # Reviewer's find: names like `I11l1l` or `input_operand` are not what a person writes.
    result = assert_transform(
        RenameDescriptive,
        """
        def f(a, b):
            r = []
            for k, v in b.items():
                if v > 1:
                    r.append(k)
            for z in range(len(a)):
                r.append(a[z].upper())
            return r
        """,
        """
        def f(values, d):
            res = []
            for key, value in d.items():
                if value > 1:
                    res.append(key)
            for idx in range(len(values)):
                res.append(values[idx].upper())
            return res
        """,
    )
    assert result.provenance.renames == {
        "a": "values", "b": "d", "r": "res", "k": "key", "v": "value", "z": "idx"
    }  # fmt: skip


def test_rename_abbreviated_and_verbose() -> None:
    assert_transform(
        RenameAbbreviated,
        VOWELS,
        """
        def f(txt, amt):
            # count the vowels
            cnt = 0
            for c in txt:
                if c in 'aeiou':
                    cnt += amt
            return cnt
        """,
    )
    assert_transform(
        RenameVerbose,
        VOWELS,
        """
        def f(input_string, input_number):
            # count the vowels
            total_count = 0
            for character in input_string:
                if character in 'aeiou':
                    total_count += input_number
            return total_count
        """,
    )


def test_rename_misleading() -> None:
    assert_transform(
        RenameMisleading,
        VOWELS,
        """
        def f(table, found):
            # count the vowels
            lst = 0
            for lookup in table:
                if lookup in 'aeiou':
                    lst += found
            return lst
        """,
    )


def test_rename_obfuscated() -> None:
    assert_transform(
        RenameObfuscated,
        VOWELS,
        """
        def f(lI1IIIII, lIll1I):
            # count the vowels
            Il1l1I = 0
            for lIII11l1 in lI1IIIII:
                if lIII11l1 in 'aeiou':
                    Il1l1I += lIll1I
            return Il1l1I
        """,
    )


def test_scopes_globals_builtins_attributes_and_keywords() -> None:
    result = assert_transform(
        "rename_short",
        """
        LIMIT = 3

        def f(items, key):
            def score(item, weight=2):
                return len(item) * weight + LIMIT
            total = sum(score(item=x) for x in items)
            pairs = {k: v for k, v in zip(items, range(len(items)))}
            return sorted(items, key=lambda s: score(s)), total, pairs.get(key), key.upper()
        """,
        """
        LIMIT = 3

        def f(a, t):
            def g(item, m=2):
                return len(item) * m + LIMIT
            n = sum(g(item=e) for e in a)
            d = {k: val for k, val in zip(a, range(len(a)))}
            return sorted(a, key=lambda w: g(w)), n, d.get(t), t.upper()
        """,
        seed=3,
    )
    # `item` is passed by keyword to the nested function, so it keeps its name; `key=` at
    # the call of the builtin `sorted` does not stop renaming the parameter `key`.
    assert "item" not in result.provenance.renames
    assert result.provenance.renames["key"] == "t"


def test_rename_params_flag_keeps_the_signature() -> None:
    result = assert_transform(
        "rename_short",
        """
        def f(a, b):
            total = a + b
            return total
        """,
        """
        def f(a, b):
            c = a + b
            return c
        """,
        rename_params=False,
    )
    assert result.provenance.renames == {"total": "c"}


def test_new_names_collide_with_nothing() -> None:
    source = code(
        """
        import math
        x = 1
        def f(a, y):
            z = [w for w in a if w.b]
            def g():
                nonlocal z
                return z
            return g(), math.pi, y.c(d=x)
        """
    )
    existing = identifiers(__import__("libcst").parse_module(source))
    for style in STYLES:
        for seed in range(10):
            result = transform(style, source, seed=seed)
            assert result is not None
            new_names = set(result.provenance.renames.values())
            assert len(new_names) == len(result.provenance.renames)
            assert not new_names & existing
            assert not new_names & RESERVED_NAMES
            # `z` appears in a nonlocal statement; `x`, `math` and `f` are globals.
            assert not {"z", "x", "math", "f", "b", "c", "d", "pi"} & set(result.provenance.renames)


@pytest.mark.parametrize("style", STYLES)
def test_keeps_comments_and_formatting(style: str) -> None:
    assert_keeps_lines(
        style,
        """
        # header comment
        TABLE  =  {'a':1}   # odd spacing

        def f(word):
            # explain
            result = TABLE.get( 'a' )   # trailing
            return result + len(word)
        """,
        ["# header comment", "TABLE  =  {'a':1}   # odd spacing", "    # explain"],
    )


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize(
    "source",
    [
        "def f(x):\n    return locals()[x]\n",
        "def f(x):\n    y = x\n    return eval('y')\n",
        "def f(x):\n    return f'{x=}'\n",
        "G = 1\ndef f():\n    global G\n    G = 2\n    return G\n",
        "def f():\n    return len('abc')\n",
        "def f(x):\n    match x:\n        case [a]:\n            return a\n    return x\n",
        "class C:\n    def m(self, v):\n        return v\n",
    ],
)
def test_declines(style: str, source: str) -> None:
    assert_declines(style, source)


@pytest.mark.parametrize("style", STYLES)
def test_equivalent(style: str) -> None:
    assert_equivalent_over_seeds(
        style,
        """
        def f(nums, k):
            seen = {}
            def bump(v):
                seen[v] = seen.get(v, 0) + k
                return seen[v]
            out = [bump(n) for n in nums if n % 2 == 0]
            acc = 0
            for i, n in enumerate(nums):
                acc += i * n
            nums.append(acc)
            return out, sorted(seen.items(), key=lambda kv: -kv[1]), acc
        """,
        [([1, 2, 3, 4, 4], 2), ([], 1), ([6, 6, 6], -1)],
    )


def test_styles_are_registered() -> None:
    registered = {cls.name: cls for cls in all_transforms()}
    for style in STYLES:
        cls = registered[style]
        assert cls.kind == "equivalent" and cls.description


SELFIE = """
def f(selfie):
    lo = len(selfie)
    for i in range(lo-1, -1, -1):
        if selfie[i] == selfie[0]:
            selfie.remove(selfie[lo-1])
    return selfie
"""  # CRUXEval sample_423


def test_a_length_is_named_as_a_length_in_every_style() -> None:
    # Before: `lo` -> `amount` (verbose) or `amt` (abbreviated): a length is no amount.
    assert_transform(
        RenameVerbose,
        SELFIE,
        """
        def f(sequence):
            item_count = len(sequence)
            for current_index in range(item_count-1, -1, -1):
                if sequence[current_index] == sequence[0]:
                    sequence.remove(sequence[item_count-1])
            return sequence
        """,
    )
    for style in (RenameShort, RenameDescriptive, RenameAbbreviated, RenameVerbose):
        for seed in range(10):
            result = transform(style, code(SELFIE), seed=seed)
            assert result is not None
            assert result.provenance.renames["lo"] in {"n", "m", "length", "size", "sz",
                                                       "item_count"}  # fmt: skip


def test_short_names_fit_the_role_never_a_random_letter() -> None:
    # Before: `nums` -> `p`, `r`, `g` (any letter); a list gets `a`, `b`, `xs`...
    before = """
        def f(nums, a, x):
            out = []
            for n in nums:
                out.append(n * 2)
            a.append(x)
            return out
        """
    after = """
        def f(b, xs, z):
            r = []
            for k in b:
                r.append(k * 2)
            xs.append(z)
            return r
        """
    assert_transform(RenameShort, before, after)
    for seed in range(10):
        result = transform(RenameShort, code(before), seed=seed)
        assert result is not None
        renames = result.provenance.renames
        assert renames["nums"] in {"a", "b", "xs", "ys", "ls"}
        assert renames.get("out", "out") in {"r", "res", "rs", "out"}


def test_taken_names_give_another_fitting_name_never_a_numbered_one() -> None:
    # Six lists: the style's three or five list names run out. Before: `lst_2`, `items_3`;
    # now the role's names of the other styles, then the old name is kept.
    before = """
        def f(items, arr, values, lst, elements, seq):
            items.append(1)
            arr.append(2)
            values.append(3)
            lst.append(4)
            elements.append(5)
            seq.append(6)
            return items
        """
    list_names = {"items", "arr", "values", "lst", "elements", "vals", "item_list",
                  "values_list", "collected_items"}  # fmt: skip
    for style in (RenameDescriptive, RenameAbbreviated, RenameVerbose):
        for seed in range(5):
            result = transform(style, code(before), seed=seed)
            assert result is not None
            assert not re.search(r"_\d", result.code), result.code
            assert set(result.provenance.renames.values()) <= list_names


def test_a_character_and_an_unpacked_dict_are_named_for_what_they_are() -> None:
    # CRUXEval sample_49 and sample_94. Before: `c` -> `input_string` (a character called a
    # string), `a` -> `argument` (a dict called an argument).
    result = transform(
        RenameVerbose,
        code(
            """
            def f(text):
                if text.isidentifier():
                    return ''.join(c for c in text if c.isdigit())
                else:
                    return ''.join(text)
            """
        ),
        seed=0,
    )
    assert result is not None
    assert result.provenance.renames["c"] in {"character", "current_char", "letter"}
    result = transform(RenameVerbose, code("def f(a, b):\n    return {**a, **b}\n"), seed=0)
    assert result is not None
    assert set(result.provenance.renames.values()) <= {"lookup_table", "mapping", "counts_by_key"}


def test_a_text_iterated_by_characters_and_a_cleared_dict_keep_their_roles() -> None:
    # CRUXEval sample_60 and sample_160. Before: `doc` -> `lst` (a text called a list),
    # `dictionary` -> `elements` (`clear` counted as a list method).
    assert_transform(
        RenameAbbreviated,
        """
        def f(doc):
            for x in doc:
                if x.isalpha():
                    return x.capitalize()
            return '-'
        """,
        """
        def f(txt):
            for c in txt:
                if c.isalpha():
                    return c.capitalize()
            return '-'
        """,
    )
    assert_transform(
        RenameDescriptive,
        """
        def f(dictionary):
            while not dictionary.get(1, len(dictionary)):
                dictionary.clear()
                break
            return dictionary
        """,
        """
        def f(table):
            while not table.get(1, len(table)):
                table.clear()
                break
            return table
        """,
    )

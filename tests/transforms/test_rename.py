"""Renaming transforms: four styles, scope-correct, with an exact rename map."""

from __future__ import annotations

import pytest
from transform_testing import (
    TransformSpec,
    assert_declines,
    assert_equivalent_over_seeds,
    assert_keeps_lines,
    assert_transform,
    code,
    transform,
)

from transforms._analysis import RESERVED_NAMES, identifiers
from transforms._rename import RenameDescriptive, RenameMisleading, RenameObfuscated, RenameShort

STYLES = ["rename_short", "rename_descriptive", "rename_misleading", "rename_obfuscated"]

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
        def f(x, y):
            # count the vowels
            r = 0
            for m in x:
                if m in 'aeiou':
                    r += y
            return r
        """,
    )
    assert result.provenance.renames == {"text": "x", "n": "y", "count": "r", "ch": "m"}
    assert result.provenance.line_map == {1: [1], 3: [3], 4: [4], 5: [5], 6: [6], 7: [7]}
    assert result.kind == "equivalent" and result.name == "rename_short"


VOWELS_RENAMED = """
def f({text}, {n}):
    # count the vowels
    {count} = 0
    for {ch} in {text}:
        if {ch} in 'aeiou':
            {count} += {n}
    return {count}
"""
"""VOWELS with its names as fields: `VOWELS_RENAMED.format(**renames)` is the renamed code."""


@pytest.mark.parametrize(
    ("style", "renames"),
    [
        (
            RenameDescriptive,
            {"text": "input_data", "n": "input_operand", "count": "quantity", "ch": "element"},
        ),
        (RenameMisleading, {"text": "matched", "n": "flag", "count": "done", "ch": "registry"}),
        (
            RenameObfuscated,
            {"text": "lI1IIIII", "n": "lIll1I", "count": "Il1l1I", "ch": "lIII11l1"},
        ),
    ],
    ids=["descriptive", "misleading", "obfuscated"],
)
def test_rename_style(style: TransformSpec, renames: dict[str, str]) -> None:
    result = assert_transform(style, VOWELS, VOWELS_RENAMED.format(**renames))
    assert result.provenance.renames == renames


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

        def f(b, t):
            def g(item, n=2):
                return len(item) * n + LIMIT
            m = sum(g(item=h) for h in b)
            y = {p: d for p, d in zip(b, range(len(b)))}
            return sorted(b, key=lambda j: g(j)), m, y.get(t), t.upper()
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
            x = a + b
            return x
        """,
        rename_params=False,
    )
    assert result.provenance.renames == {"total": "x"}


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
    for cls in (RenameShort, RenameDescriptive, RenameMisleading, RenameObfuscated):
        assert cls.name in STYLES and cls.kind == "equivalent" and cls.description

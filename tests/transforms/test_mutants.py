"""Semantic mutants: one small real change, code still parses."""

from __future__ import annotations

import pytest
from transform_testing import (
    assert_declines,
    assert_keeps_lines,
    assert_transform,
    code,
    run,
    transform,
)

from transforms._base import all_transforms
from transforms._mutants import (
    MutantArithmetic,
    MutantBooleanOperator,
    MutantChangeConstant,
    MutantDropCall,
    MutantDropNegation,
    MutantDropStatement,
    MutantOffByOne,
    MutantSwapBranches,
    MutantSwapComparison,
    MutantSwapMethod,
    MutantSwapOperands,
)

PROGRAM = """
def f(text, n):
    out = []
    for i in range(1, len(text)):
        if not text[i].isdigit() and i % 2 == 0:
            out.append(text[i - 1:i + 1].upper() * n)
    return "-".join(sorted(out)) + text[:2].replace("a", "b")
"""


def _line(result_code: str, number: int) -> str:
    return result_code.splitlines()[number - 1]


@pytest.mark.parametrize(
    ("cls", "seed", "line", "expected"),
    [
        (MutantOffByOne, 0, 5, "            out.append(text[i - 1:i].upper() * n)"),
        (MutantOffByOne, 1, 5, "            out.append(text[i - 1:i + 2].upper() * n)"),
        (MutantSwapComparison, 0, 4, "        if not text[i].isdigit() and i % 2 != 0:"),
        (
            MutantChangeConstant,
            0,
            6,
            '    return "x".join(sorted(out)) + text[:2].replace("a", "b")',
        ),
        (MutantChangeConstant, 1, 5, "            out.append(text[i - 0:i + 1].upper() * n)"),
        (MutantDropNegation, 0, 4, "        if text[i].isdigit() and i % 2 == 0:"),
        (MutantArithmetic, 0, 5, "            out.append(text[i - 1:i - 1].upper() * n)"),
        (MutantArithmetic, 1, 5, "            out.append(text[i - 1:i + 1].upper() // n)"),
        (MutantBooleanOperator, 0, 4, "        if not text[i].isdigit() or i % 2 == 0:"),
        (MutantSwapOperands, 0, 6, '    return text[:2].replace("a", "b") + "-".join(sorted(out))'),
        (MutantSwapOperands, 1, 5, "            out.append(text[i + 1:i - 1].upper() * n)"),
        (MutantDropCall, 0, 6, '    return "-".join(out) + text[:2].replace("a", "b")'),
        (MutantDropCall, 1, 5, "            out.append(text[i - 1:i + 1] * n)"),
        (MutantDropStatement, 0, 5, "            pass"),
        (MutantSwapMethod, 0, 5, "            out.append(text[i - 1:i + 1].lower() * n)"),
    ],
)
def test_mutates_one_site(cls: type, seed: int, line: int, expected: str) -> None:
    source = code(PROGRAM)
    result = transform(cls, source, seed=seed)
    assert result is not None and result.kind == "mutant"
    assert _line(result.code, line) == expected
    changed = [
        i
        for i, (a, b) in enumerate(zip(source.splitlines(), result.code.splitlines(), strict=True))
        if a != b
    ]
    assert changed == [line - 1]
    assert result.provenance.line_map == {i: [i] for i in range(1, 7)}


def test_whole_rewrites() -> None:
    assert_transform(
        MutantDropNegation,
        "def f(a, b):\n    return a not in b, a is not None\n",
        "def f(a, b):\n    return a not in b, a is None\n",
    )
    assert_transform(
        MutantOffByOne,
        "def f(xs):\n    return xs[1:-1]\n",
        "def f(xs):\n    return xs[2:-1]\n",
        seed=2,
    )
    assert_transform(
        MutantSwapBranches,
        "def f(a):\n    return 1 if a else 2\n",
        "def f(a):\n    return 2 if a else 1\n",
    )
    assert_transform(
        MutantSwapBranches,
        "def f(a):\n    if a:  # yes\n        return 1\n    else:\n        return 2\n",
        "def f(a):\n    if a:  # yes\n        return 2\n    else:\n        return 1\n",
    )
    assert_transform(
        MutantChangeConstant,
        "def f(flag):\n    return flag is True\n",
        "def f(flag):\n    return flag is False\n",
    )


@pytest.mark.parametrize(
    ("cls", "source"),
    [
        (MutantOffByOne, "def f(xs, i):\n    return xs[i]\n"),
        (MutantSwapComparison, "def f(a):\n    return a\n"),
        (MutantChangeConstant, "def f(a):\n    return a.x\n"),
        (MutantDropNegation, "def f(a):\n    return -a\n"),
        (MutantArithmetic, "def f(a):\n    return a ** 2 | 1\n"),
        (MutantBooleanOperator, "def f(a):\n    return not a\n"),
        (MutantSwapOperands, "def f(a, b):\n    return a * b + 1, f(a, b)\n"),
        (MutantDropCall, "def f(a):\n    return a.upper(1), sorted(a, key=len)\n"),
        (MutantDropStatement, "def f(a):\n    b = a\n    return b\n"),
        (MutantSwapMethod, "def f(a):\n    return a.append(1)\n"),
        (MutantSwapBranches, "def f(a):\n    if a:\n        return 1\n    return 2\n"),
    ],
)
def test_declines(cls: type, source: str) -> None:
    assert_declines(cls, source)
    assert_declines(cls, "x = not (1 < 2 and 3 + 4 in range(9))\n")  # module level only


@pytest.mark.parametrize("cls", [t for t in all_transforms("mutant")])
def test_keeps_formatting(cls: type) -> None:
    assert_keeps_lines(
        cls,
        """
        # header
        def f(a,b):   # odd
            # body
            a.sort()
            if not a < b and b > 0:
                return sorted(a[1:]) + 1 - b
            return b.replace(1, 2) if a else b.upper()   # done
        """,
        ["# header", "def f(a,b):   # odd", "    # body"],
    )


@pytest.mark.parametrize("cls", [t for t in all_transforms("mutant")])
def test_changes_behaviour_on_some_input(cls: type) -> None:
    source = code(
        """
        def f(a, b):
            out = 0
            seen = []
            for i in range(a):
                if not i < b and i % 3 == 1:
                    out += i * 2
                    seen.insert(0, str(i))
            return out, sorted(seen)[1:], "ab".replace("a", "c"), "Ab".lower() if a > 3 else ""
        """
    )
    calls = [(a, b) for a in range(8) for b in range(4)]
    differing = 0
    for seed in range(8):
        result = transform(cls, source, seed=seed)
        assert result is not None
        differing += any(run(source, args) != run(result.code, args) for args in calls)
    # A mutant may happen to be equivalent (the generator drops those), but not usually.
    assert differing >= 5

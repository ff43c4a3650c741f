"""Small programs that several probe tests ask questions about, and how they ask."""

from __future__ import annotations

from core_bench.probes import KINDS, CallContext, candidate_probes, static_answer
from tracer import trace

FIZZ = (
    "def f(n):\n"
    "    count = 0\n"
    "    for num in range(n):\n"
    "        if num % 11 == 0 or num % 13 == 0:\n"
    "            count += str(num).count('7')\n"
    "    return count\n"
)
"""Counts the sevens in multiples of 11 or 13 below n: a loop, a compound branch, a state."""

EVEN_ODD = (
    "def f(xs):\n"
    "    s = 0\n"
    "    for x in xs:\n"
    "        if x % 2 == 0:\n"
    "            s += x\n"
    "        else:\n"
    "            s -= 1\n"
    "    return s\n"
)
EVEN_ODD_SWAPPED = (
    "def f(xs):\n"
    "    s = 0\n"
    "    for x in xs:\n"
    "        if x % 2 != 0:\n"
    "            s -= 1\n"
    "        else:\n"
    "            s += x\n"
    "    return s\n"
)
"""EVEN_ODD with its branches swapped (the test negated): lines 5 and 7 trade places."""
EVEN_ODD_SWAP_LINES = {2: [2], 3: [3], 4: [4], 5: [7], 7: [5], 8: [8]}

COUNT_CODE = (
    "def f(text, pat):\n"  # 1
    "    if not pat:\n"  # 2
    "        return -1\n"  # 3
    "    count = 0\n"  # 4
    "    start = text.find(pat)\n"  # 5
    "    while start != -1:\n"  # 6
    "        count += 1\n"  # 7
    "        start = text.find(pat, start + 1)\n"  # 8
    "    return count\n"  # 9
)
"""Bundled cb-011: counts the matches of a pattern with a `while` loop that a test ends."""


def derived(code: str, call: str, kind: str) -> dict[str | None, tuple[str, str | None]]:
    """Variable -> (answer, the answer the kind's static rule derives) of every reading of
    `kind` in the call."""
    ctx = CallContext(code, trace(code, call))
    return {r.variable: (r.answer, static_answer(ctx, r)) for r in KINDS[kind].each(ctx)}


def asked_variables(code: str, call: str, kind: str) -> set[str | None]:
    """The anchor variables of the call's candidate probes of `kind`."""
    probes = candidate_probes("p", "p:original", code, 0, trace(code, call))
    return {p.anchor.variable for p in probes if p.kind == kind}

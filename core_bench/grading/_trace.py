"""Grading a full_trace answer: a list of `[line, {name: value}]` pairs, compared by value."""

from __future__ import annotations

import json
from typing import Any

from core_bench.grading._values import short
from core_bench.schemas import Verdict
from tracer import read_literal, values_equal

TracePairs = list[tuple[int, dict[str, Any]]]


def parse_trace(text: str) -> TracePairs | None:
    """Read a full trace: a Python literal, or JSON (`true`, `null`), list of pairs.

    Each pair is a list or tuple `[line, {name: value}]` with an int line and string names.

    Returns:
        The pairs, or None when the text is not such a list.
    """
    ok, value = read_literal(text)
    if not ok:
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            return None
    if not isinstance(value, list):
        return None
    pairs: TracePairs = []
    for item in value:
        if not (isinstance(item, list | tuple) and len(item) == 2):
            return None
        line, changes = item
        if isinstance(line, bool) or not isinstance(line, int) or not isinstance(changes, dict):
            return None
        if not all(isinstance(name, str) for name in changes):
            return None
        pairs.append((line, changes))
    return pairs


def grade_trace(
    answer: str | None, expected: str, *, float_tolerance: float = 0.0
) -> tuple[Verdict, str]:
    """Compare a claimed full trace with the expected one, pair by pair.

    Returns:
        `(verdict, reason)`; a wrong trace's reason names the first pair that differs.

    Raises:
        ValueError: the expected text is not a full trace.
    """
    wanted = parse_trace(expected)
    if wanted is None:
        raise ValueError(f"expected is not a list of [line, {{name: value}}] pairs: {expected!r}")
    if answer is None:
        return "unparseable", "no answer found in the response"
    got = parse_trace(answer)
    if got is None:
        return "unparseable", f"not a list of [line, {{name: value}}] pairs: {short(answer)}"
    for index, (mine, theirs) in enumerate(zip(got, wanted, strict=False)):
        same = mine[0] == theirs[0] and values_equal(
            mine[1], theirs[1], float_tolerance=float_tolerance
        )
        if not same:
            return "wrong", (
                f"step {index + 1}: expected {short(repr(list(theirs)))}, "
                f"got {short(repr(list(mine)))}"
            )
    if len(got) != len(wanted):
        return "wrong", f"{len(got)} steps, expected {len(wanted)}"
    return "correct", ""

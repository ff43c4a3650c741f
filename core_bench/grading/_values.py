"""The one value grader: reprs read as literals and compared with Python equality.

Rules (DESIGN.md, "Grading and metrics"): both sides are read and compared by `tracer`'s
values rules at strictness "python" (`tracer.read_literal`, `tracer.values_equal`): Python's
`==` (`1 == 1.0`, `True == 1`: bool is an int in Python, and CRUXEval's own check is `==`),
set and dict order ignored, `[1] != (1,)`, NaN equal to NaN at any depth, and floats within
a stated tolerance. An answer that is missing or is not a literal is "unparseable" (counted,
never dropped).
"""

from __future__ import annotations

import math

from core_bench.schemas import Verdict
from tracer import read_literal, values_equal


def short(text: str, limit: int = 80) -> str:
    """`text` on one line, cut to `limit` characters for a verdict's reason."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def grade_value(
    answer: str | None, expected: str, *, float_tolerance: float = 0.0
) -> tuple[Verdict, str]:
    """Grade an answer against the expected repr (both read as Python literals).

    Args:
        answer: the extracted answer text, or None when none was found.
        expected: the expected value's repr.
        float_tolerance: relative and absolute tolerance for floats (default 0: exact).

    Returns:
        `(verdict, reason)`: "correct" (reason ""), "wrong" (reason says what differs) or
        "unparseable" (no answer, or an answer that is not a literal). An expected repr that
        is not a literal itself is compared as text.

    Raises:
        ValueError: `float_tolerance` is negative or not finite.
    """
    if not (math.isfinite(float_tolerance) and float_tolerance >= 0):
        raise ValueError(f"float_tolerance must be 0 or more, got {float_tolerance!r}")
    if answer is None:
        return "unparseable", "no answer found in the response"
    ok_e, value_e = read_literal(expected)
    ok_a, value_a = read_literal(answer)
    if not ok_e:
        if answer.strip() == expected.strip():
            return "correct", ""
        if not ok_a:
            return "unparseable", f"answer is not a Python literal: {short(answer)}"
        return "wrong", f"expected {short(expected)} (not a literal; compared as text)"
    if not ok_a:
        return "unparseable", f"answer is not a Python literal: {short(answer)}"
    if values_equal(value_a, value_e, float_tolerance=float_tolerance):
        return "correct", ""
    return "wrong", f"expected {short(expected)}, got {short(answer)}"

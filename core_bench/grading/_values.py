"""The one value grader: reprs parsed as literals and compared with Python equality.

Rules (DESIGN.md, "Grading and metrics"):
- both sides are parsed as Python literals: what `ast.literal_eval` reads, plus the reprs it
  does not (`nan`, `inf`, `-inf`, `float('nan')`, `frozenset({1})`, `set()`, empty
  `tuple()`/`list()`/`dict()`);
- equality is Python's `==`: `1 == 1.0`, `True == 1` (bool is an int in Python, and CRUXEval's
  own check is `==`, so we keep that), set and dict order ignored, `[1] != (1,)`;
- except that NaN equals NaN (Python says `nan != nan`, but an answer "nan" to an expected
  "nan" is right), at any depth;
- floats (and ints compared with floats) may differ by a stated tolerance:
  `math.isclose(a, b, rel_tol=tol, abs_tol=tol)`;
- an answer that is missing or is not a literal is "unparseable" (counted, never dropped).
"""

from __future__ import annotations

import ast
import math
from typing import Any

from core_bench.schemas import Verdict

MAX_LITERAL_CHARS = 200_000
"""Longer texts are not parsed (a model's runaway answer must not stall grading)."""

_NAMES: dict[str, float] = {"inf": math.inf, "nan": math.nan}
_EMPTY_CALLS: dict[str, type] = {
    "set": set,
    "frozenset": frozenset,
    "tuple": tuple,
    "list": list,
    "dict": dict,
}


class _NotLiteral(Exception):
    pass


def parse_literal(text: str) -> tuple[bool, Any]:
    """Read a repr back into its value.

    Args:
        text: a Python literal such as "[1, 'a']", "{1, 2}", "nan" or "frozenset({3})".

    Returns:
        `(True, value)`, or `(False, None)` when the text is not a literal.
    """
    stripped = text.strip()
    if not stripped or len(stripped) > MAX_LITERAL_CHARS:
        return False, None
    try:
        tree = ast.parse(stripped, mode="eval")
        return True, _evaluate(tree.body)
    except (_NotLiteral, SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        return False, None


def _evaluate(node: ast.expr) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id in _NAMES:
        return _NAMES[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        operand = _evaluate(node.operand)
        if isinstance(operand, bool) or not isinstance(operand, int | float | complex):
            raise _NotLiteral
        return -operand if isinstance(node.op, ast.USub) else +operand
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
        # Only complex literals such as 1+2j, as ast.literal_eval allows.
        left, right = _evaluate(node.left), _evaluate(node.right)
        if not (
            isinstance(left, int | float)
            and not isinstance(left, bool)
            and isinstance(right, complex)
        ):
            raise _NotLiteral
        return left + right if isinstance(node.op, ast.Add) else left - right
    if isinstance(node, ast.Tuple):
        return tuple(_evaluate(e) for e in node.elts)
    if isinstance(node, ast.List):
        return [_evaluate(e) for e in node.elts]
    if isinstance(node, ast.Set):
        return {_evaluate(e) for e in node.elts}
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            raise _NotLiteral  # a ** unpacking
        return {_evaluate(k): _evaluate(v) for k, v in zip(node.keys, node.values, strict=True)}  # type: ignore[arg-type]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        return _evaluate_call(node.func.id, node.args)
    raise _NotLiteral


def _evaluate_call(name: str, args: list[ast.expr]) -> Any:
    if len(args) > 1 or any(isinstance(a, ast.Starred) for a in args):
        raise _NotLiteral
    if name == "float" and len(args) == 1:
        value = _evaluate(args[0])
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            return float(value)
        raise _NotLiteral
    kind = _EMPTY_CALLS.get(name)
    if kind is None:
        raise _NotLiteral
    if not args:
        return kind()
    value = _evaluate(args[0])
    if not isinstance(value, list | tuple | set | frozenset | dict | str):
        raise _NotLiteral
    return kind(value)


def values_equal(a: Any, b: Any, *, float_tolerance: float = 0.0) -> bool:
    """Python equality, except that NaN equals NaN and floats may differ by the tolerance.

    Args:
        a: a parsed value.
        b: another parsed value.
        float_tolerance: relative and absolute tolerance for floats (0 means exact).
    """
    try:
        return _equal(a, b, float_tolerance)
    except (RecursionError, TypeError, ValueError):
        return False


def _is_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _equal(a: Any, b: Any, tol: float) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if (
        tol > 0
        and _is_number(a)
        and _is_number(b)
        and (isinstance(a, float) or isinstance(b, float))
    ):
        return math.isclose(a, b, rel_tol=tol, abs_tol=tol)
    if isinstance(a, list | tuple) or isinstance(b, list | tuple):
        if type(a) is not type(b) and not (isinstance(a, list) and isinstance(b, list)):
            return bool(a == b)  # a list never equals a tuple: Python says False
        return len(a) == len(b) and all(_equal(x, y, tol) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        if len(a) != len(b) or a.keys() != b.keys():
            return False
        return all(_equal(value, b[key], tol) for key, value in a.items())
    if isinstance(a, set | frozenset) and isinstance(b, set | frozenset):
        if a == b:
            return True
        return len(a) == len(b) and _match_all(list(a), list(b), tol)
    return bool(a == b)


def _match_all(left: list[Any], right: list[Any], tol: float) -> bool:
    """Pair every element of `left` with a distinct equal element of `right` (greedy: only
    NaN and the tolerance can make sets that differ under `==` equal here)."""
    unused = list(right)
    for item in left:
        for index, other in enumerate(unused):
            if _equal(item, other, tol):
                del unused[index]
                break
        else:
            return False
    return True


def same_value(expected: str, actual: str) -> bool:
    """Whether two reprs denote the same value: literal equality where both parse, else text.

    Python equality is the comparison CRUXEval uses, so `1 == 1.0` and sets compare unordered.
    """
    if expected == actual:
        return True
    ok_e, left = parse_literal(expected)
    ok_a, right = parse_literal(actual)
    return ok_e and ok_a and values_equal(left, right)


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
    ok_e, value_e = parse_literal(expected)
    ok_a, value_a = parse_literal(answer)
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

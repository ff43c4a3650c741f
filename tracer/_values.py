"""Reading reprs back into values and comparing them: one rule set, used by every layer.

Reading (`read_literal`): what `ast.literal_eval` reads, plus the reprs it does not: `nan`,
`inf`, `-inf`, `float('nan')`, `frozenset({1})`, `set()` and the empty `tuple()`, `list()`,
`dict()`; never more than `MAX_LITERAL_CHARS` characters (a runaway text must not stall).

Comparing (`values_equal`, `same_value`) at a named strictness:

- "python": Python's `==` (`1 == 1.0`, `True == 1`, sets and dicts unordered, `[1] != (1,)`),
  except that NaN equals NaN at any depth, and floats may differ by a stated tolerance
  (`math.isclose(a, b, rel_tol=tol, abs_tol=tol)`). Grading uses it: CRUXEval's own check is
  `==`.
- "typed": "python", and the two values have the same type (`1` and `1.0` differ, `[1]` and
  `[1.0]` do not). Probes use it: an answer `1.0` to a question whose answer is `1` is another
  state of the program, though Python calls them equal.
- "strict": the same type at every level, dicts compare in order (their order is observable),
  sets and frozensets ignore it (a set's iteration order is not part of its value), NaN equals
  NaN. Variant equivalence uses it: `True` for `1` is a changed program.

Two texts that are identical are always the same value; two that do not both read are not.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Literal

Strictness = Literal["python", "typed", "strict"]
"""How equal two values must be (see the module docstring)."""

COMPARISONS: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}
"""Python's value comparisons by their `ast` operator type, for code that evaluates a comparison
of values it has read (`is` and `is not` are left out: identity is not a value's)."""

MAX_LITERAL_CHARS = 200_000
"""Longer texts are not read (a model's runaway answer must not stall grading)."""

_NAMES: dict[str, float] = {"inf": math.inf, "nan": math.nan}
_EMPTY_CALLS: dict[str, type] = {
    "set": set,
    "frozenset": frozenset,
    "tuple": tuple,
    "list": list,
    "dict": dict,
}


_CACHED_CHARS = 512


class _NotLiteral(Exception):
    pass


def read_literal(text: str) -> tuple[bool, Any]:
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


def values_equal(
    a: Any, b: Any, *, strictness: Strictness = "python", float_tolerance: float = 0.0
) -> bool:
    """Whether two values read by `read_literal` are equal at `strictness`.

    Args:
        a: a value.
        b: another value.
        strictness: "python", "typed" or "strict" (see the module docstring).
        float_tolerance: relative and absolute tolerance for floats, for "python" and
            "typed" (0 means exact).
    """
    try:
        if strictness == "strict":
            return _canonical(a) == _canonical(b)
        if strictness == "typed" and type(a) is not type(b):
            return False
        return _equal(a, b, float_tolerance)
    except (RecursionError, TypeError, ValueError):
        return False


def same_value(
    a: str | None,
    b: str | None,
    *,
    strictness: Strictness = "python",
    float_tolerance: float = 0.0,
) -> bool:
    """Whether two reprs denote equal values at `strictness` (identical texts always do; texts
    that do not both read as literals never do otherwise)."""
    if a == b:
        return True
    if a is None or b is None:
        return False
    ok_a, value_a = _read_for_comparing(a)
    ok_b, value_b = _read_for_comparing(b)
    return (
        ok_a
        and ok_b
        and values_equal(value_a, value_b, strictness=strictness, float_tolerance=float_tolerance)
    )


@lru_cache(maxsize=4096)
def _read_short(text: str) -> tuple[bool, Any]:
    return read_literal(text)


def _read_for_comparing(text: str) -> tuple[bool, Any]:
    """`read_literal`, remembered for short texts: the tracer's steps repeat the same reprs,
    and these values are only compared, never handed out (so never mutated)."""
    return _read_short(text) if len(text) <= _CACHED_CHARS else read_literal(text)


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


def _canonical(value: Any) -> Any:
    """A comparable form of a value that keeps types and dict order, not set order."""
    t = type(value)
    if t in (list, tuple):
        return (t.__name__, tuple(_canonical(v) for v in value))
    if t is dict:
        return ("dict", tuple((_canonical(k), _canonical(v)) for k, v in value.items()))
    if t in (set, frozenset):
        return (t.__name__, tuple(sorted((_canonical(v) for v in value), key=repr)))
    if t is float and value != value:  # NaN: same behaviour when both are NaN
        return ("float", "nan")
    return (t.__name__, value)

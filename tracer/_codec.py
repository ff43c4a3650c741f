"""Value snapshots: bounded, deterministic reprs, marked when they cannot be read back.

A snapshot is the repr text of a value at one moment plus one bit: whether
`ast.literal_eval(text) == value`. The bit is decided by the value's type, not by parsing the
text, so a custom `__repr__` that happens to print "1" is still marked opaque.
"""

from __future__ import annotations

import ast
import math
import re
from typing import Any

CUT_MARK = "...<cut>"
"""Appended to a repr that was cut at the length bound."""

DEFAULT_REPR_LIMIT = 1_000
"""Bound on the repr of a local variable in a step."""

RESULT_REPR_LIMIT = 100_000
"""Bound on the repr of a call's return value."""

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_ATOMS: frozenset[type] = frozenset({int, bool, type(None), str, bytes})
_CONTAINERS: frozenset[type] = frozenset({list, tuple, dict, set})
_FLAT: frozenset[type] = frozenset({int, bool, type(None), str, bytes, float, complex})
_MAX_DEPTH = 40
_BRACKETS: dict[type, tuple[str, str]] = {list: ("[", "]"), tuple: ("(", ")"), set: ("{", "}")}


def snapshot(value: Any, limit: int = DEFAULT_REPR_LIMIT) -> tuple[str, bool]:
    """Return `(text, literal)` for `value`.

    `text` is the repr, cut at `limit` characters and ending in `CUT_MARK` when cut, with
    memory addresses removed so that it is the same on every run. `literal` is True when
    `ast.literal_eval(text)` gives back an equal value of the same type.

    Never raises: a value whose repr fails becomes "<unrepresentable T>" (opaque).
    """
    t = type(value)
    if t in _ATOMS:
        if t is str or t is bytes:
            if len(value) > limit:
                return repr(value[:limit]) + CUT_MARK, False
            return repr(value), True
        try:
            text = repr(value)
        except ValueError:  # int beyond sys.get_int_max_str_digits()
            return f"<int with {value.bit_length()} bits>", False
        if len(text) > limit:
            return text[:limit] + CUT_MARK, False
        return text, True
    if t is float:
        return repr(value), math.isfinite(value)
    if t in _CONTAINERS:
        return container_snapshot(value, limit)[:2]
    return _opaque_repr(value, limit), False


def container_snapshot(value: Any, limit: int) -> tuple[str, bool, bool]:
    """`snapshot` of a list, tuple, dict or set, plus whether it holds only atoms.

    A container of atoms (numbers, strings, bytes, None) is "flat": its repr can only change
    when one of its elements is replaced, which the tracer checks by identity instead of
    building the repr again.
    """
    if type(value) is dict:
        types = set(map(type, value))
        types.update(map(type, value.values()))
    else:
        types = set(map(type, value))
    if types <= _FLAT and len(value) <= limit:
        literal = float not in types or all(
            math.isfinite(x)
            for x in (value.values() if type(value) is dict else value)
            if type(x) is float
        )
        literal = literal and complex not in types
        text = repr(value)
        if len(text) > limit:
            return text[:limit] + CUT_MARK, False, True
        return text, literal, True
    budget = [limit]
    literal = _scan(value, 0, budget)
    if budget[0] < 0:
        return _bounded_repr(value, limit), False, False
    try:
        text = repr(value)
    except Exception:  # a hostile element's __repr__
        return f"<unrepresentable {type(value).__name__}>", False, False
    if len(text) > limit:
        return text[:limit] + CUT_MARK, False, False
    if not literal:
        text = _ADDRESS.sub("", text)
    return text, literal, False


def _scan(value: Any, depth: int, budget: list[int]) -> bool:
    """Whether a container is literal all the way down; spends `budget` per element seen.

    When the budget runs out the repr would be longer than the bound anyway, so the scan stops
    (the caller then builds a cut repr without materialising the whole one).
    """
    if depth > _MAX_DEPTH:
        budget[0] = -1
        return False
    literal = True
    t = type(value)
    if t is dict:
        budget[0] -= 2 * len(value)
        if budget[0] < 0:
            return False
        for k, v in value.items():
            if not _scan_item(k, depth, budget) or not _scan_item(v, depth, budget):
                literal = False
            if budget[0] < 0:
                return False
        return literal
    budget[0] -= len(value)
    if budget[0] < 0:
        return False
    for item in value:
        if not _scan_item(item, depth, budget):
            literal = False
        if budget[0] < 0:
            return False
    return literal


def _scan_item(item: Any, depth: int, budget: list[int]) -> bool:
    t = type(item)
    if t in _ATOMS:
        if t is str or t is bytes:
            budget[0] -= len(item)
        return True
    if t is float:
        return math.isfinite(item)
    if t in _CONTAINERS:
        return _scan(item, depth + 1, budget)
    return False


def _bounded_repr(value: Any, limit: int) -> str:
    """The first `limit` characters of a container's repr, without building all of it."""
    parts: list[str] = []
    room = [limit]

    def emit(text: str) -> bool:
        parts.append(text)
        room[0] -= len(text)
        return room[0] > 0

    def walk(v: Any, depth: int) -> bool:
        t = type(v)
        if t not in _CONTAINERS or depth > _MAX_DEPTH:
            text, _ = snapshot(v, max(room[0], 1)) if t not in _CONTAINERS else ("[...]", False)
            return emit(text)
        if t is dict:
            if not emit("{"):
                return False
            for i, (k, item) in enumerate(v.items()):
                if (i and not emit(", ")) or not walk(k, depth + 1) or not emit(": "):
                    return False
                if not walk(item, depth + 1):
                    return False
            return emit("}")
        if t is set and not v:
            return emit("set()")
        opener, closer = _BRACKETS[t]
        if not emit(opener):
            return False
        for i, item in enumerate(v):
            if (i and not emit(", ")) or not walk(item, depth + 1):
                return False
        if t is tuple and len(v) == 1 and not emit(","):
            return False
        return emit(closer)

    walk(value, 0)
    return "".join(parts)[:limit] + CUT_MARK


def _opaque_repr(value: Any, limit: int) -> str:
    """A deterministic repr for a value that is not a literal (objects, functions, iterators)."""
    t = type(value)
    if t.__repr__ is object.__repr__:
        return f"<{t.__qualname__} object>"
    try:
        text = _ADDRESS.sub("", repr(value))
    except Exception:
        return f"<unrepresentable {t.__qualname__}>"
    if len(text) > limit:
        return text[:limit] + CUT_MARK
    return text


def exception_text(exc: BaseException) -> str:
    """ "Type: message" for an exception, never raising (a hostile `__str__` is replaced)."""
    name = type(exc).__name__
    try:
        message = str(exc)
    except Exception:
        message = "<unprintable message>"
    if len(message) > DEFAULT_REPR_LIMIT:
        message = message[:DEFAULT_REPR_LIMIT] + CUT_MARK
    return f"{name}: {message}" if message else name


LITERAL_LIMIT = 1_000_000
"""Bound on the text of a value sent as a literal (see `literal_text`)."""

_LITERAL_DEPTH = 60


def literal_text(value: Any, limit: int = LITERAL_LIMIT) -> str | None:
    """The text of `value` as Python literal syntax, or None when it is not a plain literal.

    A plain literal is made only of values of the exact builtin types int, bool, None, str,
    bytes, float, complex, list, tuple, dict and set (no subclass, checked all the way down,
    at most 60 levels deep). The text never comes from a `__repr__` the value could define:
    it is built here, so `ast.literal_eval(text)` in another process gives back an equal
    value of the same types. Infinite floats are written `1e999`; NaN (which no literal
    writes) and ints beyond `sys.get_int_max_str_digits()` make the value not a literal.
    """
    parts: list[str] = []
    room = [limit]
    try:
        if not _literal(value, parts, room, 0):
            return None
    except (ValueError, RecursionError, MemoryError):
        return None
    return "".join(parts)


def _literal(value: Any, out: list[str], room: list[int], depth: int) -> bool:
    if depth > _LITERAL_DEPTH:
        return False
    t = type(value)
    if t is int or t is bool or value is None or t is str or t is bytes:
        text = int.__repr__(value) if t is int else repr(value)
    elif t is float:
        if value != value:
            return False
        finite = math.isfinite(value)
        text = float.__repr__(value) if finite else ("1e999" if value > 0 else "-1e999")
    elif t is complex:
        if not (math.isfinite(value.real) and math.isfinite(value.imag)):
            return False
        text = complex.__repr__(value)
    elif t is list or t is tuple or t is set:
        if t is set and not value:
            text = "set()"
        else:
            opener, closer = _BRACKETS[t]
            out.append(opener)
            for index, item in enumerate(value):
                if index:
                    out.append(", ")
                if not _literal(item, out, room, depth + 1):
                    return False
            if t is tuple and len(value) == 1:
                out.append(",")
            text = closer
    elif t is dict:
        out.append("{")
        for index, (key, item) in enumerate(value.items()):
            if index:
                out.append(", ")
            if not _literal(key, out, room, depth + 1):
                return False
            out.append(": ")
            if not _literal(item, out, room, depth + 1):
                return False
        text = "}"
    else:
        return False
    out.append(text)
    room[0] -= len(text) + 2
    return room[0] >= 0


_PLAIN_ATOMS: frozenset[type] = frozenset({int, bool, type(None), str, bytes, float, complex})


def is_plain(value: Any, budget: int = 1_000_000) -> bool:
    """Whether `value` is made only of exact builtin literal types (as `literal_text` asks),
    NaN and infinite floats allowed: then its repr is the builtins' own, never a `__repr__`
    the value defines, and the value grader may read it."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        t = type(item)
        if t in _PLAIN_ATOMS:
            continue
        if depth >= _LITERAL_DEPTH or t not in _CONTAINERS:
            return False
        budget -= len(item) + 1
        if budget < 0:
            return False
        if t is dict:
            stack.extend((k, depth + 1) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        else:
            stack.extend((v, depth + 1) for v in item)
    return True


def literal_value(text: str | None, limit: int = LITERAL_LIMIT) -> tuple[bool, Any]:
    """Read literal text (from `literal_text`, perhaps written by a hostile process) back.

    Only `ast.literal_eval` reads it, and only up to `limit` characters: the text can give
    nothing but plain literal values, whatever it holds.

    Returns:
        `(True, value)`, or `(False, None)` when the text is not a plain literal.
    """
    if not isinstance(text, str) or len(text) > limit:
        return False, None
    try:
        value = ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None
    return (True, value) if literal_text(value, limit) is not None else (False, None)

"""Reprs of flat containers kept up to date element by element.

A flat container holds only atoms (numbers, strings, bytes, None), so its repr can only change
when one of its elements is replaced by another object. A `Flat` remembers the elements the
last repr was built from; `check` compares them by identity (at C speed) and, when some were
replaced, builds the new repr from the remembered reprs of the others, giving exactly the text
and literal mark that `container_snapshot` gives (the differential tests hold it to that).
"""

from __future__ import annotations

import math
from operator import is_
from typing import Any

from tracer._codec import CUT_MARK

UNCHANGED = ("", False)
"""`check`'s answer when no element was replaced: the cached snapshot still holds."""

# The types `container_snapshot` counts as flat.
_FLAT = frozenset({int, bool, type(None), str, bytes, float, complex})


def _not_literal(value: Any) -> bool:
    t = type(value)
    return t is complex or (t is float and not math.isfinite(value))


class Flat:
    """The elements a flat list's or dict's repr was built from.

    Built right after `container_snapshot` said the container is flat; the element reprs are
    made only once an element is first replaced (most containers never are).
    """

    __slots__ = ("bad", "is_dict", "key_reprs", "keys", "pieces", "values")

    def __init__(self, value: Any) -> None:
        self.is_dict = type(value) is dict
        self.keys: list[Any] = list(value) if self.is_dict else []
        self.values: list[Any] = list(value.values()) if self.is_dict else list(value)
        self.pieces: list[str] | None = None
        self.key_reprs: list[str] = []
        self.bad = 0  # elements that keep the repr from being a literal

    def check(self, value: Any, limit: int) -> tuple[str, bool] | None:
        """`UNCHANGED`, the new `(text, literal)`, or None when only a full snapshot will do
        (elements added, removed, reordered keys, or a replacement that is not an atom)."""
        values = self.values
        if len(value) != len(values):
            return None
        if self.is_dict:
            if not all(map(is_, value, self.keys)):
                return None
            current = [*value.values()]
        else:
            current = value
        same = [*map(is_, current, values)]
        count = same.count(False)
        if not count:
            return UNCHANGED
        if len(values) > limit:
            return None
        pieces = self.pieces
        if pieces is None:
            pieces = self._pieces()
        bad = self.bad
        i = -1
        try:
            for _ in range(count):
                i = same.index(False, i + 1)
                new = current[i]
                t = type(new)
                if t not in _FLAT:
                    return None
                if t is float or t is complex or bad:
                    bad += _not_literal(new) - _not_literal(values[i])
                values[i] = new
                pieces[i] = f"{self.key_reprs[i]}: {new!r}" if self.is_dict else repr(new)
        except Exception:  # an int too long for repr: the full snapshot says how to show it
            self.pieces = None
            return None
        self.bad = bad
        opener, closer = ("{", "}") if self.is_dict else ("[", "]")
        text = opener + ", ".join(pieces) + closer
        if len(text) > limit:
            return text[:limit] + CUT_MARK, False
        return text, not bad

    def _pieces(self) -> list[str]:
        values = self.values
        if self.is_dict:
            self.key_reprs = [repr(k) for k in self.keys]
            pieces = [f"{k}: {v!r}" for k, v in zip(self.key_reprs, values, strict=True)]
            self.bad = sum(map(_not_literal, self.keys)) + sum(map(_not_literal, values))
        else:
            pieces = [repr(v) for v in values]
            self.bad = sum(map(_not_literal, values))
        self.pieces = pieces
        return pieces

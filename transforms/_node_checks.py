"""Plain type checks for LibCST's node classes.

LibCST's node classes are abstract base classes (`CSTNode` derives from `abc.ABC`), so every
`isinstance(node, cst.X)` whose answer is not an exact type match goes through
`ABCMeta.__instancecheck__`: a Python-level call and the ABC caches, about ten times a plain
class check. The transforms ask it tens of millions of times while generating variants (a
quarter of the in-process CPU of generation). ABCs answer differently from plain classes only
through virtual subclasses (`register`) and `__subclasshook__`, and LibCST's node classes use
neither; `plain_node_checks` gives those classes a metaclass that is still an `ABCMeta` (so
abstract methods, and classes deriving from them, work as before) but answers `isinstance`
and `issubclass` from the class hierarchy directly, as `type` does. A test compares both
answers on every pair of node classes.
"""

from __future__ import annotations

import abc

import libcst as cst


class PlainChecksMeta(abc.ABCMeta):
    """`ABCMeta`, with `type`'s `isinstance`/`issubclass` (the class hierarchy only)."""

    __instancecheck__ = type.__instancecheck__
    __subclasscheck__ = type.__subclasscheck__


def node_classes() -> list[type]:
    """`cst.CSTNode` and every class derived from it (defined so far), each once."""
    found: list[type] = []
    seen: set[type] = set()
    stack: list[type] = [cst.CSTNode]
    while stack:
        cls = stack.pop()
        if cls in seen:
            continue
        seen.add(cls)
        found.append(cls)
        stack.extend(cls.__subclasses__())
    return found


def _plain(cls: type) -> bool:
    """Whether `cls`'s ABC answers are its class hierarchy's: no virtual subclass and no
    `__subclasshook__` of its own anywhere up its hierarchy (`ABC`'s own answers nothing)."""
    registry = abc._get_dump(cls)[0]  # type: ignore[attr-defined]
    if registry:
        return False
    for base in cls.__mro__:
        hook = base.__dict__.get("__subclasshook__")
        if hook is not None and base is not abc.ABC and base is not object:
            return False
    return True


def plain_node_checks() -> int:
    """Give every LibCST node class whose metaclass is `ABCMeta` and whose ABC answers are
    its hierarchy's the metaclass `PlainChecksMeta` (once per process; idempotent).

    Returns:
        How many classes were changed by this call.
    """
    changed = 0
    for cls in node_classes():
        if type(cls) is abc.ABCMeta and _plain(cls):
            try:
                cls.__class__ = PlainChecksMeta
            except TypeError:  # an interpreter that refuses: the checks stay ABC checks
                return changed
            changed += 1
    return changed

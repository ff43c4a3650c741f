"""Whether a dict changed, without touching its keys and values.

A worker checks after every call whether the call changed `builtins`. Comparing the dict with a
saved copy, or putting the copy back, writes the reference count of every key and value; in a
child of a fork server each of those writes copies a page of the template (about 80 of them
for `builtins`). CPython keeps a counter in every dict that changes whenever the dict does
(`ma_version_tag`, PEP 509); reading it touches nothing else.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


def version_reader(target: dict[Any, Any]) -> Callable[[], int] | None:
    """A function that reads `target`'s modification counter, or None where this interpreter
    has no such counter (then the caller has to assume every call changed the dict).

    The counter is read where CPython 3.11 to 3.13 keep it, after the object header and the
    size; a probe dict first checks that it changes on every kind of change and only then.
    `target` must stay alive as long as the reader is used.
    """
    if sys.implementation.name != "cpython":
        return None
    try:
        import ctypes
    except ImportError:
        return None
    # ob_refcnt, ob_type, ma_used, then ma_version_tag.
    offset = 2 * ctypes.sizeof(ctypes.c_ssize_t) + ctypes.sizeof(ctypes.c_void_p)
    if not _behaves(lambda d: int(ctypes.c_uint64.from_address(id(d) + offset).value)):
        return None
    counter = ctypes.c_uint64.from_address(id(target) + offset)
    return lambda: counter.value  # no builtins: it runs while a call may have emptied them


def _behaves(read: Callable[[dict[str, Any]], int]) -> bool:
    """Whether `read` gives a value that stays while a dict stays and changes with every
    change of it (replacing a value changes neither the dict's size nor its keys' table)."""
    probe: dict[str, Any] = {"open": object(), "len": object()}
    saved = dict(probe)
    seen = [read(probe)]
    unchanged = read(probe) == seen[0] and len(probe) == 2

    def changed() -> bool:
        seen.append(read(probe))
        return seen[-1] != seen[-2]

    probe["open"] = object()
    replaced = changed()
    del probe["len"]
    deleted = changed()
    probe["len"] = saved["len"]
    added = changed()
    probe.clear()
    probe.update(saved)
    restored = changed()
    return unchanged and replaced and deleted and added and restored

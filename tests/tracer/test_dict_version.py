"""`version_reader`: a dict's modification counter, read without touching its contents."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

import pytest

from tracer._dict_version import version_reader

CHANGES: dict[str, Callable[[dict[str, Any]], object]] = {
    "set a new key": lambda d: d.__setitem__("new", 1),
    "replace a value": lambda d: d.__setitem__("a", object()),
    "delete": lambda d: d.__delitem__("a"),
    "pop": lambda d: d.pop("b"),
    "popitem": lambda d: d.popitem(),
    "setdefault": lambda d: d.setdefault("new", 1),
    "update": lambda d: d.update(c=3),
    "clear": lambda d: d.clear(),
    "clear and put back": lambda d: (d.clear(), d.update(a=1, b=2)),
    "delete and put back": lambda d: (d.__delitem__("a"), d.__setitem__("a", 1)),
}


def reader(target: dict[str, Any]) -> Callable[[], int]:
    read = version_reader(target)
    if read is None:  # pragma: no cover - CPython 3.11 to 3.13 have the counter
        pytest.skip("this interpreter keeps no modification counter in its dicts")
    return read


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_every_change_moves_the_counter(change: str) -> None:
    target: dict[str, Any] = {"a": 1, "b": 2}
    read = reader(target)
    before = read()
    CHANGES[change](target)
    assert read() != before


def test_reading_and_iterating_do_not_move_it() -> None:
    target: dict[str, Any] = {"a": 1, "b": 2}
    read = reader(target)
    before = read()
    assert sorted(target.items()) == [("a", 1), ("b", 2)]
    assert target.get("a") == 1 and "b" in target and len(target) == 2
    assert read() == before


def test_it_follows_builtins() -> None:
    read = reader(builtins.__dict__)
    before = read()
    builtins.__dict__["_core_bench_probe"] = 1
    try:
        assert read() != before
    finally:
        del builtins.__dict__["_core_bench_probe"]

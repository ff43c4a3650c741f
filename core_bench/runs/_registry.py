"""Registries keyed by name whose entries are the modules of one package.

A backend (`core_bench.runs.backends`) or a reference agent (`core_bench.runs.agents`) is one
module of its package that registers itself; the registry imports every module of the package
the first time it is read, so adding an entry touches that one module.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator, Mapping
from typing import TypeVar

T = TypeVar("T")


class Registry(Mapping[str, T]):
    """Entries by key, registered by the modules of `package` (imported on first read).

    Args:
        what: what an entry is, for error messages ("backend", "reference agent").
        package: the package whose modules register the entries.
        key: an entry's key (its scheme or name).
    """

    def __init__(self, what: str, package: str, key: Callable[[T], str]) -> None:
        self.what = what
        self._package = package
        self._key = key
        self._entries: dict[str, T] = {}
        self._loaded = False

    def register(self, entry: T) -> T:
        """Add `entry` under its key.

        Raises:
            ValueError: another entry has that key.
        """
        name = self._key(entry)
        if name in self._entries and self._entries[name] is not entry:
            raise ValueError(f"{self.what} {name!r} is registered twice")
        self._entries[name] = entry
        return entry

    def _load(self) -> dict[str, T]:
        if not self._loaded:
            self._loaded = True  # before importing: a module may read the registry it fills
            try:
                package = importlib.import_module(self._package)
                for info in pkgutil.iter_modules(package.__path__):
                    importlib.import_module(f"{self._package}.{info.name}")
            except BaseException:
                self._loaded = False  # a broken module fails every read, not only the first
                raise
        return self._entries

    def __getitem__(self, name: str) -> T:
        return self._load()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._load()))

    def __len__(self) -> int:
        return len(self._load())

    def __repr__(self) -> str:
        return f"Registry({self.what}: {', '.join(self)})"


__all__ = ["Registry"]

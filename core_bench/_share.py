"""One copy of equal values among the records read from a benchmark.

A CRUXEval-sized benchmark has a hundred thousand probes, and pydantic gives each record its
own copy of every string, of every nested record and of its set of set fields: three times
the memory of one shared copy of each (ids, kinds, question templates, anchors and features
repeat across probes). `Sharer.share` replaces those values of a freshly read record by equal
values already seen. Records are frozen and nothing mutates their lists, so sharing is not
observable (equality, dumps and copies are unchanged).
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

_UNIQUE = frozenset({"id", "code"})
"""Fields that are (nearly) unique per record: a table of them would cost more than it saves."""

R = TypeVar("R", bound=BaseModel)


class Sharer:
    """Keeps the first copy of each value seen, and hands it out for equal values."""

    def __init__(self) -> None:
        self._values: dict[Any, Any] = {}

    def share(self, record: R) -> R:
        """`record`, its fields replaced by shared equal values (in place: call it on a record
        just read, before anything else holds it)."""
        fields = record.__dict__
        for name, value in fields.items():
            if name in _UNIQUE:
                continue
            if isinstance(value, str):
                fields[name] = self._values.setdefault(value, value)
            elif isinstance(value, BaseModel):
                shared = self.share(value)
                try:
                    key = (type(shared), *shared.__dict__.items())
                    fields[name] = self._values.setdefault(key, shared)
                except TypeError:  # a field that cannot be a key (a list): keep its own
                    fields[name] = shared
            elif isinstance(value, list) and all(isinstance(item, str) for item in value):
                items = [self._values.setdefault(item, item) for item in value]
                fields[name] = self._values.setdefault(("list", *items), items)
        names = record.__pydantic_fields_set__
        # pydantic copies this set before changing it (model_copy), so one copy can be shared
        key = ("fields_set", *sorted(names))
        object.__setattr__(record, "__pydantic_fields_set__", self._values.setdefault(key, names))
        return record

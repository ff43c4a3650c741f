"""The calls probes read, parsed by tracer's one call type once per call text: every variant
of a problem is probed on the same calls."""

from __future__ import annotations

from functools import lru_cache

from tracer import Call, TraceError


@lru_cache(maxsize=4096)
def read_call(call: str) -> Call | None:
    """The call expression read by `tracer.Call`, or None when `call` is not one (cached:
    never mutate the values of its literal arguments)."""
    try:
        return Call.read(call)
    except (TraceError, RecursionError, MemoryError):
        return None

"""How one sandboxed call ended, as a plain value."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from tracer._model import Trace

Status = Literal["ok", "exception", "timeout", "memory", "crashed"]
STATUSES: frozenset[str] = frozenset(get_args(Status))

MAX_DURATION_S = 1e9
"""Largest duration a reply may state (anything larger is a malformed reply)."""


@dataclass(slots=True)
class Outcome:
    """How one call run in the sandbox ended. Every ending is an outcome, never an exception.

    Attributes:
        status: "ok" (the call returned), "exception" (it raised, or the code or call does not
            parse), "timeout" (wall-clock or CPU limit; the worker was killed and replaced),
            "memory" (MemoryError under the address-space limit) or "crashed" (the worker died
            otherwise: a segfault, `os._exit`, a broken reply; `detail` says how).
        result: repr of the return value (bounded, see `tracer._codec.RESULT_REPR_LIMIT`), or
            None when the call did not return.
        result_literal: True when `ast.literal_eval(result)` gives back an equal value.
        result_plain: True when the value is made only of exact builtin literal types (NaN
            and infinite floats allowed), so `result` is the builtins' own repr, never one
            the value's class wrote; graders read no other result.
        exception: "Type: message" when status is "exception" or "memory", else None.
        args_after: reprs of the argument values after the call (keyword arguments as
            "name=repr"), so in-place mutation can be compared.
        trace: the `Trace`, when the call was run with `trace=True` and did not time out or
            crash.
        stdout: what the call printed, cut after a few KB (marked with "...<cut>").
        detail: a note for people: which signal killed the worker, which limit was hit.
        duration_s: wall-clock seconds the call took (as the worker measured it when it
            replied; as the parent measured it for timeouts and crashes).
    """

    status: Status
    result: str | None = None
    result_literal: bool = False
    result_plain: bool = False
    exception: str | None = None
    args_after: list[str] = field(default_factory=list)
    trace: Trace | None = None
    stdout: str = ""
    detail: str = ""
    duration_s: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """A plain JSON-serialisable dict that round-trips through `Outcome.from_json`."""
        return {
            "status": self.status,
            "result": self.result,
            "result_literal": self.result_literal,
            "result_plain": self.result_plain,
            "exception": self.exception,
            "args_after": list(self.args_after),
            "trace": self.trace.to_json() if self.trace is not None else None,
            "stdout": self.stdout,
            "detail": self.detail,
            "duration_s": self.duration_s,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        """Rebuild an outcome from `to_json` output, checking every field's type.

        Raises:
            ValueError: a field is missing or has the wrong type.
        """
        if not isinstance(data, dict):
            raise ValueError(f"an outcome is a JSON object, got {type(data).__name__}")
        status = data.get("status")
        if status not in STATUSES:
            raise ValueError(f"status must be one of {sorted(STATUSES)}, got {status!r}")
        args_after = data.get("args_after", [])
        if not isinstance(args_after, list) or not all(isinstance(a, str) for a in args_after):
            raise ValueError("args_after must be a list of strings")
        duration = data.get("duration_s", 0.0)
        if isinstance(duration, bool) or not isinstance(duration, int | float):
            raise ValueError("duration_s must be a number")
        if not 0.0 <= duration <= MAX_DURATION_S:  # also refuses NaN, and ints like 10**400
            raise ValueError(f"duration_s must be between 0 and {MAX_DURATION_S:g}")
        raw_trace = data.get("trace")
        trace: Trace | None = None
        if raw_trace is not None:
            if not isinstance(raw_trace, dict):
                raise ValueError("trace must be an object or null")
            try:
                trace = Trace.from_json(raw_trace)
                _check_trace(trace)
            except Exception as exc:  # any malformed trace, e.g. an index of Infinity
                raise ValueError(f"trace is malformed: {str(exc)[:200]}") from None
        return cls(
            status=status,
            result=_optional_str(data, "result"),
            result_literal=_bool(data, "result_literal"),
            result_plain=_bool(data, "result_plain"),
            exception=_optional_str(data, "exception"),
            args_after=list(args_after),
            trace=trace,
            stdout=_str(data, "stdout"),
            detail=_str(data, "detail"),
            duration_s=float(duration),
        )


def _optional_str(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{key} must be a string or null")
    return value


def _str(data: dict[str, Any], key: str) -> str:
    value = data.get(key, "")
    if not isinstance(value, str):
        raise ValueError(f"{key} must be a string")
    return value


def _bool(data: dict[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise ValueError(f"{key} must be a boolean")
    return value


_EVENTS = frozenset({"call", "line", "return", "exception"})


def _check_trace(trace: Trace) -> None:
    """Every field of a decoded trace has the type the renderers and graders expect."""
    for name in ("result", "exception"):
        value = getattr(trace, name)
        if value is not None and not isinstance(value, str):
            raise ValueError(f"trace {name} must be a string or null")
    if not all(isinstance(a, str) for a in trace.args_after):
        raise ValueError("trace args_after must be strings")
    for step in trace.steps:
        if step.event not in _EVENTS:
            raise ValueError(f"step event {str(step.event)[:40]!r} is not an event")
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in step.locals.items()):
            raise ValueError("step locals must map names to strings")
        if step.value is not None and not isinstance(step.value, str):
            raise ValueError("step value must be a string or null")
        if step.branch is not None and not isinstance(step.branch, bool):
            raise ValueError("step branch must be a boolean or null")
        if not all(isinstance(name, str) for name in step.opaque):
            raise ValueError("step opaque must list names")

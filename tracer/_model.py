"""The data a trace is made of: steps, the trace itself, and the tracer's error."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Event = Literal["call", "line", "return", "exception"]
RenderFormat = Literal["core", "cwm", "text"]


class TraceError(Exception):
    """The code or the call could not be traced (it does not parse, or names nothing callable).

    Attributes:
        line: 1-based line of the offending source where one is known, else None.
    """

    def __init__(self, message: str, *, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


@dataclass(slots=True)
class Step:
    """One event of a traced frame.

    Attributes:
        index: position of this step in the trace, from 0.
        event: "call", "line", "return" or "exception".
        func: name of the function whose frame fired the event.
        frame: id of the frame activation (a generator keeps one id across resumptions).
        depth: 0 for the entry call, one more for each traced caller.
        line: 1-based line in the traced code.
        locals: name -> repr of every local when the event fires (before a "line" runs).
        iterations: loop header line -> 1-based iteration, for every loop enclosing `line`.
        branch: outcome of the condition evaluated on this line, for if/elif/while headers,
            conditional expressions and `assert` (whether it held); None elsewhere, and where
            the test raised.
        value: repr of the returned value ("return") or "Type: message" ("exception").
        opaque: names of locals whose repr is cut or cannot be read back with
            `ast.literal_eval`; probes skip them.
        value_opaque: the same mark for `value`.
    """

    index: int
    event: Event
    func: str
    frame: int
    depth: int
    line: int
    locals: dict[str, str]
    iterations: dict[int, int] = field(default_factory=dict)
    branch: bool | None = None
    value: str | None = None
    opaque: tuple[str, ...] = ()
    value_opaque: bool = False

    def to_json(self) -> dict[str, Any]:
        """A plain JSON-serialisable dict (loop lines become string keys, as JSON needs)."""
        return {
            "index": self.index,
            "event": self.event,
            "func": self.func,
            "frame": self.frame,
            "depth": self.depth,
            "line": self.line,
            "locals": dict(self.locals),
            "iterations": {str(k): v for k, v in self.iterations.items()},
            "branch": self.branch,
            "value": self.value,
            "opaque": list(self.opaque),
            "value_opaque": self.value_opaque,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Step:
        """Rebuild a step from `to_json` output."""
        return cls(
            index=int(data["index"]),
            event=data["event"],
            func=str(data["func"]),
            frame=int(data["frame"]),
            depth=int(data["depth"]),
            line=int(data["line"]),
            locals=dict(data["locals"]),
            iterations={int(k): int(v) for k, v in data.get("iterations", {}).items()},
            branch=data.get("branch"),
            value=data.get("value"),
            opaque=tuple(data.get("opaque", ())),
            value_opaque=bool(data.get("value_opaque", False)),
        )


@dataclass(slots=True)
class Trace:
    """Every step of one call, and how the call ended.

    Attributes:
        code: the traced source.
        call: the call expression, e.g. "f([1, 2], 3)".
        steps: the events, in execution order.
        result: repr of the return value, or None when the call raised or was cut short.
        exception: "Type: message" when the call raised, else None.
        truncated: True when `max_steps` stopped the call.
        result_opaque: True when `result` cannot be read back with `ast.literal_eval`.
        args_after: reprs of the positional and keyword argument values after the call, in
            call order (keyword arguments as "name=repr"), so in-place mutation is visible.
    """

    code: str
    call: str
    steps: list[Step]
    result: str | None = None
    exception: str | None = None
    truncated: bool = False
    result_opaque: bool = False
    args_after: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """A plain JSON-serialisable dict that round-trips through `Trace.from_json`."""
        return {
            "code": self.code,
            "call": self.call,
            "result": self.result,
            "exception": self.exception,
            "truncated": self.truncated,
            "result_opaque": self.result_opaque,
            "args_after": list(self.args_after),
            "steps": [s.to_json() for s in self.steps],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Trace:
        """Rebuild a trace from `to_json` output."""
        return cls(
            code=str(data["code"]),
            call=str(data["call"]),
            steps=[Step.from_json(s) for s in data["steps"]],
            result=data.get("result"),
            exception=data.get("exception"),
            truncated=bool(data.get("truncated", False)),
            result_opaque=bool(data.get("result_opaque", False)),
            args_after=list(data.get("args_after", [])),
        )

    def render(self, fmt: RenderFormat = "text") -> str:
        """Render the trace as text: "core" (CoRE's step list), "cwm" (JSON frames) or "text"."""
        from tracer._render import render

        return render(self, fmt)

"""Rendering traces as text: CoRE's step list, CWM-style JSON frames, and a view for people."""

from __future__ import annotations

import ast
import json
from typing import TYPE_CHECKING

from tracer._static import CodeMap, build_code_map

if TYPE_CHECKING:
    from tracer._model import RenderFormat, Step, Trace

UNCHANGED = ".."
"""Written by the "cwm" format for a value equal to the one in the frame's previous event."""


def render(trace: Trace, fmt: RenderFormat) -> str:
    """Render a trace in one of the formats of `Trace.render`."""
    if fmt == "core":
        return render_core(trace)
    if fmt == "cwm":
        return render_cwm(trace)
    if fmt == "text":
        return render_text(trace)
    raise ValueError(f"unknown trace format {fmt!r}: expected 'core', 'cwm' or 'text'")


def states_after(trace: Trace) -> list[dict[str, str] | None]:
    """For each step, the locals of the next step of the same frame (the state once it ran).

    None where the frame has no later step (its last event).
    """
    after: list[dict[str, str] | None] = [None] * len(trace.steps)
    last_of_frame: dict[int, int] = {}
    for step in trace.steps:
        previous = last_of_frame.get(step.frame)
        if previous is not None:
            after[previous] = step.locals
        last_of_frame[step.frame] = step.index
    return after


def _source_lines(trace: Trace) -> list[str]:
    return trace.code.splitlines()


def _source(lines: list[str], line: int) -> str:
    return lines[line - 1].strip() if 1 <= line <= len(lines) else ""


def _format_locals(values: dict[str, str]) -> str:
    return "{" + ", ".join(f"{k}: {v}" for k, v in values.items()) + "}"


def _loop_note(code_map: CodeMap, step: Step, state: dict[str, str]) -> str:
    """CoRE's "(Iter i: x=..)" for the innermost loop around the step, or ""."""
    if not step.iterations:
        return ""
    header = max(step.iterations)
    loop = code_map.loops.get(header)
    bound = ", ".join(f"{n}={state[n]}" for n in (loop.targets if loop else ()) if n in state)
    iteration = step.iterations[header]
    return f" (Iter {iteration}: {bound})" if bound else f" (Iter {iteration})"


def render_core(trace: Trace) -> str:
    """CoRE's step list: `[Step n] Line k: <source> (Iter i: x=..) | locals: {...}`.

    One entry per executed line, numbered from 1, with the state right after the line ran;
    helper frames are prefixed with their function name, and the call ends with its result.
    """
    lines = _source_lines(trace)
    code_map = build_code_map(ast.parse(trace.code), trace.code)
    after = states_after(trace)
    out: list[str] = []
    number = 0
    for step in trace.steps:
        if step.event != "line":
            continue
        number += 1
        state = after[step.index] or step.locals
        where = f"{step.func} " if step.depth else ""
        note = _loop_note(code_map, step, state)
        out.append(
            f"[Step {number}] {where}Line {step.line}: {_source(lines, step.line)}{note}"
            f" | locals: {_format_locals(state)}"
        )
    out.append(_ending(trace))
    return "\n".join(out)


def _ending(trace: Trace) -> str:
    if trace.truncated:
        return f"[Stopped] after {len(trace.steps)} steps"
    if trace.exception is not None:
        return f"[Raised] {trace.exception}"
    return f"[Return] {trace.result}"


def render_cwm(trace: Trace) -> str:
    """JSON frames in the style of Meta's CWM traces, one object per line.

    Each event is `{"event", "func", "line", "source", "locals"}` (plus `"value"` on return
    and exception); a local whose value is the same as at the frame's previous event is
    written as "..", so each frame shows what changed.
    """
    lines = _source_lines(trace)
    previous: dict[int, dict[str, str]] = {}
    out: list[str] = []
    for step in trace.steps:
        before = previous.get(step.frame, {})
        shown = {k: (UNCHANGED if before.get(k) == v else v) for k, v in step.locals.items()}
        previous[step.frame] = step.locals
        frame: dict[str, object] = {
            "event": step.event,
            "func": step.func,
            "line": step.line,
            "source": _source(lines, step.line),
            "locals": shown,
        }
        if step.value is not None:
            frame["value"] = step.value
        out.append(json.dumps(frame, ensure_ascii=False))
    return "\n".join(out)


def render_text(trace: Trace) -> str:
    """A view for people: one row per step with its line, loop iteration, branch and changes."""
    lines = _source_lines(trace)
    after = states_after(trace)
    out = [f"trace of {trace.call}: {len(trace.steps)} steps"]
    for step in trace.steps:
        indent = "  " * step.depth
        head = f"{step.index:>5} {indent}{step.func}:{step.line:<4} {step.event:<9}"
        if step.event == "call":
            args = ", ".join(f"{k}={v}" for k, v in step.locals.items())
            out.append(f"{head} ({args})")
            continue
        if step.event in ("return", "exception"):
            out.append(f"{head} -> {step.value}")
            continue
        notes: list[str] = []
        if step.iterations:
            notes.append(" ".join(f"iter@{h}={i}" for h, i in step.iterations.items()))
        if step.branch is not None:
            notes.append(f"branch={step.branch}")
        state = after[step.index]
        if state is not None:
            changed = {k: v for k, v in state.items() if step.locals.get(k) != v}
            if changed:
                notes.append("-> " + ", ".join(f"{k}={v}" for k, v in changed.items()))
        suffix = "   # " + "; ".join(notes) if notes else ""
        out.append(f"{head} {_source(lines, step.line)}{suffix}")
    out.append(_ending(trace))
    return "\n".join(out)

"""A trace as a worker sends it to the parent: compact, and checked while it is read back.

Traced replies are most of the bytes between a build's workers and its parent (7 KB a call on
CRUXEval, two thirds of them field names and locals repeated from the step before), and
encoding, decoding and checking them was a third of the build's sandbox CPU. The packed form:

- the trace's fields as `Trace.to_json` has them, without `code` and `call` (the parent sent
  both, and fills them in);
- each step an array `[event, func, frame, depth, line, locals, iterations, branch, value,
  opaque, value_opaque]`, its index its position, trailing default values left out;
  `iterations` a flat list `[line, n, line, n, ...]`;
- `locals` a dict, or, when the frame's previous step had the same names in the same order,
  a one-element list holding only the entries whose repr changed.

`unpack_trace` gives exactly the `Trace` that `Trace.from_json(trace.to_json())` gives, and
refuses anything a worker could not have packed (the worker runs untrusted code): the parent
turns a `ValueError` into a "crashed" outcome.
"""

from __future__ import annotations

from itertools import chain
from operator import is_
from typing import Any

from tracer._model import Event, Step, Trace
from tracer._outcome import Outcome

_EVENTS = frozenset({"call", "line", "return", "exception"})


def pack_trace(trace: Trace) -> dict[str, Any]:
    """The packed form of `trace` (see the module docstring)."""
    steps: list[list[Any]] = []
    last: dict[int, dict[str, str]] = {}
    # Consecutive steps of one loop pass share their iterations dict: flattened once.
    iterations: dict[int, int] = {}
    flat: list[int] = []
    for step in trace.steps:
        current = step.locals
        previous = last.get(step.frame)
        packed: Any = current
        # The same names in the same order (names are interned: `is` compares them in C).
        if (
            previous is not None
            and len(previous) == len(current)
            and all(map(is_, previous, current))
        ):
            # An unchanged repr is mostly the very same string: `is` spares comparing a long
            # one character by character.
            packed = [{k: v for k, v in current.items() if not _same(previous[k], v)}]
        last[step.frame] = current
        row = [step.event, step.func, step.frame, step.depth, step.line, packed]
        if step.iterations is not iterations:
            iterations = step.iterations
            flat = list(chain.from_iterable(iterations.items()))
        if step.value_opaque or step.opaque or step.value is not None:
            row += [flat, step.branch, step.value]
            if step.value_opaque or step.opaque:
                row.append(list(step.opaque))
                if step.value_opaque:
                    row.append(True)
        elif step.branch is not None:
            row += [flat, step.branch]
        elif flat:
            row.append(flat)
        steps.append(row)
    return {
        "result": trace.result,
        "exception": trace.exception,
        "truncated": trace.truncated,
        "result_opaque": trace.result_opaque,
        "args_after": list(trace.args_after),
        "steps": steps,
    }


def _same(a: str, b: str) -> bool:
    return a is b or a == b


def unpack_trace(data: Any, code: str, call: str) -> Trace:
    """The `Trace` of a packed trace of `call` against `code`.

    Raises:
        ValueError: `data` is not a trace `pack_trace` could have made.
    """
    if type(data) is not dict:
        raise ValueError("a packed trace is an object")
    rows = data.get("steps")
    if type(rows) is not list:
        raise ValueError("steps must be a list")
    result, exception = data.get("result"), data.get("exception")
    truncated, result_opaque = data.get("truncated"), data.get("result_opaque")
    args_after = data.get("args_after")
    if not (_text_or_none(result) and _text_or_none(exception)):
        raise ValueError("result and exception must be strings or null")
    if type(truncated) is not bool or type(result_opaque) is not bool:
        raise ValueError("truncated and result_opaque must be booleans")
    if type(args_after) is not list or not all(type(a) is str for a in args_after):
        raise ValueError("args_after must be a list of strings")
    last: dict[int, dict[str, str]] = {}
    steps = [_step(index, row, last) for index, row in enumerate(rows)]
    return Trace(
        code=code,
        call=call,
        steps=steps,
        result=result,
        exception=exception,
        truncated=truncated,
        result_opaque=result_opaque,
        args_after=args_after,
    )


def _text_or_none(value: Any) -> bool:
    return value is None or type(value) is str


def _step(index: int, row: Any, last: dict[int, dict[str, str]]) -> Step:
    if type(row) is not list or not 6 <= len(row) <= 11:
        raise ValueError(f"step {index} is not a packed step")
    event, func, frame, depth, line, packed = row[:6]
    if type(event) is not str or event not in _EVENTS:
        raise ValueError(f"step {index}: {str(event)[:40]!r} is not an event")
    kind: Event = event  # type: ignore[assignment]  # (checked just above)
    if type(func) is not str or not (type(frame) is type(depth) is type(line) is int):
        raise ValueError(f"step {index}: func must be a string, frame, depth and line integers")
    if type(packed) is dict:
        if not all(type(k) is str and type(v) is str for k, v in packed.items()):
            raise ValueError(f"step {index}: locals must map names to strings")
        names = packed
    else:
        previous = last.get(frame)
        if type(packed) is not list or len(packed) != 1 or previous is None:
            raise ValueError(f"step {index}: locals must be a dict or a change of the last")
        changes = packed[0]
        if type(changes) is not dict or not all(
            k in previous and type(v) is str for k, v in changes.items()
        ):
            raise ValueError(f"step {index}: a change of locals must name known locals")
        names = {**previous, **changes}
    last[frame] = names
    if len(row) == 6:  # most steps: nothing after the locals (the defaults, checked as such)
        return Step(index, kind, func, frame, depth, line, names, {}, None, None, (), False)
    tail = row[6:]
    flat = tail[0]
    if type(flat) is not list or len(flat) % 2 or not all(type(n) is int for n in flat):
        raise ValueError(f"step {index}: iterations must be pairs of integers")
    if len(tail) == 1:  # a step in a loop: its iterations, then the defaults
        iterations = dict(zip(flat[::2], flat[1::2], strict=True))
        return Step(index, kind, func, frame, depth, line, names, iterations, None, None, (), False)
    branch = tail[1] if len(tail) > 1 else None
    value = tail[2] if len(tail) > 2 else None
    opaque = tail[3] if len(tail) > 3 else []
    value_opaque = tail[4] if len(tail) > 4 else False
    if branch is not None and type(branch) is not bool:
        raise ValueError(f"step {index}: branch must be a boolean or null")
    if not _text_or_none(value):
        raise ValueError(f"step {index}: value must be a string or null")
    if type(opaque) is not list or not all(type(n) is str for n in opaque):
        raise ValueError(f"step {index}: opaque must list names")
    if type(value_opaque) is not bool:
        raise ValueError(f"step {index}: value_opaque must be a boolean")
    return Step(
        index,
        kind,
        func,
        frame,
        depth,
        line,
        names,
        dict(zip(flat[::2], flat[1::2], strict=True)),
        branch,
        value,
        tuple(opaque),
        value_opaque,
    )


def reply_outcome(reply: dict[str, Any], code: str, call: str) -> Outcome:
    """The outcome a worker's reply to `call` against `code` states, its trace packed.

    Raises:
        ValueError: a field is missing or has the wrong type.
    """
    packed = reply.get("trace")
    if packed is None:
        return Outcome.from_json(reply)
    outcome = Outcome.from_json({**reply, "trace": None})
    try:
        outcome.trace = unpack_trace(packed, code, call)
    except Exception as exc:  # any malformed trace, e.g. one nested too deeply
        raise ValueError(f"trace is malformed: {str(exc)[:200]}") from None
    return outcome

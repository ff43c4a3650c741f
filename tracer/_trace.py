"""The in-process tracer: `trace(code, call)` records every step of one call."""

from __future__ import annotations

import sys
from operator import is_
from types import CodeType, FrameType
from typing import Any

from tracer._call import CODE_FILENAME, bind_call, parse_call, parse_module
from tracer._codec import (
    DEFAULT_REPR_LIMIT,
    RESULT_REPR_LIMIT,
    container_snapshot,
    exception_text,
    snapshot,
)
from tracer._model import Step, Trace, TraceError
from tracer._static import (
    CodeMap,
    Condition,
    LineEffect,
    Loop,
    build_code_map,
    line_effects,
    within,
)

_COMPREHENSIONS = frozenset({"<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"})
# Reprs of these types never change while the object lives, so a repr can be reused while a
# local still refers to the same object.
_IMMUTABLE = frozenset({int, float, bool, str, bytes, type(None), complex})
_CONTAINERS = frozenset({list, dict, set, tuple})

# name -> (object, repr, literal, shadow): the shadow is a shallow copy of a container of atoms,
# whose elements are compared by identity to tell that the repr is still right.
_CacheEntry = tuple[Any, str, bool, Any]
_NO_ITERATIONS: dict[int, int] = {}
_MISSING = object()
_SMALL_INT = 10**18  # far below the digit limit of int repr


class _StepLimit(BaseException):
    """Raised into the traced code to stop it at `max_steps` (BaseException: user code that
    catches Exception must not swallow it)."""


class _Frame:
    """What the recorder keeps about one frame activation."""

    __slots__ = (
        "cache",
        "comprehension",
        "counters",
        "depth",
        "func",
        "id",
        "iterations",
        "last_effect",
        "last_event",
        "last_step",
        "pending",
        "pending_step",
        "positions",
        "prev_line",
        "saw_opcode",
    )

    def __init__(self, frame_id: int, depth: int, code: CodeType) -> None:
        self.id = frame_id
        self.depth = depth
        self.func = code.co_name
        self.comprehension = code.co_name in _COMPREHENSIONS
        self.counters: dict[int, int] = {}
        self.cache: dict[str, _CacheEntry] = {}
        self.last_step: Step | None = None
        self.last_effect: LineEffect | None = None  # of last_step's line, when it is a line step
        self.prev_line: int | None = None
        self.last_event = ""
        self.pending: Condition | None = None
        self.pending_step: Step | None = None
        self.positions: list[tuple[int | None, int | None]] | None = None
        self.saw_opcode = False
        # enclosing loop headers -> the iterations dict, shared by steps until a counter moves
        self.iterations: dict[tuple[int, ...], dict[int, int]] = {}


class _Recorder:
    """Turns trace events of the traced module's frames into steps.

    `local_trace` runs for every event of every traced line, so it is written as one flat
    function; the rarer work (branch outcomes, full snapshots) lives in methods.
    """

    __slots__ = (
        "code_map",
        "frames",
        "lines",
        "local",
        "max_steps",
        "repr_limit",
        "steps",
        "truncated",
    )

    def __init__(
        self,
        code_map: CodeMap,
        effects: dict[int, LineEffect],
        max_steps: int,
        repr_limit: int,
    ) -> None:
        self.code_map = code_map
        self.lines = _line_table(code_map, effects)
        self.max_steps = max_steps
        self.repr_limit = repr_limit
        self.steps: list[Step] = []
        self.frames: dict[FrameType, _Frame] = {}
        self.truncated = False
        self.local = self.local_trace  # one bound method, handed back at every event

    def global_trace(self, frame: FrameType, event: str, arg: Any) -> Any:
        code = frame.f_code
        if code.co_filename != CODE_FILENAME:
            return None
        state = self.frames.get(frame)
        if state is None:
            parent = frame.f_back
            while parent is not None and parent not in self.frames:
                parent = parent.f_back
            depth = 0 if parent is None else self.frames[parent].depth + 1
            state = _Frame(len(self.frames), depth, code)
            self.frames[frame] = state
            if self._needs_opcodes(code):
                state.positions = [(p[0], p[2]) for p in code.co_positions()]
                frame.f_trace_opcodes = True
        return self.local(frame, event, arg)

    def _needs_opcodes(self, code: CodeType) -> bool:
        lines = self.code_map.opcode_lines
        return bool(lines) and any(line in lines for _, _, line in code.co_lines() if line)

    def local_trace(self, frame: FrameType, event: str, arg: Any) -> Any:
        state = self.frames[frame]
        if event == "opcode":
            state.saw_opcode = True
            if state.pending is not None and state.pending.by_opcode:
                self._resolve_by_opcode(frame, state)
            return self.local
        if event == "return" and arg is None and state.last_event == "exception":
            # The frame is unwinding; its "exception" step already ends it.
            state.last_event = "return"
            return self.local
        steps = self.steps
        index = len(steps)
        if index >= self.max_steps:
            self.truncated = True
            raise _StepLimit
        line = frame.f_lineno
        if state.pending is not None:
            self._resolve_by_line(state, event, line)

        prev = state.last_step
        found = None
        effect = state.last_effect
        if effect is not None and prev is not None and prev.index == index - 1:
            found = self._update_locals(frame, state, prev, effect)
        if found is None:
            found = self._snapshot_locals(frame, state)
        locals_, opaque = found

        iterations = _NO_ITERATIONS
        value: str | None = None
        value_opaque = False
        info = _NO_INFO
        if event == "line":
            info = self.lines.get(line, _NO_INFO)
            loop = info.loop
            if loop is not None and loop.comprehension == state.comprehension:
                counters = state.counters
                last = state.prev_line
                if last is not None and (last == line or loop.contains(last)) and line in counters:
                    counters[line] += 1
                else:
                    counters[line] = 1
                state.iterations.clear()
            enclosing = info.enclosing
            if enclosing:
                shared = state.iterations.get(enclosing)
                if shared is None:
                    counters = state.counters
                    shared = {h: counters[h] for h in enclosing if h in counters}
                    state.iterations[enclosing] = shared
                iterations = shared
            state.prev_line = line
        elif event == "return":
            value, literal = snapshot(arg, self.repr_limit)
            value_opaque = not literal
        elif event == "exception":
            value = exception_text(arg[1]) if isinstance(arg[1], BaseException) else str(arg[0])
            value_opaque = True
        step = Step(
            index,
            event,  # type: ignore[arg-type]
            state.func,
            state.id,
            state.depth,
            line,
            locals_,
            iterations,
            None,
            value,
            opaque,
            value_opaque,
        )
        steps.append(step)
        state.last_event = event
        state.last_step = step
        state.last_effect = info.effect
        if info.condition is not None:
            state.pending = info.condition
            state.pending_step = step
            state.saw_opcode = False
        return self.local

    def _update_locals(
        self, frame: FrameType, state: _Frame, prev: Step, effect: LineEffect
    ) -> tuple[dict[str, str], tuple[str, ...]] | None:
        """The previous step's locals with only what `effect` allows to change looked at again.

        None when a full snapshot is needed (a local appeared or disappeared).
        """
        cache = state.cache
        current = frame.f_locals
        reprs = prev.locals.copy()
        if len(current) != len(reprs):
            return None
        mutates = effect.mutates
        for name in effect.augmented:
            entry = cache.get(name)
            if entry is None or type(entry[0]) not in _IMMUTABLE:
                mutates = True  # `x += y` on a list changes every alias of it
        names: Any = effect.names
        if mutates:
            names = [n for n in reprs if type(cache[n][0]) not in _IMMUTABLE]
            names.extend(effect.names)
        opaque = prev.opaque
        for name in names:
            value = current.get(name, _MISSING)
            if value is _MISSING:
                if name in reprs:
                    return None
                continue  # a global, or a comprehension's own variable
            entry = cache.get(name)
            if entry is not None and entry[0] is value and type(value) in _IMMUTABLE:
                continue
            if name not in reprs:
                return None
            text, literal = self._snapshot_value(cache, name, value)
            reprs[name] = text
            if literal == (name in opaque):
                opaque = tuple(n for n in reprs if not cache[n][2])
        return reprs, opaque

    def _snapshot_locals(
        self, frame: FrameType, state: _Frame
    ) -> tuple[dict[str, str], tuple[str, ...]]:
        cache = state.cache
        reprs: dict[str, str] = {}
        opaque: list[str] = []
        for name, value in frame.f_locals.items():
            if name[0] == ".":  # the hidden iterator of a 3.11 comprehension frame
                continue
            text, literal = self._snapshot_value(cache, name, value)
            reprs[name] = text
            if not literal:
                opaque.append(name)
        return reprs, tuple(opaque)

    def _snapshot_value(
        self, cache: dict[str, _CacheEntry], name: str, value: Any
    ) -> tuple[str, bool]:
        t = type(value)
        entry = cache.get(name)
        if entry is not None and entry[0] is value:
            if t in _IMMUTABLE:
                return entry[1], entry[2]
            shadow = entry[3]
            if shadow is not None and _unchanged(value, shadow):
                return entry[1], entry[2]
        shadow = None
        if t is int and -_SMALL_INT < value < _SMALL_INT:
            text, literal = repr(value), True
        elif t in _CONTAINERS:
            text, literal, flat = container_snapshot(value, self.repr_limit)
            if flat:
                shadow = _shadow(value)
        else:
            text, literal = snapshot(value, self.repr_limit)
        cache[name] = (value, text, literal, shadow)
        return text, literal

    def _resolve_by_line(self, state: _Frame, event: str, line: int) -> None:
        condition = state.pending
        assert condition is not None and state.pending_step is not None
        if condition.by_opcode:
            if event == "call":
                return
            # Control left the line before reaching the body: a statement's test failed (it
            # jumped past), but a conditional expression was never reached.
            # Without opcode events (Python 3.12 ignores f_trace_opcodes) nothing is known.
            jumped_past = condition.kind != "ifexp" and event != "exception" and state.saw_opcode
            state.pending_step.branch = False if jumped_past else None
            state.pending = state.pending_step = None
            return
        if event == "line":
            if condition.body[0][0] <= line <= condition.body[1][0]:
                outcome: bool | None = True
            elif condition.test[0][0] <= line <= condition.test[1][0]:
                return  # still inside a test that spans several lines
            else:
                outcome = False
        elif event == "return":
            outcome = False
        elif event == "exception":
            outcome = None  # the test itself raised
        else:
            return
        state.pending_step.branch = outcome
        state.pending = state.pending_step = None

    def _resolve_by_opcode(self, frame: FrameType, state: _Frame) -> None:
        condition = state.pending
        assert condition is not None and state.pending_step is not None and state.positions
        lasti = frame.f_lasti
        if lasti < 0:
            return
        position = state.positions[lasti // 2]
        if within(position, condition.body):
            outcome = True
        elif condition.orelse is not None and within(position, condition.orelse):
            outcome = False
        elif within(position, condition.test) or condition.kind == "ifexp":
            return  # evaluating the test, or code around a conditional expression
        else:
            outcome = False  # jumped past an if statement with no else
        state.pending_step.branch = outcome
        state.pending = state.pending_step = None


class _LineInfo:
    """Everything the recorder looks up about one line, in one place."""

    __slots__ = ("condition", "effect", "enclosing", "loop")

    def __init__(
        self,
        loop: Loop | None = None,
        enclosing: tuple[int, ...] = (),
        condition: Condition | None = None,
        effect: LineEffect | None = None,
    ) -> None:
        self.loop = loop
        self.enclosing = enclosing
        self.condition = condition
        self.effect = effect


_NO_INFO = _LineInfo()


def _line_table(code_map: CodeMap, effects: dict[int, LineEffect]) -> dict[int, _LineInfo]:
    lines = set(code_map.loops) | set(code_map.enclosing) | set(code_map.conditions)
    return {
        line: _LineInfo(
            code_map.loops.get(line),
            code_map.enclosing.get(line, ()),
            code_map.conditions.get(line),
            effects.get(line),
        )
        for line in lines | set(effects)
    }


def _shadow(value: Any) -> Any:
    t = type(value)
    if t is tuple:
        return ()  # a tuple of atoms never changes; any non-None shadow marks it reusable
    if t is set:
        return list(value)  # iteration order too: it is what the repr shows
    return value.copy()


def _unchanged(value: Any, shadow: Any) -> bool:
    """Whether a container of atoms still holds the very same elements in the same order."""
    t = type(value)
    if t is tuple:
        return True
    if len(value) != len(shadow):
        return False
    if t is dict:
        return all(map(is_, value, shadow)) and all(map(is_, value.values(), shadow.values()))
    return all(map(is_, value, shadow))


def trace(
    code: str,
    call: str,
    *,
    max_steps: int = 10_000,
    repr_limit: int = DEFAULT_REPR_LIMIT,
) -> Trace:
    """Run `call` against the module `code` in this process and record every step.

    The module is executed first (untraced) in fresh globals; the call's callee and arguments
    are evaluated in those globals, so a call may name module-level values. Only frames of
    `code` are traced: never the tracer's own frames or the standard library.

    This runs the code in the current process with no containment: use `run_call(...,
    trace=True)` for untrusted code. The step limit is raised into the traced code as a
    BaseException, so code with a bare `except:` in an endless loop can swallow it; the
    sandbox's wall-clock timeout is the backstop there.

    Args:
        code: source of a module that defines the called function.
        call: a call expression such as "f([1, 2], 3)".
        max_steps: the call is stopped, and the trace marked truncated, at this many steps.
        repr_limit: reprs of locals longer than this are cut and marked.

    Returns:
        The trace; a call that raises gives a trace with `exception` set, not an error.

    Raises:
        TraceError: the code does not parse, the call is not a call expression, or it names
            nothing callable in the code.
    """
    return record(code, call, max_steps=max_steps, repr_limit=repr_limit, incremental=True)


def record(code: str, call: str, *, max_steps: int, repr_limit: int, incremental: bool) -> Trace:
    """`trace`, with the choice of looking again only at what each line can change
    (`incremental`, the default of `trace`) or snapshotting every local at every step."""
    tree, compiled = parse_module(code)
    node = parse_call(call)
    namespace: dict[str, Any] = {"__name__": "__core_bench__", "__builtins__": __builtins__}
    try:
        exec(compiled, namespace)
    except Exception as exc:
        raise TraceError(f"executing the module failed: {exception_text(exc)}") from None
    try:
        bound = bind_call(node, namespace)
    except TraceError:
        raise
    except Exception as exc:
        raise TraceError(f"evaluating the call's arguments failed: {exception_text(exc)}") from None
    effects = line_effects(tree) if incremental else {}
    recorder = _Recorder(build_code_map(tree, code), effects, max_steps, repr_limit)
    result = Trace(code=code, call=call, steps=recorder.steps)
    previous = sys.gettrace()
    sys.settrace(recorder.global_trace)
    try:
        value = bound.invoke()
    except _StepLimit:
        result.truncated = True
    except BaseException as exc:  # SystemExit from the traced code is an outcome too
        if isinstance(exc, KeyboardInterrupt):
            raise
        result.exception = exception_text(exc)
    else:
        result.result, literal = snapshot(value, RESULT_REPR_LIMIT)
        result.result_opaque = not literal
    finally:
        sys.settrace(previous)
        recorder.frames.clear()
    result.truncated = result.truncated or recorder.truncated
    result.args_after = bound.arguments_after()
    return result

"""The in-process tracer: `trace(code, call)` records every step of one call."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from operator import is_
from types import CodeType, FrameType
from typing import Any

from tracer._branch import (
    DISABLE,
    MONITORING,
    NEUTRAL,
    TEST,
    BranchEvents,
    CodeBranches,
    classify,
)
from tracer._call import CODE_FILENAME, CompiledCall, bind_call, parse_call, parse_module
from tracer._codec import (
    DEFAULT_REPR_LIMIT,
    RESULT_REPR_LIMIT,
    container_snapshot,
    exception_text,
    snapshot,
)
from tracer._flat import UNCHANGED, Flat
from tracer._model import Step, Trace, TraceError
from tracer._static import (
    CodeMap,
    Condition,
    LineEffect,
    Loop,
    build_code_map,
    inside,
    line_effects,
)

_COMPREHENSIONS = frozenset({"<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"})
# Reprs of these types never change while the object lives, so a repr can be reused while a
# local still refers to the same object.
_IMMUTABLE = frozenset({int, float, bool, str, bytes, type(None), complex})
_CONTAINERS = frozenset({list, dict, set, tuple})

# name -> (object, repr, literal, shadow): the shadow of a container of atoms remembers its
# elements, compared by identity to tell that the repr is still right (a `Flat` for lists and
# dicts, which also rebuilds the repr from the elements that did not change).
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
        "branches",
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
        "mutable",
        "pending",
        "pending_step",
        "prev_line",
        "saw_test",
    )

    def __init__(self, frame_id: int, depth: int, code: CodeType, branches: CodeBranches) -> None:
        self.id = frame_id
        self.depth = depth
        self.func = code.co_name
        self.comprehension = code.co_name in _COMPREHENSIONS
        self.counters: dict[int, int] = {}
        self.cache: dict[str, _CacheEntry] = {}
        self.mutable: set[str] = set()  # names whose cached value is not of an _IMMUTABLE type
        self.last_step: Step | None = None
        self.last_effect: LineEffect | None = None  # of last_step's line, when it is a line step
        self.prev_line: int | None = None
        self.last_event = ""
        self.branches = branches
        self.pending: Condition | None = None
        self.pending_step: Step | None = None
        self.saw_test = False  # an instruction of the pending condition's test ran
        # enclosing loop headers -> the iterations dict, shared by steps until a counter moves
        self.iterations: dict[tuple[int, ...], dict[int, int]] = {}


class _Recorder:
    """Turns trace events of the traced module's frames into steps.

    `local_trace` runs for every event of every traced line, so it is written as one flat
    function; the rarer work (branch outcomes, full snapshots) lives in methods.
    """

    __slots__ = (
        "branch_events",
        "code_map",
        "codes",
        "frames",
        "lines",
        "local",
        "max_steps",
        "repr_limit",
        "reuse",
        "steps",
        "truncated",
    )

    def __init__(
        self,
        code_map: CodeMap,
        effects: dict[int, LineEffect],
        max_steps: int,
        repr_limit: int,
        reuse: bool = True,
    ) -> None:
        self.code_map = code_map
        self.reuse = reuse
        self.lines = _line_table(code_map, effects)
        self.max_steps = max_steps
        self.repr_limit = repr_limit
        self.steps: list[Step] = []
        self.frames: dict[FrameType, _Frame] = {}
        self.truncated = False
        self.local = self.local_trace  # one bound method, handed back at every event
        self.codes: dict[CodeType, CodeBranches] = {}
        self.branch_events: BranchEvents | None = None
        if MONITORING and code_map.opcode_lines:
            self.branch_events = BranchEvents(self.on_branch)
            self.branch_events.use()

    def close(self) -> None:
        """Forget the frames and stop the BRANCH events."""
        self.frames.clear()
        if self.branch_events is not None:
            self.branch_events.close()

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
            branches = self.codes.get(code)
            if branches is None:
                branches = self.codes[code] = CodeBranches(code, self.code_map.conditions)
                if branches.by_opcode and self.branch_events is not None:
                    self.branch_events.watch(code)
            state = _Frame(len(self.frames), depth, code, branches)
            self.frames[frame] = state
            if branches.by_opcode and not MONITORING:
                frame.f_trace_opcodes = True
        return self.local(frame, event, arg)

    def on_branch(self, code: CodeType, offset: int, destination: int) -> Any:
        """A `sys.monitoring` BRANCH event: a jump of a test may decide its condition."""
        branches = self.codes.get(code)
        line = None if branches is None else branches.branch_lines.get(offset)
        if line is None:
            return DISABLE  # not a test's jump: never report this one again
        state = self.frames.get(sys._getframe(1))
        if state is None or state.pending is None or state.pending.line != line:
            return None
        state.saw_test = True
        outcome = state.branches.follow(state.pending, destination)
        if outcome is not None:
            self._decide(state, outcome)
        return None

    def local_trace(self, frame: FrameType, event: str, arg: Any) -> Any:
        state = self.frames[frame]
        if event == "opcode":
            if state.pending is not None:
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
        mid_test = state.pending is not None and self._resolve_by_line(
            frame, state, event, line, arg
        )

        # The previous step's locals, with only what its line's effect allows to change looked
        # at again (inline: this runs at every step); a full snapshot when a local appeared or
        # disappeared, or after another frame's steps.
        prev = state.last_step
        effect = state.last_effect
        locals_: dict[str, str] | None = None
        opaque: tuple[str, ...] = ()
        if effect is not None and prev is not None and prev.index == index - 1:
            cache = state.cache
            current = frame.f_locals
            locals_ = prev.locals.copy()
            if len(current) != len(locals_):
                locals_ = None
            else:
                mutates = effect.mutates
                if effect.augmented:
                    for name in effect.augmented:
                        entry = cache.get(name)
                        if entry is None or type(entry[0]) not in _IMMUTABLE:
                            mutates = True  # `x += y` on a list changes every alias of it
                names: Any = effect.names
                if mutates:
                    names = [*state.mutable, *names]
                opaque = prev.opaque
                for name in names:
                    local = current.get(name, _MISSING)
                    if local is _MISSING:
                        if name in locals_:
                            locals_ = None
                            break
                        continue  # a global, or a comprehension's own variable
                    entry = cache.get(name)
                    t = type(local)
                    if entry is not None and entry[0] is local and t in _IMMUTABLE:
                        continue
                    if name not in locals_:
                        locals_ = None
                        break
                    if t is int and -_SMALL_INT < local < _SMALL_INT:  # the commonest change
                        text = locals_[name] = repr(local)
                        cache[name] = (local, text, True, None)
                        state.mutable.discard(name)
                        if name in opaque:
                            opaque = tuple(n for n in locals_ if not cache[n][2])
                        continue
                    text, literal = self._snapshot_value(state, name, local)
                    locals_[name] = text
                    if literal == (name in opaque):
                        opaque = tuple(n for n in locals_ if not cache[n][2])
        if locals_ is None:
            locals_, opaque = self._snapshot_locals(frame, state)

        iterations = _NO_ITERATIONS
        value: str | None = None
        value_opaque = False
        info = _NO_INFO
        if event == "line":
            info = self.lines.get(line, _NO_INFO)
            loop = info.loop
            if loop is not None and loop.comprehension is state.comprehension:
                counters = state.counters
                last = state.prev_line
                if (
                    last is not None
                    and (last == line or loop.body_first <= last <= loop.body_last)
                    and line in counters
                ):
                    counters[line] += 1
                else:
                    counters[line] = 1
                state.iterations.clear()
            enclosing = info.enclosing
            if enclosing:
                shared = state.iterations.get(enclosing)
                if shared is None:
                    counters = state.counters
                    if len(enclosing) == 1:  # the common case, without a comprehension
                        header = enclosing[0]
                        shared = {header: counters[header]} if header in counters else {}
                    else:
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
        if info.condition is not None and not mid_test:
            condition = state.branches.conditions.get(line)
            if condition is not None:
                state.pending = condition
                state.pending_step = step
                state.saw_test = False
        return self.local

    def _snapshot_locals(
        self, frame: FrameType, state: _Frame
    ) -> tuple[dict[str, str], tuple[str, ...]]:
        reprs: dict[str, str] = {}
        opaque: list[str] = []
        state.mutable.clear()
        for name, value in frame.f_locals.items():
            if name[0] == ".":  # the hidden iterator of a 3.11 comprehension frame
                continue
            text, literal = self._snapshot_value(state, name, value)
            reprs[name] = text
            if not literal:
                opaque.append(name)
        return reprs, tuple(opaque)

    def _snapshot_value(self, state: _Frame, name: str, value: Any) -> tuple[str, bool]:
        cache = state.cache
        t = type(value)
        if t in _IMMUTABLE:
            state.mutable.discard(name)
        else:
            state.mutable.add(name)
        entry = cache.get(name)
        if entry is not None and entry[0] is value:
            if t in _IMMUTABLE:
                return entry[1], entry[2]
            shadow = entry[3]
            if shadow is not None:
                if t is list or t is dict:
                    found = shadow.check(value, self.repr_limit)
                    if found is UNCHANGED:
                        return entry[1], entry[2]
                    if found is not None:
                        cache[name] = (value, found[0], found[1], shadow)
                        return found
                elif _unchanged(value, shadow):
                    return entry[1], entry[2]
        if not self.reuse:
            return snapshot(value, self.repr_limit)
        shadow = None
        if t is int and -_SMALL_INT < value < _SMALL_INT:
            text, literal = repr(value), True
        elif t in _CONTAINERS:
            text, literal, flat = container_snapshot(value, self.repr_limit)
            if flat:
                shadow = Flat(value) if t is list or t is dict else _shadow(value)
        else:
            text, literal = snapshot(value, self.repr_limit)
        cache[name] = (value, text, literal, shadow)
        return text, literal

    def _decide(self, state: _Frame, outcome: bool | None) -> None:
        assert state.pending_step is not None
        state.pending_step.branch = outcome
        state.pending = state.pending_step = None

    def _resolve_by_line(
        self, frame: FrameType, state: _Frame, event: str, line: int, arg: Any
    ) -> bool:
        """Decide the pending condition at a new event of its frame, where that can be done.

        Returns True when the frame is still inside the test (a test spread over lines, or a
        comprehension in it that starts a line step per iteration): the condition stays with
        the step that started it.
        """
        condition = state.pending
        assert condition is not None
        if event == "call":
            return False  # a generator resuming inside its test
        if condition.kind == "assert":
            if event == "line":
                if line != condition.line and condition.line <= line <= condition.outer[1][0]:
                    return True  # the test or message goes on over more lines
                outcome: bool | None = True
            elif event == "return":
                outcome = True
            else:  # an AssertionError raised by this frame, not by a function its test called
                here = isinstance(arg[1], AssertionError) and arg[2] is not None
                outcome = False if here and arg[2].tb_next is None else None
            self._decide(state, outcome)
            return False
        if condition.by_opcode:
            if event == "line":
                position = state.branches.positions[frame.f_lasti // 2]
                if inside(position, condition.test):
                    return True
                if state.saw_test:
                    if MONITORING:
                        told = state.branches.follow(condition, frame.f_lasti)
                    else:
                        verdict = classify(condition, position)
                        told = None if verdict in (TEST, NEUTRAL) else bool(verdict)
                    self._decide(state, told)
                else:
                    self._decide(state, None)
            elif event == "return" and state.saw_test and condition.kind != "ifexp":
                self._decide(state, False)  # returned without running the body
            else:
                self._decide(state, None)  # the test raised, or was never reached
            return False
        if event == "line":
            if condition.body[0][0] <= line <= condition.body[1][0]:
                outcome = True
            elif condition.test[0][0] <= line <= condition.test[1][0]:
                return True  # still inside a test that spans several lines
            else:
                outcome = False
        elif event == "return":
            outcome = False
        else:
            outcome = None  # the test itself raised
        self._decide(state, outcome)
        return False

    def _resolve_by_opcode(self, frame: FrameType, state: _Frame) -> None:
        condition = state.pending
        assert condition is not None
        if not condition.by_opcode:
            return
        lasti = frame.f_lasti
        if lasti < 0:
            return
        verdict = classify(condition, state.branches.positions[lasti // 2])
        if verdict == TEST:
            state.saw_test = True
        elif verdict != NEUTRAL and state.saw_test:
            self._decide(state, bool(verdict))


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
    if type(value) is tuple:
        return ()  # a tuple of atoms never changes; any non-None shadow marks it reusable
    return list(value)  # a set: iteration order too, it is what the repr shows


def _unchanged(value: Any, shadow: Any) -> bool:
    """Whether a tuple or set of atoms still holds the very same elements in the same order."""
    if type(value) is tuple:
        return True
    return len(value) == len(shadow) and all(map(is_, value, shadow))


@dataclass(frozen=True, slots=True)
class Analysis:
    """What tracing needs of a code before any call: the compiled module, its code map and
    what each line can change. It depends on the code alone, so a worker that traces many
    calls of one code computes it once (`analyse`) instead of once per call: parsing and
    analysing were most of a short call's tracing time.

    Attributes:
        compiled: the module, compiled.
        code_map: loops, conditions and line texts (`build_code_map`).
        effects: what each line can change (`line_effects`), for incremental snapshots.
    """

    compiled: CodeType
    code_map: CodeMap
    effects: dict[int, LineEffect]


def analyse(code: str) -> Analysis:
    """The `Analysis` of `code` (runs nothing of it).

    Raises:
        TraceError: the code does not parse.
    """
    tree, compiled = parse_module(code)
    effects = line_effects(tree)
    return Analysis(compiled, build_code_map(tree, code), effects)


def trace(
    code: str,
    call: str,
    *,
    max_steps: int = 10_000,
    repr_limit: int = DEFAULT_REPR_LIMIT,
    analysis: Analysis | None = None,
    compiled_call: CompiledCall | None = None,
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
        analysis: `analyse(code)`, when the caller holds it already (it is not changed).
        compiled_call: `compile_call(parse_call(call))`, when the caller holds it already
            (a worker keeps the calls it read: the same calls run against many codes).

    Returns:
        The trace; a call that raises gives a trace with `exception` set, not an error.

    Raises:
        TraceError: the code does not parse, the call is not a call expression, or it names
            nothing callable in the code.
    """
    return record(
        code,
        call,
        max_steps=max_steps,
        repr_limit=repr_limit,
        incremental=True,
        analysis=analysis,
        compiled_call=compiled_call,
    )


def record(
    code: str,
    call: str,
    *,
    max_steps: int,
    repr_limit: int,
    incremental: bool,
    analysis: Analysis | None = None,
    compiled_call: CompiledCall | None = None,
) -> Trace:
    """`trace`, with the choice of looking again only at what each line can change and reusing
    reprs of values that did not change (`incremental`, the default of `trace`), or taking a
    fresh snapshot of every local at every step (the reference the shortcuts are tested
    against)."""
    if analysis is None:
        analysis = analyse(code)
    node = compiled_call if compiled_call is not None else parse_call(call)
    namespace: dict[str, Any] = {"__name__": "__core_bench__", "__builtins__": __builtins__}
    try:
        exec(analysis.compiled, namespace)
    except Exception as exc:
        raise TraceError(f"executing the module failed: {exception_text(exc)}") from None
    try:
        bound = bind_call(node, namespace)
    except TraceError:
        raise
    except Exception as exc:
        raise TraceError(f"evaluating the call's arguments failed: {exception_text(exc)}") from None
    effects = analysis.effects if incremental else {}
    recorder = _Recorder(analysis.code_map, effects, max_steps, repr_limit, incremental)
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
        recorder.close()
    result.truncated = result.truncated or recorder.truncated
    result.args_after = bound.arguments_after()
    return result

"""Indexes over one traced call that every probe kind reads from."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from core_bench.probes._lines import FRAMELESS, LineFacts, ModuleFacts, module_facts
from tracer import Step, Trace, read_literal
from tracer import same_value as tracer_same_value

SHORT_VALUE = 40
"""Longest repr a question quotes to say which iteration or call it means."""


@dataclass(frozen=True, slots=True)
class LoopEntry:
    """One time a loop was entered, and how it was left.

    Attributes:
        header: the loop's header line.
        step: index of the header's line step that entered the loop.
        run: which run of the header line that step is (from 1, across frames).
        ordinal: which entry of this loop it is (from 1, across frames).
        exit_step: index of the first step of the frame outside the loop, or None when the
            frame ended without leaving it (an exception, or a generator).
        exit_kind: "line" (control went on after the loop), "return" (the frame returned from
            inside the loop) or None.
        body_runs: in how many iterations a line of the body ran.
    """

    header: int
    step: int
    run: int
    ordinal: int
    exit_step: int | None
    exit_kind: str | None
    body_runs: int


def same_value(a: str | None, b: str | None) -> bool:
    """Whether two reprs denote equal values of the same type: `tracer.same_value` at
    strictness "typed" (an answer `1.0` where the program holds `1` is another state)."""
    return tracer_same_value(a, b, strictness="typed")


_SHORT_TEXT = 512
"""Longest repr `read_value` remembers (steps repeat short reprs; long ones are rare)."""


@lru_cache(maxsize=4096)
def _read_short(text: str) -> tuple[bool, object]:
    return read_literal(text)


def read_value(text: str) -> tuple[bool, object]:
    """`tracer.read_literal` of a repr (what `same_value` compares), remembered for short
    texts. Values are shared: callers must not mutate them."""
    return _read_short(text) if len(text) <= _SHORT_TEXT else read_literal(text)


def opens_a_list_with_items(text: str) -> bool:
    """Whether a text starts a list display with an item (`[1, ...`), so that it never reads
    as the empty list whatever follows (without reading the whole text)."""
    rest = text.lstrip()
    if not rest.startswith("["):
        return False
    after = rest[1:].lstrip()
    return bool(after) and after[0] not in "]#\\"


@lru_cache(maxsize=4096)
def literal(text: str) -> tuple[bool, object]:
    """(True, value) when a repr reads back with `ast.literal_eval`, else (False, None).

    Values are cached and shared: callers must not mutate them.
    """
    try:
        return True, ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


@lru_cache(maxsize=64)
def _facts(code: str) -> ModuleFacts:
    return module_facts(code)


def _outer_loops(facts: ModuleFacts) -> dict[int, tuple[int, ...]]:
    """line -> headers of the loops around it other than its own, outermost first (lines
    with none are left out)."""
    return {
        line: around
        for line, headers in facts.enclosing.items()
        if (around := tuple(h for h in headers if h != line))
    }


class CallContext:
    """A traced call with the indexes probe kinds need.

    Attributes:
        code: the traced source.
        trace: the trace.
        steps: the trace's steps.
        facts: line and function facts of the code.
        after: for each step, the index of the next step of the same frame, or -1.
        runs: line -> indices of its line steps in frames that are not comprehensions or
            lambdas, in order; the k-th element is the line's k-th run.
        run_of: step index -> its run number (from 1) for the steps in `runs`.
        run_frames: line -> number of distinct frames it ran in.
        header_steps: step index (of a run) -> (header line, header step index) for each loop
            enclosing the line in the same frame (not a loop headed by the line itself),
            outermost first: the header run that started the current iteration.
        calls: (function name, line of its call events) -> indices of its "call" steps.
        memo: results the probe modules derive from the call and keep for its later
            readings (the static facts for its call, guesses, the original's readings a
            variant is anchored on), by a key each module names.
    """

    def __init__(self, code: str, trace: Trace) -> None:
        """Index `trace`, a trace of a call into `code`."""
        self.code = code
        self.trace = trace
        self.steps: list[Step] = trace.steps
        self.facts = _facts(code)
        self.after: list[int] = [-1] * len(self.steps)
        self.runs: dict[int, list[int]] = {}
        self.run_of: dict[int, int] = {}
        self.header_steps: dict[int, tuple[tuple[int, int], ...]] = {}
        self.calls: dict[tuple[str, int], list[int]] = {}
        self.frame_steps: dict[int, list[int]] = {}
        self._position: list[int] = [0] * len(self.steps)
        self._same_values: dict[int, dict[tuple[tuple[str, str], ...] | None, int]] = {}
        self._entries: dict[int, list[LoopEntry]] = {}
        self.memo: dict[Any, Any] = {}
        frames_of: dict[int, set[int]] = {}
        current: dict[int, dict[int, int]] = {}
        outer = _outer_loops(self.facts)
        loops = self.facts.loops
        after, position, frame_steps = self.after, self._position, self.frame_steps
        runs_of, run_of, header_steps = self.runs, self.run_of, self.header_steps
        for step in self.steps:
            i, frame = step.index, step.frame
            in_frame = frame_steps.get(frame)
            if in_frame is None:
                in_frame = frame_steps[frame] = []
            else:
                after[in_frame[-1]] = i
            position[i] = len(in_frame)
            in_frame.append(i)
            event = step.event
            if event == "call":
                self.calls.setdefault((step.func, step.line), []).append(i)
                continue
            if event != "line" or step.func in FRAMELESS:
                continue
            line = step.line
            runs = runs_of.get(line)
            if runs is None:
                runs = runs_of[line] = []
                frames_of[line] = {frame}
            else:
                frames_of[line].add(frame)
            runs.append(i)
            run_of[i] = len(runs)
            headers = current.get(frame)
            if headers is None:
                headers = current[frame] = {}
            around = outer.get(line)
            header_steps[i] = (
                tuple((h, headers[h]) for h in around if h in headers) if around else ()
            )
            if line in loops:
                headers[line] = i
        self.run_frames = {line: len(frames) for line, frames in frames_of.items()}

    @classmethod
    def reuse(cls, given: CallContext | None, code: str, trace: Trace) -> CallContext:
        """`given` when it indexes `trace` of `code` (a caller asking several questions of one
        call builds its context once), else a new context.

        Raises:
            ValueError: `given` indexes another trace or code.
        """
        if given is None:
            return cls(code, trace)
        if given.trace is not trace or given.code != code:
            raise ValueError("the context given indexes another trace or code")
        return given

    def line(self, line: int) -> LineFacts | None:
        """Facts of a clean statement line, or None for any other line."""
        facts = self.facts.lines.get(line)
        return facts if facts is not None and facts.clean else None

    def run_step(self, line: int, occurrence: int) -> int | None:
        """Index of the `occurrence`-th run (from 1) of `line`, or None."""
        runs = self.runs.get(line)
        if runs is None or not 1 <= occurrence <= len(runs):
            return None
        return runs[occurrence - 1]

    def after_step(self, index: int) -> Step | None:
        """The next step of the same frame, or None when the frame has no later step."""
        nxt = self.after[index]
        return self.steps[nxt] if nxt >= 0 else None

    def in_generator(self, line: int) -> bool:
        """Whether `line` belongs to a generator function (whose runs a yield interrupts)."""
        facts = self.facts.lines.get(line)
        if facts is None:
            return False
        function = self.facts.functions.get(facts.function_line)
        return function is None or function.generator

    def iteration(self, index: int) -> int | None:
        """Iteration of the innermost loop around a step (Step.iterations), or None."""
        iterations = self.steps[index].iterations
        return iterations[max(iterations)] if iterations else None

    def nesting(self, line: int) -> int:
        """Number of (non-comprehension) loops around a line, its own included."""
        return len(self.facts.enclosing.get(line, ()))

    def iteration_values(self, index: int) -> tuple[tuple[str, str], ...] | None:
        """The loop variables of the loops around a run, as their headers set them for the
        current iterations: ((name, repr), ...), outermost loop first.

        Empty when no enclosing `for` loop binds names; None when a value is missing, opaque
        or too long to quote.
        """
        values: list[tuple[str, str]] = []
        for header, header_step in self.header_steps.get(index, ()):
            loop = self.facts.loops[header]
            state = self.after_step(header_step)
            if state is None:
                return None
            for name in loop.targets:
                text = state.locals.get(name)
                if text is None or name in state.opaque or len(text) > SHORT_VALUE:
                    return None
                values.append((name, text))
        return tuple(values)

    def unique_iteration_values(self, index: int) -> tuple[tuple[str, str], ...] | None:
        """`iteration_values` of a run when no other run of its line has the same ones."""
        values = self.iteration_values(index)
        if not values:
            return None
        line = self.steps[index].line
        counts = self._same_values.get(line)
        if counts is None:
            counts = {}
            for other in self.runs[line]:
                key = self.iteration_values(other)
                counts[key] = counts.get(key, 0) + 1
            self._same_values[line] = counts
        return values if counts.get(values) == 1 else None

    def entry_values(self, header: int, index: int) -> tuple[tuple[str, str], ...] | None:
        """`iteration_values` of a loop entry when no other entry of the loop has the same."""
        values = self.iteration_values(index)
        if not values:
            return None
        same = sum(1 for e in self.loop_entries(header) if self.iteration_values(e.step) == values)
        return values if same == 1 else None

    def loop_entries(self, header: int) -> list[LoopEntry]:
        """Every entry into the loop headed by `header`, in order, across frames.

        An entry is a run of the header with `Step.iterations[header] == 1` (the tracer
        restarts the count whenever control reaches the header from outside the loop).
        """
        cached = self._entries.get(header)
        if cached is not None:
            return cached
        loop = self.facts.loops.get(header)
        entries: list[LoopEntry] = []
        if loop is not None:
            for index in self.runs.get(header, ()):
                if self.steps[index].iterations.get(header) != 1:
                    continue
                entries.append(self._entry(header, index, len(entries) + 1))
        self._entries[header] = entries
        return entries

    def _entry(self, header: int, index: int, ordinal: int) -> LoopEntry:
        loop = self.facts.loops[header]
        frame = self.steps[index].frame
        frame_steps = self.frame_steps[frame]
        position = self._position[index]
        iterations: set[int] = set()
        exit_step: int | None = None
        exit_kind: str | None = None
        for j in frame_steps[position + 1 :]:
            step = self.steps[j]
            if step.event == "return":
                exit_step, exit_kind = j, "return"
                break
            if step.event != "line":
                continue
            if step.line != header and not loop.contains(step.line):
                exit_step, exit_kind = j, "line"
                break
            if step.line != header:
                number = step.iterations.get(header)
                if number is not None:
                    iterations.add(number)
        return LoopEntry(
            header=header,
            step=index,
            run=self.run_of[index],
            ordinal=ordinal,
            exit_step=exit_step,
            exit_kind=exit_kind,
            body_runs=len(iterations),
        )

    def entry_at(self, header: int, occurrence: int) -> LoopEntry | None:
        """The loop entry made by the `occurrence`-th run of `header`, if that run entered it."""
        index = self.run_step(header, occurrence)
        if index is None:
            return None
        for entry in self.loop_entries(header):
            if entry.step == index:
                return entry
        return None

    def loop_binds(self, header: int) -> frozenset[str]:
        """Names assigned anywhere in a loop (header and body) by its own function."""
        loop = self.facts.loops[header]
        facts = self.facts.lines.get(header)
        if facts is None:
            return frozenset()
        return frozenset(
            name
            for line in range(header, loop.body_last + 1)
            if (other := self.facts.lines.get(line)) is not None
            and other.function_line == facts.function_line
            for name in other.binds
        )

    def lateness(self, index: int) -> float:
        """Weight bonus for steps late in a loop (0 outside loops and in first iterations)."""
        iteration = self.iteration(index)
        return 0.3 * min(iteration - 1, 10) if iteration else 0.0

    def entry_frame(self, line: int) -> list[int] | None:
        """Step indices of the entry frame when `line` is its function's `def` line, the
        function does not yield, and the frame returned; else None."""
        steps = self.steps
        if not steps or steps[0].event != "call" or steps[0].line != line:
            return None
        function = self.facts.functions.get(line)
        if function is None or function.generator:
            return None
        frame = self.frame_steps[steps[0].frame]
        if steps[frame[-1]].event != "return":
            return None
        return frame

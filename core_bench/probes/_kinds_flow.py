"""Probe kinds that ask about a whole call rather than one step: counts, first times, exits.

Readers and enumerators, as in `_kinds`:

- run_count: how many times `line` runs during the call (its line events in non-comprehension
  frames, over every frame). Asked for clean, coverable lines that run at least once and lie in
  a loop or in a function that ran more than once; not in generators, not for `return`,
  `raise` or `break` (which run at most once: coverage asks that). `occurrence` is 1.
- change_count: `line` is the entry function's `def` line, `variable` a name of its frame; the
  answer is how many times the name's value (its repr) differs from its value at the previous
  step of the entry frame, from its first value on (so the first value, an argument or a first
  assignment, is not a change; an in-place change is; assigning an equal value is not). Asked
  for names that change at least once, never opaque, in entry frames that return.
- first_true: `line` holds a condition (`if`/`elif` test or a lone conditional expression,
  not a loop header) whose innermost enclosing loop is entered once in the call, in the same
  frame; the answer is the iteration of that loop (1 for the first: the number of runs of the
  loop header from the entry up to the step) at which the condition holds for the first time.
  Asked only when it holds at some run, and not at the first pass (that is a branch
  question). `occurrence` is 1.
- return_line: `line` is the entry function's `def` line, which holds two or more clean
  `return` statements; the answer is the line of the `return` that ends the call (the last line
  run by the entry frame before it returns), as an int repr.
"""

from __future__ import annotations

from collections.abc import Iterator

from core_bench.probes._context import CallContext
from core_bench.probes._reading import Reading

_AT_MOST_ONCE = frozenset({"Return", "Raise", "Break"})
"""Statements that run at most once per call (or loop start): their count is their coverage."""


def read_run_count(
    ctx: CallContext, line: int, occurrence: int = 1, variable: str | None = None
) -> Reading | None:
    """How many times `line` runs in the call."""
    facts = ctx.line(line)
    if facts is None or not facts.coverable or occurrence != 1 or variable is not None:
        return None
    if ctx.in_generator(line) or facts.statement in _AT_MOST_ONCE:
        return None
    runs = ctx.runs.get(line)
    if not runs or (ctx.nesting(line) == 0 and ctx.run_frames.get(line, 0) <= 1):
        return None
    weight = 1.0 + 0.2 * min(len(runs), 10) + (1.0 if facts.loop is not None else 0.0)
    return Reading("run_count", line, 1, None, repr(len(runs)), runs[0], weight)


def each_run_count(ctx: CallContext) -> Iterator[Reading]:
    """Every run_count reading of the call."""
    for line in ctx.runs:
        reading = read_run_count(ctx, line)
        if reading is not None:
            yield reading


def _entry_frame(ctx: CallContext, line: int) -> list[int] | None:
    """Step indices of the entry frame when `line` is its `def` line and it returned."""
    steps = ctx.steps
    if not steps or steps[0].event != "call" or steps[0].line != line:
        return None
    function = ctx.facts.functions.get(line)
    if function is None or function.generator:
        return None
    frame = ctx.frame_steps[steps[0].frame]
    if steps[frame[-1]].event != "return":
        return None
    return frame


def read_change_count(
    ctx: CallContext, line: int, occurrence: int, variable: str | None
) -> Reading | None:
    """How many times `variable` changes value in the entry frame."""
    frame = _entry_frame(ctx, line)
    if frame is None or occurrence != 1 or variable is None:
        return None
    previous: str | None = None
    changes = 0
    for index in frame:
        step = ctx.steps[index]
        if variable in step.opaque:
            return None
        text = step.locals.get(variable)
        if text is None:
            continue
        if previous is not None and text != previous:
            changes += 1
        previous = text
    if changes == 0:
        return None
    weight = 1.0 + 0.3 * min(changes, 10)
    return Reading("change_count", line, 1, variable, repr(changes), 0, weight)


def each_change_count(ctx: CallContext) -> Iterator[Reading]:
    """Every change_count reading of the call."""
    if not ctx.steps:
        return
    line = ctx.steps[0].line
    frame = _entry_frame(ctx, line)
    if frame is None:
        return
    names = dict.fromkeys(n for index in frame for n in ctx.steps[index].locals)
    for name in names:
        reading = read_change_count(ctx, line, 1, name)
        if reading is not None:
            yield reading


def loop_of_condition(ctx: CallContext, line: int) -> int | None:
    """The header of the innermost loop around a condition line (not a header itself)."""
    facts = ctx.line(line)
    if facts is None or facts.condition is None or facts.loop is not None:
        return None
    enclosing = ctx.facts.enclosing.get(line, ())
    return enclosing[-1] if enclosing else None


def read_first_true(
    ctx: CallContext, line: int, occurrence: int = 1, variable: str | None = None
) -> Reading | None:
    """The iteration of the enclosing loop at which the condition of `line` first holds."""
    header = loop_of_condition(ctx, line)
    if header is None or occurrence != 1 or variable is not None or ctx.in_generator(line):
        return None
    entries = ctx.loop_entries(header)
    if len(entries) != 1:
        return None
    entry = entries[0]
    frame = ctx.steps[entry.step].frame
    runs = ctx.runs.get(line, [])
    if any(ctx.steps[i].frame != frame for i in runs):
        return None
    first = next((i for i in runs if ctx.steps[i].branch is True), None)
    if first is None or any(ctx.steps[i].branch is None for i in runs if i < first):
        return None
    iteration = sum(1 for i in ctx.runs[header] if entry.step <= i < first)
    if iteration == 1:
        return None  # holding on the first pass is a branch question
    weight = 1.0 + 0.4 * min(iteration - 1, 8)
    return Reading("first_true", line, 1, None, repr(iteration), first, weight)


def each_first_true(ctx: CallContext) -> Iterator[Reading]:
    """Every first_true reading of the call."""
    for line in ctx.runs:
        reading = read_first_true(ctx, line)
        if reading is not None:
            yield reading


def return_lines(ctx: CallContext, def_line: int) -> list[int]:
    """Clean `return` lines of the function defined on `def_line`, in order."""
    return sorted(
        line
        for line, facts in ctx.facts.lines.items()
        if facts.function_line == def_line and facts.is_return and facts.clean
    )


def read_return_line(
    ctx: CallContext, line: int, occurrence: int = 1, variable: str | None = None
) -> Reading | None:
    """The line of the `return` that ends the entry call."""
    frame = _entry_frame(ctx, line)
    if frame is None or occurrence != 1 or variable is not None:
        return None
    returns = return_lines(ctx, line)
    if len(returns) < 2:
        return None
    last = next((ctx.steps[i] for i in reversed(frame) if ctx.steps[i].event == "line"), None)
    if last is None or last.line not in returns:
        return None
    weight = 1.0 + 0.5 * (len(returns) - 2) + (1.0 if last.line != returns[-1] else 0.0)
    return Reading("return_line", line, 1, None, repr(last.line), last.index, weight)


def each_return_line(ctx: CallContext) -> Iterator[Reading]:
    """The call's return_line reading, if it has one."""
    if ctx.steps:
        reading = read_return_line(ctx, ctx.steps[0].line)
        if reading is not None:
            yield reading

"""The probe kinds: for each, where its answer is read in a trace, and every place it can be.

Every kind has a reader, `read(ctx, line, occurrence, variable) -> Reading | None`, which reads
the answer at one anchor (None when the kind asks nothing there), and an enumerator that yields
a `Reading` for every anchor of the call. Occurrences count runs of a line: its line events, in
trace order, in every frame except those of comprehensions and lambdas (which run inside the
line that holds them). Only "clean" lines (see `_lines`) are anchors.

Answers are reprs, as the trace holds them:

- state_after: the value of `variable` right after the `occurrence`-th run of `line`, i.e. in
  the locals of the next step of the same frame. Asked for names the line assigns and for names
  whose value the run changed (through a method call or a helper); not when the next step is an
  exception (the line did not complete) or the value is opaque or cut.
- branch: `Step.branch` of the `occurrence`-th run of an `if`/`elif`/`while` header, or of a
  line with exactly one conditional expression evaluated in its own frame: "True" or "False".
- loop_iterations: for the loop headed by `line`, entered by the header's `occurrence`-th run
  (an entry is a run with `Step.iterations[line] == 1`), the number of distinct iteration
  numbers seen on the steps of body lines in that frame until control leaves the loop (a line
  outside the header and body, or the frame returning). Loops in generators are not asked.
- loop_exit_state: for the same entry, when control went on after the loop (not a return from
  inside it), the value of `variable` in the locals of the first step outside the loop. Asked
  for names the loop assigns and names whose value changed during the loop.
- coverage: whether `line` runs at all during the call ("True"/"False"); `occurrence` is 1.
  Asked only for statement lines of functions the call ran, whose runs always fire line events.
- next_line: the line of the next line step of the same frame after the `occurrence`-th run of
  `line`, as an int repr; "'return'" when the frame's next step is its return instead. Not
  asked for `return` lines, when the next step is an exception, or when the next line is not
  clean.
- call_return: `line` is the `def` line of a function named `variable`; the answer is the value
  returned by its `occurrence`-th call (calls counted in the order they start, the entry call
  included), read from the frame's "return" step. Only for calls below the entry call (depth
  > 0), of functions that do not yield and whose name is unique; not for calls that raised.
- full_trace: `line` is the entry function's `def` line, `occurrence` 1; the answer is the repr
  of a Python list with one `[line, {name: value}]` pair per line step of the entry frame, in
  order, where the dict maps every local the run created or changed to its value right after
  the run (values as Python literals). Only for calls whose entry frame returns after at most
  `MAX_TRACE_LINES` runs of clean lines, with every changed value a literal.

Each reading carries a weight for selection: late loop iterations, lines with many operators
or a boolean operator, the header run or condition outcome that ends a loop, jumps back to a
header or out of the function, and never-run lines weigh more.
"""

from __future__ import annotations

from collections.abc import Iterator

from core_bench.probes._context import CallContext, literal
from core_bench.probes._lines import LineFacts
from core_bench.probes._reading import Reading
from tracer import Step

MAX_TRACE_LINES = 40
"""Longest entry-frame line sequence a full_trace probe asks for."""

MAX_TRACE_CHARS = 4000
"""Longest full_trace answer text."""

RETURN_MARK = "'return'"
"""The next_line answer when the frame returns right after the line."""


def _operator_weight(operators: int, compound: bool) -> float:
    return 0.5 * min(operators, 6) + (2.0 if compound else 0.0)


def read_state_after(
    ctx: CallContext, line: int, occurrence: int, variable: str | None
) -> Reading | None:
    """The value of `variable` right after the `occurrence`-th run of `line`."""
    facts = ctx.line(line)
    index = ctx.run_step(line, occurrence)
    if facts is None or facts.has_yield or index is None or variable is None:
        return None
    after = ctx.after_step(index)
    if after is None or after.event == "exception":
        return None
    text = after.locals.get(variable)
    if text is None or variable in after.opaque:
        return None
    changed = ctx.steps[index].locals.get(variable) != text
    if not changed and variable not in facts.binds:
        return None
    weight = 1.0 + ctx.lateness(index) + _operator_weight(facts.operators, facts.compound)
    if _leaves_loop(facts, after):
        weight += 2.0  # the header run that ends the loop leaves its variable as it was
    elif not changed:
        weight *= 0.5
    return Reading("state_after", line, occurrence, variable, text, index, weight)


def _leaves_loop(facts: LineFacts, after: Step) -> bool:
    """Whether a run of a loop header is the one that ends the loop."""
    loop = facts.loop
    if loop is None:
        return False
    return after.event == "return" or (after.line != loop.header and not loop.contains(after.line))


def each_state_after(ctx: CallContext) -> Iterator[Reading]:
    """Every state_after reading of the call."""
    for line, runs in ctx.runs.items():
        facts = ctx.line(line)
        if facts is None or facts.has_yield:
            continue
        for occurrence, index in enumerate(runs, 1):
            after = ctx.after_step(index)
            if after is None or after.event == "exception":
                continue
            before = ctx.steps[index].locals
            names = list(facts.binds)
            names.extend(
                n for n, v in after.locals.items() if before.get(n) != v and n not in facts.binds
            )
            for name in names:
                reading = read_state_after(ctx, line, occurrence, name)
                if reading is not None:
                    yield reading


def read_branch(
    ctx: CallContext, line: int, occurrence: int, variable: str | None = None
) -> Reading | None:
    """Whether the condition of `line` held at its `occurrence`-th run."""
    facts = ctx.line(line)
    index = ctx.run_step(line, occurrence)
    if facts is None or facts.condition is None or index is None or variable is not None:
        return None
    outcome = ctx.steps[index].branch
    if outcome is None:
        return None
    weight = 1.0 + ctx.lateness(index) + _operator_weight(facts.operators, facts.compound)
    if facts.condition_kind == "while" and not outcome:
        weight += 2.0  # the evaluation that ends the loop
    return Reading("branch", line, occurrence, None, repr(outcome), index, weight)


def each_branch(ctx: CallContext) -> Iterator[Reading]:
    """Every branch reading of the call."""
    for line, runs in ctx.runs.items():
        facts = ctx.line(line)
        if facts is None or facts.condition is None:
            continue
        for occurrence in range(1, len(runs) + 1):
            reading = read_branch(ctx, line, occurrence)
            if reading is not None:
                yield reading


def read_loop_iterations(
    ctx: CallContext, line: int, occurrence: int, variable: str | None = None
) -> Reading | None:
    """How many times the body of the loop headed by `line` ran in the entry made by the
    header's `occurrence`-th run."""
    facts = ctx.line(line)
    if facts is None or facts.loop is None or ctx.in_generator(line) or variable is not None:
        return None
    entry = ctx.entry_at(line, occurrence)
    if entry is None or entry.exit_kind is None:
        return None
    weight = 1.0 + (1.5 if entry.body_runs <= 1 else 0.0) + 0.3 * min(entry.ordinal - 1, 5)
    return Reading(
        "loop_iterations",
        line,
        occurrence,
        None,
        repr(entry.body_runs),
        entry.step,
        weight,
        entry.ordinal,
    )


def each_loop_iterations(ctx: CallContext) -> Iterator[Reading]:
    """Every loop_iterations reading of the call."""
    for header in ctx.facts.loops:
        for entry in ctx.loop_entries(header):
            reading = read_loop_iterations(ctx, header, entry.run)
            if reading is not None:
                yield reading


def read_loop_exit_state(
    ctx: CallContext, line: int, occurrence: int, variable: str | None
) -> Reading | None:
    """The value of `variable` right after the loop headed by `line`, entered by the header's
    `occurrence`-th run, ended."""
    facts = ctx.line(line)
    if facts is None or facts.loop is None or ctx.in_generator(line) or variable is None:
        return None
    entry = ctx.entry_at(line, occurrence)
    if entry is None or entry.exit_kind != "line" or entry.exit_step is None:
        return None
    state = ctx.steps[entry.exit_step]
    text = state.locals.get(variable)
    if text is None or variable in state.opaque:
        return None
    changed = ctx.steps[entry.step].locals.get(variable) != text
    if not changed and variable not in ctx.loop_binds(line):
        return None
    weight = 2.0 + 0.3 * min(entry.ordinal - 1, 5) + (0.0 if changed else -1.0)
    return Reading(
        "loop_exit_state", line, occurrence, variable, text, entry.step, weight, entry.ordinal
    )


def each_loop_exit_state(ctx: CallContext) -> Iterator[Reading]:
    """Every loop_exit_state reading of the call."""
    for header in ctx.facts.loops:
        binds = ctx.loop_binds(header) if header in ctx.facts.lines else frozenset()
        for entry in ctx.loop_entries(header):
            if entry.exit_kind != "line" or entry.exit_step is None:
                continue
            start = ctx.steps[entry.step].locals
            names = sorted(binds)
            names.extend(
                n
                for n, v in ctx.steps[entry.exit_step].locals.items()
                if start.get(n) != v and n not in binds
            )
            for name in names:
                reading = read_loop_exit_state(ctx, header, entry.run, name)
                if reading is not None:
                    yield reading


def read_coverage(
    ctx: CallContext, line: int, occurrence: int = 1, variable: str | None = None
) -> Reading | None:
    """Whether `line` runs at all during the call."""
    facts = ctx.line(line)
    if facts is None or not facts.coverable or occurrence != 1 or variable is not None:
        return None
    function = ctx.facts.functions.get(facts.function_line)
    if function is None or function.decorated:
        return None
    if (function.name, function.line) not in ctx.calls:
        return None  # a function the call never ran: its lines say nothing about this call
    runs = ctx.runs.get(line)
    step = runs[0] if runs else len(ctx.steps)
    weight = 1.0 if runs else 3.0
    return Reading("coverage", line, 1, None, repr(bool(runs)), step, weight)


def each_coverage(ctx: CallContext) -> Iterator[Reading]:
    """Every coverage reading of the call."""
    for line in sorted(ctx.facts.lines):
        reading = read_coverage(ctx, line)
        if reading is not None:
            yield reading


def read_next_line(
    ctx: CallContext, line: int, occurrence: int, variable: str | None = None
) -> Reading | None:
    """The line its frame runs next after the `occurrence`-th run of `line`."""
    facts = ctx.line(line)
    index = ctx.run_step(line, occurrence)
    if facts is None or index is None or variable is not None:
        return None
    if facts.is_return or facts.has_yield or ctx.in_generator(line):
        return None
    after = ctx.after_step(index)
    if after is None:
        return None
    if after.event == "return":
        answer = RETURN_MARK
    elif after.event == "line" and ctx.line(after.line) is not None:
        answer = repr(after.line)
    else:
        return None
    weight = 1.0 + ctx.lateness(index)
    if facts.condition is not None or facts.statement in ("Break", "Continue"):
        weight += 1.5
    if _leaves_loop(facts, after):
        weight += 1.5
    if answer == RETURN_MARK or after.line < line:
        weight += 1.0  # a jump back to a loop header, or out of the function
    return Reading("next_line", line, occurrence, None, answer, index, weight)


def each_next_line(ctx: CallContext) -> Iterator[Reading]:
    """Every next_line reading of the call."""
    for line, runs in ctx.runs.items():
        if ctx.line(line) is None:
            continue
        for occurrence in range(1, len(runs) + 1):
            reading = read_next_line(ctx, line, occurrence)
            if reading is not None:
                yield reading


def read_call_return(
    ctx: CallContext, line: int, occurrence: int, variable: str | None
) -> Reading | None:
    """The value returned by the `occurrence`-th call of the function defined on `line`."""
    function = ctx.facts.functions.get(line)
    if function is None or function.name != variable:
        return None
    if not function.unique or function.generator or function.decorated:
        return None
    calls = ctx.calls.get((function.name, line), [])
    if not 1 <= occurrence <= len(calls):
        return None
    index = calls[occurrence - 1]
    start = ctx.steps[index]
    if start.depth == 0:
        return None  # the entry call's value is the output task, not a probe
    end = ctx.steps[ctx.frame_steps[start.frame][-1]]
    if end.event != "return" or end.value is None or end.value_opaque:
        return None
    weight = 1.0 + 0.5 * min(start.depth, 4)
    return Reading("call_return", line, occurrence, variable, end.value, index, weight)


def each_call_return(ctx: CallContext) -> Iterator[Reading]:
    """Every call_return reading of the call."""
    for line, function in ctx.facts.functions.items():
        calls = ctx.calls.get((function.name, line), [])
        for occurrence in range(1, len(calls) + 1):
            reading = read_call_return(ctx, line, occurrence, function.name)
            if reading is not None:
                yield reading


def read_full_trace(
    ctx: CallContext, line: int, occurrence: int = 1, variable: str | None = None
) -> Reading | None:
    """The entry frame's executed lines with the values each run changed."""
    steps = ctx.steps
    if not steps or occurrence != 1 or variable is not None:
        return None
    first = steps[0]
    function = ctx.facts.functions.get(first.line)
    if first.event != "call" or first.line != line or function is None or function.generator:
        return None
    pairs: list[str] = []
    frame_steps = ctx.frame_steps[first.frame]
    if steps[frame_steps[-1]].event != "return":
        return None
    for index in frame_steps:
        step = steps[index]
        if step.event != "line":
            continue
        after = ctx.after_step(index)
        if ctx.line(step.line) is None or len(pairs) == MAX_TRACE_LINES:
            return None
        if after is None or after.event == "exception":
            return None
        if any(name not in after.locals for name in step.locals):
            return None  # `del`: a change the format cannot show
        changed: list[str] = []
        for name, text in after.locals.items():
            if step.locals.get(name) == text:
                continue
            ok, _ = literal(text)
            if name in after.opaque or not ok:
                return None
            changed.append(f"{name!r}: {text}")
        pairs.append(f"[{step.line}, {{{', '.join(changed)}}}]")
    # Assembled from the traced reprs, not re-printed from parsed values: the order in which a
    # set of strings prints is the sandbox's (fixed hash seed), not this process's.
    answer = "[" + ", ".join(pairs) + "]"
    if len(answer) > MAX_TRACE_CHARS:
        return None
    return Reading("full_trace", line, 1, None, answer, 0, 1.0)


def each_full_trace(ctx: CallContext) -> Iterator[Reading]:
    """The call's full_trace reading, if it has one."""
    if ctx.steps:
        reading = read_full_trace(ctx, ctx.steps[0].line)
        if reading is not None:
            yield reading

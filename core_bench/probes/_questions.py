"""Question texts: every question names its line by number and source text, states which run
of the line it means, and adds the loop variables' values where those single the run out."""

from __future__ import annotations

from core_bench.probes._context import SHORT_VALUE, CallContext
from core_bench.probes._kinds import Reading


def ordinal(n: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd"."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def line_ref(ctx: CallContext, line: int) -> str:
    """`line 7 (`if x > 3:`)`."""
    return f"line {line} (`{ctx.facts.text(line)}`)"


def _function_of(ctx: CallContext, line: int) -> str:
    facts = ctx.facts.lines.get(line)
    return facts.function if facts is not None else "the function"


def _across_calls(ctx: CallContext, line: int) -> str:
    """A note that runs are counted over every call, where the line ran in several frames."""
    if ctx.run_frames.get(line, 0) > 1:
        return f", counting its runs in every call of `{_function_of(ctx, line)}`"
    return ""


def _values(values: tuple[tuple[str, str], ...]) -> str:
    return " and ".join(f"`{name}` = {text}" for name, text in values)


def _iteration(ctx: CallContext, step: int) -> str:
    """' (in the iteration where `num` = 7)' when the loop variables single the run out."""
    values = ctx.unique_iteration_values(step)
    return f" (in the iteration where {_values(values)})" if values else ""


def _run(ctx: CallContext, reading: Reading) -> str:
    """ "line 8 (`x += 1`) runs for the 2nd time" with its notes."""
    line = reading.line
    return (
        f"{line_ref(ctx, line)} runs for the {ordinal(reading.occurrence)} time"
        f"{_across_calls(ctx, line)}{_iteration(ctx, reading.step)}"
    )


def _entry(ctx: CallContext, reading: Reading) -> str:
    """ "The loop on line 6 (`...`) is entered for the 2nd time when line 6 runs for the 5th
    time (in the iteration where `i` = 2)."."""
    line = reading.line
    values = ctx.entry_values(line, reading.step)
    where = f" (in the iteration where {_values(values)})" if values else ""
    return (
        f"The loop on {line_ref(ctx, line)} is entered for the {ordinal(reading.ordinal)} time "
        f"when line {line} runs for the {ordinal(reading.occurrence)} time"
        f"{_across_calls(ctx, line)}{where}."
    )


def _state_after(ctx: CallContext, r: Reading) -> str:
    return f"What is the value of `{r.variable}` right after {_run(ctx, r)}?"


def _branch(ctx: CallContext, r: Reading) -> str:
    facts = ctx.facts.lines[r.line]
    of = " of the conditional expression" if facts.condition_kind == "ifexp" else ""
    return (
        f"Does the condition `{facts.condition}`{of} on {line_ref(ctx, r.line)} hold when line "
        f"{r.line} runs for the {ordinal(r.occurrence)} time{_across_calls(ctx, r.line)}"
        f"{_iteration(ctx, r.step)}? Answer True or False."
    )


def _loop_iterations(ctx: CallContext, r: Reading) -> str:
    return (
        f"{_entry(ctx, r)} How many times does its body run before control leaves the loop? "
        f"Count every iteration in which the body starts, including one left by `break` or "
        f"`return`."
    )


def _loop_exit_state(ctx: CallContext, r: Reading) -> str:
    return (
        f"{_entry(ctx, r)} What is the value of `{r.variable}` right after the loop ends and "
        f"control goes on past it?"
    )


def _coverage(ctx: CallContext, r: Reading) -> str:
    function = _function_of(ctx, r.line)
    return (
        f"Does {line_ref(ctx, r.line)} run at all during this call (in any call of "
        f"`{function}`)? Answer True or False."
    )


def _next_line(ctx: CallContext, r: Reading) -> str:
    function = _function_of(ctx, r.line)
    return (
        f"Which line of `{function}` runs next, in the same call of `{function}`, after "
        f"{_run(ctx, r)}? Lines of other functions it calls do not count. Answer with the line "
        f"number, or 'return' if `{function}` returns right after it."
    )


def _call_return(ctx: CallContext, r: Reading) -> str:
    function = ctx.facts.functions[r.line]
    calls = ctx.calls.get((function.name, r.line), [])
    entry = ""
    if calls and ctx.steps[calls[0]].depth == 0:
        outer = (
            f"call `{ctx.trace.call}`" if len(ctx.trace.call) <= 2 * SHORT_VALUE else "outer call"
        )
        entry = f", the {outer} itself being the 1st"
    arguments = _arguments(ctx, r, calls)
    return (
        f"What value does the {ordinal(r.occurrence)} call of `{function.name}` return"
        f"{arguments}? `{function.name}` is defined on {line_ref(ctx, r.line)}; its calls are "
        f"counted in the order they start{entry}."
    )


def _arguments(ctx: CallContext, r: Reading, calls: list[int]) -> str:
    """' (the call where `x` = 7)' when the arguments single the call out."""
    params = ctx.facts.functions[r.line].params

    def values(index: int) -> tuple[tuple[str, str], ...] | None:
        step = ctx.steps[index]
        out = []
        for name in params:
            text = step.locals.get(name)
            if text is None or name in step.opaque or len(text) > SHORT_VALUE:
                return None
            out.append((name, text))
        return tuple(out)

    mine = values(r.step)
    if not mine or sum(1 for c in calls if values(c) == mine) != 1:
        return ""
    return f" (the call where {_values(mine)})"


def _full_trace(ctx: CallContext, r: Reading) -> str:
    function = ctx.facts.functions[r.line].name
    return (
        f"Trace this call of `{function}` (defined on line {r.line}): list every line "
        f"of `{function}` that runs, in order, as a Python list of [line, {{name: value}}] "
        f"pairs, one per run of a line, where the dict maps each local variable the run "
        f"creates or changes to its value right after the run (an empty dict when it changes "
        f"none). A loop header runs each time its loop test or next item is evaluated, "
        f"including the last time, which ends the loop; lines of functions it calls are not "
        f"listed."
    )


_BUILDERS = {
    "state_after": _state_after,
    "branch": _branch,
    "loop_iterations": _loop_iterations,
    "loop_exit_state": _loop_exit_state,
    "coverage": _coverage,
    "next_line": _next_line,
    "call_return": _call_return,
    "full_trace": _full_trace,
}


def question(ctx: CallContext, reading: Reading) -> str:
    """The question a reading answers, in words."""
    return _BUILDERS[reading.kind](ctx, reading)

"""Question texts, in plain short words.

Every question names its line by number and source text, says which run of the line it means
(left out when the line runs once), and adds the loop variables' values where those single the
run out. A question that counts runs of a loop header says that the final check, the one that
ends the loop, counts as a run.
"""

from __future__ import annotations

from core_bench.probes._context import SHORT_VALUE, CallContext
from core_bench.probes._kinds_flow import loop_of_condition, return_lines
from core_bench.probes._reading import Reading


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


def _calls_of(ctx: CallContext, line: int) -> int:
    facts = ctx.facts.lines.get(line)
    if facts is None:
        return 0
    function = ctx.facts.functions.get(facts.function_line)
    return 0 if function is None else len(ctx.calls.get((function.name, function.line), []))


def _values(values: tuple[tuple[str, str], ...]) -> str:
    return " and ".join(f"`{name}` = {text}" for name, text in values)


def header_note(ctx: CallContext, line: int) -> str:
    """' The final check of line 4, which ends the loop, counts as a run.' for a loop header."""
    facts = ctx.facts.lines.get(line)
    if facts is None or facts.loop is None:
        return ""
    return f" The final check of line {line}, which ends the loop, counts as a run."


def _across_calls(ctx: CallContext, line: int) -> str:
    """' (runs counted over all calls of `g`)' where the line ran in several frames."""
    if ctx.run_frames.get(line, 0) > 1:
        return f" (runs counted over all calls of `{_function_of(ctx, line)}`)"
    return ""


def _when(ctx: CallContext, step: int) -> str:
    """' (when `num` = 7)' when the loop variables single the run out."""
    values = ctx.unique_iteration_values(step)
    return f" (when {_values(values)})" if values else ""


def run_phrase(ctx: CallContext, reading: Reading) -> str:
    """ "line 8 (`x += 1`) runs for the 2nd time (when `i` = 1)", or "line 8 (`x += 1`) runs"
    for a line that runs once."""
    line = reading.line
    if len(ctx.runs.get(line, ())) == 1:
        return f"{line_ref(ctx, line)} runs"
    return (
        f"{line_ref(ctx, line)} runs for the {ordinal(reading.occurrence)} time"
        f"{_across_calls(ctx, line)}{_when(ctx, reading.step)}"
    )


def entry_phrase(ctx: CallContext, reading: Reading) -> str:
    """ "Take the loop on line 6 (`...`)." when it starts once, else "Take the 2nd start of the
    loop on line 6 (`...`), at the 5th run of line 6 (when `i` = 2)."."""
    line = reading.line
    if len(ctx.loop_entries(line)) == 1:
        return f"Take the loop on {line_ref(ctx, line)}."
    values = ctx.entry_values(line, reading.step)
    where = f" (when {_values(values)})" if values else ""
    return (
        f"Take the {ordinal(reading.ordinal)} start of the loop on {line_ref(ctx, line)}, "
        f"at the {ordinal(reading.occurrence)} run of line {line}{_across_calls(ctx, line)}"
        f"{where}."
    )


def ask_state_after(ctx: CallContext, r: Reading) -> str:
    return f"What is `{r.variable}` right after {run_phrase(ctx, r)}?{header_note(ctx, r.line)}"


def ask_branch(ctx: CallContext, r: Reading) -> str:
    facts = ctx.facts.lines[r.line]
    test = "the test" if facts.condition_kind == "ifexp" else "the condition"
    return (
        f"When {run_phrase(ctx, r)}, is {test} `{facts.condition}` true? "
        f"Answer True or False.{header_note(ctx, r.line)}"
    )


def ask_loop_iterations(ctx: CallContext, r: Reading) -> str:
    return (
        f"{entry_phrase(ctx, r)} How many times does its body run before the loop is left? "
        f"Count a pass left by `break` or `return` too.{_entry_note(ctx, r)}"
    )


def _entry_note(ctx: CallContext, r: Reading) -> str:
    return header_note(ctx, r.line) if len(ctx.loop_entries(r.line)) > 1 else ""


def ask_loop_exit_state(ctx: CallContext, r: Reading) -> str:
    return (
        f"{entry_phrase(ctx, r)} What is `{r.variable}` right after the loop ends?"
        f"{_entry_note(ctx, r)}"
    )


def ask_coverage(ctx: CallContext, r: Reading) -> str:
    function = _function_of(ctx, r.line)
    once = ctx.run_frames.get(r.line, 1) == 1 and _calls_of(ctx, r.line) <= 1
    where = "this call" if once else f"this call (in any call of `{function}`)"
    return f"Does {line_ref(ctx, r.line)} run at all in {where}? Answer True or False."


def ask_next_line(ctx: CallContext, r: Reading) -> str:
    function = _function_of(ctx, r.line)
    return (
        f"After {run_phrase(ctx, r)}, which line of `{function}` runs next? Lines inside "
        f"functions it calls do not count. Answer with a line number, or 'return' if "
        f"`{function}` returns.{header_note(ctx, r.line)}"
    )


def ask_call_return(ctx: CallContext, r: Reading) -> str:
    function = ctx.facts.functions[r.line]
    calls = ctx.calls.get((function.name, r.line), [])
    entry = ""
    if calls and ctx.steps[calls[0]].depth == 0:
        outer = f"`{ctx.trace.call}`" if len(ctx.trace.call) <= 2 * SHORT_VALUE else "the call"
        entry = f"; {outer} itself is the 1st"
    return (
        f"What does the {ordinal(r.occurrence)} call of `{function.name}`"
        f"{_arguments(ctx, r, calls)} return? `{function.name}` is defined on "
        f"{line_ref(ctx, r.line)}. Calls are counted in the order they start{entry}."
    )


def _arguments(ctx: CallContext, r: Reading, calls: list[int]) -> str:
    """' (the one where `x` = 7)' when the arguments single the call out."""
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
    return f" (the one where {_values(mine)})"


def ask_full_trace(ctx: CallContext, r: Reading) -> str:
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


def ask_run_count(ctx: CallContext, r: Reading) -> str:
    over = _across_calls(ctx, r.line)
    return f"How many times does {line_ref(ctx, r.line)} run in this call{over}?" + header_note(
        ctx, r.line
    )


def ask_change_count(ctx: CallContext, r: Reading) -> str:
    function = ctx.facts.functions[r.line].name
    return (
        f"How many times does the value of `{r.variable}` change during this call of "
        f"`{function}`? Its first value does not count. A change in place (like `append`) "
        f"counts; setting an equal value does not."
    )


def ask_first_true(ctx: CallContext, r: Reading) -> str:
    header = loop_of_condition(ctx, r.line)
    assert header is not None
    facts = ctx.facts.lines[r.line]
    return (
        f"The loop on {line_ref(ctx, header)} starts once in this call. In which of its "
        f"passes (1 for the first) is `{facts.condition}` on {line_ref(ctx, r.line)} true for "
        f"the first time?"
    )


def ask_return_line(ctx: CallContext, r: Reading) -> str:
    function = ctx.facts.functions[r.line].name
    lines = [str(line) for line in return_lines(ctx, r.line)]
    listed = ", ".join(lines[:-1]) + " or " + lines[-1]
    return (
        f"Which `return` of `{function}` ends this call: the one on line {listed}? "
        f"Answer with the line number."
    )

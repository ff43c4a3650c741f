"""The phrases questions are written with, in plain short words (each kind's module writes its
own question from them).

Every question names its line by number and source text, says which run of the line it means
(left out when the line runs once), and adds the loop variables' values where those single the
run out. A question that counts runs of a loop header says that the final check, the one that
ends the loop, counts as a run.
"""

from __future__ import annotations

from collections.abc import Callable

from core_bench.probes._context import CallContext
from core_bench.probes._reading import Reading


def ordinal(n: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd"."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def line_ref(ctx: CallContext, line: int) -> str:
    """`line 7 (`if x > 3:`)`."""
    return f"line {line} (`{ctx.facts.text(line)}`)"


def function_of(ctx: CallContext, line: int) -> str:
    """The name of the function holding `line`."""
    facts = ctx.facts.lines.get(line)
    return facts.function if facts is not None else "the function"


def calls_of(ctx: CallContext, line: int) -> int:
    """How many times the function holding `line` was called."""
    facts = ctx.facts.lines.get(line)
    if facts is None:
        return 0
    function = ctx.facts.functions.get(facts.function_line)
    return 0 if function is None else len(ctx.calls.get((function.name, function.line), []))


def values_phrase(values: tuple[tuple[str, str], ...]) -> str:
    """`i` = 1 and `j` = 2: the pairs, joined by "and"."""
    return " and ".join(f"`{name}` = {text}" for name, text in values)


def header_note(ctx: CallContext, line: int) -> str:
    """' The final check of line 4, which ends the loop, counts as a run.' for a loop header."""
    facts = ctx.facts.lines.get(line)
    if facts is None or facts.loop is None:
        return ""
    return f" The final check of line {line}, which ends the loop, counts as a run."


def across_calls(ctx: CallContext, line: int) -> str:
    """' (runs counted over all calls of `g`)' where the line ran in several frames."""
    if ctx.run_frames.get(line, 0) > 1:
        return f" (runs counted over all calls of `{function_of(ctx, line)}`)"
    return ""


def _when(ctx: CallContext, step: int) -> str:
    """' (when `num` = 7)' when the loop variables single the run out."""
    values = ctx.unique_iteration_values(step)
    return f" (when {values_phrase(values)})" if values else ""


def run_phrase(ctx: CallContext, reading: Reading) -> str:
    """ "line 8 (`x += 1`) runs for the 2nd time (when `i` = 1)", or "line 8 (`x += 1`) runs"
    for a line that runs once."""
    line = reading.line
    if len(ctx.runs.get(line, ())) == 1:
        return f"{line_ref(ctx, line)} runs"
    return (
        f"{line_ref(ctx, line)} runs for the {ordinal(reading.occurrence)} time"
        f"{across_calls(ctx, line)}{_when(ctx, reading.step)}"
    )


def entry_phrase(ctx: CallContext, reading: Reading) -> str:
    """ "Take the loop on line 6 (`...`)." when it starts once, else "Take the 2nd start of the
    loop on line 6 (`...`), at the 5th run of line 6 (when `i` = 2)."."""
    line = reading.line
    if len(ctx.loop_entries(line)) == 1:
        return f"Take the loop on {line_ref(ctx, line)}."
    values = ctx.entry_values(line, reading.step)
    where = f" (when {values_phrase(values)})" if values else ""
    return (
        f"Take the {ordinal(reading.ordinal)} start of the loop on {line_ref(ctx, line)}, "
        f"at the {ordinal(reading.occurrence)} run of line {line}{across_calls(ctx, line)}"
        f"{where}."
    )


def entry_note(ctx: CallContext, r: Reading) -> str:
    """The loop header's note, for a loop that starts more than once."""
    return header_note(ctx, r.line) if len(ctx.loop_entries(r.line)) > 1 else ""


def about_entry(template: str) -> Callable[[CallContext, Reading], str]:
    """The question of a kind anchored on the entry function's `def` line: `template` with
    `{function}` (the entry function's name), `{line}` (its `def` line) and `{variable}` (the
    anchor's variable) filled in."""

    def question(ctx: CallContext, r: Reading) -> str:
        name = ctx.facts.functions[r.line].name
        return template.format(function=name, line=r.line, variable=r.variable)

    return question


def about_loop(template: str) -> Callable[[CallContext, Reading], str]:
    """The question of a kind anchored on a loop's entry: which entry (`entry_phrase`), then
    `template` with `{variable}` filled in, then the header's note where the loop starts more
    than once."""

    def question(ctx: CallContext, r: Reading) -> str:
        asked = template.format(variable=r.variable)
        return f"{entry_phrase(ctx, r)} {asked}{entry_note(ctx, r)}"

    return question

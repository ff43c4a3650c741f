"""The coverage kind: whether a line runs at all during the call.

Everything about the kind is here (its registry row `ROW` is listed in `_registry.KIND_MODULES`).

- Anchor: a clean statement line of a function the call ran, whose runs always fire line
  events (`LineFacts.coverable`); `occurrence` 1, no variable.
- Answer: "True" or "False". A line that never runs weighs more.
- Static rule: "True" for a statement that always runs when its function runs: a statement of
  the function body's top level (or of a `with` body that always runs) with no earlier sibling
  that can leave the function (`return`, `raise`, `assert`, or a `while` loop with a
  constant-true test). "False" for dead code: a statement after a `return`, `raise`, `break` or
  `continue` in the same block. The known passes of a loop that always starts also give the
  coverage of the lines directly in its body.
- Guesses: the constants True and False (selection balances the two answers instead).
"""

from __future__ import annotations

from collections.abc import Iterator

from core_bench.probes import _guesses as guess
from core_bench.probes import _questions as ask
from core_bench.probes._answerable import StaticFacts
from core_bench.probes._context import CallContext
from core_bench.probes._reading import Reading, at_lines, whole_line
from core_bench.probes._spec import KindSpec


def read(ctx: CallContext, line: int, occurrence: int, variable: str | None) -> Reading | None:
    """Whether `line` runs at all during the call."""
    facts = whole_line(ctx, line, occurrence, variable)
    if facts is None:
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


def each(ctx: CallContext) -> Iterator[Reading]:
    """Every coverage reading of the call."""
    return at_lines(ctx, read, sorted(ctx.facts.lines))


def question(ctx: CallContext, r: Reading) -> str:
    """The question of a reading."""
    function = ask.function_of(ctx, r.line)
    once = ctx.run_frames.get(r.line, 1) == 1 and ask.calls_of(ctx, r.line) <= 1
    where = "this call" if once else f"this call (in any call of `{function}`)"
    return f"Does {ask.line_ref(ctx, r.line)} run at all in {where}? Answer True or False."


def static_rule(
    facts: StaticFacts, line: int, occurrence: int, variable: str | None, calls: int
) -> str | None:
    """Coverage of a statement that always runs, of dead code, or of a statement directly in
    the body of a loop that always starts and whose passes are known."""
    if line in facts.dead:
        return "False"
    if line in facts.always and calls >= 1:
        return "True"
    for header, count in facts.loop_counts.items():
        if header in facts.always and calls >= 1 and line in facts.loop_body[header]:
            return repr(count > 0)
    return None


ROW = KindSpec(
    "coverage", ("Logic",), "bool", "coverage", read, each, question, "coverable_line",
    static_rule, False, "whether a line runs at all", 0.2, 1, guess.BOOL, "True",
)  # fmt: skip

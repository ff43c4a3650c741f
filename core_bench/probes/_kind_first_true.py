"""The first_true kind: the pass of a loop in which a condition first holds.

Everything about the kind is here (its registry row `ROW` is listed in `_registry.KIND_MODULES`).

- Anchor: a line holding a condition (an `if`/`elif` test or a lone conditional expression,
  not a loop header) whose innermost enclosing loop is entered once in the call, in the same
  frame; `occurrence` 1, no variable.
- Answer: the iteration of that loop (1 for the first: the number of runs of the loop header
  from the entry up to the step) at which the condition holds for the first time, as an int
  repr. Asked only when it holds at some run, and not at the first pass (that is a branch
  question).
- Static rule: none.
- Guesses: the constants 2 to 5.
"""

from __future__ import annotations

from collections.abc import Iterator

from core_bench.probes import _guesses as guess
from core_bench.probes import _questions as ask
from core_bench.probes._context import CallContext
from core_bench.probes._reading import Reading, at_lines
from core_bench.probes._spec import KindSpec


def _loop_of_condition(ctx: CallContext, line: int) -> int | None:
    """The header of the innermost loop around a condition line (not a header itself)."""
    facts = ctx.line(line)
    if facts is None or facts.condition is None or facts.loop is not None:
        return None
    enclosing = ctx.facts.enclosing.get(line, ())
    return enclosing[-1] if enclosing else None


def read(ctx: CallContext, line: int, occurrence: int, variable: str | None) -> Reading | None:
    """The iteration of the enclosing loop at which the condition of `line` first holds."""
    header = _loop_of_condition(ctx, line)
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


def each(ctx: CallContext) -> Iterator[Reading]:
    """Every first_true reading of the call."""
    return at_lines(ctx, read, ctx.runs)


def question(ctx: CallContext, r: Reading) -> str:
    """The question of a reading."""
    header = _loop_of_condition(ctx, r.line)
    assert header is not None
    facts = ctx.facts.lines[r.line]
    return (
        f"The loop on {ask.line_ref(ctx, header)} starts once in this call. In which of its "
        f"passes (1 for the first) is `{facts.condition}` on {ask.line_ref(ctx, r.line)} true "
        f"for the first time?"
    )


ROW = KindSpec(
    "first_true", ("Logic", "Boundary"), "int", "path", read, each, question, "mapped_line",
    None, False, "the pass of a loop in which a condition first holds", 0.7, 1,
    {str(n): guess.constant(str(n)) for n in range(2, 6)}, "2", 0.1,
)  # fmt: skip

"""The change_count kind: how many times a variable of the entry call changes value.

Everything about the kind is here (its registry row `ROW` is listed in `_registry.KIND_MODULES`).

- Anchor: `line` is the entry function's `def` line, `variable` a name of its frame,
  `occurrence` 1.
- Answer: how many times the name's value (its repr) differs from its value at the previous
  step of the entry frame, from its first value on (so the first value, an argument or a first
  assignment, is not a change; an in-place change is; assigning an equal value is not), as an
  int repr. Asked for names that change at least once, never opaque, in entry frames that
  return.
- Static rule: one change per statement that binds the name after its first value, when each
  runs exactly once (always runs, in no loop) and nothing changes the name in place.
- Guesses: the length of the first argument, small constants (`_guesses.COUNT`).
"""

from __future__ import annotations

from collections.abc import Iterator

from core_bench.probes import _guesses as guess
from core_bench.probes import _questions as ask
from core_bench.probes._answerable import StaticFacts
from core_bench.probes._context import CallContext
from core_bench.probes._reading import Reading
from core_bench.probes._spec import KindSpec


def read(ctx: CallContext, line: int, occurrence: int, variable: str | None) -> Reading | None:
    """How many times `variable` changes value in the entry frame."""
    frame = ctx.entry_frame(line)
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


def each(ctx: CallContext) -> Iterator[Reading]:
    """Every change_count reading of the call."""
    if not ctx.steps:
        return
    line = ctx.steps[0].line
    frame = ctx.entry_frame(line)
    if frame is None:
        return
    names = dict.fromkeys(n for index in frame for n in ctx.steps[index].locals)
    for name in names:
        reading = read(ctx, line, 1, name)
        if reading is not None:
            yield reading


question = ask.about_entry(
    "How many times does the value of `{variable}` change during this call of "
    "`{function}`? Its first value does not count. A change in place (like `append`) "
    "counts; setting an equal value does not."
)


def static_rule(
    facts: StaticFacts, line: int, occurrence: int, variable: str | None, calls: int
) -> str | None:
    """How many times a name of the entry function changes, when every statement that binds it
    runs exactly once (always runs, in no loop) and nothing changes it in place: one change per
    binding after its first value (a parameter's first value is its argument)."""
    if variable is None or line not in facts.bindings or variable in facts.in_place[line]:
        return None
    lines = facts.bindings[line].get(variable)
    if not lines or any(b not in facts.always or b in facts.in_loop for b in lines):
        return None
    first_is_argument = variable in facts.params[line][1]
    return repr(len(lines) if first_is_argument else len(lines) - 1)


ROW = KindSpec(
    "change_count", ("State",), "int", "state", read, each, question, "entry_function",
    static_rule, True, "how many times a variable of the entry call changes value", 1.5, 2,
    guess.COUNT, "1", 0.1,
)  # fmt: skip

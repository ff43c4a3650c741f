"""The state_after kind: the value of a variable right after the k-th run of a line.

Everything about the kind is here (its registry row `ROW` is listed in `_registry.KIND_MODULES`).

- Anchor: a clean line, its `occurrence`-th run (see `_context`), the `variable` asked.
- Answer: the value of `variable` in the locals of the next step of the same frame. Asked for
  names the line assigns and for names whose value the run changed (through a method call or a
  helper); not when the next step is an exception (the line did not complete) or the value is
  opaque or cut. A line with two or more operators adds the Arithmetic dimension.
- Static rule: the value of a name assigned a literal (`x = []`, `a, b = 0, ''`,
  `s = str()`), and the value of a `for` target over a literal sequence (`for c in 'abc'`) at
  the k-th run of a header that runs in one entry per call (a loop at the top level of its
  function), the run that ends the loop leaving the last element; a counter (`n = 0` at the
  top of the function, then only `n += 1` on this line) after its k-th run is `0 + k * 1`,
  and the target of a top-level `for i in range(a, stop, s)` (literal `a` and `s`) after the
  k-th run of its header is `a + (k - 1) * s`, when their function runs once in the call (the
  run that ends the loop leaves another value: the rule is then wrong and the probe stays).
- Guesses: the variable's type default, first literal or argument (`_guesses.VALUE`).
"""

from __future__ import annotations

from collections.abc import Iterator

from core_bench.probes import _guesses as guess
from core_bench.probes import _questions as ask
from core_bench.probes._answerable import StaticFacts
from core_bench.probes._context import CallContext
from core_bench.probes._reading import Reading, leaves_loop, operator_weight
from core_bench.probes._spec import KindSpec


def read(ctx: CallContext, line: int, occurrence: int, variable: str | None) -> Reading | None:
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
    weight = 1.0 + ctx.lateness(index) + operator_weight(facts.operators, facts.compound)
    if leaves_loop(facts, after):
        weight += 2.0  # the header run that ends the loop leaves its variable as it was
    elif not changed:
        weight *= 0.5
    return Reading("state_after", line, occurrence, variable, text, index, weight)


def each(ctx: CallContext) -> Iterator[Reading]:
    """Every state_after reading of the call: `read` at each name each run assigns or
    changes, with what the names of one run share (its next step, weight) worked out once."""
    for line, runs in ctx.runs.items():
        facts = ctx.line(line)
        if facts is None or facts.has_yield:
            continue
        binds = facts.binds
        for occurrence, index in enumerate(runs, 1):
            after = ctx.after_step(index)
            if after is None or after.event == "exception":
                continue
            before = ctx.steps[index].locals
            values, opaque = after.locals, after.opaque
            names = list(binds)
            names.extend(n for n, v in values.items() if before.get(n) != v and n not in binds)
            base = 1.0 + ctx.lateness(index) + operator_weight(facts.operators, facts.compound)
            leaves = leaves_loop(facts, after)
            for name in names:
                text = values.get(name)
                if text is None or name in opaque:
                    continue
                changed = before.get(name) != text
                if not changed and name not in binds:
                    continue
                weight = base + 2.0 if leaves else (base if changed else base * 0.5)
                yield Reading("state_after", line, occurrence, name, text, index, weight)


def question(ctx: CallContext, r: Reading) -> str:
    """The question of a reading."""
    note = ask.header_note(ctx, r.line)
    return f"What is `{r.variable}` right after {ask.run_phrase(ctx, r)}?{note}"


def _loop_value(facts: StaticFacts, line: int, occurrence: int, variable: str | None) -> str | None:
    elements = facts.literal_loops.get(line)
    if elements is None or facts.loop_target.get(line) != variable:
        return None
    if line not in facts.top_level_loops or not elements:
        return None
    return elements[min(occurrence, len(elements)) - 1]


def static_rule(
    facts: StaticFacts, line: int, occurrence: int, variable: str | None, calls: int
) -> str | None:
    """A name assigned a literal, the target of a top-level loop over a literal; a counter or
    a top-level `range` loop's target in a function that runs once."""
    if variable is None:
        return None
    constant = facts.constants.get(line, {}).get(variable)
    if constant is not None:
        return constant
    if calls == 1:
        counter = facts.counters.get(line, {}).get(variable)
        if counter is not None:
            start, step = counter
            return repr(start + occurrence * step)
        progression = facts.range_loops.get(line)
        if progression is not None and line in facts.top_level_loops:
            target, start, step = progression
            if target == variable:
                return repr(start + (occurrence - 1) * step)
    return _loop_value(facts, line, occurrence, variable)


ROW = KindSpec(
    "state_after", ("State",), "value", "state", read, each, question, "value", static_rule,
    False, "the value of a variable right after the k-th run of a line", 0.85, 1,
    guess.VALUE, "2", 0.2, operator_dimension=True,
)  # fmt: skip

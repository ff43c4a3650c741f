"""The loop_iterations kind: how many times a loop's body runs in one start of the loop.

Everything about the kind is here (its registry row `ROW` is listed in `_registry.KIND_MODULES`).

- Anchor: a loop header, the run of it that entered the loop (an entry is a run with
  `Step.iterations[line] == 1`); no variable. Loops in generators are not asked.
- Answer: the number of distinct iteration numbers seen on the steps of body lines in that
  frame until control leaves the loop (a line outside the header and body, or the frame
  returning), as an int repr.
- Static rule: the length of a literal iterable of a `for` loop whose body cannot leave it
  early (no `break`, `continue`, `return` or `raise`), or of an argument of the call that the
  function never changes (`for c in text`, `range(len(xs))`, `range(n)`, `d.items()`, ...):
  reading the call is not executing it.
- Guesses: the length of the first or the iterated argument, and small constants.
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
    """How many times the body of the loop headed by `line` ran in the entry made by the
    header's `occurrence`-th run."""
    facts = ctx.line(line)
    if facts is None or facts.loop is None or ctx.in_generator(line) or variable is not None:
        return None
    entry = ctx.entry_at(line, occurrence)
    if entry is None or entry.exit_kind is None:
        return None
    weight = 1.0 + (1.5 if entry.body_runs <= 1 else 0.0) + 0.3 * min(entry.ordinal - 1, 5)
    answer = repr(entry.body_runs)
    return Reading(
        "loop_iterations", line, occurrence, None, answer, entry.step, weight, entry.ordinal
    )


def each(ctx: CallContext) -> Iterator[Reading]:
    """Every loop_iterations reading of the call."""
    for header in ctx.facts.loops:
        for entry in ctx.loop_entries(header):
            reading = read(ctx, header, entry.run, None)
            if reading is not None:
                yield reading


question = ask.about_loop(
    "How many times does its body run before the loop is left? Count a pass left by `break` "
    "or `return` too."
)


def static_rule(
    facts: StaticFacts, line: int, occurrence: int, variable: str | None, calls: int
) -> str | None:
    """The length of a literal iterable (or an unchanged argument) that the body cannot leave
    early."""
    count = facts.loop_counts.get(line)
    return None if count is None else repr(count)


GUESSES: dict[str, guess.Rule] = {
    "len of the first argument": guess.len_first,
    "len of the iterated argument": guess.len_iterable,
    **guess.SMALL,
}

ROW = KindSpec(
    "loop_iterations", ("Boundary",), "int", None, read, each, question, "body_counts",
    static_rule, False, "how many times a loop's body runs in one start of the loop", 0.8, 1,
    GUESSES, "len of the iterated argument", 0.1,
)  # fmt: skip

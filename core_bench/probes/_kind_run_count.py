"""The run_count kind: how many times a line runs during the call.

Everything about the kind is here (its registry row `ROW` is listed in `_registry.KIND_MODULES`).

- Anchor: a clean, coverable line; `occurrence` 1, no variable.
- Answer: its line events in non-comprehension frames, over every frame, as an int repr.
  Asked for lines that run at least once and lie in a loop or in a function that ran more
  than once; not in generators, not for `return`, `raise` or `break` (which run at most once:
  coverage asks that).
- Static rule: a line that always runs, outside any loop, in a function called once: 1; a
  line directly in the body of a top-level `for` loop with known passes (a literal, or an
  unchanged argument) that cannot be left early: its passes (and passes + 1 for the header).
- Guesses: the length of the first or the iterated argument (the one a `for` iterates or
  whose `len` a `while` test reads; +1 for a header), small constants.
"""

from __future__ import annotations

from collections.abc import Iterator

from core_bench.probes import _guesses as guess
from core_bench.probes import _questions as ask
from core_bench.probes._answerable import StaticFacts
from core_bench.probes._context import CallContext
from core_bench.probes._reading import Reading, at_lines, whole_line
from core_bench.probes._spec import KindSpec

_AT_MOST_ONCE = frozenset({"Return", "Raise", "Break"})
"""Statements that run at most once per call (or loop start): their count is their coverage."""


def read(ctx: CallContext, line: int, occurrence: int, variable: str | None) -> Reading | None:
    """How many times `line` runs in the call."""
    facts = whole_line(ctx, line, occurrence, variable)
    if facts is None:
        return None
    if ctx.in_generator(line) or facts.statement in _AT_MOST_ONCE:
        return None
    runs = ctx.runs.get(line)
    if not runs or (ctx.nesting(line) == 0 and ctx.run_frames.get(line, 0) <= 1):
        return None
    weight = 1.0 + 0.2 * min(len(runs), 10) + (1.0 if facts.loop is not None else 0.0)
    return Reading("run_count", line, 1, None, repr(len(runs)), runs[0], weight)


def each(ctx: CallContext) -> Iterator[Reading]:
    """Every run_count reading of the call."""
    return at_lines(ctx, read, ctx.runs)


def question(ctx: CallContext, r: Reading) -> str:
    """The question of a reading."""
    over = ask.across_calls(ctx, r.line)
    note = ask.header_note(ctx, r.line)
    return f"How many times does {ask.line_ref(ctx, r.line)} run in this call{over}?{note}"


def static_rule(
    facts: StaticFacts, line: int, occurrence: int, variable: str | None, calls: int
) -> str | None:
    """1 for an always-run line outside loops of a function run once; the length of a literal
    loop for its header (+1) and the lines directly in its body."""
    if line in facts.always and line not in facts.in_loop and calls == 1:
        return "1"
    for header, count in facts.loop_counts.items():
        if header not in facts.top_level_loops or calls != 1:
            continue
        if line == header:
            return repr(count + 1)
        if line in facts.loop_body[header]:
            return repr(count)
    return None


def _len_for_header(seen: guess.Seen) -> str:
    """The length of the iterated argument, +1 on a loop header (its final check)."""
    header = guess.line_text(seen, guess.anchor_of(seen)[0]).startswith(("for ", "while "))
    return repr(int(guess.len_iterable(seen)) + (1 if header else 0))


GUESSES: dict[str, guess.Rule] = {
    "len of the first argument": guess.len_first,
    "len of the iterated argument (+1 for a header)": _len_for_header,
    **guess.SMALL,
}

ROW = KindSpec(
    "run_count", ("Boundary", "Logic"), "int", None, read, each, question, "mapped_line",
    static_rule, False, "how many times a line runs", 1.2, 1,
    GUESSES, "len of the iterated argument (+1 for a header)", 0.1,
)  # fmt: skip

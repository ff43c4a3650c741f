"""The next_line kind: which line of the same frame runs after the k-th run of a line.

Everything about the kind is here (its registry row `ROW` is listed in `_registry.KIND_MODULES`).

- Anchor: a clean line, its `occurrence`-th run; no variable.
- Answer: the line of the next line step of the same frame, as an int repr; "'return'"
  (`RETURN_MARK`) when the frame's next step is its return instead. Not asked for `return`
  lines, lines that yield, lines in generators, when the next step is an exception, or when
  the next line is not clean. Conditions, `break`/`continue`, the run that leaves a loop and
  jumps back to a header or out of the function weigh more.
- Static rule: for a simple statement (not a loop or `if` header, not inside `try` or at the
  end of a `with` body), the line that follows it in the control-flow graph: the next statement
  of its block, else the loop header for the last statement of a loop body, else what follows
  the enclosing `if`, else "'return'" at the end of the function. `continue` gives its loop
  header and `break` what follows its loop. After the k-th run of the header of a top-level
  loop with known passes, in a function run once: its body, or what follows it.
- Guesses: the next non-blank line, the line after the block, 'return', the enclosing loop's
  header.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from core_bench.probes import _guesses as guess
from core_bench.probes import _questions as ask
from core_bench.probes._answerable import StaticFacts
from core_bench.probes._context import CallContext
from core_bench.probes._reading import RETURN_MARK, Reading, at_runs, leaves_loop
from core_bench.probes._spec import KindSpec


def read(ctx: CallContext, line: int, occurrence: int, variable: str | None) -> Reading | None:
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
    if leaves_loop(facts, after):
        weight += 1.5
    if answer == RETURN_MARK or after.line < line:
        weight += 1.0  # a jump back to a loop header, or out of the function
    return Reading("next_line", line, occurrence, None, answer, index, weight)


def each(ctx: CallContext) -> Iterator[Reading]:
    """Every next_line reading of the call."""
    return at_runs(ctx, read)


def question(ctx: CallContext, r: Reading) -> str:
    """The question of a reading."""
    function = ask.function_of(ctx, r.line)
    return (
        f"After {ask.run_phrase(ctx, r)}, which line of `{function}` runs next? Lines inside "
        f"functions it calls do not count. Answer with a line number, or 'return' if "
        f"`{function}` returns.{ask.header_note(ctx, r.line)}"
    )


def static_rule(
    facts: StaticFacts, line: int, occurrence: int, variable: str | None, calls: int
) -> str | None:
    """The static successor of a simple statement; after the k-th run of the header of a
    top-level loop with known passes, in a function run once, its body or what follows it."""
    if line in facts.successor:
        return facts.successor[line]
    count = facts.loop_counts.get(line)
    if count is None or line not in facts.top_level_loops or calls != 1:
        return None
    return facts.loop_first[line] if occurrence <= count else facts.loop_follow.get(line)


def _next_nonblank(seen: guess.Seen, line: int) -> str:
    """The next line after `line` that is neither blank nor a comment ('return' at a `def`,
    a `class` or the end)."""
    source = guess.source(seen.code)
    if source is None:
        return RETURN_MARK
    for number in range(line + 1, len(source.lines) + 1):
        text = source.lines[number - 1].strip()
        if text and not text.startswith("#"):
            if text.startswith("def ") or text.startswith("class "):
                return RETURN_MARK
            return repr(number)
    return RETURN_MARK


def _after_block(seen: guess.Seen, line: int) -> str:
    """The line after the whole statement on `line` (its body skipped)."""
    stmt = guess.statement(seen, line)
    if stmt is None:
        return _next_nonblank(seen, line)
    return _next_nonblank(seen, stmt.end_lineno or line)


def _enclosing_header(seen: guess.Seen) -> str:
    """The header of the innermost loop around the line (the jump back), else the next line."""
    line = guess.anchor_of(seen)[0]
    source = guess.source(seen.code)
    loops = [
        sub
        for sub in (ast.walk(source.tree) if source is not None else ())
        if isinstance(sub, ast.For | ast.While) and sub.lineno < line <= (sub.end_lineno or 0)
    ]
    best = max(loops, key=lambda loop: loop.lineno, default=None)
    return repr(best.lineno) if best is not None else _next_nonblank(seen, line)


GUESSES: dict[str, guess.Rule] = {
    "next non-blank line": lambda s: _next_nonblank(s, guess.anchor_of(s)[0]),
    "line after the block": lambda s: _after_block(s, guess.anchor_of(s)[0]),
    "return": guess.constant(RETURN_MARK),
    "header of the enclosing loop": _enclosing_header,
}

ROW = KindSpec(
    "next_line", ("Logic",), "line", "path", read, each, question, "next_lines", static_rule,
    False, "which line of the same frame runs after the k-th run of a line", 0.4, 1,
    GUESSES, "next non-blank line", 0.1,
)  # fmt: skip

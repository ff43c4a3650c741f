"""The full_trace kind: every line the entry call runs, with the values each run changes.

Everything about the kind is here (its registry row `ROW` is listed in `_registry.KIND_MODULES`).

- Anchor: `line` is the entry function's `def` line, `occurrence` 1, no variable.
- Answer: the repr of a Python list with one `[line, {name: value}]` pair per line step of the
  entry frame, in order, where the dict maps every local the run created or changed to its
  value right after the run (values as Python literals). Only for calls whose entry frame
  returns after at most `MAX_TRACE_LINES` runs of clean lines, with every changed value a
  literal and nothing deleted. Never anchored on variants (line numbers differ by
  construction); a run asks it as its own task kind (`task` of its row).
- Static rule: none.
- Guesses: the empty trace; for an entry whose body is one `return`, that line with no
  change (`[[line, {}]]`), which needs no execution.
"""

from __future__ import annotations

import ast

from core_bench.probes import _guesses as guess
from core_bench.probes import _questions as ask
from core_bench.probes._context import CallContext, literal
from core_bench.probes._reading import Reading, at_entry
from core_bench.probes._spec import KindSpec

MAX_TRACE_LINES = 40
"""Longest entry-frame line sequence a full_trace probe asks for."""

MAX_TRACE_CHARS = 4000
"""Longest full_trace answer text."""


def read(ctx: CallContext, line: int, occurrence: int, variable: str | None) -> Reading | None:
    """The entry frame's executed lines with the values each run changed."""
    steps = ctx.steps
    if not steps or occurrence != 1 or variable is not None:
        return None
    first = steps[0]
    function = ctx.facts.functions.get(first.line)
    if first.event != "call" or first.line != line or function is None or function.generator:
        return None
    pairs: list[str] = []
    frame_steps = ctx.frame_steps[first.frame]
    if steps[frame_steps[-1]].event != "return":
        return None
    for index in frame_steps:
        step = steps[index]
        if step.event != "line":
            continue
        after = ctx.after_step(index)
        if ctx.line(step.line) is None or len(pairs) == MAX_TRACE_LINES:
            return None
        if after is None or after.event == "exception":
            return None
        if any(name not in after.locals for name in step.locals):
            return None  # `del`: a change the format cannot show
        changed: list[str] = []
        for name, text in after.locals.items():
            if step.locals.get(name) == text:
                continue
            ok, _ = literal(text)
            if name in after.opaque or not ok:
                return None
            changed.append(f"{name!r}: {text}")
        pairs.append(f"[{step.line}, {{{', '.join(changed)}}}]")
    # Assembled from the traced reprs, not re-printed from parsed values: the order in which a
    # set of strings prints is the sandbox's (fixed hash seed), not this process's.
    answer = "[" + ", ".join(pairs) + "]"
    if len(answer) > MAX_TRACE_CHARS:
        return None
    return Reading("full_trace", line, 1, None, answer, 0, 1.0)


each = at_entry(read)
"""The call's full_trace reading, if it has one."""


question = ask.about_entry(
    "Trace this call of `{function}` (defined on line {line}): list every line "
    "of `{function}` that runs, in order, as a Python list of [line, {{name: value}}] "
    "pairs, one per run of a line, where the dict maps each local variable the run "
    "creates or changes to its value right after the run (an empty dict when it changes "
    "none). A loop header runs each time its loop test or next item is evaluated, "
    "including the last time, which ends the loop; lines of functions it calls are not "
    "listed."
)


def _one_return(seen: guess.Seen) -> str:
    """`[[line, {}]]` when the entry's body is a single `return` (docstring aside), else `[]`."""
    parsed = guess.source(seen.code)
    function = parsed.functions.get(seen.entry) if parsed is not None else None
    if function is None:
        return "[]"
    body = function.body
    if (
        len(body) == 2
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        body = body[1:]
    if len(body) == 1 and isinstance(body[0], ast.Return):
        return f"[[{body[0].lineno}, {{}}]]"
    return "[]"


GUESSES: dict[str, guess.Rule] = {"empty": guess.constant("[]"), "one return line": _one_return}

ROW = KindSpec(
    "full_trace", ("Arithmetic", "Logic", "State", "Boundary"), "trace", None, read, each,
    question, None, None, True,
    "every line the entry call runs, with the values each run changes", 0.8, None,
    GUESSES, "one return line", 0.2, task="full_trace",
)  # fmt: skip

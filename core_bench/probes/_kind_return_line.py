"""The return_line kind: which return statement ends the entry call.

Everything about the kind is here (its registry row `ROW` is listed in `_registry.KIND_MODULES`).

- Anchor: `line` is the entry function's `def` line, which holds two or more clean `return`
  statements; `occurrence` 1, no variable.
- Answer: the line of the `return` that ends the call (the last line run by the entry frame
  before it returns), as an int repr.
- Static rule: a `return` statement that always runs (see coverage).
- Guesses: the last or the first `return` of the entry function.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from functools import lru_cache

from core_bench.probes import _guesses as guess
from core_bench.probes._context import CallContext
from core_bench.probes._reading import RETURN_MARK, Reading, at_entry
from core_bench.probes._spec import KindSpec


def _return_lines(ctx: CallContext, def_line: int) -> list[int]:
    """Clean `return` lines of the function defined on `def_line`, in order."""
    return sorted(
        line
        for line, facts in ctx.facts.lines.items()
        if facts.function_line == def_line and facts.is_return and facts.clean
    )


def read(ctx: CallContext, line: int, occurrence: int, variable: str | None) -> Reading | None:
    """The line of the `return` that ends the entry call."""
    frame = ctx.entry_frame(line)
    if frame is None or occurrence != 1 or variable is not None:
        return None
    returns = _return_lines(ctx, line)
    if len(returns) < 2:
        return None
    last = next((ctx.steps[i] for i in reversed(frame) if ctx.steps[i].event == "line"), None)
    if last is None or last.line not in returns:
        return None
    weight = 1.0 + 0.5 * (len(returns) - 2) + (1.0 if last.line != returns[-1] else 0.0)
    return Reading("return_line", line, 1, None, repr(last.line), last.index, weight)


each = at_entry(read)
"""The call's return_line reading, if it has one."""


def question(ctx: CallContext, r: Reading) -> str:
    """The question of a reading."""
    function = ctx.facts.functions[r.line].name
    lines = [str(line) for line in _return_lines(ctx, r.line)]
    listed = ", ".join(lines[:-1]) + " or " + lines[-1]
    return (
        f"Which `return` of `{function}` ends this call: the one on line {listed}? "
        f"Answer with the line number."
    )


def _returns(seen: guess.Seen) -> list[int]:
    """Lines of the entry function's `return` statements, in order."""
    return list(_entry_returns(seen.code, seen.entry))


@lru_cache(maxsize=512)
def _entry_returns(code: str, entry: str) -> tuple[int, ...]:
    source = guess.source(code)
    function = source.functions.get(entry) if source is not None else None
    if function is None:
        return ()
    return tuple(sorted(r.lineno for r in ast.walk(function) if isinstance(r, ast.Return)))


def _nth_return(which: int) -> Callable[[guess.Seen], str]:
    def rule(seen: guess.Seen) -> str:
        found = _returns(seen)
        return repr(found[which]) if found else RETURN_MARK

    return rule


ROW = KindSpec(
    "return_line", ("Logic",), "line", "path", read, each, question, "entry_function",
    lambda facts, line, *_: facts.first_return.get(line), True,
    "which return statement ends the entry call", 0.5, 1,
    {"last return": _nth_return(-1), "first return": _nth_return(0)}, "last return", 0.1,
)  # fmt: skip

"""The call_count kind: how many times one function of the code is called during the call.

Everything about the kind is here (its registry row `ROW` is listed in `_registry.KIND_MODULES`).

- Anchor: `line` is the entry function's `def` line, `variable` the callee's name (a helper,
  an inner function, or the entry function itself when it recurses), `occurrence` 1.
- Answer: the number of frames of the callee that started during the call, the entry call
  included when the callee is the entry function, as an int repr. Asked for functions of the
  code with a unique name that do not yield and are not decorated, called at least once, and
  for the entry function only when it recursed.
- Static rule: "1" for a callee other than the entry function that the module calls from one
  place only, a statement of the entry function that always runs outside any loop (and the
  callee does not call itself).
- Guesses: the small constants, and the length of the first argument.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import lru_cache

from core_bench.probes import _guesses as guess
from core_bench.probes._answerable import StaticFacts
from core_bench.probes._context import CallContext
from core_bench.probes._parsed import parsed
from core_bench.probes._reading import Reading
from core_bench.probes._spec import KindSpec


def _entry_line(ctx: CallContext) -> int | None:
    steps = ctx.steps
    if not steps or steps[0].event != "call" or steps[0].line not in ctx.facts.functions:
        return None
    return steps[0].line


def read(ctx: CallContext, line: int, occurrence: int, variable: str | None) -> Reading | None:
    """How many times the function named `variable` is called in the call whose entry function
    is defined on `line`."""
    if occurrence != 1 or variable is None or _entry_line(ctx) != line:
        return None
    callee = ctx.facts.function_named(variable)
    if callee is None or callee.generator or callee.decorated:
        return None
    count = len(ctx.calls.get((callee.name, callee.line), []))
    if count == 0 or (callee.line == line and count == 1):
        return None
    first = ctx.calls[(callee.name, callee.line)][0]
    weight = 1.0 + 0.3 * min(count, 10)
    return Reading("call_count", line, 1, variable, repr(count), first, weight)


def each(ctx: CallContext) -> Iterator[Reading]:
    """Every call_count reading of the call, one per called function."""
    line = _entry_line(ctx)
    if line is None:
        return
    for function in ctx.facts.functions.values():
        reading = read(ctx, line, 1, function.name)
        if reading is not None:
            yield reading


def question(ctx: CallContext, r: Reading) -> str:
    """The question of a reading."""
    entry = ctx.facts.functions[r.line].name
    assert r.variable is not None
    callee = ctx.facts.function_named(r.variable)
    assert callee is not None
    itself = f" The call of `{entry}` itself counts as the 1st." if callee.line == r.line else ""
    return (
        f"During this call of `{entry}`, how many times is `{r.variable}` (defined on line "
        f"{callee.line}) called in all, counting calls made from inside other calls?{itself}"
    )


@lru_cache(maxsize=256)
def _call_sites(code: str, name: str) -> tuple[int, ...]:
    """Lines of the calls of `name` by name, in `ast.walk` order (asked for every candidate
    of a call, hence cached)."""
    try:
        tree = parsed(code)
    except SyntaxError:
        return ()
    return tuple(
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
    )


@lru_cache(maxsize=256)
def _enclosing_function(code: str, line: int) -> int | None:
    """The `def` line of the innermost function holding `line`."""
    tree = parsed(code)
    found = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.lineno < line <= (node.end_lineno or 0)
    ]
    return max(found, default=None)


def static_rule(
    facts: StaticFacts, line: int, occurrence: int, variable: str | None, calls: int
) -> str | None:
    """1 for a helper called from one place, a statement of the entry function that always
    runs and is in no loop."""
    if variable is None or facts.params.get(line, ("", ()))[0] == variable:
        return None
    sites = _call_sites(facts.source, variable)
    if len(sites) != 1:
        return None
    site = sites[0]
    if site not in facts.always or site in facts.in_loop:
        return None
    return "1" if _enclosing_function(facts.source, site) == line else None


ROW = KindSpec(
    "call_count", ("Logic", "Boundary"), "int", "path", read, each, question,
    "entry_function", static_rule, True,
    "how many times a function of the code is called during the call", 1.2, 1, guess.COUNT,
    "len of the first argument", 0.1,
)  # fmt: skip

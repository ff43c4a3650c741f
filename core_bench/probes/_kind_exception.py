"""The exception_line kind: which exception the call raises first, and on which line.

Everything about the kind is here (its registry row `ROW` is listed in `_registry.KIND_MODULES`).

- Anchor: `line` is the entry function's `def` line, `occurrence` 1, no variable.
- Answer: the repr of a tuple `('ExceptionName', line)`: the class name of the first exception
  raised in a frame of the traced code (a `raise`, or a failing operation or builtin call; it
  may be caught by a `try` of the code, or leave the call) and the line it is raised on, read
  from the trace's first "exception" step (the iteration protocol's GeneratorExit and
  StopIteration do not count: the call asks nothing then). Asked only where that line is a
  clean statement line; a call that raises nothing asks nothing (no "None" answers).
- Static rule: a `raise` statement of the entry function that always runs, raising a class by
  name (`raise ValueError(...)`), is the first exception when nothing before it can raise;
  since nearly anything can raise, the rule derives nothing unless the raise is the function's
  first statement.
- Guesses: the first `except` clause's class (or ValueError) at the first line of its `try`
  body, and the first `raise` statement's class at its line.
"""

from __future__ import annotations

import ast

from core_bench.probes import _guesses as guess
from core_bench.probes import _questions as ask
from core_bench.probes._answerable import StaticFacts
from core_bench.probes._context import CallContext
from core_bench.probes._reading import Reading, at_entry
from core_bench.probes._spec import KindSpec

_NOT_ASKED = frozenset({"GeneratorExit", "StopIteration", "StopAsyncIteration"})
"""Exceptions of the iteration protocol: a generator's close (raised whenever the collector
gets to it) and the end of an iterator are not errors of the code."""


def read(ctx: CallContext, line: int, occurrence: int, variable: str | None) -> Reading | None:
    """The first exception raised during the call whose entry function is defined on `line`."""
    steps = ctx.steps
    if occurrence != 1 or variable is not None or not steps:
        return None
    if steps[0].event != "call" or steps[0].line != line or line not in ctx.facts.functions:
        return None
    first = next((s for s in steps if s.event == "exception"), None)
    if first is None or first.value is None or ctx.line(first.line) is None:
        return None
    name = first.value.split(":", 1)[0].strip()
    if not name.isidentifier() or name in _NOT_ASKED:
        return None
    weight = 2.0 + (1.0 if first.depth > 0 else 0.0)
    return Reading("exception_line", line, 1, None, repr((name, first.line)), first.index, weight)


each = at_entry(read)
"""The call's exception_line reading, if it raised."""


question = ask.about_entry(
    "During this call of `{function}`, an exception is raised (it may be caught). Which "
    "exception is raised first, and on which line of the code? Answer with a tuple "
    "('ExceptionName', line), like ('KeyError', 7)."
)


def _function(tree: ast.Module, line: int) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    return next(
        (
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.lineno == line
        ),
        None,
    )


def _raised_name(node: ast.Raise) -> str | None:
    exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
    return exc.id if isinstance(exc, ast.Name) else None


def static_rule(
    facts: StaticFacts, line: int, occurrence: int, variable: str | None, calls: int
) -> str | None:
    """A `raise` of a named class that is the entry function's first statement."""
    try:
        function = _function(ast.parse(facts.source), line)
    except SyntaxError:
        return None
    if function is None or not isinstance(function.body[0], ast.Raise):
        return None
    name = _raised_name(function.body[0])
    return None if name is None else repr((name, function.body[0].lineno))


def _try_guess(seen: guess.Seen, default: str | None) -> str:
    """(the first handler's class, or `default`, at the first line of its `try` body)."""
    try:
        tree = ast.parse(seen.code)
    except SyntaxError:
        return "None"
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and node.handlers:
            handler = node.handlers[0].type
            named = handler.id if isinstance(handler, ast.Name) else None
            name = default or named or "Exception"
            return repr((name, node.body[0].lineno))
    return "None"


def _raise_guess(seen: guess.Seen) -> str:
    """(the first `raise` statement's class, at its line)."""
    try:
        tree = ast.parse(seen.code)
    except SyntaxError:
        return "None"
    raises = sorted(
        (node.lineno, name)
        for node in ast.walk(tree)
        if isinstance(node, ast.Raise) and (name := _raised_name(node)) is not None
    )
    return repr((raises[0][1], raises[0][0])) if raises else "None"


GUESSES: dict[str, guess.Rule] = {
    "first handler's class at the try's first line": lambda s: _try_guess(s, None),
    "ValueError at the try's first line": lambda s: _try_guess(s, "ValueError"),
    "first raise statement": _raise_guess,
}

ROW = KindSpec(
    "exception_line", ("Logic", "State"), "value", "path", read, each, question,
    "entry_function", static_rule, True,
    "which exception the call raises first, and on which line", 2.0, 1, GUESSES,
    "first handler's class at the try's first line", 0.2,
)  # fmt: skip

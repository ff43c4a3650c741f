"""The loop_exit_state kind: the value of a variable right after a loop ends.

Everything about the kind is here (its registry row `ROW` is listed in `_registry.KIND_MODULES`).

- Anchor: a loop header, the run of it that entered the loop (as for loop_iterations), the
  `variable` asked. Loops in generators are not asked.
- Answer: for an entry after which control went on past the loop (not a return from inside
  it), the value of `variable` in the locals of the first step outside the loop. Asked for
  names the loop assigns and names whose value changed during the loop.
- Static rule: the last element of a literal iterable, for the loop's own target, where the
  body cannot leave the loop early; and the exit condition of a `while` loop that no `break`
  leaves: after `while x != C` (or `x is not C`, either side, or one such test among those
  joined by `or`: the loop goes on while any holds) ends, `x` is `C`, a literal.
- Guesses: the variable-value rules (`_guesses.VALUE`), and the value that makes the loop's
  test false (or the last item a `for` over an argument gives its target, also unpacked:
  `for i, x in enumerate(xs)`, `for a, b in zip(xs, ys)`, `for k, v in d.items()`,
  `for name, qty in orders`; an argument read through a local copy: `items = list(xs)`),
  and, for a `for` loop's own target, the last item of the first argument.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from core_bench.probes import _guesses as guess
from core_bench.probes import _questions as ask
from core_bench.probes._answerable import StaticFacts, len_argument
from core_bench.probes._context import CallContext
from core_bench.probes._parsed import segment
from core_bench.probes._reading import Reading
from core_bench.probes._spec import KindSpec


def read(ctx: CallContext, line: int, occurrence: int, variable: str | None) -> Reading | None:
    """The value of `variable` right after the loop headed by `line`, entered by the header's
    `occurrence`-th run, ended."""
    facts = ctx.line(line)
    if facts is None or facts.loop is None or ctx.in_generator(line) or variable is None:
        return None
    entry = ctx.entry_at(line, occurrence)
    if entry is None or entry.exit_kind != "line" or entry.exit_step is None:
        return None
    state = ctx.steps[entry.exit_step]
    text = state.locals.get(variable)
    if text is None or variable in state.opaque:
        return None
    changed = ctx.steps[entry.step].locals.get(variable) != text
    if not changed and variable not in ctx.loop_binds(line):
        return None
    weight = 2.0 + 0.3 * min(entry.ordinal - 1, 5) + (0.0 if changed else -1.0)
    return Reading(
        "loop_exit_state", line, occurrence, variable, text, entry.step, weight, entry.ordinal
    )


def each(ctx: CallContext) -> Iterator[Reading]:
    """Every loop_exit_state reading of the call."""
    for header in ctx.facts.loops:
        binds = ctx.loop_binds(header) if header in ctx.facts.lines else frozenset()
        for entry in ctx.loop_entries(header):
            if entry.exit_kind != "line" or entry.exit_step is None:
                continue
            start = ctx.steps[entry.step].locals
            names = sorted(binds)
            names.extend(
                n
                for n, v in ctx.steps[entry.exit_step].locals.items()
                if start.get(n) != v and n not in binds
            )
            for name in names:
                reading = read(ctx, header, entry.run, name)
                if reading is not None:
                    yield reading


question = ask.about_loop("What is `{variable}` right after the loop ends?")


def static_rule(
    facts: StaticFacts, line: int, occurrence: int, variable: str | None, calls: int
) -> str | None:
    """The last element of a literal iterable, for the loop's target; the value a `while` test
    forces on a name when the loop ends."""
    forced = facts.while_exits.get(line, {}).get(variable or "")
    if forced is not None:
        return forced
    elements = facts.literal_loops.get(line)
    if not elements or facts.loop_target.get(line) != variable:
        return None
    return elements[-1]


def _argument_value(seen: guess.Seen, node: ast.expr) -> object:
    """The value of an argument the call writes as a literal, read by a name (the parameter,
    or a local first assigned a copy of it: `items = list(xs)`); else None."""
    if not isinstance(node, ast.Name):
        return None
    text = guess.argument_of(seen, node.id) or guess.copied_argument(seen, node.id)
    ok, value = guess.parse(text or "")
    return value if ok else None


def _bound(seen: guess.Seen, node: ast.expr) -> int | None:
    """An int bound a test compares with: a literal, an argument, or `len` of an argument."""
    text = segment(seen.code, node) or ""
    ok, value = guess.parse(text)
    if ok and type(value) is int:
        return value
    if isinstance(node, ast.Name):
        value = _argument_value(seen, node)
        return value if type(value) is int else None
    name = len_argument(node)
    return None if name is None else guess.length(guess.argument_of(seen, name) or "")


def _for_exit(seen: guess.Seen, stmt: ast.For) -> str | None:
    """The last item a `for` over an argument (or a `range` of known bounds) gives."""
    for sub in ast.walk(stmt.iter):
        value = _argument_value(seen, sub) if isinstance(sub, ast.Name) else None
        if isinstance(value, str | list | tuple) and value:
            return repr(value[-1])
    if isinstance(stmt.iter, ast.Call) and getattr(stmt.iter.func, "id", "") == "range":
        bounds = [_bound(seen, a) for a in stmt.iter.args]
        if bounds and all(b is not None for b in bounds) and len(bounds) <= 2:
            numbers = range(*[b for b in bounds if b is not None])
            return repr(numbers[-1]) if numbers else None
    return None


def _last_item(seen: guess.Seen, iterable: ast.expr) -> tuple[bool, object]:
    """(found, the last item) of a loop over an argument, `enumerate(argument[, start])`,
    `zip(arguments...)` or `argument.items()` (the call gives the argument)."""
    value = _argument_value(seen, iterable)
    if isinstance(value, str | list | tuple) and value:
        return True, value[-1]
    if not isinstance(iterable, ast.Call) or iterable.keywords:
        return False, None
    func, args = iterable.func, iterable.args
    if isinstance(func, ast.Attribute) and func.attr == "items" and not args:
        found = _argument_value(seen, func.value)
        if isinstance(found, dict) and found:
            return True, list(found.items())[-1]
        return False, None
    name = func.id if isinstance(func, ast.Name) else ""
    values = [_argument_value(seen, a) for a in args]
    sequences = [v for v in values if isinstance(v, str | list | tuple) and v]
    if not sequences or len(sequences) != len(args):
        return False, None
    if name == "zip":
        last = min(len(v) for v in sequences) - 1
        return True, tuple(v[last] for v in sequences)
    if name == "enumerate" and len(sequences) == 1:
        return True, (len(sequences[0]) - 1, sequences[0][-1])
    return False, None


def _unpacked(target: ast.expr, value: object, name: str) -> tuple[bool, object]:
    """(found, what `name` gets) when `value` is unpacked into the `for` target."""
    if isinstance(target, ast.Name):
        return target.id == name, value
    if not isinstance(target, ast.Tuple | ast.List) or not isinstance(value, str | list | tuple):
        return False, None
    if len(target.elts) != len(value) or any(isinstance(e, ast.Starred) for e in target.elts):
        return False, None
    for element, item in zip(target.elts, value, strict=True):
        found, got = _unpacked(element, item, name)
        if found:
            return True, got
    return False, None


def _unpacked_exit(seen: guess.Seen, stmt: ast.For, name: str) -> str | None:
    """What a tuple target's name holds after its last pass: `for i, x in enumerate(xs)`
    leaves `len(xs) - 1` and `xs[-1]`, `for k, v in pairs` the last pair's parts."""
    found, last = _last_item(seen, stmt.iter)
    if not found:
        return None
    found, value = _unpacked(stmt.target, last, name)
    return repr(value) if found else None


def _exit_value(seen: guess.Seen) -> str | None:
    """The value that makes a `while` test on the variable false (`while i != -1` -> -1,
    `while i < len(s)` -> len(s)), or the last item a `for` over an argument gives its
    target (unpacked into a tuple target, through `enumerate`, `zip` and `.items()`)."""
    line, _, name = guess.anchor_of(seen)
    stmt = guess.statement(seen, line)
    if isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name) and stmt.target.id == name:
        return _for_exit(seen, stmt)
    if isinstance(stmt, ast.For) and name is not None:
        return _unpacked_exit(seen, stmt, name)
    if not isinstance(stmt, ast.While) or name is None:
        return None
    tests = stmt.test.values if isinstance(stmt.test, ast.BoolOp) else [stmt.test]
    for test in tests:
        if isinstance(test, ast.Name) and test.id == name:
            first = guess.first_literal(seen, name) or guess.argument_of(seen, name)
            return guess.type_default(first)
        if not isinstance(test, ast.Compare) or len(test.ops) != 1:
            continue
        left, op, right = test.left, test.ops[0], test.comparators[0]
        if not (isinstance(left, ast.Name) and left.id == name):
            continue
        if isinstance(op, ast.NotEq | ast.IsNot):
            return segment(seen.code, right)
        bound = _bound(seen, right)
        if bound is None:
            continue
        shift = {ast.Lt: 0, ast.LtE: 1, ast.Gt: 0, ast.GtE: -1}.get(type(op))
        if shift is not None:
            return repr(bound + shift)
    return None


def _last_of_first_argument(seen: guess.Seen) -> str:
    """For a `for` loop's own target, the last item of the call's first argument, whatever
    the loop runs over: a loop over a list built from the argument item by item often ends
    on the argument's last item (`for item in result` after `result.append(ch)` for each
    `ch` of the text), and a reader can say so without running anything."""
    line, _, name = guess.anchor_of(seen)
    stmt = guess.statement(seen, line)
    if not (isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name)):
        return ""
    if stmt.target.id != name:
        return ""
    ok, value = guess.parse(guess.first_argument(seen))
    return repr(value[-1]) if ok and isinstance(value, str | list | tuple) and value else ""


GUESSES: dict[str, guess.Rule] = {
    **guess.VALUE,
    "last item of the first argument": _last_of_first_argument,
    "value ending the loop, else first literal": lambda s: (
        _exit_value(s) or guess.first_literal_or_argument(s)
    ),
}

ROW = KindSpec(
    "loop_exit_state", ("Boundary", "State"), "value", "state", read, each, question,
    "loop_value", static_rule, False, "the value of a variable right after a loop ends", 2.5,
    1, GUESSES, "value ending the loop, else first literal", 0.2,
)  # fmt: skip

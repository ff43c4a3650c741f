"""Code-blind guesses: cheap rules that answer from the code text and the call, never run.

Each probe kind's registry row lists its candidate rules (`guesses`) and the one `ref:blind`
uses (`blind`, the best of them on the bundled build as `bench/blind_rules.py` prints it).
A rule sees the code, the call, the probe's kind and anchor (line, occurrence, variable),
never an answer or a trace. Selection also reads them: a candidate probe whose answer one of
its kind's rules gives is kept only with the kind's `keep_guessed` probability
(`core_bench.probes.probes_for_call`), so a cheap guess is rarely right.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from core_bench.schemas import Anchor, Probe

RETURN = "'return'"

_DEFAULTS = {
    bool: "False",
    int: "0",
    float: "0.0",
    str: "''",
    list: "[]",
    tuple: "()",
    dict: "{}",
    set: "set()",
    bytes: "b''",
    type(None): "None",
}


@dataclass(frozen=True, slots=True)
class Seen:
    """What a blind rule may look at."""

    code: str
    entry: str
    call: str
    probe: Probe | None = None
    anchor: Anchor | None = None


@dataclass(frozen=True, slots=True)
class _Source:
    """A parsed code with the indexes the rules look things up in (selection asks the rules
    about every candidate of a call, so each walk of the tree is done once per code).

    Attributes:
        tree: the module.
        lines: its source lines.
        statements: line -> the first statement starting there, in `ast.walk` order.
        first_literals: name -> source of the first literal assigned to it (`name = <literal>`,
            lowest line; the smallest text among those on one line).
        loop_spans: (first line, last line) of every `for` and `while` loop.
        name_loops: (target, iterable) names of every `for <name> in <name>` loop, in
            `ast.walk` order.
    """

    tree: ast.Module
    lines: list[str]
    statements: dict[int, ast.stmt]
    first_literals: dict[str, str]
    loop_spans: list[tuple[int, int]]
    name_loops: list[tuple[str, str]]


@lru_cache(maxsize=512)
def _source(code: str) -> _Source | None:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    statements: dict[int, ast.stmt] = {}
    literals: dict[str, list[tuple[int, str]]] = {}
    spans: list[tuple[int, int]] = []
    name_loops: list[tuple[str, str]] = []
    for sub in ast.walk(tree):
        if not isinstance(sub, ast.stmt):
            continue
        statements.setdefault(sub.lineno, sub)
        if isinstance(sub, ast.Assign):
            names = {t.id for t in sub.targets if isinstance(t, ast.Name)}
            if not names:
                continue
            text = ast.get_source_segment(code, sub.value) or ""
            if _value(text)[0]:
                for name in names:
                    literals.setdefault(name, []).append((sub.lineno, text))
        elif isinstance(sub, ast.For | ast.While):
            spans.append((sub.lineno, sub.end_lineno or 0))
            if (
                isinstance(sub, ast.For)
                and isinstance(sub.target, ast.Name)
                and isinstance(sub.iter, ast.Name)
            ):
                name_loops.append((sub.target.id, sub.iter.id))
    first = {name: min(found)[1] for name, found in literals.items()}
    return _Source(tree, code.splitlines(), statements, first, spans, name_loops)


@lru_cache(maxsize=2048)
def _arguments(code: str, entry: str, call: str) -> tuple[tuple[str, str], ...]:
    """(parameter, argument source) pairs of the call, in parameter order where known."""
    try:
        node = ast.parse(call, mode="eval").body
    except SyntaxError:
        return ()
    if not isinstance(node, ast.Call):
        return ()
    texts = [ast.get_source_segment(call, a) or "None" for a in node.args]
    params: list[str] = []
    source = _source(code)
    if source is not None:
        for sub in ast.walk(source.tree):
            if isinstance(sub, ast.FunctionDef) and sub.name == entry:
                params = [a.arg for a in [*sub.args.posonlyargs, *sub.args.args]]
                break
    pairs = [(params[i] if i < len(params) else f"_{i}", t) for i, t in enumerate(texts)]
    pairs.extend(
        (k.arg, ast.get_source_segment(call, k.value) or "None") for k in node.keywords if k.arg
    )
    return tuple(pairs)


@lru_cache(maxsize=4096)
def _value(text: str) -> tuple[bool, object]:
    """(True, value) when `text` is a literal (values are shared: never mutate them)."""
    try:
        return True, ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


def type_default(text: str | None) -> str | None:
    """The default value of a literal's type (`0`, `''`, `[]`, ...), or None."""
    if text is None:
        return None
    ok, value = _value(text)
    return _DEFAULTS.get(type(value)) if ok else None


def first_argument(seen: Seen) -> str:
    """The call's first argument."""
    args = _arguments(seen.code, seen.entry, seen.call)
    return args[0][1] if args else "None"


def _length(text: str) -> int | None:
    ok, value = _value(text)
    try:
        return len(value) if ok else None  # type: ignore[arg-type]
    except TypeError:
        return value if isinstance(value, int) and not isinstance(value, bool) else None


def _first_literal(seen: Seen, name: str | None) -> str | None:
    """Source of the first literal assigned to `name` in the code."""
    source = _source(seen.code)
    if source is None or name is None:
        return None
    return source.first_literals.get(name)


def _argument_of(seen: Seen, name: str | None) -> str | None:
    return dict(_arguments(seen.code, seen.entry, seen.call)).get(name or "")


def _line_text(seen: Seen, line: int) -> str:
    source = _source(seen.code)
    if source is None or not 1 <= line <= len(source.lines):
        return ""
    return source.lines[line - 1].strip()


def _next_nonblank(seen: Seen, line: int) -> str:
    source = _source(seen.code)
    if source is None:
        return RETURN
    for number in range(line + 1, len(source.lines) + 1):
        text = source.lines[number - 1].strip()
        if text and not text.startswith("#"):
            if text.startswith("def ") or text.startswith("class "):
                return RETURN
            return repr(number)
    return RETURN


def _statement(seen: Seen, line: int) -> ast.stmt | None:
    source = _source(seen.code)
    if source is None:
        return None
    return source.statements.get(line)


def _after_block(seen: Seen, line: int) -> str:
    """The line after the whole statement on `line` (its body skipped)."""
    stmt = _statement(seen, line)
    if stmt is None:
        return _next_nonblank(seen, line)
    return _next_nonblank(seen, stmt.end_lineno or line)


def _returns(seen: Seen) -> list[int]:
    return list(_returns_of(seen.code, seen.entry))


@lru_cache(maxsize=512)
def _returns_of(code: str, entry: str) -> tuple[int, ...]:
    source = _source(code)
    if source is None:
        return ()
    for sub in ast.walk(source.tree):
        if isinstance(sub, ast.FunctionDef) and sub.name == entry:
            return tuple(sorted(r.lineno for r in ast.walk(sub) if isinstance(r, ast.Return)))
    return ()


def _anchor(seen: Seen) -> tuple[int, int, str | None]:
    a = seen.anchor
    if a is None:
        assert seen.probe is not None
        a = seen.probe.anchor
    return a.line, a.occurrence, a.variable


def _loop_iterable_argument(seen: Seen) -> str | None:
    """The argument a loop header iterates over directly (`for x in xs`, `range(len(xs))`)."""
    line, _, _ = _anchor(seen)
    stmt = _statement(seen, line)
    if not isinstance(stmt, ast.For):
        return None
    args = dict(_arguments(seen.code, seen.entry, seen.call))
    for sub in ast.walk(stmt.iter):
        if isinstance(sub, ast.Name) and sub.id in args:
            return args[sub.id]
    return None


def _len_first(seen: Seen) -> str:
    n = _length(first_argument(seen))
    return repr(n if n is not None else 0)


def _len_iterable(seen: Seen) -> str:
    text = _loop_iterable_argument(seen) or first_argument(seen)
    n = _length(text)
    return repr(n if n is not None else 0)


def _element_of(seen: Seen, name: str | None) -> str | None:
    """repr of the first element of the argument a `for` over `name` iterates, if any."""
    source = _source(seen.code)
    if source is None or name is None:
        return None
    args = dict(_arguments(seen.code, seen.entry, seen.call))
    for target, iterated in source.name_loops:
        if target == name and iterated in args:
            ok, value = _value(args[iterated])
            if ok and isinstance(value, str | list | tuple) and value:
                return repr(value[0])
    return None


def _state_default(seen: Seen) -> str:
    _, _, name = _anchor(seen)
    return (
        type_default(_first_literal(seen, name))
        or type_default(_argument_of(seen, name))
        or type_default(_element_of(seen, name))
        or "0"
    )


def _state_first_literal(seen: Seen) -> str:
    _, _, name = _anchor(seen)
    return _first_literal(seen, name) or _argument_of(seen, name) or "0"


def _state_argument(seen: Seen) -> str:
    _, _, name = _anchor(seen)
    return _argument_of(seen, name) or _first_literal(seen, name) or first_argument(seen)


def _bound(seen: Seen, node: ast.expr) -> int | None:
    """An int bound a test compares with: a literal, an argument, or `len` of an argument."""
    text = ast.get_source_segment(seen.code, node) or ""
    ok, value = _value(text)
    if ok and type(value) is int:
        return value
    if isinstance(node, ast.Name):
        ok, value = _value(_argument_of(seen, node.id) or "")
        return value if ok and type(value) is int else None
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "len"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Name)
    ):
        return _length(_argument_of(seen, node.args[0].id) or "")
    return None


def _exit_value(seen: Seen) -> str | None:
    """The value that makes a `while` test on the variable false (`while i != -1` -> -1,
    `while i < len(s)` -> len(s)), or the last item a `for` over an argument gives its
    target."""
    line, _, name = _anchor(seen)
    stmt = _statement(seen, line)
    if isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name) and stmt.target.id == name:
        for sub in ast.walk(stmt.iter):
            if isinstance(sub, ast.Name):
                ok, value = _value(_argument_of(seen, sub.id) or "")
                if ok and isinstance(value, str | list | tuple) and value:
                    return repr(value[-1])
        if isinstance(stmt.iter, ast.Call) and getattr(stmt.iter.func, "id", "") == "range":
            bounds = [_bound(seen, a) for a in stmt.iter.args]
            if bounds and all(b is not None for b in bounds) and len(bounds) <= 2:
                numbers = range(*[b for b in bounds if b is not None])
                return repr(numbers[-1]) if numbers else None
        return None
    if not isinstance(stmt, ast.While) or name is None:
        return None
    tests = stmt.test.values if isinstance(stmt.test, ast.BoolOp) else [stmt.test]
    for test in tests:
        if isinstance(test, ast.Name) and test.id == name:
            return type_default(_first_literal(seen, name) or _argument_of(seen, name))
        if not isinstance(test, ast.Compare) or len(test.ops) != 1:
            continue
        left, op, right = test.left, test.ops[0], test.comparators[0]
        if not (isinstance(left, ast.Name) and left.id == name):
            continue
        if isinstance(op, ast.NotEq | ast.IsNot):
            return ast.get_source_segment(seen.code, right)
        bound = _bound(seen, right)
        if bound is None:
            continue
        shift = {ast.Lt: 0, ast.LtE: 1, ast.Gt: 0, ast.GtE: -1}.get(type(op))
        if shift is not None:
            return repr(bound + shift)
    return None


def _exit_or_literal(seen: Seen) -> str:
    return _exit_value(seen) or _state_first_literal(seen)


def _return_guess(which: int) -> Callable[[Seen], str]:
    def rule(seen: Seen) -> str:
        found = _returns(seen)
        return repr(found[which]) if found else RETURN

    return rule


def _enclosing_header(seen: Seen) -> str:
    """The header of the innermost loop around the line (the jump back), else the next line."""
    line = _anchor(seen)[0]
    source = _source(seen.code)
    spans = source.loop_spans if source is not None else []
    best = max((first for first, last in spans if first < line <= last), default=None)
    return repr(best) if best is not None else _next_nonblank(seen, line)


def _constant(text: str) -> Callable[[Seen], str]:
    return lambda seen: text


Rule = Callable[[Seen], str]
"""A blind guess: the answer text from what a reader sees."""

BOOL: dict[str, Rule] = {"True": _constant("True"), "False": _constant("False")}
COMMON: dict[str, Rule] = {t: _constant(t) for t in ("0", "1", "2", "True", "False", "None")}
"""The values a variable most often holds."""
STATE: dict[str, Rule] = {
    "type default": _state_default,
    "first literal or argument": _state_first_literal,
    "argument or first literal": _state_argument,
    **COMMON,
}
LOOP_EXIT: dict[str, Rule] = {
    **STATE,
    "value ending the loop, else first literal": _exit_or_literal,
}
NEXT_LINE: dict[str, Rule] = {
    "next non-blank line": lambda s: _next_nonblank(s, _anchor(s)[0]),
    "line after the block": lambda s: _after_block(s, _anchor(s)[0]),
    "return": _constant(RETURN),
    "header of the enclosing loop": _enclosing_header,
}
CALL_RETURN: dict[str, Rule] = {"first argument": first_argument, **COMMON}
SMALL: dict[str, Rule] = {str(n): _constant(str(n)) for n in range(6)}
LOOP_ITERATIONS: dict[str, Rule] = {
    "len of the first argument": _len_first,
    "len of the iterated argument": _len_iterable,
    **SMALL,
}
RUN_COUNT: dict[str, Rule] = {
    "len of the first argument": _len_first,
    "len of the iterated argument (+1 for a header)": lambda s: repr(
        int(_len_iterable(s)) + (1 if _line_text(s, _anchor(s)[0]).startswith("for ") else 0)
    ),
    **SMALL,
}
CHANGE_COUNT: dict[str, Rule] = {"len of the first argument": _len_first, **SMALL}
FIRST_TRUE: dict[str, Rule] = {str(n): _constant(str(n)) for n in range(2, 6)}
RETURN_LINE: dict[str, Rule] = {"last return": _return_guess(-1), "first return": _return_guess(0)}
FULL_TRACE: dict[str, Rule] = {"empty": _constant("[]")}


@lru_cache(maxsize=1024)
def call_name(call: str) -> str:
    """The name of the function a call expression calls (`f(1, 2)` -> "f"), or ""."""
    try:
        node = ast.parse(call, mode="eval").body
    except SyntaxError:
        return ""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id
    return ""


def guesses_of(rules: dict[str, Rule] | None, seen: Seen) -> list[str]:
    """Every answer the rules give (a rule that fails gives none)."""
    out: list[str] = []
    for rule in (rules or {}).values():
        try:
            out.append(rule(seen))
        except Exception:
            continue  # hostile code: the rule just gives no guess
    return out

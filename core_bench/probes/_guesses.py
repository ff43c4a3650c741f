"""Code-blind guesses: cheap rules that answer from the code text and the call, never run.

Each probe kind's registry row (in its `_kind_<name>` module) lists its candidate rules
(`guesses`) and the one `ref:blind` uses (`blind`, the best of them on the bundled build as
`bench/blind_rules.py` prints it).
A rule sees the code, the call, the probe's kind and anchor (line, occurrence, variable),
never an answer or a trace. This module holds what rules of several kinds share; a kind's
own rules are in its module. Selection also reads them: a candidate probe whose answer one of
its kind's rules gives is kept only with the kind's `keep_guessed` probability
(`core_bench.probes.probes_for_call`), so a cheap guess is rarely right.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from keyword import iskeyword

from core_bench.probes._calls import read_call
from core_bench.probes._parsed import parsed, segment
from core_bench.schemas import Anchor, Probe

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
    """What a blind rule may look at.

    Attributes:
        code: the code's source text.
        entry: the name of the function the call calls.
        call: the call expression.
        probe: the probe asked (its kind and anchor, never its answer), or None.
        anchor: the anchor asked about, when there is no probe record.
    """

    code: str
    entry: str
    call: str
    probe: Probe | None = None
    anchor: Anchor | None = None


Rule = Callable[[Seen], str]
"""A blind guess: the answer text from what a reader sees."""


@dataclass(frozen=True, slots=True)
class Source:
    """A parsed module, its lines, and the indexes the rules look things up in (selection asks
    the rules about every candidate of a call, so each walk of the tree is done once per code).

    Attributes:
        tree: the module.
        lines: its source lines.
        statements: line -> the first statement starting there, in `ast.walk` order.
        first_literals: name -> source of the first literal assigned to it (`name = <literal>`,
            lowest line; the smallest text among those on one line).
        name_loops: (target, iterable) names of every `for <name> in <name>` loop, in
            `ast.walk` order.
        loop_spans: (first line, last line) of every `for` and `while` loop.
        functions: name -> the first `def` of that name in `ast.walk` order.
        built: name -> the empty value of the type its first assignment (`name = <expr>`,
            lowest line) builds, where that is a container or string builder (`_empty_of`).
        copies: name -> the name its first assignment copies (`name = list(xs)`, `xs[:]`,
            `xs.copy()`, `tuple(xs)`, `xs`).
    """

    tree: ast.Module
    lines: list[str]
    statements: dict[int, ast.stmt]
    first_literals: dict[str, str]
    name_loops: list[tuple[str, str]]
    loop_spans: list[tuple[int, int]]
    functions: dict[str, ast.FunctionDef]
    built: dict[str, str]
    copies: dict[str, str]


@lru_cache(maxsize=512)
def source(code: str) -> Source | None:
    """The parsed code with its indexes (cached), or None when it does not parse."""
    try:
        tree = parsed(code)
    except SyntaxError:
        return None
    statements: dict[int, ast.stmt] = {}
    literals: dict[str, list[tuple[int, str]]] = {}
    name_loops: list[tuple[str, str]] = []
    spans: list[tuple[int, int]] = []
    functions: dict[str, ast.FunctionDef] = {}
    assigned: dict[str, tuple[int, str | None, str | None]] = {}
    for sub in ast.walk(tree):
        if not isinstance(sub, ast.stmt):
            continue
        statements.setdefault(sub.lineno, sub)
        if isinstance(sub, ast.FunctionDef):
            functions.setdefault(sub.name, sub)
        if isinstance(sub, ast.For | ast.While):
            spans.append((sub.lineno, sub.end_lineno or 0))
        if isinstance(sub, ast.Assign):
            names = {t.id for t in sub.targets if isinstance(t, ast.Name)}
            if not names:
                continue
            for name in names:
                if name not in assigned or sub.lineno < assigned[name][0]:
                    assigned[name] = (sub.lineno, _empty_of(sub.value), _copied(sub.value))
            text = segment(code, sub.value) or ""
            if parse(text)[0]:
                for name in names:
                    literals.setdefault(name, []).append((sub.lineno, text))
        elif (
            isinstance(sub, ast.For)
            and isinstance(sub.target, ast.Name)
            and isinstance(sub.iter, ast.Name)
        ):
            name_loops.append((sub.target.id, sub.iter.id))
    first = {name: min(found)[1] for name, found in literals.items()}
    built = {name: empty for name, (_, empty, _) in assigned.items() if empty is not None}
    copies = {name: copied for name, (*_, copied) in assigned.items() if copied is not None}
    return Source(
        tree, code.splitlines(), statements, first, name_loops, spans, functions, built, copies
    )


def _copied(node: ast.expr) -> str | None:
    """The name an expression copies or aliases: `xs`, `list(xs)`, `tuple(xs)`, `xs[:]`,
    `xs.copy()`; else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call) and not node.keywords:
        func = node.func
        if isinstance(func, ast.Name) and func.id in ("list", "tuple") and len(node.args) == 1:
            return _copied_name(node.args[0])
        if isinstance(func, ast.Attribute) and func.attr == "copy" and not node.args:
            return _copied_name(func.value)
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Slice)
        and node.slice.lower is node.slice.upper is node.slice.step is None
    ):
        return _copied_name(node.value)
    return None


def _copied_name(node: ast.expr) -> str | None:
    return node.id if isinstance(node, ast.Name) else None


@lru_cache(maxsize=2048)
def _arguments(code: str, entry: str, call: str) -> tuple[tuple[str, str], ...]:
    """(parameter, argument source) pairs of the call, in parameter order where known."""
    read = read_call(call)
    if read is None:
        return ()
    positional = [a.text for a in read.args if a.keyword is None and not a.text.startswith("**")]
    params: list[str] = []
    parsed = source(code)
    function = parsed.functions.get(entry) if parsed is not None else None
    if function is not None:
        params = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
    pairs = [(params[i] if i < len(params) else f"_{i}", t) for i, t in enumerate(positional)]
    pairs.extend((a.keyword, a.text) for a in read.args if a.keyword is not None)
    return tuple(pairs)


@lru_cache(maxsize=4096)
def parse(text: str) -> tuple[bool, object]:
    """(True, value) when `text` is a literal, else (False, None) (cached: never mutate the
    value)."""
    try:
        return True, ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


def type_default(text: str | None) -> str | None:
    """The default value of a literal's type (`0`, `''`, `[]`, ...), or None."""
    if text is None:
        return None
    ok, value = parse(text)
    return _DEFAULTS.get(type(value)) if ok else None


def first_argument(seen: Seen) -> str:
    """The call's first argument."""
    args = _arguments(seen.code, seen.entry, seen.call)
    return args[0][1] if args else "None"


def length(text: str) -> int | None:
    """The length of a literal (an int literal is its own length), or None."""
    ok, value = parse(text)
    try:
        return len(value) if ok else None  # type: ignore[arg-type]
    except TypeError:
        return value if isinstance(value, int) and not isinstance(value, bool) else None


def first_literal(seen: Seen, name: str | None) -> str | None:
    """Source of the first literal assigned to `name` in the code."""
    parsed = source(seen.code)
    if parsed is None or name is None:
        return None
    return parsed.first_literals.get(name)


def argument_of(seen: Seen, name: str | None) -> str | None:
    """Source of the call's argument for the parameter `name`, or None."""
    return dict(_arguments(seen.code, seen.entry, seen.call)).get(name or "")


def copied_argument(seen: Seen, name: str | None) -> str | None:
    """Source of the call's argument that `name` first holds a copy of (`items = list(xs)`,
    `xs` the parameter the call gives), or None."""
    parsed = source(seen.code)
    if parsed is None or name is None or name not in parsed.copies:
        return None
    return argument_of(seen, parsed.copies[name])


def line_text(seen: Seen, line: int) -> str:
    """The stripped source of `line` ("" outside the code)."""
    parsed = source(seen.code)
    if parsed is None or not 1 <= line <= len(parsed.lines):
        return ""
    return parsed.lines[line - 1].strip()


def statement(seen: Seen, line: int) -> ast.stmt | None:
    """The first statement starting on `line`, or None."""
    parsed = source(seen.code)
    if parsed is None:
        return None
    return parsed.statements.get(line)


def anchor_of(seen: Seen) -> tuple[int, int, str | None]:
    """(line, occurrence, variable) of the anchor asked about."""
    a = seen.anchor
    if a is None:
        assert seen.probe is not None
        a = seen.probe.anchor
    return a.line, a.occurrence, a.variable


@lru_cache(maxsize=4096)
def _iterated_names(code: str, line: int) -> tuple[str, ...] | None:
    """The names in what the loop header on `line` iterates over (`for x in xs`,
    `range(len(xs))`) or in the first `len(...)` of a `while` test, in `ast.walk` order; None
    when the line heads no such loop (kept per code and line: every call of a variant asks)."""
    parsed = source(code)
    stmt = parsed.statements.get(line) if parsed is not None else None
    if isinstance(stmt, ast.For):
        scanned: ast.expr = stmt.iter
    elif isinstance(stmt, ast.While):
        lengths = [
            sub.args[0]
            for sub in ast.walk(stmt.test)
            if isinstance(sub, ast.Call)
            and isinstance(sub.func, ast.Name)
            and sub.func.id == "len"
            and len(sub.args) == 1
        ]
        if not lengths:
            return None
        scanned = lengths[0]
    else:
        return None
    return tuple(sub.id for sub in ast.walk(scanned) if isinstance(sub, ast.Name))


def _loop_iterable_argument(seen: Seen) -> str | None:
    """The argument a loop header iterates over directly (`for x in xs`, `range(len(xs))`),
    or whose length bounds a `while` loop's test (`while i < len(xs)`, an index loop)."""
    line, _, _ = anchor_of(seen)
    names = _iterated_names(seen.code, line)
    if names is None:
        return None
    args = dict(_arguments(seen.code, seen.entry, seen.call))
    for name in names:
        if name in args:
            return args[name]
    return None


def len_first(seen: Seen) -> str:
    """The length of the first argument (0 when it has none)."""
    n = length(first_argument(seen))
    return repr(n if n is not None else 0)


def len_iterable(seen: Seen) -> str:
    """The length of the argument the anchored loop iterates, else of the first argument."""
    text = _loop_iterable_argument(seen) or first_argument(seen)
    n = length(text)
    return repr(n if n is not None else 0)


def _element_of(seen: Seen, name: str | None) -> str | None:
    """repr of the first element of the argument a `for` over `name` iterates, if any."""
    parsed = source(seen.code)
    if parsed is None or name is None:
        return None
    args = dict(_arguments(seen.code, seen.entry, seen.call))
    for target, iterated in parsed.name_loops:
        if target == name and iterated in args:
            ok, value = parse(args[iterated])
            if ok and isinstance(value, str | list | tuple) and value:
                return repr(value[0])
    return None


def _state_default(seen: Seen) -> str:
    _, _, name = anchor_of(seen)
    return (
        type_default(first_literal(seen, name))
        or type_default(argument_of(seen, name))
        or type_default(_element_of(seen, name))
        or "0"
    )


_BUILDERS = {
    "list": "[]",
    "sorted": "[]",
    "set": "set()",
    "frozenset": "frozenset()",
    "dict": "{}",
    "tuple": "()",
    "str": "''",
}
_COMPREHENSIONS = {ast.ListComp: "[]", ast.SetComp: "set()", ast.DictComp: "{}"}


def _empty_of(node: ast.expr) -> str | None:
    """The empty value of the type an expression builds: `set(...)` -> `set()`, a list
    comprehension -> `[]`, `''.join(...)` -> `''`; None for any other expression."""
    built = _COMPREHENSIONS.get(type(node))
    if built is not None:
        return built
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if isinstance(func, ast.Name):
        return _BUILDERS.get(func.id)
    if (
        isinstance(func, ast.Attribute)
        and func.attr == "join"
        and isinstance(func.value, ast.Constant)
        and isinstance(func.value.value, str)
    ):
        return "''"
    return None


def empty_of_built_type(seen: Seen) -> str:
    """The empty value of the type the anchor's variable is built as (`[]` for
    `xs = [c for c in s[i:j]]`, `set()` for `seen = set(s[k:])`): a container built from an
    empty input (an empty argument, an empty slice) is empty, which needs no execution.
    Read off the anchor line where it assigns the variable, else its first such assignment;
    the variable's type default where neither builds one."""
    line, _, name = anchor_of(seen)
    stmt = statement(seen, line)
    if (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and stmt.targets[0].id == name
    ):
        found = _empty_of(stmt.value)
    else:
        parsed = source(seen.code)
        found = parsed.built.get(name or "") if parsed is not None else None
    return found or _state_default(seen)


def first_literal_or_argument(seen: Seen) -> str:
    """The first literal assigned to the anchor's variable, else its argument, else 0."""
    _, _, name = anchor_of(seen)
    return first_literal(seen, name) or argument_of(seen, name) or "0"


def _state_argument(seen: Seen) -> str:
    _, _, name = anchor_of(seen)
    return argument_of(seen, name) or first_literal(seen, name) or first_argument(seen)


def constant(text: str) -> Rule:
    """The rule that always guesses `text`."""
    return lambda seen: text


BOOL: dict[str, Rule] = {"True": constant("True"), "False": constant("False")}
COMMON: dict[str, Rule] = {t: constant(t) for t in ("0", "1", "2", "True", "False", "None")}
"""The values a variable most often holds."""
VALUE: dict[str, Rule] = {
    "type default": _state_default,
    "empty of the built type": empty_of_built_type,
    "first literal or argument": first_literal_or_argument,
    "argument or first literal": _state_argument,
    **COMMON,
}
"""Guesses of a variable's value."""
SMALL: dict[str, Rule] = {str(n): constant(str(n)) for n in range(6)}
COUNT: dict[str, Rule] = {"len of the first argument": len_first, **SMALL}
"""Guesses of a count."""


@lru_cache(maxsize=1024)
def call_name(call: str) -> str:
    """The name of the function a call expression calls (`f(1, 2)` -> "f"), or ""."""
    read = read_call(call)
    if read is None or not read.func.isidentifier() or iskeyword(read.func):
        return ""
    return read.func


def guesses_of(rules: dict[str, Rule] | None, seen: Seen) -> list[str]:
    """Every answer the rules give (a rule that fails gives none)."""
    out: list[str] = []
    for rule in (rules or {}).values():
        try:
            out.append(rule(seen))
        except Exception:
            continue  # hostile code: the rule just gives no guess
    return out

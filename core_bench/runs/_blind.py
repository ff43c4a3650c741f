"""Code-blind answers: the best cheap rules that read the code text and the call, never run.

`ref:blind` is the floor every report shows: what a reader gets without executing anything.
For each task kind and probe kind, several cheap rules are candidates (`CANDIDATES`); the
agent answers with the one that scored best on a default CRUXEval build (`BEST`; the per-rule
accuracies are printed by `bench/blind_rules.py`). A rule sees the code, the call, the probe's
kind and anchor (line, occurrence, variable), never an answer or a trace.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from core_bench.schemas import Probe

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


@dataclass(frozen=True, slots=True)
class _Source:
    tree: ast.Module
    lines: list[str]


@lru_cache(maxsize=512)
def _source(code: str) -> _Source | None:
    try:
        return _Source(ast.parse(code), code.splitlines())
    except SyntaxError:
        return None


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


def _value(text: str) -> tuple[bool, object]:
    try:
        return True, ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


def _default_of(text: str | None) -> str | None:
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
    found: list[tuple[int, str]] = []
    for sub in ast.walk(source.tree):
        if isinstance(sub, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in sub.targets
        ):
            ok, _ = _value(ast.get_source_segment(seen.code, sub.value) or "")
            if ok:
                found.append((sub.lineno, ast.get_source_segment(seen.code, sub.value) or ""))
    return min(found)[1] if found else None


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
    found = [s for s in ast.walk(source.tree) if isinstance(s, ast.stmt) and s.lineno == line]
    return found[0] if found else None


def _after_block(seen: Seen, line: int) -> str:
    """The line after the whole statement on `line` (its body skipped)."""
    stmt = _statement(seen, line)
    if stmt is None:
        return _next_nonblank(seen, line)
    return _next_nonblank(seen, stmt.end_lineno or line)


def _returns(seen: Seen) -> list[int]:
    source = _source(seen.code)
    if source is None:
        return []
    for sub in ast.walk(source.tree):
        if isinstance(sub, ast.FunctionDef) and sub.name == seen.entry:
            return sorted(r.lineno for r in ast.walk(sub) if isinstance(r, ast.Return))
    return []


def _anchor(seen: Seen) -> tuple[int, int, str | None]:
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
    for sub in ast.walk(source.tree):
        if (
            isinstance(sub, ast.For)
            and isinstance(sub.target, ast.Name)
            and sub.target.id == name
            and isinstance(sub.iter, ast.Name)
            and sub.iter.id in args
        ):
            ok, value = _value(args[sub.iter.id])
            if ok and isinstance(value, str | list | tuple) and value:
                return repr(value[0])
    return None


def _state_default(seen: Seen) -> str:
    _, _, name = _anchor(seen)
    return (
        _default_of(_first_literal(seen, name))
        or _default_of(_argument_of(seen, name))
        or _default_of(_element_of(seen, name))
        or "0"
    )


def _state_first_literal(seen: Seen) -> str:
    _, _, name = _anchor(seen)
    return _first_literal(seen, name) or _argument_of(seen, name) or "0"


def _state_argument(seen: Seen) -> str:
    _, _, name = _anchor(seen)
    return _argument_of(seen, name) or _first_literal(seen, name) or first_argument(seen)


Rule = Callable[[Seen], str]

CANDIDATES: dict[str, dict[str, Rule]] = {
    "output": {
        "first argument": first_argument,
        "type default of the first argument": lambda s: _default_of(first_argument(s)) or "None",
    },
    "coverage": {"True": lambda s: "True", "False": lambda s: "False"},
    "branch": {"True": lambda s: "True", "False": lambda s: "False"},
    "next_line": {
        "next non-blank line": lambda s: _next_nonblank(s, _anchor(s)[0]),
        "line after the block": lambda s: _after_block(s, _anchor(s)[0]),
        "return": lambda s: RETURN,
    },
    "state_after": {
        "type default": _state_default,
        "first literal or argument": _state_first_literal,
        "argument or first literal": _state_argument,
    },
    "loop_exit_state": {
        "type default": _state_default,
        "first literal or argument": _state_first_literal,
        "argument or first literal": _state_argument,
    },
    "call_return": {
        "first argument": first_argument,
        "0": lambda s: "0",
    },
    "loop_iterations": {
        "len of the first argument": _len_first,
        "len of the iterated argument": _len_iterable,
        "0": lambda s: "0",
        "1": lambda s: "1",
    },
    "run_count": {
        "len of the first argument": _len_first,
        "len of the iterated argument (+1 for a header)": lambda s: repr(
            int(_len_iterable(s)) + (1 if _line_text(s, _anchor(s)[0]).startswith("for ") else 0)
        ),
        "1": lambda s: "1",
        "2": lambda s: "2",
    },
    "change_count": {
        "len of the first argument": _len_first,
        "1": lambda s: "1",
        "2": lambda s: "2",
    },
    "first_true": {"1": lambda s: "1", "2": lambda s: "2"},
    "return_line": {
        "last return": lambda s: repr(_returns(s)[-1]) if _returns(s) else RETURN,
        "first return": lambda s: repr(_returns(s)[0]) if _returns(s) else RETURN,
    },
    "full_trace": {"empty": lambda s: "[]"},
}
"""Task kind ("output") or probe kind -> rule name -> rule."""

BEST: dict[str, str] = {
    "output": "first argument",
    "coverage": "True",
    "branch": "False",
    "next_line": "line after the block",
    "state_after": "argument or first literal",
    "loop_exit_state": "first literal or argument",
    "call_return": "0",
    "loop_iterations": "1",
    "run_count": "1",
    "change_count": "1",
    "first_true": "2",
    "return_line": "last return",
    "full_trace": "empty",
}
"""The rule `ref:blind` uses per kind: the best of `CANDIDATES` on a default CRUXEval build
(first 200 problems, seed 0), as `bench/blind_rules.py` printed it."""


def blind_answer(kind: str, seen: Seen) -> str:
    """The blind answer to a task: its kind's best rule (`output` for output tasks, the probe's
    kind for probes); "None" for a kind without rules."""
    rules = CANDIDATES.get(kind)
    if not rules:
        return "None"
    try:
        return rules[BEST[kind]](seen)
    except Exception:
        return "None"  # a rule never fails a run: hostile code gives a plain wrong answer

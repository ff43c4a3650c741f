#!/usr/bin/env python3
"""Recompute what is derived in ``data/bundled.jsonl`` from each row's ``code`` and ``calls``.

Every row of the bundled dataset stores its source, its call expressions, the reprs of the
values those calls return, and tags. Outputs are never typed by hand: this script runs each
call and writes its repr. Some tags are derived too (see `DERIVED_TAGS`): they say what the
code is made of (recursion, nested loops, helpers, ...) or what a call does (mutation of an
argument), so this script recomputes them; the topic tags (strings, dicts, ...) are written
by the author and kept as they are.

Usage::

    python data/refresh.py            # rewrite the file in canonical form
    python data/refresh.py --check    # only report differences; exit 1 on any

The rewritten file is deterministic: rows sorted by id, keys in the order of `KEYS`, one
``json.dumps(row, ensure_ascii=False)`` per line. The check is meant to pass under any
``PYTHONHASHSEED``: a row whose output depends on the iteration order of a set of strings
shows up as a difference under another seed.

The code runs in this process, with no sandbox: the dataset is the project's own. Each call
is traced with ``sys.settrace`` only to count executed lines and stop a call that runs away.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from tracer import Call, TraceError

DEFAULT_PATH = Path(__file__).resolve().with_name("bundled.jsonl")
KEYS = ("id", "code", "calls", "outputs", "tags")
ALLOWED_TAGS = (
    "strings",
    "lists",
    "dicts",
    "sets",
    "tuples",
    "arithmetic",
    "nested_loops",
    "while_early_exit",
    "recursion",
    "accumulation",
    "comprehension",
    "conditionals",
    "helpers",
    "mutation",
    "sorting",
    "boolean_logic",
)
# Tags that follow from the code (or, for "mutation", from running the calls); the rest are
# topics chosen by the author.
DERIVED_TAGS = frozenset(
    {"nested_loops", "while_early_exit", "recursion", "comprehension", "helpers", "mutation"}
)
MAX_LINE_EVENTS = 10_000
CODE_FILENAME = "<bundled>"

_ITERATION = (
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


class RowError(Exception):
    """A row that cannot be refreshed (bad call, exception, runaway loop, non-literal)."""


@dataclass(frozen=True)
class CallResult:
    """What one call did.

    Attributes:
        output: ``repr`` of the returned value (round-trips through ``ast.literal_eval``).
        line_events: lines of the dataset code executed during the call.
        mutated: True when an argument's repr changed during the call.
    """

    output: str
    line_events: int
    mutated: bool


def parse_call(call: str) -> tuple[str, list[Any], dict[str, Any]]:
    """Split a call expression such as ``"f([1, 2], k=3)"`` into name, args and kwargs.

    Raises:
        RowError: `call` is not a call of a plain name with literal arguments.
    """
    try:
        parsed = Call.read(call)
    except TraceError as exc:
        raise RowError(f"call {call!r}: {exc}") from exc
    if not parsed.func.isidentifier():
        raise RowError(f"call {call!r} is not a call of a function name")
    if any(a.text.startswith("*") for a in parsed.args):
        raise RowError(f"call {call!r} uses * or ** unpacking")
    if not all(a.literal for a in parsed.args):
        raise RowError(f"call {call!r} has an argument that is not a literal")
    args = [a.value for a in parsed.args if a.keyword is None]
    kwargs = {a.keyword: a.value for a in parsed.args if a.keyword is not None}
    return parsed.func, args, kwargs


def execute(code: str, call: str, *, max_line_events: int = MAX_LINE_EVENTS) -> CallResult:
    """Run `call` against a fresh module made from `code`.

    Args:
        code: Source of the row (defines the entry function and any helpers).
        call: Call expression with literal arguments, e.g. ``"f([3, 1], 2)"``.
        max_line_events: Stop the call once this many lines of `code` have run.

    Returns:
        The output repr, the number of line events and whether an argument was mutated.

    Raises:
        RowError: The call is malformed, raises, runs too long, or returns a value whose
            repr is not a Python literal equal to it.
    """
    name, args, kwargs = parse_call(call)
    namespace: dict[str, Any] = {"__name__": "bundled"}
    exec(compile(code, CODE_FILENAME, "exec"), namespace)
    func = namespace.get(name)
    if not callable(func):
        raise RowError(f"call {call!r}: the code defines no function {name!r}")
    before = repr((args, kwargs))
    events = 0

    def tracer(frame: FrameType, event: str, arg: object) -> Any:
        nonlocal events
        if frame.f_code.co_filename != CODE_FILENAME:
            return None
        if event == "line":
            events += 1
            if events > max_line_events:
                raise RowError(f"call {call!r} ran more than {max_line_events} lines")
        return tracer

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        value = func(*args, **kwargs)
    except RowError:
        raise
    except Exception as exc:  # the row is wrong, not this script: report it
        raise RowError(f"call {call!r} raised {type(exc).__name__}: {exc}") from exc
    finally:
        sys.settrace(previous)
    output = repr(value)
    try:
        same = ast.literal_eval(output) == value
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        same = False
    if not same:
        raise RowError(f"call {call!r} returned {output}, which is not a Python literal")
    return CallResult(output, events, repr((args, kwargs)) != before)


def _walk_local(node: ast.AST) -> Iterable[ast.AST]:
    """Nodes under `node` that run in its own function (nested ``def`` bodies excluded)."""
    stack = list(ast.iter_child_nodes(node))
    while stack:
        child = stack.pop()
        if isinstance(child, _FUNCTIONS):
            continue
        yield child
        stack.extend(ast.iter_child_nodes(child))


def _repeated_parts(node: ast.AST) -> list[ast.AST]:
    """The parts of an iteration construct that run once per iteration."""
    if isinstance(node, ast.For | ast.AsyncFor):
        return [*node.body, *node.orelse]
    if isinstance(node, ast.While):
        return [node.test, *node.body]
    if isinstance(node, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
        parts: list[ast.AST] = list(node.generators[0].ifs)
        for gen in node.generators[1:]:
            parts.extend([gen.target, gen.iter, *gen.ifs])
        if isinstance(node, ast.DictComp):
            return [*parts, node.key, node.value]
        return [*parts, node.elt]
    return []


def _has_nested_iteration(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if not isinstance(node, _ITERATION):
            continue
        comprehension = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
        if isinstance(node, comprehension) and len(node.generators) > 1:
            return True
        for part in _repeated_parts(node):
            if isinstance(part, _ITERATION):
                return True
            if any(isinstance(sub, _ITERATION) for sub in _walk_local(part)):
                return True
    return False


def _exits_while_early(loop: ast.While) -> bool:
    """A ``return`` anywhere in the body, or a ``break`` that belongs to this loop."""

    def leaves(node: ast.AST, in_inner_loop: bool) -> bool:
        if isinstance(node, ast.Return):
            return True
        if isinstance(node, ast.Break):
            return not in_inner_loop
        if isinstance(node, (*_FUNCTIONS, ast.Lambda)):
            return False
        if isinstance(node, ast.For | ast.AsyncFor | ast.While):
            # A break in an inner loop's body leaves that loop; one in its else clause
            # leaves the enclosing loop.
            head = [node.test] if isinstance(node, ast.While) else [node.iter]
            return any(leaves(n, in_inner_loop) for n in [*head, *node.orelse]) or any(
                leaves(n, True) for n in node.body
            )
        return any(leaves(child, in_inner_loop) for child in ast.iter_child_nodes(node))

    return any(leaves(stmt, False) for stmt in loop.body)


def _is_recursive(tree: ast.Module) -> bool:
    functions = [n for n in ast.walk(tree) if isinstance(n, _FUNCTIONS)]
    names = {fn.name for fn in functions}
    calls: dict[str, set[str]] = {name: set() for name in names}
    for fn in functions:
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                calls[fn.name].add(node.func.id)
    for start in names:
        seen: set[str] = set()
        todo = list(calls[start])
        while todo:
            name = todo.pop()
            if name == start:
                return True
            if name in calls and name not in seen:
                seen.add(name)
                todo.extend(calls[name])
    return False


def static_tags(code: str) -> set[str]:
    """The derived tags that follow from the source alone.

    - ``recursion``: a function of the module reaches itself through calls (direct or mutual).
    - ``nested_loops``: an iteration (``for``, ``while``, comprehension, generator expression)
      runs inside the repeated part of another one, or a comprehension has two ``for``s.
    - ``while_early_exit``: a ``while`` loop whose body can leave it by ``break`` or ``return``.
    - ``comprehension``: any comprehension or generator expression.
    - ``helpers``: more than one function is defined.
    """
    tree = ast.parse(code)
    tags: set[str] = set()
    if _is_recursive(tree):
        tags.add("recursion")
    if _has_nested_iteration(tree):
        tags.add("nested_loops")
    if any(isinstance(n, ast.While) and _exits_while_early(n) for n in ast.walk(tree)):
        tags.add("while_early_exit")
    comprehensions = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
    if any(isinstance(n, comprehensions) for n in ast.walk(tree)):
        tags.add("comprehension")
    if sum(isinstance(n, _FUNCTIONS) for n in ast.walk(tree)) > 1:
        tags.add("helpers")
    return tags


def order_tags(tags: Iterable[str]) -> list[str]:
    """Tags without duplicates, in the order of `ALLOWED_TAGS` (unknown tags last, sorted)."""
    unique = set(tags)
    known = [t for t in ALLOWED_TAGS if t in unique]
    return known + sorted(unique - set(ALLOWED_TAGS))


def refresh_row(row: dict[str, Any], *, max_line_events: int = MAX_LINE_EVENTS) -> dict[str, Any]:
    """A copy of `row` with outputs and derived tags recomputed, keys in `KEYS` order.

    Raises:
        RowError: A call cannot be run (see `execute`) or the code does not parse.
    """
    code = row["code"]
    try:
        tags = static_tags(code)
    except SyntaxError as exc:
        raise RowError(f"code does not parse: {exc.msg} (line {exc.lineno})") from exc
    results = [execute(code, call, max_line_events=max_line_events) for call in row["calls"]]
    if any(r.mutated for r in results):
        tags.add("mutation")
    authored = {t for t in row["tags"] if t not in DERIVED_TAGS}
    return {
        "id": row["id"],
        "code": code,
        "calls": list(row["calls"]),
        "outputs": [r.output for r in results],
        "tags": order_tags(authored | tags),
    }


def load_rows(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """Read a dataset file; return its rows and the problems found, each naming file:line."""
    rows: list[dict[str, Any]] = []
    problems: list[str] = []
    seen: dict[str, int] = {}
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{lineno}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(f"{where}: not JSON: {exc.msg}")
            continue
        if not isinstance(row, dict) or set(row) != set(KEYS):
            got = sorted(row) if isinstance(row, dict) else type(row).__name__
            problems.append(f"{where}: expected the keys {list(KEYS)}, got {got}")
            continue
        if not isinstance(row["calls"], list) or not all(isinstance(c, str) for c in row["calls"]):
            problems.append(f"{where} ({row['id']}): calls must be a list of strings")
            continue
        if row["id"] in seen:
            problems.append(f"{where}: id {row['id']!r} already used on line {seen[row['id']]}")
            continue
        seen[row["id"]] = lineno
        rows.append(row)
    return rows, problems


def dump_rows(rows: Sequence[dict[str, Any]]) -> str:
    """The canonical text of a dataset: rows sorted by id, keys in `KEYS` order."""
    ordered = sorted(rows, key=lambda r: r["id"])
    return "".join(
        json.dumps({k: row[k] for k in KEYS}, ensure_ascii=False) + "\n" for row in ordered
    )


def _differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    out: list[str] = []
    stored, computed = old.get("outputs", []), new["outputs"]
    for i, call in enumerate(new["calls"]):
        before = stored[i] if i < len(stored) else "<missing>"
        if before != computed[i]:
            out.append(f"{new['id']}: {call}: stored {before}, computed {computed[i]}")
    if len(stored) > len(computed):
        out.append(f"{new['id']}: {len(stored) - len(computed)} output(s) without a call")
    if old.get("tags") != new["tags"]:
        out.append(f"{new['id']}: tags {old.get('tags')} should be {new['tags']}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="report differences, write nothing")
    parser.add_argument("--path", type=Path, default=DEFAULT_PATH, help="dataset file")
    parser.add_argument(
        "--max-line-events",
        type=int,
        default=MAX_LINE_EVENTS,
        help=f"stop a call after this many executed lines (default {MAX_LINE_EVENTS})",
    )
    args = parser.parse_args(argv)
    path: Path = args.path
    if not path.is_file():
        print(f"{path}: no such file", file=sys.stderr)
        return 2
    rows, problems = load_rows(path)
    refreshed: list[dict[str, Any]] = []
    diffs: list[str] = []
    for row in rows:
        try:
            new = refresh_row(row, max_line_events=args.max_line_events)
        except RowError as exc:
            problems.append(f"{path} ({row['id']}): {exc}")
            continue
        refreshed.append(new)
        diffs.extend(_differences(row, new))
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"{len(problems)} problem(s); nothing written", file=sys.stderr)
        return 1
    text = dump_rows(refreshed)
    current = path.read_text(encoding="utf-8")
    if args.check:
        for diff in diffs:
            print(diff)
        if text != current and not diffs:
            print(f"{path}: not in canonical form (row order, key order or layout)")
        if text != current:
            return 1
        print(f"{path}: {len(refreshed)} rows, all outputs and derived tags up to date")
        return 0
    if text != current:
        path.write_text(text, encoding="utf-8")
    print(f"{path}: {len(refreshed)} rows, {len(diffs)} difference(s) fixed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

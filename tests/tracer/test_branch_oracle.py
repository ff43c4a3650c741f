"""Branch outcomes the tracer records, re-derived by evaluating the condition in the live frame.

The oracle is a second, independent `sys.settrace` hook (run separately from the tracer, on the
same code and call). At each line event of a line whose condition is evaluated before anything
else on the line can change its inputs, it evaluates the condition's source with the frame's
globals and locals, and keeps `bool(value)`. It does so only where that cannot change anything:
every name in the statement holds a builtin value, every call is to a builtin function or method
that changes nothing, and there is no assignment expression, `yield`, lambda or comprehension
around the condition. Line events of the oracle and of the tracer are matched by position in
the run (both see the same events of the same code).
"""

from __future__ import annotations

import ast
import builtins
import json
import os
import sys
import textwrap
import types
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from test_branches import CASES

from tracer import trace

CRUXEVAL = os.environ.get("CORE_BENCH_CRUXEVAL")
BUNDLED = Path(__file__).resolve().parents[2] / "data" / "bundled.jsonl"
FILENAME = "<branch-oracle>"

PURE_FUNCTIONS = frozenset(
    "abs all any bool chr dict divmod enumerate float frozenset int isinstance len list max min "
    "ord range repr reversed round set sorted str sum tuple type zip".split()
)
PURE_METHODS = frozenset(
    "count endswith find get index isalnum isalpha isdecimal isdigit islower isnumeric isspace "
    "istitle isupper items keys lower lstrip replace rfind rindex rstrip split startswith strip "
    "swapcase title upper values".split()
)
BUILTIN_VALUES = (
    int,
    float,
    complex,
    str,
    bytes,
    bool,
    type(None),
    list,
    tuple,
    dict,
    set,
    frozenset,
    range,
    types.BuiltinFunctionType,
    type,
)
SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def pure(node: ast.AST) -> bool:
    """No call but to a known pure builtin, no binding, no yield."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.NamedExpr | ast.Yield | ast.YieldFrom | ast.Await | ast.Lambda):
            return False
        if isinstance(sub, ast.Call):
            func = sub.func
            if isinstance(func, ast.Name) and func.id in PURE_FUNCTIONS:
                continue
            if isinstance(func, ast.Attribute) and func.attr in PURE_METHODS:
                continue
            return False
    return True


def checkable_conditions(code: str) -> dict[int, ast.expr]:
    """line -> condition test that the oracle may evaluate at that line's line events."""
    tree = ast.parse(code)
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    starts: dict[int, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            starts[node.lineno] = starts.get(node.lineno, 0) + 1
    found: dict[int, ast.expr] = {}
    statement_lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert):
            line = node.test.lineno
            statement_lines.add(line)
            if node.lineno == line and starts.get(line) == 1 and pure(node.test):
                found[line] = node.test
        if isinstance(node, ast.If | ast.While):
            line = node.test.lineno
            statement_lines.add(line)
            same_line_loop = isinstance(node, ast.While) and node.body[0].lineno == line
            if not same_line_loop and pure(node.test):
                found[line] = node.test
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt) or isinstance(node, ast.If | ast.While):
            continue
        if not isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Return | ast.Expr):
            continue
        line = node.lineno
        if line in statement_lines or starts.get(line) != 1:
            continue
        parent = parents.get(node)
        if isinstance(parent, ast.stmt) and not isinstance(parent, ast.FunctionDef):
            header_end = getattr(parent, "test", None) or getattr(parent, "iter", None)
            if header_end is not None and header_end.end_lineno == line:
                continue  # a body on its header's line runs after the header's work
        ifexps = [n for n in ast.walk(node) if isinstance(n, ast.IfExp)]
        if len(ifexps) != 1 or not pure(node) or ifexps[0].lineno != line:
            continue
        nested = any(isinstance(n, SCOPES) for n in ast.walk(node))
        if not nested:
            found[line] = ifexps[0].test
    return found


def builtin_only(expr: ast.expr, scope: dict[str, Any]) -> bool:
    for sub in ast.walk(expr):
        if isinstance(sub, ast.Name):
            if sub.id not in scope:
                return False
            if not isinstance(scope[sub.id], BUILTIN_VALUES):
                return False
    return True


def oracle_outcomes(code: str, call: str) -> list[tuple[int, bool | None]]:
    """(line, outcome or None) for every line event of the traced code, in order."""
    tests = {
        line: (expr, compile(ast.Expression(expr), FILENAME, "eval"))
        for line, expr in checkable_conditions(code).items()
    }
    events: list[tuple[int, bool | None]] = []

    def local(frame: types.FrameType, event: str, arg: Any) -> Any:
        if event != "line":
            return local
        line = frame.f_lineno
        outcome = None
        if line in tests:
            expr, compiled = tests[line]
            scope = {**vars(builtins), **frame.f_globals, **frame.f_locals}
            if builtin_only(expr, scope):
                try:
                    outcome = bool(eval(compiled, scope))
                except Exception:
                    outcome = None
        events.append((line, outcome))
        return local

    def global_(frame: types.FrameType, event: str, arg: Any) -> Any:
        return local if frame.f_code.co_filename == FILENAME else None

    namespace: dict[str, Any] = {"__name__": "__oracle__"}
    exec(compile(code, FILENAME, "exec"), namespace)
    node = ast.parse(call, mode="eval").body
    assert isinstance(node, ast.Call)
    func = eval(compile(ast.Expression(node.func), FILENAME + "call", "eval"), namespace)
    args = [eval(compile(ast.Expression(a), "<a>", "eval"), namespace) for a in node.args]
    sys.settrace(global_)
    try:
        func(*args)
    except Exception:
        pass
    finally:
        sys.settrace(None)
    return events


@dataclass
class Tally:
    checked: int = 0
    missing: int = 0  # the oracle knows, the tracer says None
    unchecked: int = 0  # the tracer records an outcome the oracle cannot evaluate
    wrong: list[tuple[str, int, int, bool | None, bool]] = field(default_factory=list)
    skipped_calls: list[str] = field(default_factory=list)


def compare(name: str, code: str, call: str, tally: Tally) -> None:
    t = trace(code, call, max_steps=100_000)
    if t.truncated:
        tally.skipped_calls.append(name)
        return
    recorded = [(s.line, s.branch) for s in t.steps if s.event == "line"]
    derived = oracle_outcomes(code, call)
    if [line for line, _ in recorded] != [line for line, _ in derived]:
        tally.skipped_calls.append(name)  # the two runs took different paths
        return
    for index, ((line, got), (_, expected)) in enumerate(zip(recorded, derived, strict=True)):
        if expected is None:
            tally.unchecked += got is not None
            continue
        if got is None:
            tally.missing += 1
            continue
        tally.checked += 1
        if got != expected:
            tally.wrong.append((name, index, line, got, expected))


def cruxeval_rows() -> Iterator[dict[str, Any]]:
    for line in Path(str(CRUXEVAL)).read_text().splitlines():
        if line:
            yield json.loads(line)


def test_oracle_agrees_on_the_hand_written_cases() -> None:
    tally = Tally()
    for name, (code, call, *_rest) in CASES.items():
        compare(name, textwrap.dedent(code).lstrip("\n"), call, tally)
    assert tally.wrong == [] and tally.skipped_calls == []
    assert tally.checked >= 20


def test_every_branch_outcome_of_the_bundled_problems_matches_the_live_frame() -> None:
    tally = Tally()
    rows = [json.loads(line) for line in BUNDLED.read_text().splitlines() if line]
    calls = [(row["id"], row["code"], call) for row in rows for call in row["calls"]]
    for name, code, call in calls:
        compare(f"{name} {call}", code, call, tally)
    print(
        f"\nbranch oracle on {len(calls)} bundled calls: {tally.checked} outcomes checked, "
        f"{len(tally.wrong)} wrong, {tally.missing} where the tracer records None, "
        f"{tally.unchecked} recorded but not checkable"
    )
    assert tally.wrong == [] and tally.skipped_calls == []
    assert tally.checked > 3000


@pytest.mark.slow
@pytest.mark.skipif(not CRUXEVAL, reason="CORE_BENCH_CRUXEVAL is not set")
def test_every_branch_outcome_of_cruxeval_matches_the_live_frame() -> None:
    tally = Tally()
    rows = list(cruxeval_rows())
    assert len(rows) == 800
    for row in rows:
        compare(row["id"], row["code"], f"f({row['input']})", tally)
    print(
        f"\nbranch oracle on {len(rows)} CRUXEval calls: {tally.checked} outcomes checked, "
        f"{len(tally.wrong)} wrong, {tally.missing} where the tracer records None, "
        f"{tally.unchecked} recorded but not checkable, {len(tally.skipped_calls)} calls skipped"
    )
    assert tally.wrong == []
    assert tally.skipped_calls == []
    assert tally.checked > 1000

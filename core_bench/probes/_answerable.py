"""Static answerability: which probe answers can be told from the code text alone.

A probe measures reasoning about execution only if its answer cannot be derived without
running the code. This module derives, from the syntax of the traced module alone, the answer
a reader would give without executing anything, wherever a cheap and sound rule gives one; a
probe whose recorded answer equals that derived answer is dropped before selection. A rule that
derives a wrong answer (an exception cut the straight-line code short, say) keeps the probe: it
is then a real question.

The rules, per kind (each kind's registry row in `_registry` names its rule):

- coverage: "True" for a statement that always runs when its function runs: a statement of the
  function body's top level (or of a `with` body that always runs) with no earlier sibling that
  can leave the function (`return`, `raise`, `assert`, or a `while` loop with a constant-true
  test). "False" for dead code: a statement after a `return`, `raise`, `break` or `continue` in
  the same block.
- next_line: for a simple statement (not a loop or `if` header, not inside `try` or at the end
  of a `with` body), the line that follows it in the control-flow graph: the next statement of
  its block, else the loop header for the last statement of a loop body, else what follows the
  enclosing `if`, else "'return'" at the end of the function. `continue` gives its loop header
  and `break` what follows its loop.
- state_after: the value of a name assigned a literal (`x = []`, `a, b = 0, ''`, `s = str()`),
  and the value of a `for` target over a literal sequence (`for c in 'abc'`) at the k-th run of
  a header that runs in one entry per call (a loop at the top level of its function), the
  run that ends the loop leaving the last element.
- loop_iterations: the length of a literal iterable of a `for` loop whose body cannot leave it
  early (no `break`, `return` or `raise`).
- loop_exit_state: the last element of a literal iterable, for the loop's own target, same loop.
- branch: the outcome of a test made of literals only (`if 'a' in 'abc':`).
- run_count: a line that always runs, outside any loop, in a function called once: 1; a line
  directly in the body of a top-level `for` loop over a literal that cannot be left early:
  its length (and length + 1 for the header).
- return_line: a `return` statement that always runs (see coverage).
- call_return: a function whose first statement is `return` of a literal.
- first_true, change_count, full_trace: no static rule.
"""

from __future__ import annotations

import ast
import operator
from dataclasses import dataclass, field
from functools import lru_cache

from core_bench.probes._context import literal

RETURN = "'return'"


def same_value(a: str, b: str) -> bool:
    """Whether two reprs denote equal values of the same type."""
    if a == b:
        return True
    ok_a, value_a = literal(a)
    ok_b, value_b = literal(b)
    return ok_a and ok_b and type(value_a) is type(value_b) and value_a == value_b


_EXITS = (ast.Return, ast.Raise, ast.Break, ast.Continue)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_COMPARE = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
}
_EMPTY_CALLS = {"str": "''", "list": "[]", "dict": "{}", "tuple": "()", "set": "set()"}


@dataclass(slots=True)
class StaticFacts:
    """What the syntax alone tells about one module's statements.

    Attributes:
        always: lines of statements that run every time their function runs and returns.
        dead: lines of statements that can never run.
        successor: simple statement line -> the next line's answer text (a line number's repr,
            or "'return'").
        constants: line -> {name: repr} for names the statement assigns a literal.
        literal_loops: `for` header -> the reprs of its literal iterable's elements, for loops
            whose body cannot leave them early.
        loop_target: `for` header -> its target, when that is one name.
        top_level_loops: `for`/`while` headers at the top level of their function body.
        in_loop: lines inside some loop (header or body) of their own function.
        loop_body: top-level literal loop header -> lines directly in its body.
        tests: condition line -> its outcome, for tests made of literals only.
        returns_literal: `def` line -> repr, for functions whose first statement returns a
            literal.
        first_return: `def` line -> repr of the line of a `return` that always runs.
    """

    always: set[int] = field(default_factory=set)
    dead: set[int] = field(default_factory=set)
    successor: dict[int, str] = field(default_factory=dict)
    constants: dict[int, dict[str, str]] = field(default_factory=dict)
    literal_loops: dict[int, tuple[str, ...]] = field(default_factory=dict)
    loop_target: dict[int, str] = field(default_factory=dict)
    top_level_loops: set[int] = field(default_factory=set)
    in_loop: set[int] = field(default_factory=set)
    loop_body: dict[int, set[int]] = field(default_factory=dict)
    tests: dict[int, str] = field(default_factory=dict)
    returns_literal: dict[int, str] = field(default_factory=dict)
    first_return: dict[int, str] = field(default_factory=dict)


def _walk_own(node: ast.AST) -> list[ast.AST]:
    """`ast.walk` that does not enter nested functions, classes or lambdas."""
    out: list[ast.AST] = []
    stack = list(ast.iter_child_nodes(node))
    while stack:
        sub = stack.pop()
        out.append(sub)
        if not isinstance(sub, _SCOPES):
            stack.extend(ast.iter_child_nodes(sub))
    return out


def _literal(node: ast.expr) -> str | None:
    """The repr of a literal expression (`[]`, `-1`, `('a', 2)`, `str()`), else None."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _EMPTY_CALLS
        and not node.args
        and not node.keywords
    ):
        return _EMPTY_CALLS[node.func.id]
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if isinstance(value, set | frozenset | dict) and any(isinstance(v, str) for v in value):
        return None  # printed order of strings depends on the hash seed
    return repr(value)


def _elements(node: ast.expr) -> tuple[str, ...] | None:
    """Element reprs of a literal sequence that a `for` walks in a fixed order."""
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if isinstance(value, str | list | tuple | bytes) and len(value) <= 1000:
        return tuple(repr(v) for v in value)
    return None


def _test_value(node: ast.expr) -> bool | None:
    """The outcome of a test made of literals, comparisons, `not` and `and`/`or` only."""
    if isinstance(node, ast.BoolOp):
        values = [_test_value(v) for v in node.values]
        if any(v is None for v in values):
            return None
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _test_value(node.operand)
        return None if inner is None else not inner
    if isinstance(node, ast.Compare):
        try:
            left = ast.literal_eval(node.left)
            rights = [ast.literal_eval(c) for c in node.comparators]
            for op, right in zip(node.ops, rights, strict=True):
                if not _COMPARE[type(op)](left, right):
                    return False
                left = right
            return True
        except Exception:
            return None
    try:
        return bool(ast.literal_eval(node))
    except Exception:
        return None


def _leaves_function(stmt: ast.stmt) -> bool:
    """Whether running `stmt` may end its function's run (return, raise, failed assert, a loop
    that only a return can leave)."""
    if isinstance(stmt, ast.Return | ast.Raise | ast.Assert):
        return True
    if isinstance(stmt, ast.While) and _test_value(stmt.test) is True:
        return True
    return any(isinstance(sub, ast.Return | ast.Raise | ast.Assert) for sub in _walk_own(stmt))


def _leaves_loop_early(loop: ast.For | ast.While) -> bool:
    for stmt in loop.body:
        for sub in [stmt, *_walk_own(stmt)]:
            if isinstance(sub, ast.Return | ast.Raise | ast.Assert | ast.Continue):
                return True
            if isinstance(sub, ast.Break):
                return True
    return False


class _Walker:
    def __init__(self, facts: StaticFacts) -> None:
        self.facts = facts

    def function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        first = node.body[0]
        if isinstance(first, ast.Return) and first.value is not None:
            value = _literal(first.value)
            if value is not None:
                self.facts.returns_literal[node.lineno] = value
        self._always(node.body, node.lineno)
        self.block(node.body, RETURN, loops=[], loop_depth=0, top=True)

    def _always(self, body: list[ast.stmt], def_line: int) -> bool:
        """Mark the statements of `body` that always run; False once one may leave."""
        for stmt in body:
            self.facts.always.add(stmt.lineno)
            if isinstance(stmt, ast.Return):
                self.facts.first_return.setdefault(def_line, repr(stmt.lineno))
            if isinstance(stmt, ast.With | ast.AsyncWith) and not self._always(stmt.body, def_line):
                return False
            if _leaves_function(stmt):
                return False
        return True

    def block(
        self,
        body: list[ast.stmt],
        after: str | None,
        *,
        loops: list[tuple[str, str | None]],
        loop_depth: int,
        top: bool = False,
    ) -> None:
        """Walk one block; `after` is what runs when it ends (None: not known statically);
        `loops` holds (header, what follows the loop) of the enclosing loops."""
        ended = False
        for i, stmt in enumerate(body):
            line = stmt.lineno
            if ended:
                self.facts.dead.update(
                    s.lineno for s in [stmt, *_walk_own(stmt)] if isinstance(s, ast.stmt)
                )
                continue
            nxt = repr(body[i + 1].lineno) if i + 1 < len(body) else after
            if loop_depth:
                self.facts.in_loop.add(line)
            self._statement(stmt, nxt, loops=loops, loop_depth=loop_depth, top=top)
            if isinstance(stmt, _EXITS):
                ended = True

    def _statement(
        self,
        stmt: ast.stmt,
        nxt: str | None,
        *,
        loops: list[tuple[str, str | None]],
        loop_depth: int,
        top: bool,
    ) -> None:
        facts, line = self.facts, stmt.lineno
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            if nxt is not None:
                facts.successor[line] = nxt
            self.function(stmt)
            return
        if isinstance(stmt, ast.ClassDef):
            return
        if isinstance(stmt, ast.If):
            outcome = _test_value(stmt.test)
            if outcome is not None:
                facts.tests[line] = repr(outcome)
            self.block(stmt.body, nxt, loops=loops, loop_depth=loop_depth)
            self.block(stmt.orelse, nxt, loops=loops, loop_depth=loop_depth)
            return
        if isinstance(stmt, ast.For | ast.AsyncFor | ast.While):
            facts.in_loop.add(line)
            if isinstance(stmt, ast.While):
                outcome = _test_value(stmt.test)
                if outcome is not None:
                    facts.tests[line] = repr(outcome)
            if top:
                facts.top_level_loops.add(line)
            if isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name):
                facts.loop_target[line] = stmt.target.id
            if isinstance(stmt, ast.For) and not _leaves_loop_early(stmt):
                elements = _elements(stmt.iter)
                if elements is not None:
                    facts.literal_loops[line] = elements
                    facts.loop_body[line] = {s.lineno for s in stmt.body}
            follow = repr(stmt.orelse[0].lineno) if stmt.orelse else nxt
            inner = [*loops, (repr(line), follow)]
            self.block(stmt.body, repr(line), loops=inner, loop_depth=loop_depth + 1)
            self.block(stmt.orelse, nxt, loops=loops, loop_depth=loop_depth)
            return
        if isinstance(stmt, ast.With | ast.AsyncWith):
            self.block(stmt.body, None, loops=loops, loop_depth=loop_depth, top=top)
            return
        if isinstance(stmt, ast.Try | ast.TryStar):
            self.block(stmt.body, None, loops=[], loop_depth=loop_depth)
            for handler in stmt.handlers:
                self.block(handler.body, None, loops=[], loop_depth=loop_depth)
            self.block(stmt.orelse, None, loops=[], loop_depth=loop_depth)
            self.block(stmt.finalbody, None, loops=[], loop_depth=loop_depth)
            return
        if isinstance(stmt, ast.Match):
            for case in stmt.cases:
                self.block(case.body, None, loops=[], loop_depth=loop_depth)
            return
        if isinstance(stmt, ast.Continue):
            if loops:
                facts.successor[line] = loops[-1][0]
            return
        if isinstance(stmt, ast.Break):
            if loops and loops[-1][1] is not None:
                facts.successor[line] = str(loops[-1][1])
            return
        if isinstance(stmt, ast.Return | ast.Raise):
            return
        self._constants(stmt)
        if nxt is not None:
            facts.successor[line] = nxt

    def _constants(self, stmt: ast.stmt) -> None:
        found: dict[str, str] = {}
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                found.update(_assigned(target, stmt.value))
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            found.update(_assigned(stmt.target, stmt.value))
        if found:
            self.facts.constants[stmt.lineno] = found


def _assigned(target: ast.expr, value: ast.expr) -> dict[str, str]:
    if isinstance(target, ast.Name):
        text = _literal(value)
        return {target.id: text} if text is not None else {}
    if isinstance(target, ast.Tuple | ast.List) and isinstance(value, ast.Tuple | ast.List):
        if len(target.elts) != len(value.elts) or any(
            isinstance(e, ast.Starred) for e in target.elts
        ):
            return {}
        out: dict[str, str] = {}
        for sub_target, sub_value in zip(target.elts, value.elts, strict=True):
            out.update(_assigned(sub_target, sub_value))
        return out
    return {}


@lru_cache(maxsize=256)
def static_facts(code: str) -> StaticFacts:
    """The static facts of a module (cached per source text).

    Raises:
        SyntaxError: the code does not parse.
    """
    facts = StaticFacts()
    walker = _Walker(facts)
    tree = ast.parse(code)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            walker.function(node)
        elif isinstance(node, ast.ClassDef):
            for sub in node.body:
                if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef):
                    walker.function(sub)
    return facts


# The rules: (facts, line, occurrence, variable, calls) -> the answer derived from the syntax,
# or None where the rule derives nothing. `calls` is how many times the line's function ran.


def coverage_rule(
    facts: StaticFacts, line: int, occurrence: int, variable: str | None, calls: int
) -> str | None:
    """Coverage of a statement that always runs, or of dead code."""
    if line in facts.dead:
        return "False"
    return "True" if line in facts.always and calls >= 1 else None


def next_line_rule(
    facts: StaticFacts, line: int, occurrence: int, variable: str | None, calls: int
) -> str | None:
    """The static successor of a simple statement."""
    return facts.successor.get(line)


def _loop_value(facts: StaticFacts, line: int, occurrence: int, variable: str | None) -> str | None:
    elements = facts.literal_loops.get(line)
    if elements is None or facts.loop_target.get(line) != variable:
        return None
    if line not in facts.top_level_loops or not elements:
        return None
    return elements[min(occurrence, len(elements)) - 1]


def state_after_rule(
    facts: StaticFacts, line: int, occurrence: int, variable: str | None, calls: int
) -> str | None:
    """A name assigned a literal, or the target of a top-level loop over a literal."""
    if variable is None:
        return None
    constant = facts.constants.get(line, {}).get(variable)
    if constant is not None:
        return constant
    return _loop_value(facts, line, occurrence, variable)


def loop_iterations_rule(
    facts: StaticFacts, line: int, occurrence: int, variable: str | None, calls: int
) -> str | None:
    """The length of a literal iterable that the body cannot leave early."""
    elements = facts.literal_loops.get(line)
    return None if elements is None else repr(len(elements))


def loop_exit_state_rule(
    facts: StaticFacts, line: int, occurrence: int, variable: str | None, calls: int
) -> str | None:
    """The last element of a literal iterable, for the loop's target."""
    elements = facts.literal_loops.get(line)
    if not elements or facts.loop_target.get(line) != variable:
        return None
    return elements[-1]


def branch_rule(
    facts: StaticFacts, line: int, occurrence: int, variable: str | None, calls: int
) -> str | None:
    """The outcome of a test made of literals."""
    return facts.tests.get(line)


def run_count_rule(
    facts: StaticFacts, line: int, occurrence: int, variable: str | None, calls: int
) -> str | None:
    """1 for an always-run line outside loops of a function run once; the length of a literal
    loop for its header (+1) and the lines directly in its body."""
    if line in facts.always and line not in facts.in_loop and calls == 1:
        return "1"
    for header, elements in facts.literal_loops.items():
        if header not in facts.top_level_loops or calls != 1:
            continue
        if line == header:
            return repr(len(elements) + 1)
        if line in facts.loop_body[header]:
            return repr(len(elements))
    return None


def return_line_rule(
    facts: StaticFacts, line: int, occurrence: int, variable: str | None, calls: int
) -> str | None:
    """The first `return` that always runs (`line` is the function's `def` line)."""
    return facts.first_return.get(line)


def call_return_rule(
    facts: StaticFacts, line: int, occurrence: int, variable: str | None, calls: int
) -> str | None:
    """A function whose first statement returns a literal."""
    return facts.returns_literal.get(line)

"""Static answerability: which probe answers can be told from the code text alone.

A probe measures reasoning about execution only if its answer cannot be derived without
running the code. This module derives, from the syntax of the traced module alone, the answer
a reader would give without executing anything, wherever a cheap and sound rule gives one; a
probe whose recorded answer equals that derived answer is dropped before selection. A rule that
derives a wrong answer (an exception cut the straight-line code short, say) keeps the probe: it
is then a real question.

The facts (`StaticFacts`) are what the syntax tells: statements that always run, dead code,
the static successor of a simple statement, names assigned literals, loops whose passes are
known (from literals, or from arguments of the call the function never changes: reading the
call is not executing it), tests made of literals, ... Each kind's rule, in its `_kind_<name>`
module (its row's `static`), reads its answer off these facts; `_registry.static_answer`
applies it.
"""

from __future__ import annotations

import ast
import operator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from keyword import iskeyword

from core_bench.probes._calls import read_call
from core_bench.probes._parsed import parsed
from core_bench.probes._reading import RETURN_MARK
from tracer import COMPARISONS, Argument

_EXITS = (ast.Return, ast.Raise, ast.Break, ast.Continue)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_COMPARE = {**COMPARISONS, ast.Is: operator.is_, ast.IsNot: operator.is_not}
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
        loop_counts: `for` header -> how many passes each start of the loop makes, where the
            syntax (and the call's arguments, see `for_call`) tell.
        clean_for: `for` header -> (its function's `def` line, iterable), for loops whose body
            cannot leave them early.
        loop_first: `for` header -> its first body line; loop_follow: -> what runs after it.
        params: `def` line -> (function name, parameter names).
        modified: `def` line -> names the function rebinds or may change in place.
        bindings: `def` line -> name -> lines of the statements that bind it (a name also
            bound in a comprehension is left out).
        in_place: `def` line -> names the function may change in place.
        source: the module's source text (for rules that read it).
        while_exits: `while` header -> {name: repr} of the values its test forces when the
            loop ends by the test (`while i != -1` -> {"i": "-1"}), for loops no `break`
            leaves.
        counters: line -> {name: (start, step)} for a counter: a name its function binds
            only by a `name = <int>` statement at the top level of its body and by this line,
            `name += <int>` (or `-=`, or `name = name + <int>`) after it; after the k-th run of
            the line in a run of the function, the name holds `start + k * step`.
        range_loops: `for` header -> (target, start, step) of a loop over `range` with literal
            start (or none) and step: its k-th pass binds `start + (k - 1) * step`.
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
    loop_counts: dict[int, int] = field(default_factory=dict)
    clean_for: dict[int, tuple[int, ast.expr]] = field(default_factory=dict)
    loop_first: dict[int, str] = field(default_factory=dict)
    loop_follow: dict[int, str] = field(default_factory=dict)
    params: dict[int, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    modified: dict[int, frozenset[str]] = field(default_factory=dict)
    bindings: dict[int, dict[str, list[int]]] = field(default_factory=dict)
    in_place: dict[int, frozenset[str]] = field(default_factory=dict)
    while_exits: dict[int, dict[str, str]] = field(default_factory=dict)
    counters: dict[int, dict[str, tuple[int, int]]] = field(default_factory=dict)
    range_loops: dict[int, tuple[str, int, int]] = field(default_factory=dict)
    source: str = ""


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


def _exit_values(loop: ast.While) -> dict[str, str]:
    """{name: repr} forced by a `while` test being false, for a loop that no `break` leaves:
    `x != C` and `x is not C` (C a literal, on either side) give `x == C`; under `or`, every
    such test is false."""
    if any(isinstance(sub, ast.Break) for stmt in loop.body for sub in [stmt, *_walk_own(stmt)]):
        return {}
    test = loop.test
    tests = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or) else [test]
    out: dict[str, str] = {}
    for sub in tests:
        if not isinstance(sub, ast.Compare) or len(sub.ops) != 1:
            continue
        if not isinstance(sub.ops[0], ast.NotEq | ast.IsNot):
            continue
        left, right = sub.left, sub.comparators[0]
        if isinstance(right, ast.Name) and not isinstance(left, ast.Name):
            left, right = right, left
        value = _literal(right) if isinstance(left, ast.Name) else None
        if value is not None and isinstance(left, ast.Name):
            out[left.id] = value
    return out


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
        self.def_line = 0

    def function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.def_line = node.lineno
        args = node.args
        self.facts.params[node.lineno] = (
            node.name,
            tuple(a.arg for a in [*args.posonlyargs, *args.args]),
        )
        modified, in_place = _modified(node)
        self.facts.modified[node.lineno] = modified
        bindings = self.facts.bindings[node.lineno] = _bindings(node)
        self.facts.in_place[node.lineno] = in_place
        for line, name, counter in _counters(node, bindings):
            self.facts.counters.setdefault(line, {})[name] = counter
        first = node.body[0]
        if isinstance(first, ast.Return) and first.value is not None:
            value = _literal(first.value)
            if value is not None:
                self.facts.returns_literal[node.lineno] = value
        self._always(node.body, node.lineno)
        self.block(node.body, RETURN_MARK, loops=[], loop_depth=0, top=True)

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
            outer = self.def_line
            self.function(stmt)
            self.def_line = outer
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
                exits = _exit_values(stmt)
                if exits:
                    facts.while_exits[line] = exits
            if top:
                facts.top_level_loops.add(line)
            if isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name):
                facts.loop_target[line] = stmt.target.id
                progression = _range_progression(stmt.iter)
                if progression is not None:
                    facts.range_loops[line] = (stmt.target.id, *progression)
            follow = repr(stmt.orelse[0].lineno) if stmt.orelse else nxt
            if isinstance(stmt, ast.For) and not _leaves_loop_early(stmt):
                facts.clean_for[line] = (self.def_line, stmt.iter)
                facts.loop_body[line] = {s.lineno for s in stmt.body}
                facts.loop_first[line] = repr(stmt.body[0].lineno)
                if follow is not None:
                    facts.loop_follow[line] = follow
                elements = _elements(stmt.iter)
                if elements is not None:
                    facts.literal_loops[line] = elements
                    facts.loop_counts[line] = len(elements)
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


_MUTATORS = frozenset(
    {
        "append", "extend", "insert", "pop", "remove", "clear", "update", "sort", "reverse",
        "add", "discard", "setdefault", "popitem", "difference_update", "intersection_update",
        "symmetric_difference_update", "__setitem__", "__delitem__", "__iadd__",
    }
)  # fmt: skip


def _bindings(node: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, list[int]]:
    """Name -> lines of the function's own statements that bind it."""
    found: dict[str, list[int]] = {}
    unsafe: set[str] = set()
    for sub in _walk_own(node):
        if isinstance(sub, ast.comprehension | ast.NamedExpr):
            unsafe.update(n.id for n in ast.walk(sub.target) if isinstance(n, ast.Name))
        if not isinstance(sub, ast.stmt):
            continue
        targets: list[ast.expr] = []
        if isinstance(sub, ast.Assign):
            targets = list(sub.targets)
        elif isinstance(sub, ast.AugAssign | ast.AnnAssign | ast.For | ast.AsyncFor):
            targets = [sub.target]
        elif isinstance(sub, ast.With | ast.AsyncWith):
            targets = [i.optional_vars for i in sub.items if i.optional_vars is not None]
        elif isinstance(sub, ast.Delete | ast.Global | ast.Nonlocal | ast.Import | ast.ImportFrom):
            unsafe.update(getattr(sub, "names", []) if not isinstance(sub, ast.Delete) else [])
            if isinstance(sub, ast.Delete):
                unsafe.update(
                    n.id for t in sub.targets for n in ast.walk(t) if isinstance(n, ast.Name)
                )
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store):
                    found.setdefault(name.id, []).append(sub.lineno)
    return {k: v for k, v in found.items() if k not in unsafe}


def _int_constant(node: ast.expr | None) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def _range_progression(node: ast.expr) -> tuple[int, int] | None:
    """(start, step) of `range(stop)`, `range(<int>, stop)` or `range(<int>, stop, <int>)`."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "range"
        and 1 <= len(node.args) <= 3
        and not node.keywords
        and not any(isinstance(a, ast.Starred) for a in node.args)
    ):
        return None
    args = node.args
    start = 0 if len(args) == 1 else _int_constant(args[0])
    step = 1 if len(args) < 3 else _int_constant(args[2])
    if start is None or not step:
        return None
    return start, step


def _step(stmt: ast.stmt) -> tuple[str, int] | None:
    """(name, signed step) of `name += <int>`, `name -= <int>` or `name = name +/- <int>`."""
    name: ast.expr
    if isinstance(stmt, ast.AugAssign):
        name, operation, amount = stmt.target, stmt.op, stmt.value
    elif (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.value, ast.BinOp)
        and isinstance(stmt.value.left, ast.Name)
    ):
        name, operation, amount = stmt.targets[0], stmt.value.op, stmt.value.right
        if not isinstance(name, ast.Name) or stmt.value.left.id != name.id:
            return None
    else:
        return None
    step = _int_constant(amount)
    if not isinstance(name, ast.Name) or step is None:
        return None
    if not isinstance(operation, ast.Add | ast.Sub):
        return None
    return name.id, step if isinstance(operation, ast.Add) else -step


def _counters(
    node: ast.FunctionDef | ast.AsyncFunctionDef, bindings: dict[str, list[int]]
) -> list[tuple[int, str, tuple[int, int]]]:
    """(line, name, (start, step)) of the function's counters (see `StaticFacts.counters`)."""
    starts: dict[str, tuple[int, int, int]] = {}
    for stmt in node.body:
        start = _int_constant(stmt.value) if isinstance(stmt, ast.Assign) else None
        if start is None or not isinstance(stmt, ast.Assign):
            continue
        for target in stmt.targets:
            if isinstance(target, ast.Name):  # `n = 0`, `up = low = 0`
                starts.setdefault(target.id, (stmt.lineno, stmt.end_lineno or stmt.lineno, start))
    if not starts:
        return []
    shared: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Global | ast.Nonlocal):
            shared.update(sub.names)  # a nested function's `nonlocal` changes it unseen
        elif isinstance(sub, ast.Yield | ast.YieldFrom | ast.Await):
            return []  # the k-th run may belong to another resumption's count
    found: list[tuple[int, str, tuple[int, int]]] = []
    for sub in _walk_own(node):
        if not isinstance(sub, ast.stmt):
            continue
        stepped = _step(sub)
        if stepped is None or stepped[0] not in starts or stepped[0] in shared:
            continue
        name, step = stepped
        start_line, start_end, start = starts[name]
        if sub.lineno > start_end and sorted(bindings.get(name, [])) == [start_line, sub.lineno]:
            found.append((sub.lineno, name, (start, step)))
    return found


def _modified(
    node: ast.FunctionDef | ast.AsyncFunctionDef,
) -> tuple[frozenset[str], frozenset[str]]:
    """Names a function rebinds, deletes, assigns into or calls a mutating method of; and the
    same without the names it only rebinds (changed in place), from one walk."""
    rebound: set[str] = set()
    names: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store | ast.Del):
            rebound.add(sub.id)
        elif isinstance(sub, ast.Subscript | ast.Attribute) and isinstance(
            sub.ctx, ast.Store | ast.Del
        ):
            base = sub.value
            while isinstance(base, ast.Subscript | ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name):
                names.add(base.id)
        elif (
            isinstance(sub, ast.Call)
            and isinstance(sub.func, ast.Attribute)
            and sub.func.attr in _MUTATORS
            and isinstance(sub.func.value, ast.Name)
        ):
            names.add(sub.func.value.id)
        elif isinstance(sub, ast.Global | ast.Nonlocal):
            names.update(sub.names)
    return frozenset(names | rebound), frozenset(names)


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
    facts = StaticFacts(source=code)
    walker = _Walker(facts)
    tree = parsed(code)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            walker.function(node)
        elif isinstance(node, ast.ClassDef):
            for sub in node.body:
                if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef):
                    walker.function(sub)
    return facts


def _evaluate_int(node: ast.expr, values: dict[str, object]) -> int | None:
    """An int from a constant, an unchanged int parameter, or `len` of a parameter."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.Name) and type(values.get(node.id)) is int:
        return values[node.id]  # type: ignore[return-value]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _evaluate_int(node.operand, values)
        return None if inner is None else -inner
    name = len_argument(node)
    if name is not None and name in values:
        try:
            return len(values[name])  # type: ignore[arg-type]
        except TypeError:
            return None
    return None


def len_argument(node: ast.expr) -> str | None:
    """The name `len` is called with in `len(name)`, else None."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "len"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Name)
    ):
        return node.args[0].id
    return None


def _iterate(
    node: ast.expr, values: dict[str, object]
) -> tuple[int, tuple[str, ...] | None] | None:
    """(passes, element reprs or None) of a `for` over an unchanged argument, where cheap."""
    if isinstance(node, ast.Name) and node.id in values:
        value = values[node.id]
        if isinstance(value, str | list | tuple | bytes):
            return len(value), tuple(repr(v) for v in value)
        if isinstance(value, dict):
            return len(value), tuple(repr(k) for k in value)
        if isinstance(value, set | frozenset):
            return len(value), None
        return None
    if not isinstance(node, ast.Call) or node.keywords:
        return None
    func = node.func
    if isinstance(func, ast.Name) and func.id == "range" and 1 <= len(node.args) <= 3:
        bounds = [_evaluate_int(a, values) for a in node.args]
        if any(b is None for b in bounds) or (len(bounds) == 3 and bounds[2] == 0):
            return None
        numbers = range(*[b for b in bounds if b is not None])
        if len(numbers) > 10_000:
            return None
        return len(numbers), tuple(repr(n) for n in numbers)
    if isinstance(func, ast.Name) and func.id in ("enumerate", "reversed") and len(node.args) == 1:
        inner = _iterate(node.args[0], values)
        if inner is None:
            return None
        count, elements = inner
        if func.id == "reversed" and elements is not None:
            return count, tuple(reversed(elements))
        return count, None
    if (
        isinstance(func, ast.Attribute)
        and func.attr in ("items", "keys", "values")
        and not node.args
        and isinstance(func.value, ast.Name)
        and isinstance(values.get(func.value.id), dict)
    ):
        value = values[func.value.id]
        assert isinstance(value, dict)
        return len(value), tuple(repr(k) for k in value) if func.attr == "keys" else None
    return None


@lru_cache(maxsize=1024)
def for_call(code: str, call: str) -> StaticFacts:
    """The static facts of `code` together with what the call's arguments tell: how many passes
    a `for` loop of the called function makes over an argument it never changes (its elements
    too, where they iterate in a fixed order), like a literal loop.

    Raises:
        SyntaxError: the code does not parse.
    """
    facts = static_facts(code)
    read = read_call(call)
    if read is None or not read.func.isidentifier() or iskeyword(read.func):
        return facts
    entries = [line for line, (name, _) in facts.params.items() if name == read.func]
    if len(entries) != 1:
        return facts
    def_line = entries[0]
    params = facts.params[def_line][1]
    given: dict[str, Argument] = {}
    positional = [a for a in read.args if a.keyword is None and not a.text.startswith("**")]
    for i, arg in enumerate(positional):
        if arg.text.startswith("*"):
            return facts
        if i < len(params):
            given[params[i]] = arg
    given.update((a.keyword, a) for a in read.args if a.keyword is not None)
    values: dict[str, object] = {}
    for name, arg in given.items():
        if name not in facts.modified[def_line] and arg.literal:
            values[name] = arg.value
    counts = dict(facts.loop_counts)
    literals = dict(facts.literal_loops)
    for header, (owner, iterable) in facts.clean_for.items():
        if owner != def_line or header in counts:
            continue
        known = _iterate(iterable, values)
        if known is not None:
            counts[header] = known[0]
            if known[1] is not None:
                literals[header] = known[1]
    if len(counts) == len(facts.loop_counts):  # the call tells nothing more (most calls)
        return facts
    return replace(facts, loop_counts=counts, literal_loops=literals)

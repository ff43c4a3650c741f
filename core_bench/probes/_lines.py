"""Static facts about the lines of a module that probes may name.

A probe names a line by number and by its source text, and counts its runs; that is only
unambiguous for a "clean" line: the first line of exactly one statement that fits on it (for a
compound statement, its whole header: `if`/`while` test, `for` target and iterable), with no
other statement starting, ending or continuing on it. CPython fires a line event more than once
for one run of a statement spread over several lines, so such lines are never anchors.
"""

from __future__ import annotations

import ast
from collections import Counter
from dataclasses import dataclass

from core_bench.probes._parsed import parsed, segment
from tracer import Loop, build_code_map

FRAMELESS = frozenset({"<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>", "<lambda>"})
"""Functions whose frames run inside the line that holds them: a comprehension or lambda on line
L fires line events at L in its own frame, and those are not runs of L."""

_COMPOUND = (
    ast.If,
    ast.While,
    ast.For,
    ast.AsyncFor,
    ast.With,
    ast.AsyncWith,
    ast.Try,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Match,
)
_NESTED_SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_NOT_COVERABLE = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Global,
    ast.Nonlocal,
    ast.Try,
    ast.Match,
)


@dataclass(frozen=True, slots=True)
class LineFacts:
    """What a probe needs to know about one statement line.

    Attributes:
        line: 1-based line number.
        text: the line's source, stripped.
        statement: the AST class name of the statement starting on the line ("Assign", "If").
        function: name of the innermost function the statement belongs to.
        function_line: line of that function's `def`.
        clean: the line can be named unambiguously (see the module docstring).
        binds: names the statement (or its header) assigns, in source order.
        operators: arithmetic, comparison, boolean and unary operators on the line.
        compound: the line holds a boolean operator (`and`/`or`).
        condition: source of the condition whose outcome `Step.branch` records for the line, or
            None where the line has none or it is not usable (constant, spread over lines).
        condition_kind: "if", "while" or "ifexp" along with `condition`.
        loop: the loop (not a comprehension) whose header is this line, if any.
        has_yield: the statement yields (its runs are interrupted).
        is_return: the statement is a `return`.
        coverable: whether "is this line executed at all" has a trustworthy answer from line
            events: not a `def`, `class`, `global`, `try:` or docstring, nor a constant test.
    """

    line: int
    text: str
    statement: str
    function: str
    function_line: int
    clean: bool
    binds: tuple[str, ...]
    operators: int
    compound: bool
    condition: str | None
    condition_kind: str | None
    loop: Loop | None
    has_yield: bool
    is_return: bool
    coverable: bool


@dataclass(frozen=True, slots=True)
class FunctionFacts:
    """A function definition of the module.

    Attributes:
        name: the function's name.
        line: the line of `def` (the line its "call" events carry, when undecorated).
        text: the `def` line's source, stripped.
        params: parameter names, in order.
        generator: the function yields.
        decorated: the function has decorators (its call events then carry another line).
        unique: no other function of the module has the same name.
    """

    name: str
    line: int
    text: str
    params: tuple[str, ...]
    generator: bool
    decorated: bool
    unique: bool


@dataclass(frozen=True, slots=True)
class ModuleFacts:
    """Line and function facts of one module.

    Attributes:
        source: source lines (unstripped).
        lines: statement line -> facts (only lines where a statement of a function starts).
        functions: `def` line -> facts.
        enclosing: line -> headers of the (non-comprehension) loops around it, outermost
            first; a loop header counts as enclosed by its own loop.
        loops: header -> loop, for loops that are not comprehensions.
    """

    source: list[str]
    lines: dict[int, LineFacts]
    functions: dict[int, FunctionFacts]
    enclosing: dict[int, tuple[int, ...]]
    loops: dict[int, Loop]

    def text(self, line: int) -> str:
        """The stripped source of a 1-based line, or "" when out of range."""
        return self.source[line - 1].strip() if 1 <= line <= len(self.source) else ""

    def function_named(self, name: str) -> FunctionFacts | None:
        """The only function called `name`, or None when there is none or several."""
        found = [f for f in self.functions.values() if f.name == name]
        return found[0] if len(found) == 1 else None


def _header_expressions(node: ast.stmt) -> list[ast.AST]:
    """The parts of a statement that run on its first line (all of it for a simple one)."""
    if isinstance(node, ast.If | ast.While):
        return [node.test]
    if isinstance(node, ast.For | ast.AsyncFor):
        return [node.target, node.iter]
    if isinstance(node, ast.With | ast.AsyncWith):
        return list(node.items)
    if isinstance(node, _COMPOUND):
        return []
    return [node]


def _header_end(node: ast.stmt) -> int:
    """Last line of a statement's header (of the whole statement when it is simple)."""
    if isinstance(node, ast.If | ast.While):
        return node.test.end_lineno or node.lineno
    if isinstance(node, ast.For | ast.AsyncFor):
        return max(node.iter.end_lineno or node.lineno, node.target.end_lineno or node.lineno)
    if isinstance(node, ast.With | ast.AsyncWith):
        ends = [getattr(i.context_expr, "end_lineno", None) or node.lineno for i in node.items]
        ends.extend(
            (i.optional_vars.end_lineno or node.lineno) for i in node.items if i.optional_vars
        )
        return max(ends)
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return max(node.lineno, node.body[0].lineno - 1)
    if isinstance(node, _COMPOUND):
        return node.lineno
    return node.end_lineno or node.lineno


def _count_operators(parts: list[ast.AST]) -> tuple[int, bool]:
    count = 0
    compound = False
    for part in parts:
        for sub in ast.walk(part):
            if isinstance(sub, ast.BinOp | ast.UnaryOp | ast.AugAssign):
                count += 1
            elif isinstance(sub, ast.BoolOp):
                count += len(sub.values) - 1
                compound = True
            elif isinstance(sub, ast.Compare):
                count += len(sub.ops)
    return count, compound


def _target_names(target: ast.AST, out: list[str]) -> None:
    if isinstance(target, ast.Name):
        out.append(target.id)
    elif isinstance(target, ast.Tuple | ast.List):
        for element in target.elts:
            _target_names(element, out)
    elif isinstance(target, ast.Starred):
        _target_names(target.value, out)


def _binds(node: ast.stmt) -> tuple[str, ...]:
    names: list[str] = []
    if isinstance(node, ast.Assign):
        for target in node.targets:
            _target_names(target, names)
    elif isinstance(node, ast.AugAssign | ast.AnnAssign):
        if not isinstance(node, ast.AnnAssign) or node.value is not None:
            _target_names(node.target, names)
    elif isinstance(node, ast.For | ast.AsyncFor):
        _target_names(node.target, names)
    elif isinstance(node, ast.With | ast.AsyncWith):
        for item in node.items:
            if item.optional_vars is not None:
                _target_names(item.optional_vars, names)
    elif isinstance(node, ast.Import | ast.ImportFrom):
        names.extend((a.asname or a.name).split(".")[0] for a in node.names)
    for part in _header_expressions(node):
        for sub in ast.walk(part):
            if isinstance(sub, ast.NamedExpr):
                _target_names(sub.target, names)
    return tuple(dict.fromkeys(names))


def _is_constant(test: ast.expr) -> bool:
    return isinstance(test, ast.Constant)


def _lone_ifexp(node: ast.stmt) -> ast.IfExp | None:
    """The one conditional expression the statement's own frame evaluates, if exactly one."""
    found: list[ast.IfExp] = []
    hidden = False

    def visit(sub: ast.AST, nested: bool) -> None:
        nonlocal hidden
        if isinstance(sub, ast.IfExp):
            if nested:
                hidden = True
            else:
                found.append(sub)
        inner = nested or isinstance(sub, _NESTED_SCOPES)
        for child in ast.iter_child_nodes(sub):
            visit(child, inner)

    for part in _header_expressions(node):
        visit(part, False)
    return found[0] if len(found) == 1 and not hidden else None


class _Collector:
    """Walks every function of a module and records its statements' lines."""

    def __init__(self, tree: ast.Module, source: str) -> None:
        self.tree = tree
        self.source = source
        self.source_lines = source.splitlines()
        self.starts: Counter[int] = Counter()
        self.continued: set[int] = set()
        self.same_line_body: set[int] = set()
        self.owned: list[tuple[ast.stmt, ast.FunctionDef | ast.AsyncFunctionDef]] = []
        self.functions: dict[int, FunctionFacts] = {}

    def run(self) -> None:
        nodes = list(ast.walk(self.tree))  # walked once, read three times
        for node in nodes:
            if isinstance(node, ast.stmt):
                self.starts[node.lineno] += 1
                end = _header_end(node)
                self.continued.update(range(node.lineno + 1, end + 1))
                body = getattr(node, "body", None)
                if (
                    isinstance(body, list)
                    and body
                    and isinstance(body[0], ast.stmt)
                    and body[0].lineno <= end
                ):
                    self.same_line_body.add(node.lineno)
            if isinstance(node, ast.ExceptHandler | ast.match_case):
                self.continued.add(getattr(node, "lineno", 0))
        defs = [n for n in nodes if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
        names = Counter(n.name for n in defs)
        for node in defs:
            self._function(node, names[node.name] == 1)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, unique: bool) -> None:
        args = node.args
        params = [a.arg for a in [*args.posonlyargs, *args.args]]
        if args.vararg:
            params.append(args.vararg.arg)
        params.extend(a.arg for a in args.kwonlyargs)
        if args.kwarg:
            params.append(args.kwarg.arg)
        own = list(self._own_statements(node.body))
        generator = any(
            isinstance(sub, ast.Yield | ast.YieldFrom)
            for stmt in own
            for part in _header_expressions(stmt)
            for sub in _walk_scope(part)
        )
        self.functions[node.lineno] = FunctionFacts(
            name=node.name,
            line=node.lineno,
            text=self._text(node.lineno),
            params=tuple(params),
            generator=generator,
            decorated=bool(node.decorator_list),
            unique=unique,
        )
        self.owned.extend((stmt, node) for stmt in own)

    def _own_statements(self, body: list[ast.stmt]) -> list[ast.stmt]:
        """Statements of a function body, through compound statements but not into nested
        functions or classes (whose `def`/`class` line itself is kept)."""
        out: list[ast.stmt] = []
        for stmt in body:
            out.append(stmt)
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                continue
            for name in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, name, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    out.extend(self._own_statements(inner))
            for handler in getattr(stmt, "handlers", []):
                out.extend(self._own_statements(handler.body))
            for case in getattr(stmt, "cases", []):
                out.extend(self._own_statements(case.body))
        return out

    def _text(self, line: int) -> str:
        if 1 <= line <= len(self.source_lines):
            return self.source_lines[line - 1].strip()
        return ""


def _walk_scope(node: ast.AST) -> list[ast.AST]:
    """`ast.walk` that does not enter lambdas, comprehensions or nested definitions."""
    out: list[ast.AST] = []
    stack = [node]
    while stack:
        sub = stack.pop()
        out.append(sub)
        if sub is not node and isinstance(
            sub, (*_NESTED_SCOPES, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
        ):
            continue
        stack.extend(ast.iter_child_nodes(sub))
    return out


def module_facts(source: str) -> ModuleFacts:
    """Collect the facts of every statement line of every function in `source`.

    Raises:
        SyntaxError: the source does not parse.
    """
    tree = parsed(source)
    code_map = build_code_map(tree, source)
    collector = _Collector(tree, source)
    collector.run()
    loops = {h: loop for h, loop in code_map.loops.items() if not loop.comprehension}
    enclosing = {
        line: tuple(h for h in headers if h in loops)
        for line, headers in code_map.enclosing.items()
    }
    lines: dict[int, LineFacts] = {}
    for stmt, func in collector.owned:
        line = stmt.lineno
        clean = (
            collector.starts[line] == 1
            and line not in collector.continued
            and line not in collector.same_line_body
            and _header_end(stmt) == line
        )
        parts = _header_expressions(stmt)
        operators, compound = _count_operators(parts)
        condition = kind = None
        registered = code_map.conditions.get(line)
        if isinstance(stmt, ast.If | ast.While):
            if not _is_constant(stmt.test) and registered is not None:
                condition = segment(collector.source, stmt.test)
                kind = registered.kind
        elif registered is not None and registered.kind == "ifexp":
            ifexp = _lone_ifexp(stmt)
            if ifexp is not None and not _is_constant(ifexp.test):
                condition = segment(collector.source, ifexp.test)
                kind = "ifexp"
        loop = loops.get(line)
        constant_expr = isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
        constant_test = isinstance(stmt, ast.If | ast.While) and _is_constant(stmt.test)
        lines[line] = LineFacts(
            line=line,
            text=collector._text(line),
            statement=type(stmt).__name__,
            function=func.name,
            function_line=func.lineno,
            clean=clean,
            binds=_binds(stmt),
            operators=operators,
            compound=compound,
            condition=condition if condition and "\n" not in condition else None,
            condition_kind=kind if condition and "\n" not in condition else None,
            loop=loop,
            has_yield=any(
                isinstance(sub, ast.Yield | ast.YieldFrom | ast.Await)
                for part in parts
                for sub in _walk_scope(part)
            ),
            is_return=isinstance(stmt, ast.Return),
            coverable=not isinstance(stmt, _NOT_COVERABLE)
            and not constant_expr
            and not constant_test,
        )
    return ModuleFacts(
        source=collector.source_lines,
        lines=lines,
        functions=collector.functions,
        enclosing=enclosing,
        loops=loops,
    )

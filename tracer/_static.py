"""What the tracer needs to know about the source before running it: loops and conditions."""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field

Position = tuple[int, int]
"""(line, column) with 1-based lines and 0-based UTF-8 byte columns, as ast and co_positions."""

Span = tuple[Position, Position]


@dataclass(frozen=True, slots=True)
class Loop:
    """A loop statement (or, on Python 3.11, a comprehension's own frame).

    Attributes:
        header: the line whose line event marks the start of each iteration.
        body_first: first line of the body.
        body_last: last line of the body (the `else:` clause is not part of it).
        targets: names bound by a `for` target, in order (empty for `while`).
        comprehension: the loop is a comprehension's.
    """

    header: int
    body_first: int
    body_last: int
    targets: tuple[str, ...]
    comprehension: bool = False

    def contains(self, line: int) -> bool:
        """Whether `line` lies in the body (a body on the header line counts)."""
        return self.body_first <= line <= self.body_last


@dataclass(frozen=True, slots=True)
class Condition:
    """A condition whose outcome a step records.

    Attributes:
        kind: "if" (if and elif), "while", "ifexp" or "assert" (True: the assertion held).
        line: the line whose line event evaluates it (the test's first line).
        test: span of the test expression.
        body: span of what runs when the test holds (an assert's: the statement itself).
        orelse: span of what runs otherwise, or None.
        by_opcode: the outcome can only be told from the next instructions (the body starts on
            the test's last line, or a conditional expression), not from the next line.
        outer: span of the whole statement or conditional expression; an instruction that
            starts outside a statement's span runs after control jumped past it.
        scope: (co_name, co_firstlineno) of the code object that evaluates the condition.
    """

    kind: str
    line: int
    test: Span
    body: Span
    orelse: Span | None
    by_opcode: bool
    outer: Span
    scope: tuple[str, int]


@dataclass(slots=True)
class CodeMap:
    """Loops, conditions and line texts of one module's source."""

    lines: list[str]
    loops: dict[int, Loop] = field(default_factory=dict)
    enclosing: dict[int, tuple[int, ...]] = field(default_factory=dict)
    conditions: dict[int, Condition] = field(default_factory=dict)
    opcode_lines: frozenset[int] = frozenset()

    def source(self, line: int) -> str:
        """The stripped text of a 1-based line, or "" when out of range."""
        if 1 <= line <= len(self.lines):
            return self.lines[line - 1].strip()
        return ""


def _span(node: ast.AST) -> Span:
    end_line = getattr(node, "end_lineno", None) or node.lineno  # type: ignore[attr-defined]
    end_col = getattr(node, "end_col_offset", None)
    if end_col is None:
        end_col = 1 << 30
    return (node.lineno, node.col_offset), (end_line, end_col)  # type: ignore[attr-defined]


def _block_span(body: list[ast.stmt]) -> Span:
    return _span(body[0])[0], _span(body[-1])[1]


def _target_names(target: ast.expr) -> tuple[str, ...]:
    return tuple(n.id for n in ast.walk(target) if isinstance(n, ast.Name))


# Nodes compiled to code objects of their own. From 3.12 (PEP 709) list, set and dict
# comprehensions run inline in the enclosing code.
_SCOPES: tuple[type, ...] = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_SCOPES += (ast.GeneratorExp,) if sys.version_info >= (3, 12) else (ast.GeneratorExp, ast.ListComp)
_SCOPES += () if sys.version_info >= (3, 12) else (ast.SetComp, ast.DictComp)
_SCOPE_NAMES = {
    ast.Lambda: "<lambda>",
    ast.GeneratorExp: "<genexpr>",
    ast.ListComp: "<listcomp>",
    ast.SetComp: "<setcomp>",
    ast.DictComp: "<dictcomp>",
}


def _scoped_nodes(tree: ast.Module) -> list[tuple[ast.AST, tuple[str, int]]]:
    """Every node in breadth-first order (as `ast.walk`), with the (co_name, co_firstlineno) of
    the code object that runs it."""
    queue: list[tuple[ast.AST, tuple[str, int]]] = [(tree, ("<module>", 1))]
    iter_children = ast.iter_child_nodes
    for node, scope in queue:
        if isinstance(node, _SCOPES):
            name = getattr(node, "name", None) or _SCOPE_NAMES[type(node)]
            decorators = getattr(node, "decorator_list", None) or [node]
            inner = (name, min(d.lineno for d in decorators))
            for child in iter_children(node):
                # decorators, bases and a comprehension's first iterable run outside
                queue.append((child, scope if _runs_outside(node, child) else inner))
        else:
            queue.extend([(child, scope) for child in iter_children(node)])
    return queue


def _runs_outside(node: ast.AST, child: ast.AST) -> bool:
    """Whether `child` of a scope node runs in the enclosing code (decorators, bases, and the
    first iterable of a comprehension; a default value is missed, which only costs outcomes)."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return any(child is d for d in node.decorator_list)
    if isinstance(node, ast.ClassDef):
        return any(child is d for d in [*node.decorator_list, *node.bases])
    if isinstance(node, ast.GeneratorExp | ast.ListComp | ast.SetComp | ast.DictComp):
        return child is node.generators[0]
    return False


def build_code_map(tree: ast.Module, source: str) -> CodeMap:
    """Index the loops and conditions of a parsed module."""
    code_map = CodeMap(lines=source.splitlines())
    opcode_lines: set[int] = set()
    ifexps: list[tuple[ast.IfExp, tuple[str, int]]] = []
    asserts: list[tuple[ast.Assert, tuple[str, int]]] = []
    for node, scope in _scoped_nodes(tree):
        if isinstance(node, ast.For | ast.AsyncFor | ast.While):
            header = node.lineno if not isinstance(node, ast.While) else node.test.lineno
            targets = () if isinstance(node, ast.While) else _target_names(node.target)
            first = node.body[0].lineno
            last = _span(node.body[-1])[1][0]
            code_map.loops[header] = Loop(header, min(first, header), last, targets)
        elif isinstance(node, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
            header = node.generators[0].target.lineno
            if header not in code_map.loops:
                names = tuple(n for g in node.generators for n in _target_names(g.target))
                start, end = _span(node)
                code_map.loops[header] = Loop(header, start[0], end[0], names, comprehension=True)
        elif isinstance(node, ast.IfExp):
            ifexps.append((node, scope))
        elif isinstance(node, ast.Assert):
            asserts.append((node, scope))
        if isinstance(node, ast.If | ast.While):
            line = node.test.lineno
            test = _span(node.test)
            body = _block_span(node.body)
            orelse = _block_span(node.orelse) if node.orelse else None
            by_opcode = body[0][0] <= test[1][0]
            kind = "while" if isinstance(node, ast.While) else "if"
            code_map.conditions[line] = Condition(
                kind, line, test, body, orelse, by_opcode, _span(node), scope
            )
            if by_opcode:
                opcode_lines.add(line)
    for node, scope in ifexps:
        line = node.test.lineno  # evaluation starts with the test, on its line
        if line not in code_map.conditions:
            code_map.conditions[line] = Condition(
                "ifexp",
                line,
                _span(node.test),
                _span(node.body),
                _span(node.orelse),
                True,
                _span(node),
                scope,
            )
            opcode_lines.add(line)
    for node, scope in asserts:
        line = node.test.lineno
        if line not in code_map.conditions:
            whole = _span(node)
            code_map.conditions[line] = Condition(
                "assert", line, _span(node.test), whole, None, False, whole, scope
            )
    code_map.opcode_lines = frozenset(opcode_lines)
    for line in range(1, len(code_map.lines) + 1):
        enclosing = tuple(
            header
            for header, loop in sorted(code_map.loops.items())
            if loop.contains(line) or header == line
        )
        if enclosing:
            code_map.enclosing[line] = enclosing
    return code_map


def inside(position: tuple[int | None, int | None, int | None, int | None], span: Span) -> bool:
    """Whether an instruction's whole position (line, end line, column, end column, as
    `co_positions` gives it) lies inside a span."""
    line, end_line, col, end_col = position
    if line is None or end_line is None or col is None or end_col is None:
        return False
    return span[0] <= (line, col) and (end_line, end_col) <= span[1]


# Builtins that never change an object they are given (they may build new ones).
_PURE_BUILTINS = frozenset(
    "abs all any ascii bin bool bytes callable chr complex dict divmod enumerate filter float "
    "format frozenset hash hex id int isinstance issubclass iter len list map max min oct ord "
    "pow range repr reversed round set slice sorted str sum tuple type zip print".split()
)
# Methods that change no object on any builtin type that has them. A user class's method of the
# same name is traced code, and any traced step in between already forces a full snapshot.
_PURE_METHODS = frozenset(
    "get count index find rfind rindex startswith endswith split rsplit splitlines join strip "
    "lstrip rstrip lower upper title capitalize casefold swapcase replace keys values items copy "
    "isdigit isalpha isalnum isspace islower isupper isnumeric isdecimal istitle isidentifier "
    "format zfill center ljust rjust partition rpartition encode decode translate maketrans "
    "expandtabs removeprefix removesuffix bit_length union intersection difference "
    "symmetric_difference issubset issuperset isdisjoint fromkeys conjugate is_integer "
    "as_integer_ratio".split()
)


@dataclass(frozen=True, slots=True)
class LineEffect:
    """What running one line can change in its frame's locals, short of running traced code.

    A line can only rebind the names it assigns, and change objects it reaches (through calls,
    item or attribute stores, `op=` on a mutable value). Anything it does by running traced code
    shows up as steps of other frames, and the tracer then takes a full snapshot anyway.

    Attributes:
        stores: names the line may bind, rebind or (for comprehensions on 3.12) shadow.
        augmented: names updated with `op=`; on a mutable value that is a mutation too.
        mutates: the line may change objects (so every local holding a mutable value must be
            looked at again).
        names: `stores` and `augmented` together, in a stable order.
    """

    stores: frozenset[str]
    augmented: frozenset[str]
    mutates: bool
    names: tuple[str, ...] = ()


class _EffectScanner:
    """Collects the names a piece of code binds and whether it may mutate anything."""

    def __init__(self, shadowed: frozenset[str]) -> None:
        self.shadowed = shadowed
        self.stores: set[str] = set()
        self.augmented: set[str] = set()
        self.mutates = False
        self.unknown = False

    def target(self, node: ast.expr) -> None:
        if isinstance(node, ast.Name):
            self.stores.add(node.id)
        elif isinstance(node, ast.Tuple | ast.List):
            for element in node.elts:
                self.target(element)
        elif isinstance(node, ast.Starred):
            self.target(node.value)
        else:  # a subscript or attribute store mutates an object
            self.mutates = True
            self.expression(node)

    def expression(self, node: ast.AST | None) -> None:
        if node is None:
            return
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call):
                func = sub.func
                if isinstance(func, ast.Name):
                    pure = func.id in _PURE_BUILTINS and func.id not in self.shadowed
                else:
                    pure = isinstance(func, ast.Attribute) and func.attr in _PURE_METHODS
                if not pure:
                    self.mutates = True
            elif isinstance(sub, ast.Yield | ast.YieldFrom | ast.Await):
                self.mutates = True
            elif isinstance(sub, ast.NamedExpr | ast.comprehension):
                self.target(sub.target)

    def statement(self, node: ast.stmt) -> None:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                self.target(target)
            self.expression(node.value)
        elif isinstance(node, ast.AugAssign):
            if isinstance(node.target, ast.Name):
                self.augmented.add(node.target.id)
            else:
                self.target(node.target)
            self.expression(node.value)
        elif isinstance(node, ast.AnnAssign):
            self.target(node.target)
            self.expression(node.value)
        elif isinstance(node, ast.For | ast.AsyncFor):
            self.target(node.target)
            self.expression(node.iter)
        elif isinstance(node, ast.While | ast.If):
            self.expression(node.test)
        elif isinstance(node, ast.Expr | ast.Return):
            self.expression(node.value)
        elif isinstance(node, ast.Assert):
            self.expression(node.test)
            self.expression(node.msg)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            self.stores.add(node.name)
            for expr in [*node.decorator_list, *node.args.defaults, *node.args.kw_defaults]:
                self.expression(expr)
        elif isinstance(node, ast.Pass | ast.Break | ast.Continue | ast.Global | ast.Nonlocal):
            pass
        else:  # del, raise, import, with, try, class, match: take a full snapshot
            self.unknown = True


def _bound_names(tree: ast.Module) -> frozenset[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
    return frozenset(names)


def line_effects(tree: ast.Module) -> dict[int, LineEffect]:
    """For each line, what running it can change; lines not in the map may change anything.

    Code with a `with` statement gets no entry at all: a context manager's exit runs after the
    body's last line without a line event of its own.
    """
    if any(isinstance(node, ast.With | ast.AsyncWith) for node in ast.walk(tree)):
        return {}
    shadowed = _bound_names(tree)
    scanners: dict[int, _EffectScanner] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt):
            continue
        if isinstance(node, ast.For | ast.AsyncFor | ast.While | ast.If):
            header = node.iter if isinstance(node, ast.For | ast.AsyncFor) else node.test
            first, last = node.lineno, getattr(header, "end_lineno", None) or node.lineno
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = last = node.lineno
        elif hasattr(node, "body"):
            continue  # try, class, match: no entry, so a full snapshot follows their lines
        else:
            first, last = node.lineno, node.end_lineno or node.lineno
        for line in range(first, last + 1):
            scanner = scanners.setdefault(line, _EffectScanner(shadowed))
            scanner.statement(node)
    effects: dict[int, LineEffect] = {}
    for line, scanner in scanners.items():
        if not scanner.unknown:
            names = tuple(sorted(scanner.stores | scanner.augmented))
            effects[line] = LineEffect(
                frozenset(scanner.stores), frozenset(scanner.augmented), scanner.mutates, names
            )
    return effects

"""Comprehensions unrolled into loops, and accumulation loops folded into comprehensions.

A comprehension is a function scope of its own: its loop variables do not leak. Both
directions therefore require that the loop variables are used nowhere else in the enclosing
function, so that leaking them (or no longer leaking them) cannot be observed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import libcst as cst

from transforms._analysis import (
    FreshNames,
    ModuleInfo,
    contains,
    count_refs,
    function_members,
    has_comments,
    is_pure,
    may_raise,
    name_values,
    subscript_index,
    target_names,
    walk,
    wrap,
)
from transforms._base import Transform

_Comp = cst.ListComp | cst.SetComp | cst.DictComp | cst.GeneratorExp

# Consumers that exhaust a generator at once, so a list built beforehand is the same input.
_EXHAUSTING_BUILTINS = frozenset(
    {"sum", "list", "tuple", "set", "sorted", "min", "max", "dict", "frozenset"}
)


def _comp_fors(comp: _Comp) -> list[cst.CompFor]:
    fors: list[cst.CompFor] = []
    current: cst.CompFor | None = comp.for_in
    while current is not None:
        fors.append(current)
        current = current.inner_for_in
    return fors


def _loop_vars_private(scope_node: cst.CSTNode, owner: cst.CSTNode, names: set[str]) -> bool:
    """Every name in `names` appears in `scope_node` only inside `owner`."""
    return all(count_refs(scope_node, n) == count_refs(owner, n) for n in names)


def _closure_names(func: cst.FunctionDef, info: ModuleInfo) -> set[str]:
    """Locals of `func` read inside a nested function, class, lambda or generator
    expression (which may run later, while a loop builds the value)."""
    local = info.locals_of(func)
    found: set[str] = set()
    for node in walk(func.body):
        if isinstance(node, cst.FunctionDef | cst.ClassDef | cst.Lambda | cst.GeneratorExp):
            found |= name_values(node) & local
    return found


def _simple(expr: cst.BaseExpression) -> bool:
    """A name, literal, or attribute of one: evaluating it has no effect worth ordering."""
    while isinstance(expr, cst.Attribute):
        expr = expr.value
    return isinstance(expr, cst.Name | cst.SimpleString | cst.Integer | cst.Float)


@dataclass
class _Site:
    line: cst.SimpleStatementLine
    comp: _Comp
    consumed: bool  # the statement is `name = <comp>`: the loop replaces it entirely
    target: str | None  # that name


class ComprehensionToLoop(Transform):
    """Unroll a list/set/dict comprehension (or an exhausted generator) into a loop."""

    name = "comprehension_to_loop"
    kind = "equivalent"
    description = "unroll a comprehension into an explicit for loop that builds the collection"

    site: _Site
    acc: str

    def find_sites(self, info: ModuleInfo) -> list[_Site]:
        """Statements whose comprehension can be unrolled before them."""
        return [
            site
            for line, func in function_members(info, cst.SimpleStatementLine)
            if len(line.body) == 1 and (site := self._site(line, func, info)) is not None
        ]

    def take_site(self, site: _Site, info: ModuleInfo) -> bool:
        """Name the accumulator of the unrolled loop."""
        chosen = site
        if chosen.consumed and chosen.target is not None:
            self.acc = chosen.target
        else:
            fresh = FreshNames(info.names.identifiers)
            self.acc = fresh.choose(["result", "items", "collected", "values"], self.rng)
        return True

    def _site(
        self, line: cst.SimpleStatementLine, func: cst.FunctionDef, info: ModuleInfo
    ) -> _Site | None:
        small = line.body[0]
        if isinstance(small, cst.Assign | cst.Return | cst.Expr | cst.AugAssign):
            value = small.value
        else:
            return None
        if value is None:
            return None
        comp: _Comp | None = None
        if isinstance(value, cst.ListComp | cst.SetComp | cst.DictComp):
            comp = value
        elif isinstance(value, cst.Call) and value.args:
            first = value.args[0]
            func_expr = value.func
            if first.keyword is not None or first.star or not _simple(func_expr):
                return None
            if isinstance(first.value, cst.ListComp):
                comp = first.value
            elif isinstance(first.value, cst.GeneratorExp):
                exhausting = (
                    isinstance(func_expr, cst.Name)
                    and func_expr.value in _EXHAUSTING_BUILTINS
                    and info.is_builtin(func_expr.value)
                ) or (isinstance(func_expr, cst.Attribute) and func_expr.attr.value == "join")
                if exhausting:
                    comp = first.value
        if comp is None or (isinstance(small, cst.Expr) and comp is value):
            return None
        if contains(comp, cst.NamedExpr | cst.Yield | cst.Await | cst.Lambda):
            return None
        fors = _comp_fors(comp)
        loop_vars: set[str] = set()
        for comp_for in fors:
            if comp_for.asynchronous is not None:
                return None
            names = target_names(comp_for.target)
            if names is None:
                return None
            loop_vars |= names
        if loop_vars & info.names.declared or not _loop_vars_private(func, comp, loop_vars):
            return None
        if isinstance(comp, cst.SetComp) and not info.is_builtin("set"):
            return None
        if isinstance(comp, cst.DictComp) and not _order_free(comp.key, comp.value, info):
            return None
        consumed = False
        target: str | None = None
        if (
            isinstance(small, cst.Assign)
            and comp is value
            and len(small.targets) == 1
            and isinstance(small.targets[0].target, cst.Name)
        ):
            name = small.targets[0].target.value
            inside_try = any(
                isinstance(a, cst.Try | cst.TryStar | cst.With) for a in info.ancestors(line)
            )
            # While the loop runs the name holds a partial collection: nothing may see it.
            # Comprehensions elsewhere run where they stand, never during the loop, so only
            # a closure or a lazy generator could see it (`present = values` was left
            # otherwise when a later comprehension read the name).
            hidden = name not in _closure_names(func, info) and name not in info.names.declared
            if name not in name_values(comp) and hidden and not inside_try:
                consumed, target = True, name
        return _Site(line=line, comp=comp, consumed=consumed, target=target)

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        """Put the loop before the chosen statement."""
        if original_node is not self.site.line:
            return updated_node
        comp = self.site.comp
        if isinstance(comp, cst.SetComp):
            init: cst.BaseExpression = cst.Call(func=cst.Name("set"))
        elif isinstance(comp, cst.DictComp):
            init = cst.Dict(elements=[])
        else:
            init = cst.List(elements=[])
        first = cst.SimpleStatementLine(
            body=[cst.Assign(targets=[cst.AssignTarget(target=cst.Name(self.acc))], value=init)],
            leading_lines=updated_node.leading_lines,
        )
        loop = self._loop(comp)
        produced: list[cst.BaseStatement] = [first, loop]
        if self.site.consumed:
            first = first.with_changes(trailing_whitespace=updated_node.trailing_whitespace)
            produced[0] = first
        else:
            replaced = _Replace(comp, cst.Name(self.acc))
            rest = original_node.with_changes(leading_lines=[]).visit(replaced)
            assert isinstance(rest, cst.SimpleStatementLine)
            produced.append(rest)
        self.note_origin(original_node, *produced)
        return cst.FlattenSentinel(produced)

    def _loop(self, comp: _Comp) -> cst.BaseStatement:
        acc = cst.Name(self.acc)
        if isinstance(comp, cst.DictComp):
            index = cst.SubscriptElement(slice=cst.Index(value=comp.key))
            add: cst.BaseSmallStatement = cst.Assign(
                targets=[cst.AssignTarget(target=cst.Subscript(value=acc, slice=[index]))],
                value=comp.value,
            )
        else:
            method = "add" if isinstance(comp, cst.SetComp) else "append"
            add = cst.Expr(
                value=cst.Call(
                    func=cst.Attribute(value=acc, attr=cst.Name(method)),
                    args=[cst.Arg(value=comp.elt)],
                )
            )
        inner: cst.BaseStatement = cst.SimpleStatementLine(body=[add])
        for comp_for in reversed(_comp_fors(comp)):
            for comp_if in reversed(comp_for.ifs):
                inner = cst.If(test=comp_if.test, body=cst.IndentedBlock(body=[inner]))
            inner = cst.For(
                target=comp_for.target,
                iter=comp_for.iter,
                body=cst.IndentedBlock(body=[inner]),
            )
        return inner


class _Replace(cst.CSTTransformer):
    """Replaces one node (by identity) with another."""

    def __init__(self, old: cst.CSTNode, new: cst.CSTNode) -> None:
        super().__init__()
        self.old = old
        self.new = new

    def on_leave(self, original_node: Any, updated_node: Any) -> Any:
        if original_node is self.old:
            return self.new
        return updated_node


def _order_free(key: cst.BaseExpression, value: cst.BaseExpression, info: ModuleInfo) -> bool:
    """Evaluating `key` and `value` in either order gives the same (dict comprehensions
    evaluate the key first, `d[key] = value` the value first)."""
    if not (is_pure(key, info) and is_pure(value, info)):
        return False
    return not (may_raise(key, info) and may_raise(value, info))


@dataclass
class _Fold:
    block: cst.IndentedBlock
    index: int  # of the initialisation; the loop follows it
    kind: str  # "list" | "set" | "dict"
    element: cst.BaseExpression | None
    key: cst.BaseExpression | None
    clauses: list[cst.For | cst.If]


class LoopToComprehension(Transform):
    """Fold `acc = []` + a loop that only appends into `acc = [... for ...]`."""

    name = "loop_to_comprehension"
    kind = "equivalent"
    description = "fold an initialisation and a loop that only appends into a comprehension"

    site: _Fold

    def find_sites(self, info: ModuleInfo) -> list[_Fold]:
        """Empty-collection initialisations followed by an accumulating loop."""
        return [
            fold
            for block, func in function_members(info, cst.IndentedBlock)
            for i in range(len(block.body) - 1)
            if (fold := self._fold(block, i, func, info)) is not None
        ]

    def _fold(
        self, block: cst.IndentedBlock, i: int, func: cst.FunctionDef, info: ModuleInfo
    ) -> _Fold | None:
        init, loop = block.body[i], block.body[i + 1]
        if not isinstance(init, cst.SimpleStatementLine) or len(init.body) != 1:
            return None
        assign = init.body[0]
        if (
            not isinstance(assign, cst.Assign)
            or len(assign.targets) != 1
            or not isinstance(assign.targets[0].target, cst.Name)
        ):
            return None
        acc = assign.targets[0].target.value
        kind = _empty_kind(assign.value, info)
        # Until the comprehension finishes the name keeps its old value: nothing may look.
        if kind is None or acc in info.names.declared or acc in info.captured_names(func):
            return None
        if not isinstance(loop, cst.For) or has_comments(loop):
            return None
        clauses: list[cst.For | cst.If] = []
        node: cst.BaseStatement = loop
        while True:
            if isinstance(node, cst.For):
                if node.orelse is not None or node.asynchronous is not None:
                    return None
                if target_names(node.target) is None:
                    return None
            elif isinstance(node, cst.If):
                if node.orelse is not None:
                    return None
            else:
                break
            clauses.append(node)
            body = node.body
            if not isinstance(body, cst.IndentedBlock) or len(body.body) != 1:
                return None
            node = body.body[0]
        if not clauses or not isinstance(clauses[0], cst.For):
            return None
        element, key = _accumulation(node, acc, kind)
        if element is None:
            return None
        if count_refs(loop, acc) != 1:
            return None
        if contains(loop, cst.NamedExpr | cst.Yield | cst.Await | cst.Lambda):
            return None
        loop_vars: set[str] = set()
        for clause in clauses:
            if isinstance(clause, cst.For):
                loop_vars |= target_names(clause.target) or set()
        if loop_vars & info.names.declared or not _loop_vars_private(func, loop, loop_vars):
            return None
        if kind == "dict" and key is not None and not _order_free(key, element, info):
            return None
        return _Fold(block=block, index=i, kind=kind, element=element, key=key, clauses=clauses)

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        """Replace the initialisation and the loop by one assignment."""
        fold = self.site
        if original_node is not fold.block:
            return updated_node
        i = fold.index
        init = updated_node.body[i]
        loop = updated_node.body[i + 1]
        assert isinstance(init, cst.SimpleStatementLine) and isinstance(loop, cst.For)
        comp = self._comprehension()
        assign = init.body[0]
        assert isinstance(assign, cst.Assign)
        new = init.with_changes(
            body=[assign.with_changes(value=comp)],
            leading_lines=[*init.leading_lines, *loop.leading_lines],
        )
        self.note_origin(original_node.body[i], new, deep=False)
        for sub in walk(original_node.body[i + 1]):
            if isinstance(sub, cst.SimpleStatementLine | cst.BaseCompoundStatement):
                self.note_origin(sub, new, deep=False)
        body = [*updated_node.body[:i], new, *updated_node.body[i + 2 :]]
        return updated_node.with_changes(body=body)

    def _comprehension(self) -> cst.BaseExpression:
        fold = self.site
        comp_for: cst.CompFor | None = None
        pending_ifs: list[cst.CompIf] = []
        for clause in reversed(fold.clauses):
            if isinstance(clause, cst.If):
                pending_ifs.insert(0, cst.CompIf(test=wrap(clause.test, 2)))
            else:
                comp_for = cst.CompFor(
                    target=clause.target,
                    iter=wrap(clause.iter, 2),
                    ifs=pending_ifs,
                    inner_for_in=comp_for,
                )
                pending_ifs = []
        assert comp_for is not None and fold.element is not None
        element = wrap(fold.element, 1)
        if fold.kind == "dict":
            assert fold.key is not None
            return cst.DictComp(key=wrap(fold.key, 1), value=element, for_in=comp_for)
        if fold.kind == "set":
            return cst.SetComp(elt=element, for_in=comp_for)
        return cst.ListComp(elt=element, for_in=comp_for)


def _empty_kind(value: cst.BaseExpression, info: ModuleInfo) -> str | None:
    if isinstance(value, cst.List) and not value.elements:
        return "list"
    if isinstance(value, cst.Dict) and not value.elements:
        return "dict"
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and not value.args:
        name = value.func.value
        if name in ("list", "set", "dict") and info.is_builtin(name):
            return name
    return None


def _accumulation(
    stmt: cst.BaseStatement, acc: str, kind: str
) -> tuple[cst.BaseExpression | None, cst.BaseExpression | None]:
    """(element, key) if `stmt` is `acc.append(element)` / `acc.add(element)` /
    `acc[key] = element` as `kind` requires; (None, None) otherwise."""
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return None, None
    small = stmt.body[0]
    if kind in ("list", "set") and isinstance(small, cst.Expr):
        call = small.value
        method = "append" if kind == "list" else "add"
        if (
            isinstance(call, cst.Call)
            and isinstance(call.func, cst.Attribute)
            and isinstance(call.func.value, cst.Name)
            and call.func.value.value == acc
            and call.func.attr.value == method
            and len(call.args) == 1
            and call.args[0].keyword is None
            and not call.args[0].star
        ):
            return call.args[0].value, None
    if kind == "dict" and isinstance(small, cst.Assign) and len(small.targets) == 1:
        index = subscript_index(small.targets[0].target, acc)
        if index is not None and index.star is None:
            return small.value, index.value
    return None, None


TRANSFORMS: tuple[type[Transform], ...] = (ComprehensionToLoop, LoopToComprehension)

"""Helper extraction: an expression, or a loop body, moved into a new module-level function.

In a method (LeetCode's `class Solution`), only code that needs neither the instance nor
the class moves, to a function before the class.

Every free variable of the moved code is passed in as an argument, and a moved loop body
returns every variable it assigns, which the caller binds again. Arguments are evaluated at
the call, so each of them must be bound there for sure: parameters, loop variables of the
enclosing loops, and names assigned unconditionally earlier on every path (a small
definite-assignment analysis); otherwise the transform declines. Code that leaves the moved
part (`return`, `break`, `continue`, `yield`), declares `global`/`nonlocal`, deletes names,
defines functions, or sits in a `try`/`with` (where partial effects could be observed) is
not moved.
"""

from __future__ import annotations

import io
import random
import tokenize
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import libcst as cst
from libcst.metadata import (
    Assignment,
    ComprehensionScope,
    FunctionScope,
    GlobalScope,
)

from transforms._analysis import (
    FreshNames,
    ModuleInfo,
    block_statements,
    bound_before,
    bound_names,
    code_respelled,
    contains,
    count_refs,
    keep_parens,
    loop_control_of,
    precedence,
    strip_parens,
    target_names,
    variable_names,
    walk,
)
from transforms._base import Transform
from transforms._helper_names import expression_helper_names, loop_helper_names
from transforms._rename import guess_roles


def _guessed_roles(info: ModuleInfo, calls: tuple[str, ...]) -> dict[str, str]:
    names = {n.value for n in info.names.references}
    return guess_roles(info.module, names, calls)


def _statement_of(node: cst.CSTNode, info: ModuleInfo) -> cst.CSTNode | None:
    for ancestor in info.ancestors(node):
        if isinstance(ancestor, cst.SimpleStatementLine | cst.BaseCompoundStatement):
            return ancestor
    return None


def _ordered(names: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(names))


class _Classified:
    """Free names of a piece of code, split into the function's locals and the rest."""

    def __init__(self, root: cst.CSTNode, func: cst.FunctionDef, info: ModuleInfo) -> None:
        inside = {id(n) for n in walk(root)}
        func_scope = info.function_scope(func)
        self.ok = func_scope is not None
        self.locals: list[str] = []  # function locals used, in order of appearance
        self.enclosing: set[str] = set()  # bound by comprehensions/lambdas around root
        for name in variable_names(root):
            scope = info.scopes.get(name)
            if scope is None:
                self.ok = False
                continue
            referents = scope[name.value]
            if not referents:
                self.ok = False
                continue
            scopes = {id(r.scope): r.scope for r in referents}
            if all(
                not isinstance(r, Assignment) or isinstance(r.scope, GlobalScope) for r in referents
            ):
                continue  # a builtin or a global: the helper sees the same one
            if not all(isinstance(r, Assignment) for r in referents) or len(scopes) != 1:
                self.ok = False
                continue
            (owner,) = scopes.values()
            owner_node = getattr(owner, "node", None)
            if owner_node is not None and id(owner_node) in inside:
                continue  # bound inside the moved code
            if owner is func_scope:
                self.locals.append(name.value)
            elif isinstance(owner, ComprehensionScope | FunctionScope):
                self.locals.append(name.value)
                self.enclosing.add(name.value)
            else:
                self.ok = False
        self.locals = _ordered(self.locals)


_EXHAUSTING = frozenset(
    {"join", "sum", "list", "tuple", "set", "sorted", "min", "max", "any", "all", "dict",
     "frozenset"}
)  # fmt: skip


def _may_outlive(root: cst.CSTNode, info: ModuleInfo) -> bool:
    """Whether `root` may build a closure or generator that is used after the call: moved
    into a helper it would see the helper's arguments, not the caller's later values."""
    for node in walk(root):
        if not isinstance(node, cst.Lambda | cst.GeneratorExp):
            continue
        parent = info.parent(node)
        call = info.parent(parent) if isinstance(parent, cst.Arg) else None
        if not isinstance(parent, cst.Arg) or not isinstance(call, cst.Call):
            return True
        func = call.func
        called = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
        if isinstance(node, cst.Lambda):
            if parent.keyword is None or parent.keyword.value != "key":
                return True
            if called not in ("sorted", "min", "max", "sort"):
                return True
        elif called not in _EXHAUSTING:
            return True
    return False


def _store_nodes(root: cst.CSTNode) -> set[int]:
    """Ids of every node inside an assignment, deletion or loop target under `root`."""
    out: set[int] = set()
    for sub in walk(root):
        targets: list[cst.CSTNode] = []
        if isinstance(
            sub,
            cst.AssignTarget
            | cst.AugAssign
            | cst.AnnAssign
            | cst.For
            | cst.CompFor
            | cst.NamedExpr
            | cst.Del,
        ):
            targets = [sub.target]
        elif isinstance(sub, cst.AsName):
            targets = [sub.name]
        for target in targets:
            out |= {id(n) for n in walk(target)}
    return out


class _Extract(Transform):
    """Adds `self.helper` before the function `self.func` at module level."""

    kind = "equivalent"
    helper: cst.FunctionDef
    func: cst.FunctionDef

    uses_calls: ClassVar[bool] = True
    """The variant generator passes the problem's calls: their argument types tell what
    the variables a helper's name speaks of hold (`transforms._roles`)."""

    def __init__(self, rng: random.Random, *, calls: Sequence[str] = ()) -> None:
        """Create the transform; `calls` are the calls the code runs with, if known."""
        super().__init__(rng)
        self.calls = tuple(calls)

    def roles(self, info: ModuleInfo) -> dict[str, str]:
        """What each variable of the module holds, as the renaming styles guess it: a
        helper's name speaks of the kind of value (`text`, `count`), never of the variable's
        own name, which renaming would change (guessed once per analysis and calls: both
        extractions ask, in every round)."""
        return info.derived_with(_guessed_roles, self.calls)

    def module_functions(self, info: ModuleInfo) -> list[cst.FunctionDef]:
        """Module-level functions and the methods of module-level classes (helpers are
        added next to them: before the function, or before the method's class)."""
        self._owners: dict[int, cst.ClassDef] = {}
        found: list[cst.FunctionDef] = []
        for stmt in info.module.body:
            if isinstance(stmt, cst.FunctionDef) and not info.has_global_or_nonlocal(stmt):
                found.append(stmt)
            elif isinstance(stmt, cst.ClassDef) and isinstance(stmt.body, cst.IndentedBlock):
                for method in stmt.body.body:
                    if isinstance(method, cst.FunctionDef) and not info.has_global_or_nonlocal(
                        method
                    ):
                        self._owners[id(method)] = stmt
                        found.append(method)
        return found

    def movable(self, func: cst.FunctionDef, root: cst.CSTNode, params: list[str]) -> bool:
        """Whether code of `func` that needs `params` can move to a module-level helper: a
        method's code that uses the instance (`self`), a class-private `__name` (mangled in
        the class only) or `super()` stays in the method."""
        if id(func) not in getattr(self, "_owners", {}):
            return True
        own = [*func.params.posonly_params, *func.params.params]
        if own and own[0].name.value in params:
            return False
        names = {n.value for n in walk(root) if isinstance(n, cst.Name)}
        private = any(n.startswith("__") and not n.endswith("__") for n in names)
        return not private and not names & {"super", "__class__"}

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        """Insert the helper right before the function it was extracted from (before the
        class of a method)."""
        body = list(updated_node.body)
        anchor = getattr(self, "_owners", {}).get(id(self.func), self.func)
        index = next(i for i, s in enumerate(original_node.body) if s is anchor)
        func = body[index]
        helper = self.helper.with_changes(leading_lines=func.leading_lines)
        body[index] = func.with_changes(leading_lines=[cst.EmptyLine()])
        self.note_origin(original_node.body[index], body[index], deep=False)
        body.insert(index, helper)
        return updated_node.with_changes(body=body)


# Expressions that compute something: what may move into a helper.
_EXTRACTABLE = (
    cst.BinaryOperation,
    cst.Comparison,
    cst.BooleanOperation,
    cst.Call,
    cst.IfExp,
    cst.Subscript,
    cst.UnaryOperation,
)
# What a moved expression's size counts (a comprehension inside it is one more operation).
_OPERATIONS = (*_EXTRACTABLE, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def _worth_a_helper(expr: cst.BaseExpression, func: cst.FunctionDef, info: ModuleInfo) -> bool:
    """Whether a person would move `expr` into a helper: a computation of two or more
    operations whose value is used. Never a single operator or a single call
    (`def is_in(y, n): return y in n`, `def combined(a, b): return a + b`, `len(xs)`), nor
    a bare `xs.sort()` or a `while i < len(xs)` bound."""
    parent = info.parent(expr)
    if isinstance(parent, cst.Expr):
        return False  # `xs.sort()`: called for its effect, a helper would return None
    if isinstance(parent, cst.While) and parent.test is expr:
        return False
    return _operations(expr) >= 2


def _returned_bool(stmt: cst.CSTNode | None) -> bool | None:
    """B of a `return B` line (B True or False), else None."""
    if isinstance(stmt, cst.IndentedBlock) and len(stmt.body) == 1:
        stmt = stmt.body[0]
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1):
        return None
    small = stmt.body[0]
    value = small.value if isinstance(small, cst.Return) else None
    if isinstance(value, cst.Name) and value.value in ("True", "False"):
        return value.value == "True"
    return None


def _returns_its_bool(expr: cst.BaseExpression, info: ModuleInfo) -> bool:
    """Whether `expr` is the test of `if <expr>: return B` then `return not B`: a helper
    call there would branch on a bool only to return it (`if is_x(a): return True`)."""
    branch = info.parent(expr)
    if not isinstance(branch, cst.If) or branch.test is not expr:
        return False
    first = _returned_bool(branch.body)
    if first is None:
        return False
    if isinstance(branch.orelse, cst.Else):
        return _returned_bool(branch.orelse.body) is (not first)
    block = info.parent(branch)
    siblings = list(getattr(block, "body", ()))
    index = next((i for i, s in enumerate(siblings) if s is branch), None)
    if index is None or index + 1 >= len(siblings):
        return False
    return _returned_bool(siblings[index + 1]) is (not first)


def _chain_prefix(expr: cst.BaseExpression, info: ModuleInfo) -> bool:
    """Whether `expr` is the unparenthesized left part of a longer chain of operators of its
    own precedence (`a + b + c` in `a + b + c - d`, `x and y` in `x and y and z`): a helper
    of it would cut the chain where the parser groups, not where the meaning does."""
    if not isinstance(expr, cst.BinaryOperation | cst.BooleanOperation) or expr.lpar:
        return False
    parent = info.parent(expr)
    if not isinstance(parent, cst.BinaryOperation | cst.BooleanOperation):
        return False
    if parent.left is not expr:
        return False
    return precedence(parent.with_changes(lpar=(), rpar=())) == precedence(expr)


def _operations(root: cst.CSTNode) -> int:
    return sum(isinstance(n, _OPERATIONS) for n in walk(root))


def _is_block(body: cst.IndentedBlock) -> bool:
    """Whether a loop body is a block a person would name: two or more statements, or a
    compound one, not one operation (`total += x`, `out.append(x)`)."""
    statements = [
        small
        for stmt in body.body
        for small in (stmt.body if isinstance(stmt, cst.SimpleStatementLine) else [stmt])
    ]
    return len(statements) >= 2 or isinstance(body.body[0], cst.BaseCompoundStatement)


def _is_predicate(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Comparison | cst.BooleanOperation | cst.UnaryOperation)


def _tokens(code: str) -> list[str] | None:
    try:
        return [
            t.string
            for t in tokenize.generate_tokens(io.StringIO(code).readline)
            if t.type not in _LAYOUT_TOKENS
        ]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None


_LAYOUT_TOKENS = frozenset(
    {tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT,
     tokenize.ENDMARKER}
)  # fmt: skip


class _Unwrap(cst.CSTTransformer):
    """Drops the parentheses around the calls whose ids it is given."""

    def __init__(self, calls: set[int]) -> None:
        super().__init__()
        self.calls = calls

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        if id(original_node) in self.calls:
            return updated_node.with_changes(lpar=[], rpar=[])
        return updated_node


def _without_parens(statement: cst.CSTNode, calls: list[cst.Call]) -> cst.CSTNode:
    """`statement` with the parentheses around `calls` dropped, where dropping them changes
    no token but the parentheses (`if (is_even(n)) != x:` -> `if is_even(n) != x:`;
    `return(helper(a))` keeps them, or it would read `returnhelper`). A call needs no
    parentheses of its own: those the replaced expression had were its own."""
    inside = {id(n) for n in walk(statement)}
    wrapped = [c for c in calls if c.lpar and id(c) in inside]
    if not wrapped:
        return statement
    try:
        stripped = statement.visit(_Unwrap({id(c) for c in wrapped}))
    except cst.CSTValidationError:  # `return(helper(a))`: LibCST wants the blank
        return statement
    assert isinstance(stripped, cst.CSTNode)
    render = cst.Module(body=[]).code_for_node
    before, after = _tokens(render(statement)), _tokens(render(stripped))
    dropped = 2 * sum(len(c.lpar) for c in wrapped)
    if before is None or after is None or len(after) != len(before) - dropped:
        return statement
    if [t for t in before if t not in "()"] != [t for t in after if t not in "()"]:
        return statement
    return stripped


@dataclass
class _ExprSite:
    """Every occurrence of one expression in a function (a helper replaces all of them, so
    the same test does not stay inline next to its helper), with the helper's name."""

    exprs: list[cst.BaseExpression]
    func: cst.FunctionDef
    params: list[str]
    name: str
    args: list[list[str]]  # what each occurrence's call passes for `params`


def _shape(expr: cst.BaseExpression, local: set[str], info: ModuleInfo) -> str:
    """The code of `expr` with the function's locals blanked out."""
    blanks = {id(n): "_" for n in variable_names(expr) if n.value in local}
    return code_respelled(info.module, strip_parens(expr), blanks)


def _nested_bindings(func: cst.FunctionDef) -> set[str]:
    """Names bound by the comprehensions and lambdas of `func` (a helper takes them as
    arguments like the function's own locals)."""
    found: set[str] = set()
    for node in walk(func.body):
        if isinstance(node, cst.CompFor):
            found |= target_names(node.target) or set()
        elif isinstance(node, cst.Lambda):
            found |= {p.name.value for p in walk(node.params) if isinstance(p, cst.Param)}
    return found


def _locals_in(expr: cst.BaseExpression, local: set[str]) -> list[str]:
    return [n.value for n in variable_names(expr) if n.value in local]


def _one_helper(
    group: list[tuple[cst.BaseExpression, _ExprSite | None]], local: set[str]
) -> _ExprSite | None:
    """One helper for every occurrence of an expression's shape in a function, each call
    passing its own variables (`is_multiple(i, a)`, `is_multiple(i, b)`), or None when an
    occurrence cannot move (it would stay inline next to its helper), the occurrences name
    their helpers apart, or their variables do not match one to one."""
    if any(site is None for _, site in group):
        return None
    found = [site for _, site in group if site is not None]
    first = found[0]
    if any(site.name != first.name for site in found):
        return None  # `is_multiple_of_step` would be wrong for `i % size == 0`
    order = _locals_in(first.exprs[0], local)
    args: list[list[str]] = []
    for site in found:
        mapping: dict[str, str] = {}
        for mine, theirs in zip(order, _locals_in(site.exprs[0], local), strict=True):
            if mapping.setdefault(mine, theirs) != theirs:
                return None
        if len(set(mapping.values())) != len(mapping) or any(
            p not in mapping for p in first.params
        ):
            return None
        passed = [mapping[p] for p in first.params]
        if sorted(passed) != sorted(site.params):
            return None
        args.append(passed)
    return _ExprSite([s.exprs[0] for s in found], first.func, first.params, first.name, args)


class ExtractHelperExpr(_Extract):
    """Move an expression into `def helper(free vars): return <expr>` and call it."""

    name = "extract_helper_expr"
    description = "move an expression into a new helper function that receives its free variables"

    site: _ExprSite
    statement: cst.CSTNode

    def find_sites(self, info: ModuleInfo) -> list[_ExprSite]:
        """Expressions whose free variables are all surely bound where each occurrence of
        them stands, and whose helper can be named for what it returns (no name that fits,
        no helper: `is_valid` or `compute` would say nothing, a wrong name would mislead)."""
        if info.names.dynamic:
            return []
        sites: list[_ExprSite] = []
        for func in self.module_functions(info):
            stores = _store_nodes(func.body)
            skip = {
                id(n)
                for sub in walk(func.body)
                if isinstance(
                    sub, cst.FunctionDef | cst.ClassDef | cst.FormattedString | cst.Decorator
                )
                for n in walk(sub)
            }
            local = info.locals_of(func) | _nested_bindings(func)
            groups: dict[str, list[tuple[cst.BaseExpression, _ExprSite | None]]] = {}
            for node in walk(func.body):
                if not isinstance(node, _EXTRACTABLE):
                    continue
                if isinstance(node, cst.UnaryOperation) and not isinstance(node.operator, cst.Not):
                    continue
                parent = info.parent(node)
                if isinstance(parent, cst.Call) and parent.func is node:
                    continue
                shape = _shape(node, local, info)
                if id(node) in stores or id(node) in skip:
                    groups.setdefault(shape, []).append((node, None))
                    continue
                groups.setdefault(shape, []).append((node, self._site(node, func, info)))
            for group in groups.values():
                site = _one_helper(group, local)
                if site is not None:
                    sites.append(site)
        return sites

    def take_site(self, site: _ExprSite, info: ModuleInfo) -> bool:
        """Find the statements of the picked expression's occurrences and name the helper."""
        self._args = {id(expr): args for expr, args in zip(site.exprs, site.args, strict=True)}
        self.func = site.func
        statements = [_statement_of(expr, info) for expr in site.exprs]
        assert all(s is not None for s in statements)
        self.statement = statements[0]  # type: ignore[assignment]
        self._statements = {id(s) for s in statements}
        self._targets = {id(expr) for expr in site.exprs}
        self._calls: list[cst.Call] = []
        self.helper_name = FreshNames(info.names.identifiers).take(site.name)
        # Only the occurrences, their statements, the function (or class) before which the
        # helper goes and the module change: all ancestors of the occurrences.
        self.limit_visit(site.exprs, info)
        return True

    def _site(
        self, expr: cst.BaseExpression, func: cst.FunctionDef, info: ModuleInfo
    ) -> _ExprSite | None:
        if contains(expr, cst.NamedExpr | cst.Yield | cst.Await) or _may_outlive(expr, info):
            return None
        if _chain_prefix(expr, info) or not _worth_a_helper(expr, func, info):
            return None
        if _returns_its_bool(expr, info):
            return None
        if "\n" in info.module.code_for_node(expr):
            return None
        if not any(isinstance(n, cst.Name) for n in walk(expr)):
            return None
        taken = info.names.identifiers
        found = expression_helper_names(expr, _is_predicate(expr), self.roles(info))
        names = [n for n in found if n not in taken]
        if not names:
            return None
        classified = _Classified(expr, func, info)
        if not classified.ok:
            return None
        statement = _statement_of(expr, info)
        if statement is None:
            return None
        bound = bound_before(statement, func, info) | classified.enclosing
        if any(name not in bound for name in classified.locals):
            return None
        if not self.movable(func, expr, classified.locals):
            return None
        params = classified.locals
        return _ExprSite(exprs=[expr], func=func, params=params, name=names[0], args=[params])

    def replace(self, original_node: cst.CSTNode, result: Any) -> Any:
        """Replace each occurrence of the chosen expression by a call, remembering the helper
        to add; drop the parentheses the calls do not need."""
        if id(original_node) in self._statements:
            return _without_parens(result, self._calls)
        if id(original_node) not in self._targets:
            return result
        assert isinstance(result, cst.BaseExpression)
        if not hasattr(self, "helper"):
            returned = cst.SimpleStatementLine(body=[cst.Return(value=strip_parens(result))])
            self.note_origin(self.statement, returned, deep=False)
            self.helper = cst.FunctionDef(
                name=cst.Name(self.helper_name),
                params=cst.Parameters(
                    params=[cst.Param(name=cst.Name(p)) for p in self.site.params]
                ),
                body=cst.IndentedBlock(body=[returned]),
            )
        call = keep_parens(
            result,
            cst.Call(
                func=cst.Name(self.helper_name),
                args=[cst.Arg(value=cst.Name(a)) for a in self._args[id(original_node)]],
            ),
        )
        assert isinstance(call, cst.Call)
        self._calls.append(call)
        return call


@dataclass
class _LoopSite:
    loop: cst.For | cst.While
    func: cst.FunctionDef
    params: list[str]
    returns: list[str]


class ExtractLoopBody(_Extract):
    """Move a loop body into `def helper(...)` returning what it assigns; the loop calls it."""

    name = "extract_loop_body"
    description = (
        "move a loop body into a new helper function that returns the variables it assigns"
    )

    site: _LoopSite

    def find_sites(self, info: ModuleInfo) -> list[_LoopSite]:
        """Loops whose body can run as a function."""
        if info.names.dynamic:
            return []
        sites: list[_LoopSite] = []
        for func in self.module_functions(info):
            for node in walk(func.body):
                if isinstance(node, cst.For | cst.While) and info.enclosing_function(node) is func:
                    site = self._site(node, func, info)
                    if site is not None:
                        sites.append(site)
        return sites

    def take_site(self, site: _LoopSite, info: ModuleInfo) -> bool:
        """Name the helper for what the body updates or handles; no such name, no helper
        (`loop_step` says nothing)."""
        self.func = site.func
        fresh = FreshNames(info.names.identifiers)
        options = loop_helper_names(site.loop, site.returns, self.roles(info))
        named = [n for n in options if fresh.is_free(n)]
        self.helper_name = fresh.choose(named, self.rng)
        return True

    def _site(
        self, loop: cst.For | cst.While, func: cst.FunctionDef, info: ModuleInfo
    ) -> _LoopSite | None:
        body = loop.body
        if not isinstance(body, cst.IndentedBlock) or not _is_block(body):
            return None
        if isinstance(loop, cst.For) and loop.asynchronous is not None:
            return None
        banned = (
            cst.Return, cst.Yield, cst.Await, cst.Global, cst.Nonlocal, cst.FunctionDef,
            cst.ClassDef, cst.Del, cst.NamedExpr,
        )  # fmt: skip
        if contains(body, banned) or loop_control_of(body) or _may_outlive(body, info):
            return None
        if any(isinstance(a, cst.Try | cst.TryStar | cst.With) for a in info.ancestors(loop)):
            return None
        classified = _Classified(body, func, info)
        if not classified.ok or classified.enclosing:
            return None
        # A nested function reading a variable the body updates would see the caller's
        # copy, which the helper only updates on return.
        captured = info.captured_names(func)
        private = _private_loop_vars(body, func)
        written = _ordered(
            name
            for sub in walk(body)
            if not _inside_comprehension(sub, body, info)
            for name in _bound_by(sub)
            if name not in private
        )
        if captured & set(written):
            return None
        # A helper that advances the `while` loop's own test variable (`i += 1`, `a, b = b,
        # a + b`) drives the loop from outside it: no person splits a loop that way.
        if isinstance(loop, cst.While) and {n.value for n in variable_names(loop.test)} & set(
            written
        ):
            return None
        bound = bound_before(loop, func, info)
        if isinstance(loop, cst.For):
            bound |= target_names(loop.target) or set()
        params: list[str] = []
        for name in classified.locals:
            if name in private:
                continue
            if name in bound:
                params.append(name)
            elif name not in written or not _assigned_before_read(body, name):
                return None
        if not self.movable(func, loop.body, [*params, *written]):
            return None
        # Return only what the caller reads after the call: the next run of the body (a
        # value carried over, not one the body or the loop header binds afresh), the loop's
        # test or `else`, or the code after the loop.
        fresh = target_names(loop.target) or set() if isinstance(loop, cst.For) else set()
        returns = [
            name
            for name in written
            if _read_after(loop, func, info, name)
            or (name not in fresh and not _assigned_before_read(body, name))
        ]
        taken = info.names.identifiers
        if all(n in taken for n in loop_helper_names(loop, returns, self.roles(info))):
            return None
        return _LoopSite(loop=loop, func=func, params=params, returns=returns)

    def _rewrite(
        self, original_node: cst.For | cst.While, updated_node: cst.For | cst.While
    ) -> cst.For | cst.While:
        if original_node is not self.site.loop:
            return updated_node
        block = updated_node.body
        assert isinstance(block, cst.IndentedBlock)
        statements = list(block.body)
        returns = self.site.returns
        if returns:
            value: cst.BaseExpression = (
                cst.Name(returns[0])
                if len(returns) == 1
                else cst.Tuple([cst.Element(cst.Name(n)) for n in returns], lpar=[], rpar=[])
            )
            statements.append(cst.SimpleStatementLine(body=[cst.Return(value=value)]))
        self.helper = cst.FunctionDef(
            name=cst.Name(self.helper_name),
            params=cst.Parameters(params=[cst.Param(name=cst.Name(p)) for p in self.site.params]),
            body=cst.IndentedBlock(body=statements),
        )
        call = cst.Call(
            func=cst.Name(self.helper_name),
            args=[cst.Arg(value=cst.Name(p)) for p in self.site.params],
        )
        if not returns:
            small: cst.BaseSmallStatement = cst.Expr(value=call)
        else:
            target: cst.BaseAssignTargetExpression = (
                cst.Name(returns[0])
                if len(returns) == 1
                else cst.Tuple([cst.Element(cst.Name(n)) for n in returns], lpar=[], rpar=[])
            )
            small = cst.Assign(targets=[cst.AssignTarget(target=target)], value=call)
        line = cst.SimpleStatementLine(body=[small])
        for stmt in block_statements(original_node.body):
            self.note_origin(stmt, line, deep=False)
        return updated_node.with_changes(body=block.with_changes(body=[line]))

    def leave_For(self, original_node: cst.For, updated_node: cst.For) -> cst.For:
        """Move the chosen `for` loop's body out."""
        result = self._rewrite(original_node, updated_node)
        assert isinstance(result, cst.For)
        return result

    def leave_While(self, original_node: cst.While, updated_node: cst.While) -> cst.While:
        """Move the chosen `while` loop's body out."""
        result = self._rewrite(original_node, updated_node)
        assert isinstance(result, cst.While)
        return result


def _inside_comprehension(node: cst.CSTNode, root: cst.CSTNode, info: ModuleInfo) -> bool:
    for ancestor in info.ancestors(node):
        if ancestor is root:
            return False
        if isinstance(ancestor, cst.ListComp | cst.SetComp | cst.DictComp | cst.GeneratorExp):
            return True
    return False


def _private_loop_vars(body: cst.CSTNode, func: cst.FunctionDef) -> set[str]:
    """Targets of loops nested in `body` that are used only by their own loop (target and
    body), so they are always bound before they are read and never flow out."""
    private: set[str] = set()
    for sub in walk(body):
        if not isinstance(sub, cst.For):
            continue
        for name in target_names(sub.target) or set():
            own = count_refs(sub.target, name) + count_refs(sub.body, name)
            if count_refs(func, name) == own:
                private.add(name)
    return private


def _read_after(
    loop: cst.For | cst.While, func: cst.FunctionDef, info: ModuleInfo, name: str
) -> bool:
    """Whether `name` may be read after a run of `loop`'s body other than by the body itself:
    in the `while` test, the `else` clause, after the loop, or anywhere outside the body
    when an enclosing loop may run it again."""
    body_refs = count_refs(loop.body, name)
    if isinstance(loop, cst.For):
        body_refs += count_refs(loop.target, name)
    for ancestor in info.ancestors(loop):
        if ancestor is func:
            break
        if isinstance(ancestor, cst.For | cst.While):
            return count_refs(func, name) > body_refs
    if isinstance(loop, cst.While) and count_refs(loop.test, name):
        return True
    if loop.orelse is not None and count_refs(loop.orelse, name):
        return True
    names = variable_names(func)
    inside = {id(n) for n in variable_names(loop)}
    last = max((i for i, n in enumerate(names) if id(n) in inside), default=None)
    if last is None:
        return count_refs(func, name) > body_refs
    return any(n.value == name for n in names[last + 1 :])


def _bound_by(node: cst.CSTNode) -> list[str]:
    targets: list[cst.CSTNode] = []
    if isinstance(node, cst.AssignTarget | cst.AugAssign | cst.AnnAssign | cst.For):
        targets = [node.target]
    elif isinstance(node, cst.AsName):
        targets = [node.name]
    names: list[str] = []
    for target in targets:
        names.extend(bound_names(target))
    return names


def _assigned_before_read(body: cst.IndentedBlock, name: str) -> bool:
    """`name` is bound by a top-level assignment of `body` before anything else uses it."""
    for stmt in body.body:
        mentions = [n for n in variable_names(stmt) if n.value == name]
        if not mentions:
            continue
        if not isinstance(stmt, cst.SimpleStatementLine):
            return False
        for small in stmt.body:
            in_small = any(n.value == name for n in variable_names(small))
            if not in_small:
                continue
            if not isinstance(small, cst.Assign):
                return False
            if any(n.value == name for n in variable_names(small.value)):
                return False
            return any(name in (target_names(t.target) or set()) for t in small.targets)
        return False
    return False


TRANSFORMS: tuple[type[Transform], ...] = (ExtractHelperExpr, ExtractLoopBody)

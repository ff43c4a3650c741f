"""Dead code: branches that never run, and assignments whose value is never used.

Inserted code must not change behaviour: it is either never executed (an `if` whose test is a
constant false expression), or it evaluates a constant or reads a parameter and binds a fresh
name, or it binds a local that the very next statement overwrites. It never makes a name local
that was not local before (only locals of the same function are assigned, and functions with
`global`/`nonlocal` statements are left alone).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from transforms._analysis import (
    FreshNames,
    ModuleInfo,
    contains,
    has_comments,
    name_values,
    walk,
)
from transforms._base import Transform


def _functions(info: ModuleInfo) -> Iterator[cst.FunctionDef]:
    for node in info.nodes:
        if (
            isinstance(node, cst.FunctionDef)
            and not info.in_class(node.body)  # a method's body is a function's
            and not info.has_global_or_nonlocal(node)
        ):
            yield node


def _blocks(func: cst.FunctionDef, info: ModuleInfo) -> Iterator[cst.IndentedBlock]:
    """The indented blocks of `func` itself (not of functions nested in it)."""
    for node in walk(func.body):
        if isinstance(node, cst.IndentedBlock) and (
            node is func.body or info.enclosing_function(node) is func
        ):
            yield node


def _exits(stmt: cst.BaseStatement) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and any(
        isinstance(s, cst.Return | cst.Raise | cst.Continue | cst.Break) for s in stmt.body
    )


def _positions(func: cst.FunctionDef, block: cst.IndentedBlock) -> Iterator[int]:
    """Indexes before which a statement may be inserted (not before a docstring, not after
    a statement that leaves the block)."""
    start = 0
    if block is func.body and block.body:
        first = block.body[0]
        if (
            isinstance(first, cst.SimpleStatementLine)
            and isinstance(first.body[0], cst.Expr)
            and isinstance(first.body[0].value, cst.SimpleString | cst.ConcatenatedString)
        ):
            start = 1
    for k in range(start, len(block.body) + 1):
        if k > 0 and _exits(block.body[k - 1]):
            continue
        yield k


def _params(func: cst.FunctionDef) -> list[str]:
    params = func.params
    return [p.name.value for p in (*params.posonly_params, *params.params)]


def _copyable(func: cst.FunctionDef, info: ModuleInfo) -> list[cst.SimpleStatementLine]:
    """Simple statements of `func` (not of nested functions) that may be copied into a dead
    branch: assignments, expression statements and returns."""
    found: list[cst.SimpleStatementLine] = []
    for block in _blocks(func, info):
        for stmt in block.body:
            if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
                continue
            small = stmt.body[0]
            if not isinstance(small, cst.Assign | cst.AugAssign | cst.Expr | cst.Return):
                continue
            if contains(small, cst.NamedExpr | cst.Yield | cst.Await) or has_comments(stmt):
                continue
            found.append(stmt)
    return found


@dataclass
class _Insert:
    block: cst.IndentedBlock
    index: int
    statement: cst.BaseStatement


class _Inserter(Transform):
    """Inserts one statement at a chosen place."""

    kind = "equivalent"
    insert: _Insert

    @property
    def block_site(self) -> _Insert:
        """The place of the insertion."""
        return self.insert

    def rewrite_block(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock, k: int
    ) -> cst.IndentedBlock:
        """Insert the planned statement."""
        body = list(updated_node.body)
        new = self.insert.statement
        if k < len(body):
            # Comments above the statement we insert before stay above it.
            body.insert(k, new)
        else:
            body.append(new)
        return updated_node.with_changes(body=body)


_FALSE_TESTS = ["False", "0", "not True", "None", "''", "{a} > {b}", "{a} == {b}", "{b} < {a}"]


class DeadBranch(_Inserter):
    """Insert `if <always false>: <plausible statement>` somewhere in a function."""

    name = "dead_branch"
    kind = "equivalent"
    family = "distractor"
    description = "insert an if statement whose condition is always false (the branch never runs)"

    insert: _Insert

    def find_sites(self, info: ModuleInfo) -> list[tuple[cst.FunctionDef, cst.IndentedBlock, int]]:
        """The places in a function where a statement can go."""
        sites: list[tuple[cst.FunctionDef, cst.IndentedBlock, int]] = []
        for func in _functions(info):
            for block in _blocks(func, info):
                sites.extend((func, block, k) for k in _positions(func, block))
        return sites

    def take_site(
        self, site: tuple[cst.FunctionDef, cst.IndentedBlock, int], info: ModuleInfo
    ) -> bool:
        """Choose a false test and a dead statement."""
        func, block, index = site
        dead = self._dead_statement(func, info)
        template = self.rng.choice(_FALSE_TESTS)
        a = self.rng.randint(0, 9)
        b = a + self.rng.randint(1, 9)
        test = cst.parse_expression(template.format(a=a, b=b))
        stmt = cst.If(test=test, body=cst.IndentedBlock(body=[dead]))
        self.insert = _Insert(block, index, stmt)
        return True

    def _dead_statement(self, func: cst.FunctionDef, info: ModuleInfo) -> cst.BaseStatement:
        options: list[cst.BaseStatement] = []
        for stmt in _copyable(func, info):
            options.append(stmt.deep_clone().with_changes(leading_lines=[]))
        locals_ = sorted(info.locals_of(func))
        if locals_:
            name = self.rng.choice(locals_)
            options.append(cst.SimpleStatementLine(body=[cst.Return(value=cst.Name(name))]))
            if info.is_builtin("print"):
                options.append(cst.parse_statement(f"print({name})"))
            options.append(
                cst.parse_statement(f"{name} = {self.rng.choice(['0', 'None', repr('')])}")
            )
        options.append(cst.parse_statement("return None"))
        choice = self.rng.choice(options)
        if isinstance(choice, cst.SimpleStatementLine):
            choice = choice.with_changes(trailing_whitespace=cst.TrailingWhitespace())
        return choice


_FRESH_NAMES = ["unused", "temp", "tmp", "backup", "cache", "placeholder", "default", "sentinel"]
_LITERALS = ["0", "None", "''", "[]", "{}", "-1", "True", "1"]


class DeadAssignment(_Inserter):
    """Insert an assignment whose value is never used: to a fresh name, or to a local that
    the next statement overwrites."""

    name = "dead_assignment"
    kind = "equivalent"
    family = "distractor"
    description = "insert an assignment whose value is never read"

    insert: _Insert

    def find_sites(
        self, info: ModuleInfo
    ) -> list[tuple[cst.FunctionDef, cst.IndentedBlock, int, str | None]]:
        """The places for a dead assignment, each with the name it may overwrite."""
        sites: list[tuple[cst.FunctionDef, cst.IndentedBlock, int, str | None]] = []
        for func in _functions(info):
            captured = info.captured_names(func)
            for block in _blocks(func, info):
                in_try = any(
                    isinstance(a, cst.Try | cst.TryStar | cst.With) for a in info.ancestors(block)
                )
                for k in _positions(func, block):
                    sites.append((func, block, k, None))
                    overwritten = _overwritten(block, k)
                    if (
                        overwritten is not None
                        and not in_try
                        and overwritten not in captured
                        and overwritten not in info.names.declared
                    ):
                        sites.append((func, block, k, overwritten))
        return sites

    def take_site(
        self, site: tuple[cst.FunctionDef, cst.IndentedBlock, int, str | None], info: ModuleInfo
    ) -> bool:
        """Choose the dead assignment."""
        fresh = FreshNames(info.names.identifiers)
        func, block, index, target = site
        value = self.rng.choice(_LITERALS)
        if target is None:
            params = [
                p
                for p in _params(func)
                if not any(isinstance(n, cst.Del) and p in name_values(n) for n in walk(func))
            ]
            if params and self.rng.random() < 0.5:
                param = self.rng.choice(params)
                target = fresh.take(
                    self.rng.choice([f"original_{param}", f"{param}_copy", "backup"])
                )
                value = param
            else:
                target = fresh.take(self.rng.choice(_FRESH_NAMES))
        self.insert = _Insert(block, index, cst.parse_statement(f"{target} = {value}"))
        return True


def _overwritten(block: cst.IndentedBlock, k: int) -> str | None:
    """The local that statement `k` of `block` assigns without reading it first, if any."""
    if k >= len(block.body):
        return None
    stmt = block.body[k]
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return None
    small = stmt.body[0]
    if not isinstance(small, cst.Assign) or len(small.targets) != 1:
        return None
    target = small.targets[0].target
    if not isinstance(target, cst.Name) or target.value in name_values(small.value):
        return None
    if contains(
        small.value, cst.Lambda | cst.ListComp | cst.SetComp | cst.DictComp | cst.GeneratorExp
    ):
        return None
    return target.value


TRANSFORMS: tuple[type[Transform], ...] = (DeadBranch, DeadAssignment)

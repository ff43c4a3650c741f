"""A returned computation and a local that holds it: `return <expr>` <-> `x = <expr>` and
`return x`.

Both forms are what people write, and the rewrite applies to the smallest functions too
(`return text.replace(a, b).upper()`), where few other rewrites do. Nothing is evaluated in
another order: the value is computed at the same point, just before the `return`.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from transforms._analysis import (
    FreshNames,
    ModuleInfo,
    contains,
    count_refs,
    function_blocks,
    is_literal,
    leading_lines,
    single_small,
    strip_parens,
)
from transforms._base import Transform
from transforms._helper_names import value_names

# What a returned computation is (a bare name, a literal or a tuple of them is not one).
_COMPUTATIONS = (
    cst.Call,
    cst.BinaryOperation,
    cst.BooleanOperation,
    cst.Comparison,
    cst.Subscript,
    cst.IfExp,
    cst.UnaryOperation,
    cst.ListComp,
    cst.SetComp,
    cst.DictComp,
)
_UNMOVABLE = (cst.Yield, cst.Await, cst.NamedExpr, cst.Lambda, cst.GeneratorExp)


@dataclass
class _Site:
    block: cst.IndentedBlock
    index: int


# What a person calls a returned value when nothing more specific fits, in order.
_RESULT_NAMES = ("result", "res", "output", "answer")


class _ReturnSites(Transform):
    """Base: sites are statements of function blocks (`_Site`), none in a module whose
    names can be reached dynamically (`eval`, `locals()`)."""

    kind = "equivalent"
    site: _Site

    def find_sites(self, info: ModuleInfo) -> list[_Site]:
        """The sites `block_sites` finds in every function block."""
        if info.names.dynamic:
            return []
        return [site for block in function_blocks(info) for site in self.block_sites(block, info)]

    def block_sites(self, block: cst.IndentedBlock, info: ModuleInfo) -> list[_Site]:
        """The sites of one function block (hook)."""
        raise NotImplementedError

    #: How many statements from the site on `rewrite` replaces.
    replaced: int

    def rewrite_block(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock, i: int
    ) -> cst.IndentedBlock:
        """Put the statements `rewrite` makes in place of the `replaced` statements from the
        site on; each new statement comes from every statement it replaces."""
        body = list(updated_node.body)
        stmt = body[i]
        assert isinstance(stmt, cst.SimpleStatementLine)
        new = self.rewrite(stmt, stmt.body[0])
        for original in original_node.body[i : i + self.replaced]:
            self.note_origin(original, *new)
        body[i : i + self.replaced] = new
        return updated_node.with_changes(body=body)

    def rewrite(
        self, stmt: cst.SimpleStatementLine, small: cst.BaseSmallStatement
    ) -> list[cst.BaseStatement]:
        """The statements that replace the site's, from its first statement `stmt` and the
        one small statement in it (hook)."""
        raise NotImplementedError


class NameReturnedValue(_ReturnSites):
    """`return <expr>` -> `<name> = <expr>` then `return <name>`."""

    name = "name_returned_value"
    description = "hold a returned computation in a local variable, then return the variable"
    replaced = 1

    def block_sites(self, block: cst.IndentedBlock, info: ModuleInfo) -> list[_Site]:
        """Returns of a computation."""
        sites: list[_Site] = []
        for i, stmt in enumerate(block.body):
            small = single_small(stmt)
            if not isinstance(small, cst.Return) or small.value is None:
                continue
            value = strip_parens(small.value)
            if is_literal(value):
                continue  # `-1` parses as an operation: `result = -1` names nothing
            if isinstance(value, _COMPUTATIONS) and not contains(value, _UNMOVABLE):
                sites.append(_Site(block, i))
        return sites

    def take_site(self, site: _Site, info: ModuleInfo) -> bool:
        """Name the variable for what it holds (`split_text`, `is_vowel`), else `result` (or
        `res`, `output`, `answer` when that is taken; never `new_result`)."""
        small = single_small(site.block.body[site.index])
        assert isinstance(small, cst.Return) and small.value is not None
        value = strip_parens(small.value)
        fresh = FreshNames(info.names.identifiers)
        # Only a call names its value well (`split_text`, `length_of_items`); for arithmetic or
        # a slice the helper names (`combined_nums`, `part_of`) say less than `result`.
        guesses = value_names(value) if isinstance(value, cst.Call) else []
        named = [n for n in [*guesses, *_RESULT_NAMES] if fresh.is_free(n)]
        if not named:
            return False  # `new_result` when `result` is taken: no name a person picks
        self.variable = fresh.take(named[0])
        return True

    def rewrite(
        self, stmt: cst.SimpleStatementLine, small: cst.BaseSmallStatement
    ) -> list[cst.BaseStatement]:
        """Split the chosen return into an assignment and a return of the variable."""
        assert isinstance(small, cst.Return) and small.value is not None
        assigned = stmt.with_changes(
            body=[
                cst.Assign(
                    targets=[cst.AssignTarget(target=cst.Name(self.variable))],
                    value=strip_parens(small.value),
                )
            ]
        )
        return [assigned, cst.SimpleStatementLine(body=[cst.Return(value=cst.Name(self.variable))])]


class InlineReturnedVariable(_ReturnSites):
    """`<name> = <expr>` then `return <name>` -> `return <expr>`."""

    name = "inline_returned_variable"
    description = "return a computation directly instead of through a variable used only there"
    replaced = 2  # the assignment and the return

    def block_sites(self, block: cst.IndentedBlock, info: ModuleInfo) -> list[_Site]:
        """An assignment to a local read only by the `return` right after it."""
        func = info.enclosing_function(block)
        if func is None or info.has_global_or_nonlocal(func):
            return []
        captured = info.captured_names(func)
        sites: list[_Site] = []
        for i in range(len(block.body) - 1):
            first, second = single_small(block.body[i]), single_small(block.body[i + 1])
            if not isinstance(first, cst.Assign) or not isinstance(second, cst.Return):
                continue
            if len(first.targets) != 1 or not isinstance(first.targets[0].target, cst.Name):
                continue
            name = first.targets[0].target.value
            returned = second.value
            if not isinstance(returned, cst.Name) or returned.value != name:
                continue
            if name in captured or count_refs(func, name) != 2:
                continue
            if contains(first.value, _UNMOVABLE) or leading_lines(block.body[i + 1]):
                continue
            sites.append(_Site(block, i))
        return sites

    def rewrite(
        self, stmt: cst.SimpleStatementLine, small: cst.BaseSmallStatement
    ) -> list[cst.BaseStatement]:
        """Return the assigned value directly."""
        assert isinstance(small, cst.Assign)
        value = small.value
        if isinstance(value, cst.Tuple) and not value.lpar and not value.elements:
            value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        return [stmt.with_changes(body=[cst.Return(value=value)])]


TRANSFORMS: tuple[type[Transform], ...] = (NameReturnedValue, InlineReturnedVariable)

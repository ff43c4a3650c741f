"""Conditionals: if/else branch swap, conditional expression <-> if statement."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import libcst as cst

from transforms._analysis import (
    ModuleInfo,
    function_blocks,
    has_comments,
    in_function,
    negate,
    negates_naturally,
    only_small,
    strip_parens,
    walk,
    wrap,
)
from transforms._base import Transform


def fix_test_spacing(stmt: cst.If, test: cst.BaseExpression) -> dict[str, Any]:
    """Changes that put `test` after the keyword, with a space if `if(x)` had none."""
    changes: dict[str, object] = {"test": test}
    if not test.lpar and not stmt.whitespace_before_test.value:
        changes["whitespace_before_test"] = cst.SimpleWhitespace(" ")
    return changes


class IfElseSwap(Transform):
    """`if c: A else: B` -> `if not c: B else: A`."""

    name = "if_else_swap"
    kind = "equivalent"
    description = "swap the branches of an if/else and negate its condition"
    site_local = True

    def find_sites(self, info: ModuleInfo) -> list[cst.If]:
        """Find if/else statements (an `elif` chain's last `if` counts too)."""
        candidates = [
            node
            for node in info.nodes
            if isinstance(node, cst.If)
            and isinstance(node.orelse, cst.Else)
            and type(node.body) is type(node.orelse.body)
            and in_function(node, info)
            and negates_naturally(node.test, boolean_context=True)
        ]
        return candidates

    def leave_If(self, original_node: cst.If, updated_node: cst.If) -> cst.If:
        """Swap the chosen statement's branches."""
        if not self.at_site(original_node):
            return updated_node
        orelse = updated_node.orelse
        assert isinstance(orelse, cst.Else)
        then_body, else_body = updated_node.body, orelse.body
        if isinstance(then_body, cst.IndentedBlock):
            assert isinstance(else_body, cst.IndentedBlock)
            new_then: cst.BaseSuite = then_body.with_changes(body=else_body.body)
            new_else: cst.BaseSuite = else_body.with_changes(body=then_body.body)
        else:
            assert isinstance(then_body, cst.SimpleStatementSuite)
            assert isinstance(else_body, cst.SimpleStatementSuite)
            new_then = then_body.with_changes(body=else_body.body)
            new_else = else_body.with_changes(body=then_body.body)
        test = negate(updated_node.test, boolean_context=True)
        return updated_node.with_changes(
            body=new_then,
            orelse=orelse.with_changes(body=new_else),
            **fix_test_spacing(updated_node, strip_parens(test)),
        )


def _single_small(body: cst.BaseSuite) -> cst.BaseSmallStatement | None:
    """The one small statement of a block or of a one-line suite (`if c: x = 1`)."""
    if isinstance(body, cst.SimpleStatementSuite) and len(body.body) == 1:
        return body.body[0]
    return only_small(body)


class TernaryToIf(Transform):
    """`x = a if c else b` -> an if statement assigning in each branch (same for `return`)."""

    name = "ternary_to_if"
    kind = "equivalent"
    description = (
        "rewrite a conditional expression that is a whole assigned or returned value as an "
        "if statement"
    )

    def find_sites(self, info: ModuleInfo) -> list[cst.SimpleStatementLine]:
        """Statements whose whole value is a conditional expression."""
        candidates: list[cst.SimpleStatementLine] = []
        for node in info.nodes:
            if not isinstance(node, cst.SimpleStatementLine) or len(node.body) != 1:
                continue
            small = node.body[0]
            if not isinstance(small, cst.Assign | cst.AugAssign | cst.Return):
                continue
            if (
                isinstance(small.value, cst.IfExp)
                and in_function(node, info)
                and isinstance(info.parent(node), cst.IndentedBlock)
            ):
                candidates.append(node)
        return candidates

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement:
        """Replace the chosen statement by an if statement."""
        if not self.at_site(original_node):
            return updated_node
        small = updated_node.body[0]
        assert isinstance(small, cst.Assign | cst.AugAssign | cst.Return)
        value = small.value
        assert isinstance(value, cst.IfExp)
        result = self._chain(small, value)
        assert isinstance(result, cst.If)
        result = result.with_changes(
            leading_lines=updated_node.leading_lines,
            body=result.body.with_changes(header=updated_node.trailing_whitespace),
        )
        self.note_origin(original_node, result)
        return result

    def _chain(self, small: cst.Assign | cst.AugAssign | cst.Return, value: cst.IfExp) -> cst.If:
        def branch(expr: cst.BaseExpression) -> cst.IndentedBlock:
            line = cst.SimpleStatementLine(body=[small.with_changes(value=expr)])
            return cst.IndentedBlock(body=[line])

        value = strip_parens(value)  # type: ignore[assignment]
        orelse_expr = value.orelse
        orelse: cst.If | cst.Else
        if isinstance(orelse_expr, cst.IfExp) and not orelse_expr.lpar:
            orelse = self._chain(small, orelse_expr)
        else:
            orelse = cst.Else(body=branch(orelse_expr))
        return cst.If(test=strip_parens(value.test), body=branch(value.body), orelse=orelse)


@dataclass
class _Merge:
    node: cst.If
    block: cst.IndentedBlock | None  # set when the else branch is the next `return`
    index: int


class IfToTernary(Transform):
    """`if c: x = a else: x = b` -> `x = a if c else b` (same for `return`, and for
    `if c: return a` followed by `return b`)."""

    name = "if_to_ternary"
    kind = "equivalent"
    description = (
        "fold an if statement whose branches assign one name or return into a conditional "
        "expression"
    )

    site: _Merge

    def find_sites(self, info: ModuleInfo) -> list[_Merge]:
        """If statements with one assignment or return per branch."""
        candidates: list[_Merge] = []
        for block in function_blocks(info):
            for i, stmt in enumerate(block.body):
                if not isinstance(stmt, cst.If) or has_comments(stmt.body):
                    continue
                first = _single_small(stmt.body)
                if first is None:
                    continue
                if isinstance(stmt.orelse, cst.Else):
                    if has_comments(stmt.orelse):
                        continue
                    second = _single_small(stmt.orelse.body)
                    if second is not None and _compatible(first, second, info.module):
                        candidates.append(_Merge(stmt, None, i))
                elif stmt.orelse is None and i + 1 < len(block.body):
                    following = block.body[i + 1]
                    if (
                        isinstance(first, cst.Return)
                        and isinstance(following, cst.SimpleStatementLine)
                        and len(following.body) == 1
                        and isinstance(following.body[0], cst.Return)
                        and not has_comments(following)
                    ):
                        candidates.append(_Merge(stmt, block, i))
        return candidates

    def leave_If(self, original_node: cst.If, updated_node: cst.If) -> cst.BaseStatement:
        """Fold an if/else whose branches match."""
        if original_node is not self.site.node or self.site.block is not None:
            return updated_node
        first = _single_small(updated_node.body)
        assert isinstance(updated_node.orelse, cst.Else)
        second = _single_small(updated_node.orelse.body)
        assert first is not None and second is not None
        merged = _fold(first, second, updated_node.test)
        line = cst.SimpleStatementLine(body=[merged], leading_lines=updated_node.leading_lines)
        for sub in walk(original_node):
            if isinstance(sub, cst.SimpleStatementLine | cst.If | cst.Else):
                self.note_origin(sub, line, deep=False)
        return line

    def rewrite_block(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock, i: int
    ) -> cst.IndentedBlock:
        """Fold `if c: return a` and the `return b` after it."""
        stmt, following = updated_node.body[i], updated_node.body[i + 1]
        assert isinstance(stmt, cst.If) and isinstance(following, cst.SimpleStatementLine)
        first = _single_small(stmt.body)
        assert first is not None
        merged = _fold(first, following.body[0], stmt.test)
        line = cst.SimpleStatementLine(
            body=[merged],
            leading_lines=stmt.leading_lines,
            trailing_whitespace=following.trailing_whitespace,
        )
        for sub in (*walk(original_node.body[i]), original_node.body[i + 1]):
            if isinstance(sub, cst.SimpleStatementLine | cst.If):
                self.note_origin(sub, line, deep=False)
        body = [*updated_node.body[:i], line, *updated_node.body[i + 2 :]]
        return updated_node.with_changes(body=body)


def _value(small: cst.BaseSmallStatement) -> cst.BaseExpression:
    value = getattr(small, "value", None)
    return value if value is not None else cst.Name("None")


def _compatible(
    first: cst.BaseSmallStatement, second: cst.BaseSmallStatement, module: cst.Module
) -> bool:
    if isinstance(first, cst.Return) and isinstance(second, cst.Return):
        return True
    if isinstance(first, cst.Assign) and isinstance(second, cst.Assign):
        if len(first.targets) != 1 or len(second.targets) != 1:
            return False
        a, b = first.targets[0].target, second.targets[0].target
        return isinstance(a, cst.Name) and isinstance(b, cst.Name) and a.value == b.value
    if isinstance(first, cst.AugAssign) and isinstance(second, cst.AugAssign):
        a, b = first.target, second.target
        return (
            isinstance(a, cst.Name)
            and isinstance(b, cst.Name)
            and a.value == b.value
            and type(first.operator) is type(second.operator)
        )
    return False


def _fold(
    first: cst.BaseSmallStatement, second: cst.BaseSmallStatement, test: cst.BaseExpression
) -> cst.BaseSmallStatement:
    expr = cst.IfExp(
        test=wrap(strip_parens(test), 2),
        body=wrap(_value(first), 2),
        orelse=wrap(_value(second), 1),
    )
    if isinstance(first, cst.Return):
        return cst.Return(value=expr)
    assert isinstance(first, cst.Assign | cst.AugAssign)
    return first.with_changes(value=expr, semicolon=cst.MaybeSentinel.DEFAULT)


TRANSFORMS: tuple[type[Transform], ...] = (IfElseSwap, TernaryToIf, IfToTernary)

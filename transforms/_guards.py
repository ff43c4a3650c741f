"""Guard clauses and early returns.

`guard_clause` either drops an `else` after a branch that always leaves the block
(`if c: return a` / `else: rest` -> `if c: return a` / `rest`), or turns an `if` that wraps
the rest of a function or loop body into a guard (`if c: body` at the end of a function ->
`if not c: return` / `body`; at the end of a loop body, `continue` instead). The inverse,
`early_return_to_else`, wraps the statements after an always-leaving `if` into an `else`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import libcst as cst

from transforms._analysis import (
    ModuleInfo,
    always_exits,
    function_blocks,
    leading_lines,
    negate,
    negates_naturally,
    strip_parens,
)
from transforms._base import Transform
from transforms._conditionals import fix_test_spacing


def _as_statements(body: cst.BaseSuite) -> list[cst.BaseStatement]:
    if isinstance(body, cst.IndentedBlock):
        return list(body.body)
    assert isinstance(body, cst.SimpleStatementSuite)
    return [cst.SimpleStatementLine(body=list(body.body))]


def _footer_comments(body: cst.BaseSuite) -> bool:
    return isinstance(body, cst.IndentedBlock) and any(line.comment for line in body.footer)


def _final_return(stmt: cst.BaseStatement) -> bool:
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
        and isinstance(stmt.body[0], cst.Return)
    )


def _ends_in_loop_exit(body: cst.BaseSuite) -> bool:
    """Whether a branch ends with `continue` or `break`."""
    statements = _as_statements(body)
    last = statements[-1] if statements else None
    return (
        isinstance(last, cst.SimpleStatementLine)
        and bool(last.body)
        and isinstance(last.body[-1], cst.Continue | cst.Break)
    )


@dataclass
class _Site:
    block: cst.IndentedBlock
    index: int
    kind: str  # "drop_else" | "function_guard" | "loop_guard" | "wrap_else"


class GuardClause(Transform):
    """Restructure an if statement into guard-clause form."""

    name = "guard_clause"
    kind = "equivalent"
    description = (
        "drop an else after a branch that always exits, or invert an if that wraps the rest "
        "of a function or loop body into an early return/continue"
    )

    kinds: ClassVar[tuple[str, ...]] = ("drop_else", "function_guard", "loop_guard")
    site: _Site

    def find_sites(self, info: ModuleInfo) -> list[_Site]:
        """The if statements that can be restructured."""
        sites: list[_Site] = []
        for block in function_blocks(info):
            owner = info.parent(block)
            for i, stmt in enumerate(block.body):
                if isinstance(stmt, cst.If):
                    for kind in self._kinds(block, owner, i, stmt):
                        if kind in self.kinds:
                            sites.append(_Site(block, i, kind))
        return sites

    def _kinds(
        self, block: cst.IndentedBlock, owner: cst.CSTNode | None, i: int, stmt: cst.If
    ) -> list[str]:
        last = len(block.body) - 1
        if stmt.orelse is not None:
            if not always_exits(stmt.body):
                return []
            if isinstance(stmt.orelse, cst.Else):
                body = stmt.orelse.body
                if _footer_comments(body) or (
                    isinstance(body, cst.IndentedBlock) and body.header.comment is not None
                ):
                    return []
            return ["drop_else"]
        if not isinstance(stmt.body, cst.IndentedBlock) or _footer_comments(stmt.body):
            return []
        kinds: list[str] = []
        if not negates_naturally(stmt.test, boolean_context=True):
            pass  # a guard would read `if not num < k:`
        elif isinstance(owner, cst.FunctionDef):
            if i == last or (i == last - 1 and _final_return(block.body[last])):
                kinds.append("function_guard")
        elif isinstance(owner, cst.For | cst.While) and i == last:
            kinds.append("loop_guard")
        if i < last and always_exits(stmt.body) and not _ends_in_loop_exit(stmt.body):
            kinds.append("wrap_else")  # not `if c: continue` / `else: ...`: no one's style
        return kinds

    def rewrite_block(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock, i: int
    ) -> cst.IndentedBlock:
        """Restructure the chosen if statement."""
        stmt = updated_node.body[i]
        assert isinstance(stmt, cst.If)
        body = list(updated_node.body)
        kind = self.site.kind
        if kind == "drop_else":
            orelse = stmt.orelse
            if isinstance(orelse, cst.Else):
                moved = _as_statements(orelse.body)
                first = moved[0].with_changes(
                    leading_lines=[*orelse.leading_lines, *leading_lines(moved[0])]
                )
                self.carry_origin(moved[0], first)
                moved[0] = first
            else:
                assert isinstance(orelse, cst.If)
                moved = [orelse]
            head = stmt.with_changes(orelse=None)
            self.note_origin(original_node.body[i], head, deep=False)
            body[i : i + 1] = [head, *moved]
        elif kind == "wrap_else":
            rest = body[i + 1 :]
            head = stmt.with_changes(orelse=cst.Else(body=cst.IndentedBlock(body=rest)))
            self.note_origin(original_node.body[i], head, deep=False)
            body[i:] = [head]
        else:
            exit_stmt: cst.BaseStatement
            if kind == "loop_guard":
                exit_stmt = cst.SimpleStatementLine(body=[cst.Continue()])
            elif i + 1 < len(body):
                final = body[i + 1]
                exit_stmt = final.deep_clone().with_changes(leading_lines=[])
                self.note_origin(original_node.body[i + 1], exit_stmt, deep=False)
            else:
                exit_stmt = cst.SimpleStatementLine(body=[cst.Return()])
            assert isinstance(stmt.body, cst.IndentedBlock)
            test = strip_parens(negate(stmt.test, boolean_context=True))
            moved = list(stmt.body.body)
            header = stmt.body.header
            if header.comment is not None:
                # The comment spoke of the branch body, which now follows the guard.
                note = cst.EmptyLine(indent=True, comment=header.comment)
                first = moved[0].with_changes(leading_lines=[note, *leading_lines(moved[0])])
                self.carry_origin(moved[0], first)
                moved[0] = first
                header = cst.TrailingWhitespace()
            guard = stmt.with_changes(
                body=stmt.body.with_changes(body=[exit_stmt], header=header),
                **fix_test_spacing(stmt, test),
            )
            self.note_origin(original_node.body[i], guard, deep=False)
            end = i + 1
            if kind == "function_guard" and i + 1 < len(body) and always_exits(stmt.body):
                # The final return moved into the guard; left after a body that always
                # returns, it would be unreachable.
                self.note_origin(original_node.body[i + 1], guard, deep=False)
                end = i + 2
            body[i:end] = [guard, *moved]
        return updated_node.with_changes(body=body)


class EarlyReturnToElse(GuardClause):
    """`if c: return a` followed by more statements -> those statements in an `else`."""

    name = "early_return_to_else"
    description = "wrap the statements after an if branch that always exits into an else branch"
    kinds: ClassVar[tuple[str, ...]] = ("wrap_else",)


TRANSFORMS: tuple[type[Transform], ...] = (GuardClause, EarlyReturnToElse)

"""`idiom` rewrites between returning a condition and branching on it.

- `idiom_return_branch`: `return a < b` -> `if a < b: return True` + `return False`, for a
  condition whose value is always a bool (a comparison, `not`, an `and`/`or` of such),
  never around a call of a function of the module (a helper's `is_vowel(c)`), whose own
  `return` gives the bool (`if s.isdigit(): return True` stays: people write it so);
- `idiom_branch_return`: the reverse: `if c: return True` + `return False` -> `return c`
  (`return bool(c)` when `c` may not be a bool), and `if c: return False` + `return True`
  -> `return not c`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import libcst as cst

from transforms._analysis import (
    ModuleInfo,
    has_comments,
    negate,
    negates_naturally,
    strip_parens,
)
from transforms._base import Transform
from transforms._idioms_common import (
    IdiomRewrite,
    Statement,
    StatementIdiom,
    adjacent_statements,
    bool_return,
    line,
    method_call,
)

_BOOL_METHODS = frozenset(
    {"isalpha", "isdigit", "isdecimal", "isnumeric", "isalnum", "isspace", "isupper",
     "islower", "istitle", "isascii", "isidentifier", "isprintable", "startswith", "endswith",
     "isdisjoint", "issubset", "issuperset"}
)  # fmt: skip
_BOOL_BUILTINS = frozenset({"isinstance", "any", "all", "bool", "callable", "hasattr"})


def is_bool_valued(expr: cst.BaseExpression, info: ModuleInfo) -> bool:
    """Whether `expr` always evaluates to True or False (builtin operand types)."""
    expr = strip_parens(expr)
    if isinstance(expr, cst.Name):
        return expr.value in ("True", "False")
    if isinstance(expr, cst.Comparison):
        # Comparisons of builtin values give bools; `in`/`not in`/`is` always do.
        return True
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not):
        return True
    if isinstance(expr, cst.BooleanOperation):
        return is_bool_valued(expr.left, info) and is_bool_valued(expr.right, info)
    if isinstance(expr, cst.Call):
        func = expr.func
        if isinstance(func, cst.Name):
            return func.value in _BOOL_BUILTINS and info.is_builtin(func.value)
        call = method_call(expr)
        return call is not None and call[1] in _BOOL_METHODS
    return False


def _bool_of(call: cst.Call) -> bool:
    """`bool(x)`: branched on as `if x:`."""
    return (
        isinstance(call.func, cst.Name)
        and call.func.value == "bool"
        and len(call.args) == 1
        and not call.args[0].star
        and call.args[0].keyword is None
    )


def _returns(value: str) -> cst.SimpleStatementLine:
    return line(cst.Return(value=cst.Name(value)))


class ReturnConditionToBranch(StatementIdiom):
    """`return c` (c a bool) -> `if c: return True` + `return False`."""

    name = "idiom_return_branch"
    site_local = True
    description = "branch on a condition and return True or False instead of returning it"

    site: cst.SimpleStatementLine

    def statement_site(
        self, statement: Statement, info: ModuleInfo
    ) -> cst.SimpleStatementLine | None:
        """`return <condition>` statements."""
        stmt, target, value, _, _ = statement
        if target is not None or has_comments(stmt):
            return None
        if isinstance(value, cst.Name) or not is_bool_valued(value, info):
            return None
        tested = strip_parens(value)
        if isinstance(tested, cst.UnaryOperation) and isinstance(tested.operator, cst.Not):
            tested = strip_parens(tested.expression)
        if (
            isinstance(tested, cst.Call)
            and isinstance(tested.func, cst.Name)
            and tested.func.value in _module_functions(info)
        ):
            return None  # `if is_vowel(c): return True`: the helper returns the bool itself
        return stmt

    def rewrite_statement(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> Any:
        """Branch on the returned condition."""
        small = updated_node.body[0]
        assert isinstance(small, cst.Return) and small.value is not None
        test = strip_parens(small.value)
        if isinstance(test, cst.Call) and _bool_of(test):
            test = strip_parens(test.args[0].value)  # `if bool(s):` is `if s:`
        branch = cst.If(
            test=test,
            body=cst.IndentedBlock(body=[_returns("True")]),
            leading_lines=updated_node.leading_lines,
        )
        fallback = _returns("False")
        self.note_origin(original_node, branch, fallback)
        return cst.FlattenSentinel([branch, fallback])


class BranchToReturnCondition(IdiomRewrite):
    """`if c: return True` + `return False` -> `return c`."""

    name = "idiom_branch_return"
    description = "return a condition instead of branching on it to return True or False"

    site: tuple[cst.If, cst.SimpleStatementLine | None, bool]
    info: ModuleInfo

    def find_sites(self, info: ModuleInfo) -> Sequence[Any]:
        """`if c: return B` followed by (or with an else of) `return not B`."""
        self.info = info
        if not info.is_builtin("bool"):
            return []
        return [
            site
            for _func, _kinds, stmt, rest in adjacent_statements(info)
            if (site := self._site(stmt, rest)) is not None
        ]

    def _site(
        self, stmt: cst.BaseStatement, rest: list[cst.BaseStatement]
    ) -> tuple[cst.If, cst.SimpleStatementLine | None, bool] | None:
        if not isinstance(stmt, cst.If) or has_comments(stmt):
            return None
        inner = stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else ()
        hit = bool_return(inner[0]) if len(inner) == 1 else None
        if hit is None:
            return None
        if stmt.orelse is None:
            if not rest or has_comments(rest[0]):
                return None
            after = rest[0]
            if bool_return(after) is not (not hit) or not self._negates(stmt, hit):
                return None
            assert isinstance(after, cst.SimpleStatementLine)
            return (stmt, after, hit)
        if isinstance(stmt.orelse, cst.Else):
            other = stmt.orelse.body
            others = other.body if isinstance(other, cst.IndentedBlock) else ()
            if len(others) == 1 and bool_return(others[0]) is (not hit):
                return (stmt, None, hit) if self._negates(stmt, hit) else None
        return None

    @staticmethod
    def _negates(stmt: cst.If, hit: bool) -> bool:
        """`return not num < k` is not written: the branch stays unless the test negates
        naturally (`return num >= k`)."""
        return hit or negates_naturally(stmt.test, boolean_context=False)

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> Any:
        """Drop the fall-through return."""
        if original_node is self.site[1]:
            return cst.RemovalSentinel.REMOVE
        return updated_node

    def leave_If(self, original_node: cst.If, updated_node: cst.If) -> Any:
        """Return the condition."""
        stmt, after, hit = self.site
        if original_node is not stmt:
            return updated_node
        test = strip_parens(updated_node.test)
        if not hit:
            value = negate(test, boolean_context=False)
        elif is_bool_valued(test, self.info):
            value = test
        else:
            value = cst.Call(func=cst.Name("bool"), args=[cst.Arg(value=test)])
        new = line(cst.Return(value=value)).with_changes(leading_lines=updated_node.leading_lines)
        self.note_origin(original_node, new)
        if after is not None:
            self.note_origin(after, new)
        return new


TRANSFORMS: tuple[type[Transform], ...] = (ReturnConditionToBranch, BranchToReturnCondition)


def _module_functions(info: ModuleInfo) -> frozenset[str]:
    """The names of the module's top-level functions."""
    return frozenset(
        stmt.name.value for stmt in info.module.body if isinstance(stmt, cst.FunctionDef)
    )

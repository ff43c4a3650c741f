"""`idiom` rewrites between returning a condition and branching on it.

- `idiom_return_branch`: `return a < b` -> `if a < b: return True` + `return False`, for a
  condition whose value is always a bool (a comparison, `not`, a str `is...()` test...);
- `idiom_branch_return`: the reverse: `if c: return True` + `return False` -> `return c`
  (`return bool(c)` when `c` may not be a bool), and `if c: return False` + `return True`
  -> `return not c`.
"""

from __future__ import annotations

from typing import Any

import libcst as cst
from libcst.metadata import MetadataWrapper

from transforms._analysis import ModuleInfo, has_comments, negate, strip_parens
from transforms._base import Transform
from transforms._idioms_common import function_nodes, line, method_call

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


def _bool_return(stmt: cst.BaseStatement) -> bool | None:
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
        small = stmt.body[0]
        if (
            isinstance(small, cst.Return)
            and isinstance(small.value, cst.Name)
            and small.value.value in ("True", "False")
        ):
            return small.value.value == "True"
    return None


def _returns(value: str) -> cst.SimpleStatementLine:
    return line(cst.Return(value=cst.Name(value)))


class ReturnConditionToBranch(Transform):
    """`return c` (c a bool) -> `if c: return True` + `return False`."""

    name = "idiom_return_branch"
    kind = "equivalent"
    family = "idiom"
    description = "branch on a condition and return True or False instead of returning it"

    site: cst.SimpleStatementLine

    def prepare(self, wrapper: MetadataWrapper) -> bool:
        """Find `return <condition>` statements."""
        info = ModuleInfo(wrapper)
        sites = []
        for node, _func in function_nodes(info):
            if not isinstance(node, cst.SimpleStatementLine) or len(node.body) != 1:
                continue
            small = node.body[0]
            if not isinstance(small, cst.Return) or small.value is None:
                continue
            value = small.value
            if isinstance(value, cst.Name) or has_comments(node):
                continue
            if is_bool_valued(value, info):
                sites.append(node)
        chosen = self.pick(sites)
        if chosen is None:
            return False
        self.site = chosen
        return True

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> Any:
        """Branch on the returned condition."""
        if original_node is not self.site:
            return updated_node
        small = updated_node.body[0]
        assert isinstance(small, cst.Return) and small.value is not None
        branch = cst.If(
            test=strip_parens(small.value),
            body=cst.IndentedBlock(body=[_returns("True")]),
            leading_lines=updated_node.leading_lines,
        )
        fallback = _returns("False")
        self.note_origin(original_node, branch, fallback)
        return cst.FlattenSentinel([branch, fallback])


class BranchToReturnCondition(Transform):
    """`if c: return True` + `return False` -> `return c`."""

    name = "idiom_branch_return"
    kind = "equivalent"
    family = "idiom"
    description = "return a condition instead of branching on it to return True or False"

    site: tuple[cst.If, cst.SimpleStatementLine | None, bool]
    info: ModuleInfo

    def prepare(self, wrapper: MetadataWrapper) -> bool:
        """Find `if c: return B` followed by (or with an else of) `return not B`."""
        info = ModuleInfo(wrapper)
        self.info = info
        if not info.is_builtin("bool"):
            return False
        sites: list[tuple[cst.If, cst.SimpleStatementLine | None, bool]] = []
        for node, _func in function_nodes(info):
            if not isinstance(node, cst.IndentedBlock):
                continue
            body = list(node.body)
            for i, stmt in enumerate(body):
                if not isinstance(stmt, cst.If) or has_comments(stmt):
                    continue
                inner = stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else ()
                hit = _bool_return(inner[0]) if len(inner) == 1 else None
                if hit is None:
                    continue
                if stmt.orelse is None:
                    if i + 1 >= len(body) or has_comments(body[i + 1]):
                        continue
                    after = body[i + 1]
                    if _bool_return(after) is not (not hit):
                        continue
                    assert isinstance(after, cst.SimpleStatementLine)
                    sites.append((stmt, after, hit))
                elif isinstance(stmt.orelse, cst.Else):
                    other = stmt.orelse.body
                    others = other.body if isinstance(other, cst.IndentedBlock) else ()
                    if len(others) == 1 and _bool_return(others[0]) is (not hit):
                        sites.append((stmt, None, hit))
        chosen = self.pick(sites)
        if chosen is None:
            return False
        self.site = chosen
        return True

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

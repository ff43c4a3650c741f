"""Boolean rewrites: De Morgan's laws and flipped comparisons."""

from __future__ import annotations

from typing import Any

import libcst as cst

from transforms._analysis import (
    ModuleInfo,
    assigned_names,
    bool_operands,
    in_boolean_context,
    in_function,
    is_literal,
    is_pure,
    keep_parens,
    may_raise,
    negate,
    negates_naturally,
    operator_like,
    required_precedence,
    strip_parens,
    wrap,
)
from transforms._base import Transform


def _chain(
    operands: list[cst.BaseExpression], operator: type[cst.BaseBooleanOp]
) -> cst.BaseExpression:
    needed = 3 if operator is cst.Or else 4
    result = wrap(operands[0], needed)
    for operand in operands[1:]:
        result = cst.BooleanOperation(left=result, operator=operator(), right=wrap(operand, needed))
    return result


def _is_not(expr: cst.BaseExpression) -> bool:
    inner = strip_parens(expr)
    return isinstance(inner, cst.UnaryOperation) and isinstance(inner.operator, cst.Not)


def _is_negative_test(expr: cst.BaseExpression) -> bool:
    """A comparison spelled with a negation (`k not in d`, `x is not None`)."""
    inner = strip_parens(expr)
    return isinstance(inner, cst.Comparison) and any(
        isinstance(c.operator, cst.NotIn | cst.IsNot) for c in inner.comparisons
    )


_COMPARISONS = (
    cst.Equal, cst.NotEqual, cst.LessThan, cst.LessThanEqual, cst.GreaterThan,
    cst.GreaterThanEqual,
)  # fmt: skip


def _is_inverted_comparison(expr: cst.BaseExpression) -> bool:
    """An equality or order comparison (one operator), as `negate` inverts one."""
    inner = strip_parens(expr)
    return (
        isinstance(inner, cst.Comparison)
        and len(inner.comparisons) == 1
        and isinstance(inner.comparisons[0].operator, _COMPARISONS)
    )


class DeMorgan(Transform):
    """`not (a and b)` <-> `not a or not b`; in a boolean context `a and b` ->
    `not (a' or b')` where every operand negates without a `not` (`x < 3` -> `x >= 3`,
    `not y` -> `y`), so no double negation is ever written, and not all of them are
    comparisons (no `not (j >= n or s[j] == c)`)."""

    name = "de_morgan"
    site_local = True
    kind = "equivalent"
    keeps_lines = True
    description = "apply De Morgan's law to a negated or boolean-context and/or expression"

    def find_sites(self, info: ModuleInfo) -> list[tuple[cst.BaseExpression, cst.BaseExpression]]:
        """Negated chains, chains of negations, and chains in boolean context, each with its
        rewrite."""
        sites: list[tuple[cst.BaseExpression, cst.BaseExpression]] = []
        for node in info.nodes:
            if not isinstance(node, cst.BaseExpression) or not in_function(node, info):
                continue
            rewritten = self._rewrite(node, info)
            if rewritten is not None:
                needed = required_precedence(node, info)
                sites.append((node, wrap(rewritten, needed)))
        return sites

    def _rewrite(self, node: cst.BaseExpression, info: ModuleInfo) -> cst.BaseExpression | None:
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
            inner = strip_parens(node.expression)
            if not isinstance(inner, cst.BooleanOperation):
                return None
            boolean = in_boolean_context(node, info)
            dual = cst.Or if isinstance(inner.operator, cst.And) else cst.And
            operands = bool_operands(inner)
            if not all(negates_naturally(o, boolean_context=boolean) for o in operands):
                return None  # `not num < k or ...`
            return _chain([negate(o, boolean_context=boolean) for o in operands], dual)
        if not isinstance(node, cst.BooleanOperation):
            return None
        parent = info.parent(node)
        if (
            isinstance(parent, cst.BooleanOperation)
            and not node.lpar
            and type(parent.operator) is type(node.operator)
        ):
            return None  # only whole chains
        if isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not):
            return None  # the `not (...)` above is the site
        operands = bool_operands(node)
        dual = cst.Or if isinstance(node.operator, cst.And) else cst.And
        if all(_is_not(o) for o in operands):
            inner_operands = []
            for o in operands:
                inner = strip_parens(o)
                assert isinstance(inner, cst.UnaryOperation)
                inner_operands.append(inner.expression)
            return cst.UnaryOperation(
                operator=cst.Not(), expression=_paren(_chain(inner_operands, dual))
            )
        if in_boolean_context(node, info):
            negated = [negate(o, boolean_context=True) for o in operands]
            if any(_is_not(o) or _is_negative_test(o) for o in negated):
                return None  # `not (not a or ...)`, `not (k not in d or ...)`: a double negation
            if all(_is_inverted_comparison(o) for o in negated):
                # `while not (len(s) <= j or s[j] == c)`: each comparison was inverted only to
                # be negated back; a person keeps `j < len(s) and s[j] != c`.
                return None
            return cst.UnaryOperation(operator=cst.Not(), expression=_paren(_chain(negated, dual)))
        return None

    def replace(self, original_node: cst.CSTNode, result: Any) -> Any:
        """Swap in the rewritten expression."""
        if self.at_site(original_node):
            return keep_parens(result, self.site[1])
        return result


def _paren(expr: cst.BaseExpression) -> cst.BaseExpression:
    return expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


_MIRROR: dict[type[cst.BaseCompOp], type[cst.BaseCompOp]] = {
    cst.LessThan: cst.GreaterThan,
    cst.GreaterThan: cst.LessThan,
    cst.LessThanEqual: cst.GreaterThanEqual,
    cst.GreaterThanEqual: cst.LessThanEqual,
    cst.Equal: cst.Equal,
    cst.NotEqual: cst.NotEqual,
    cst.Is: cst.Is,
    cst.IsNot: cst.IsNot,
}


def _constant(expr: cst.BaseExpression) -> bool:
    """A literal or an expression of literals only (`-1`, `2 ** 8`, `(1, 2)`), or a
    module constant named in capitals (`LIMIT`): what a person writes right of a comparison."""
    expr = strip_parens(expr)
    if is_literal(expr):
        return True
    if isinstance(expr, cst.Name):
        return expr.value.isupper() and len(expr.value) > 1
    if isinstance(expr, cst.UnaryOperation):
        return _constant(expr.expression)
    if isinstance(expr, cst.BinaryOperation):
        return _constant(expr.left) and _constant(expr.right)
    if isinstance(expr, cst.Tuple | cst.List | cst.Set):
        return all(isinstance(e, cst.Element) and _constant(e.value) for e in expr.elements)
    return False


class FlipComparison(Transform):
    """`a < b` -> `b > a` (and `a == b` -> `b == a`...) between two operands that are not
    constants, and `0 < x` -> `x > 0`; never `x > 0` -> `0 < x`, which nobody writes."""

    name = "flip_comparison"
    site_local = True
    kind = "equivalent"
    keeps_lines = True
    description = "swap the operands of a comparison and mirror its operator"

    def find_sites(self, info: ModuleInfo) -> list[cst.Comparison]:
        """Find single comparisons whose operands can be evaluated in either order."""
        candidates: list[cst.Comparison] = []
        for node in info.nodes:
            if not isinstance(node, cst.Comparison) or len(node.comparisons) != 1:
                continue
            target = node.comparisons[0]
            if type(target.operator) not in _MIRROR or not in_function(node, info):
                continue
            left, right = node.left, target.comparator
            if _constant(right):
                continue  # the flip would put the constant first: `while 1 < len(xs)`
            if not (is_pure(left, info) and is_pure(right, info)):
                continue
            if may_raise(left, info) and may_raise(right, info):
                continue
            if _moves_loop_variable_right(node, info):
                continue
            candidates.append(node)
        return candidates

    def leave_Comparison(
        self, original_node: cst.Comparison, updated_node: cst.Comparison
    ) -> cst.Comparison:
        """Flip the chosen comparison."""
        if not self.at_site(original_node):
            return updated_node
        target = updated_node.comparisons[0]
        op = target.operator
        mirrored = _MIRROR[type(op)]
        new_op = op if mirrored is type(op) else operator_like(mirrored, op)
        return updated_node.with_changes(
            left=target.comparator,
            comparisons=[target.with_changes(operator=new_op, comparator=updated_node.left)],
        )


def _moves_loop_variable_right(node: cst.Comparison, info: ModuleInfo) -> bool:
    """Whether the flip would put a name the `while` loop rebinds after what it is compared
    with, in that loop's test: `while i < n` reads as a person's, `while n > i` does not."""
    left = strip_parens(node.left)
    if not isinstance(left, cst.Name):
        return False
    child: cst.CSTNode = node
    for ancestor in info.ancestors(node):
        if isinstance(ancestor, cst.While):
            return ancestor.test is child and left.value in assigned_names(ancestor.body)
        if not isinstance(ancestor, cst.BooleanOperation | cst.UnaryOperation):
            return False
        child = ancestor
    return False


TRANSFORMS: tuple[type[Transform], ...] = (DeMorgan, FlipComparison)

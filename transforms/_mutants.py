"""Semantic mutants, the controls: small edits that (usually) change what the code computes.

A mutant is kept by the variant generator only when some call shows the difference; these
transforms only guarantee that the edit is real and the code still parses.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import libcst as cst

from transforms._analysis import (
    ModuleInfo,
    bound_before,
    in_function,
    keep_parens,
    operator_like,
    range_args,
    required_precedence,
    strip_parens,
    target_names,
    wrap,
)
from transforms._base import Transform
from transforms._constants import _DECIMAL, _excluded, _plain_string


def _int_literal(expr: cst.BaseExpression) -> int | None:
    if isinstance(expr, cst.Integer) and _DECIMAL.match(expr.value):
        return int(expr.value)
    if (
        isinstance(expr, cst.UnaryOperation)
        and isinstance(expr.operator, cst.Minus)
        and isinstance(expr.expression, cst.Integer)
        and _DECIMAL.match(expr.expression.value)
    ):
        return -int(expr.expression.value)
    return None


def _int_node(n: int) -> cst.BaseExpression:
    if n >= 0:
        return cst.Integer(str(n))
    return cst.UnaryOperation(operator=cst.Minus(), expression=cst.Integer(str(-n)))


def _shift(expr: cst.BaseExpression, delta: int) -> cst.BaseExpression:
    """`expr` plus `delta` (+1 or -1): a changed literal, or an explicit `+ 1` / `- 1`."""
    literal = _int_literal(expr)
    if literal is not None:
        return keep_parens(expr, _int_node(literal + delta))
    if (
        isinstance(expr, cst.BinaryOperation)
        and isinstance(expr.operator, cst.Add | cst.Subtract)
        and _int_literal(expr.right) is not None
    ):
        # `i + 1` moves to `i + 2` or `i`, not to `i + 1 - 1`.
        sign = 1 if isinstance(expr.operator, cst.Add) else -1
        offset = sign * (_int_literal(expr.right) or 0) + delta
        if offset == 0:
            return keep_parens(expr, expr.left)
        op = operator_like(cst.Add if offset > 0 else cst.Subtract, expr.operator)
        return expr.with_changes(operator=op, right=cst.Integer(str(abs(offset))))
    plus_or_minus: cst.BaseBinaryOp = cst.Add() if delta > 0 else cst.Subtract()
    return cst.BinaryOperation(
        left=wrap(expr, 10), operator=plus_or_minus, right=cst.Integer(str(abs(delta)))
    )


_Mutations = Iterator[tuple[cst.CSTNode, cst.CSTNode | cst.RemovalSentinel]]


class _Mutant(Transform):
    """Replaces one chosen node inside a function by a prepared replacement: the sites are
    the `(node, replacement)` pairs that `mutations` offers for each node of a function."""

    kind = "mutant"
    family = "mutant"
    keeps_lines = True
    site_local = True

    def find_sites(self, info: ModuleInfo) -> list[tuple[cst.CSTNode, Any]]:
        """The (node, replacement) pairs of every node inside a function, in source order."""
        return [
            site
            for node in info.nodes
            if in_function(node, info)
            for site in self.mutations(node, info)
        ]

    def mutations(self, node: cst.CSTNode, info: ModuleInfo) -> _Mutations:
        """The (node, replacement) pairs `node` offers (hook)."""
        raise NotImplementedError

    def replace(self, original_node: cst.CSTNode, result: Any) -> Any:
        """Swap in the replacement."""
        return self.swap_site(original_node, result)


class MutantOffByOne(_Mutant):
    """`range(n)` -> `range(n + 1)` or `range(n - 1)`; a start bound or a literal slice
    bound moved by one."""

    name = "mutant_off_by_one"
    description = "move a range bound, a slice bound or a literal index by one"

    def mutations(self, node: cst.CSTNode, info: ModuleInfo) -> _Mutations:
        """Range bounds, slice bounds and integer-literal subscripts."""
        args = range_args(node, info)
        if args is not None:
            for arg in args[:1] if len(args) == 1 else args[:2]:
                delta = self.rng.choice([1, -1])
                yield arg, _shift(arg, delta)
        elif isinstance(node, cst.Slice):
            for bound in (node.lower, node.upper):
                if bound is not None:
                    yield bound, _shift(bound, self.rng.choice([1, -1]))
        elif isinstance(node, cst.Index) and _int_literal(node.value) is not None:
            value = node.value
            yield value, _shift(value, self.rng.choice([1, -1]))


_COMPARISON_SWAPS: dict[type[cst.BaseCompOp], list[type[cst.BaseCompOp]]] = {
    cst.LessThan: [cst.LessThanEqual, cst.GreaterThan],
    cst.LessThanEqual: [cst.LessThan, cst.GreaterThanEqual],
    cst.GreaterThan: [cst.GreaterThanEqual, cst.LessThan],
    cst.GreaterThanEqual: [cst.GreaterThan, cst.LessThanEqual],
    cst.Equal: [cst.NotEqual],
    cst.NotEqual: [cst.Equal],
    cst.In: [cst.NotIn],
    cst.NotIn: [cst.In],
    cst.Is: [cst.IsNot],
    cst.IsNot: [cst.Is],
}


class MutantSwapComparison(_Mutant):
    """`<` -> `<=` or `>`, `==` -> `!=`, `in` -> `not in`..."""

    name = "mutant_swap_comparison"
    description = "replace a comparison operator by a neighbouring or opposite one"

    def mutations(self, node: cst.CSTNode, info: ModuleInfo) -> _Mutations:
        """Every comparison operator."""
        if isinstance(node, cst.ComparisonTarget):
            choices = _COMPARISON_SWAPS.get(type(node.operator))
            if choices:
                new = operator_like(self.rng.choice(choices), node.operator)
                yield node, node.with_changes(operator=new)


def _mutate_text(content: str, index: int) -> str:
    char = content[index]
    if char.isdigit():
        new = str((int(char) + 1) % 10)
    elif char.isalpha() and char.swapcase() != char:
        new = char.swapcase()
    elif char == "x":
        new = "y"
    else:
        new = "x"
    return content[:index] + new + content[index + 1 :]


class MutantChangeConstant(_Mutant):
    """An integer moved by one, one character of a string changed, or True <-> False."""

    name = "mutant_change_constant"
    description = "change a constant: an integer by one, a character of a string, or a boolean"

    def mutations(self, node: cst.CSTNode, info: ModuleInfo) -> _Mutations:
        """Integer, string and boolean literals."""
        if _excluded(node, info):
            return
        if isinstance(node, cst.Integer) and _DECIMAL.match(node.value):
            value = int(node.value)
            new = value + 1 if value == 0 else value + self.rng.choice([1, -1])
            yield node, node.with_changes(value=str(new))
        elif isinstance(node, cst.SimpleString):
            plain = _plain_string(node)
            if plain is None:
                return
            quote, content = plain
            content = _mutate_text(content, self.rng.randrange(len(content))) if content else "a"
            yield node, node.with_changes(value=quote + content + quote)
        elif isinstance(node, cst.Name) and node.value in ("True", "False"):
            flipped = "False" if node.value == "True" else "True"
            yield node, node.with_changes(value=flipped)


class MutantDropNegation(_Mutant):
    """`not x` -> `x`, `a not in b` -> `a in b`, `a is not b` -> `a is b`."""

    name = "mutant_drop_negation"
    description = "drop a negation: remove a `not`, or turn `not in`/`is not` into `in`/`is`"

    def mutations(self, node: cst.CSTNode, info: ModuleInfo) -> _Mutations:
        """Every `not`, `not in` and `is not`."""
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
            operand = strip_parens(node.expression)
            yield node, keep_parens(node, wrap(operand, required_precedence(node, info)))
        elif isinstance(node, cst.ComparisonTarget) and isinstance(
            node.operator, cst.NotIn | cst.IsNot
        ):
            kind = cst.In if isinstance(node.operator, cst.NotIn) else cst.Is
            yield node, node.with_changes(operator=operator_like(kind, node.operator))


_ARITHMETIC_SWAPS: dict[type[cst.CSTNode], type[cst.CSTNode]] = {
    cst.Add: cst.Subtract,
    cst.Subtract: cst.Add,
    cst.Multiply: cst.FloorDivide,
    cst.FloorDivide: cst.Multiply,
    cst.Divide: cst.Multiply,
    cst.Modulo: cst.FloorDivide,
    cst.AddAssign: cst.SubtractAssign,
    cst.SubtractAssign: cst.AddAssign,
    cst.MultiplyAssign: cst.FloorDivideAssign,
    cst.FloorDivideAssign: cst.MultiplyAssign,
}


class MutantArithmetic(_Mutant):
    """`+` <-> `-`, `*` <-> `//` (also in augmented assignments)."""

    name = "mutant_arithmetic"
    description = "replace an arithmetic operator: + and - swapped, * and // swapped"

    def mutations(self, node: cst.CSTNode, info: ModuleInfo) -> _Mutations:
        """Every arithmetic operator with a counterpart."""
        if isinstance(node, cst.BinaryOperation | cst.AugAssign):
            operator = node.operator
            swapped: Any = _ARITHMETIC_SWAPS.get(type(operator))
            if swapped is not None:
                yield node, node.with_changes(operator=operator_like(swapped, operator))


class MutantBooleanOperator(_Mutant):
    """`and` <-> `or`."""

    name = "mutant_boolean_operator"
    description = "replace `and` by `or` or the reverse"

    def mutations(self, node: cst.CSTNode, info: ModuleInfo) -> _Mutations:
        """Every boolean operator."""
        if isinstance(node, cst.BooleanOperation):
            swapped = cst.Or if isinstance(node.operator, cst.And) else cst.And
            yield node, node.with_changes(operator=operator_like(swapped, node.operator))


_NON_COMMUTATIVE = (
    cst.Subtract,
    cst.Divide,
    cst.FloorDivide,
    cst.Modulo,
    cst.Power,
    cst.LeftShift,
    cst.RightShift,
    cst.Add,  # concatenation is not commutative
)


class MutantSwapOperands(_Mutant):
    """`a - b` -> `b - a`, `s.replace(a, b)` -> `s.replace(b, a)`, `s[i:j]` -> `s[j:i]`."""

    name = "mutant_swap_operands"
    description = "swap the operands of a non-commutative operator, a method call or a slice"

    def mutations(self, node: cst.CSTNode, info: ModuleInfo) -> _Mutations:
        """Binary operations, two-argument method calls and two-bound slices."""
        if (
            isinstance(node, cst.BinaryOperation)
            and isinstance(node.operator, _NON_COMMUTATIVE)
            and not (
                isinstance(node.operator, cst.Add)
                and (_is_number(node.left) or _is_number(node.right))
            )
        ):
            left, right = strip_parens(node.left), strip_parens(node.right)
            if isinstance(node.operator, cst.Power):
                new_left, new_right = wrap(right, 14), wrap(left, 12)
            else:
                own = _BINARY_LEVEL[type(node.operator)]
                new_left, new_right = wrap(right, own), wrap(left, own + 1)
            yield node, node.with_changes(left=new_left, right=new_right)
        elif (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and len(node.args) == 2
            and all(a.keyword is None and not a.star for a in node.args)
        ):
            first, second = node.args
            swapped = [
                first.with_changes(value=second.value),
                second.with_changes(value=first.value),
            ]
            yield node, node.with_changes(args=swapped)
        elif (
            isinstance(node, cst.Slice)
            and node.lower is not None
            and node.upper is not None
            and node.step is None
        ):
            yield node, node.with_changes(lower=node.upper, upper=node.lower)


def _is_number(expr: cst.BaseExpression) -> bool:
    return isinstance(strip_parens(expr), cst.Integer | cst.Float | cst.Imaginary)


_BINARY_LEVEL: dict[type[cst.BaseBinaryOp], int] = {
    cst.Subtract: 10,
    cst.Add: 10,
    cst.Divide: 11,
    cst.FloorDivide: 11,
    cst.Modulo: 11,
    cst.LeftShift: 9,
    cst.RightShift: 9,
}

_DROPPABLE_BUILTINS = frozenset({"reversed", "sorted", "abs", "set", "list", "tuple", "str"})
_DROPPABLE_METHODS = frozenset(
    {"upper", "lower", "strip", "lstrip", "rstrip", "title", "capitalize", "swapcase",
     "casefold", "copy"}
)  # fmt: skip


class MutantDropCall(_Mutant):
    """`sorted(xs)` -> `xs`, `text.upper()` -> `text`: a conversion left out."""

    name = "mutant_drop_call"
    description = "leave out a conversion call: sorted(x), reversed(x), x.upper()... become x"

    def mutations(self, node: cst.CSTNode, info: ModuleInfo) -> _Mutations:
        """One-argument builtin conversions and argument-less string/copy methods."""
        if not isinstance(node, cst.Call):
            return
        func = node.func
        operand: cst.BaseExpression | None = None
        if (
            isinstance(func, cst.Name)
            and func.value in _DROPPABLE_BUILTINS
            and info.is_builtin(func.value)
            and len(node.args) == 1
            and node.args[0].keyword is None
            and not node.args[0].star
        ):
            operand = node.args[0].value
        elif (
            isinstance(func, cst.Attribute)
            and func.attr.value in _DROPPABLE_METHODS
            and not node.args
        ):
            operand = func.value
        if operand is not None:
            replacement = wrap(strip_parens(operand), required_precedence(node, info))
            yield node, keep_parens(node, replacement)


class MutantDropStatement(_Mutant):
    """A statement left out: a call for its effect, an augmented assignment, or an
    assignment to a name that already has a value."""

    name = "mutant_drop_statement"
    keeps_lines = False
    description = "delete one statement (a call, an augmented assignment or a reassignment)"

    def mutations(self, node: cst.CSTNode, info: ModuleInfo) -> _Mutations:
        """Simple statements whose removal leaves every name bound."""
        if not isinstance(node, cst.SimpleStatementLine) or len(node.body) != 1:
            return
        block = info.parent(node)
        func = info.enclosing_function(node)
        if not isinstance(block, cst.IndentedBlock) or func is None:
            return
        small = node.body[0]
        droppable = isinstance(small, cst.AugAssign) or (
            isinstance(small, cst.Expr) and isinstance(small.value, cst.Call)
        )
        if isinstance(small, cst.Assign):
            names: set[str] = set()
            for target in small.targets:
                names |= target_names(target.target) or {"?"}
            droppable = names <= bound_before(node, func, info)
        if not droppable:
            return
        commented = node.trailing_whitespace.comment is not None or any(
            line.comment for line in node.leading_lines
        )
        if len(block.body) > 1 and not commented:
            yield node, cst.RemovalSentinel.REMOVE
        else:
            # `pass` keeps the block non-empty and the comments around the statement.
            yield node, node.with_changes(body=[cst.Pass()])


_METHOD_SWAPS: dict[str, str] = {
    "lstrip": "rstrip", "rstrip": "lstrip", "strip": "lstrip", "upper": "lower",
    "lower": "upper", "isupper": "islower", "islower": "isupper", "isdigit": "isalpha",
    "isalpha": "isdigit", "isalnum": "isalpha", "isascii": "isalnum", "isdecimal": "isalpha",
    "isnumeric": "isalpha", "isspace": "isalnum", "istitle": "isupper",
    "startswith": "endswith", "endswith": "startswith", "find": "rfind", "rfind": "find",
    "index": "rindex", "rindex": "index", "splitlines": "split", "center": "ljust",
    "ljust": "rjust", "rjust": "ljust", "keys": "values", "values": "keys", "title": "upper",
    "capitalize": "title", "swapcase": "upper", "count": "find", "removeprefix": "removesuffix",
    "removesuffix": "removeprefix", "partition": "rpartition", "rpartition": "partition",
}  # fmt: skip


class MutantSwapMethod(_Mutant):
    """`s.lstrip()` -> `s.rstrip()`, `d.keys()` -> `d.values()`...: a sibling method."""

    name = "mutant_swap_method"
    description = "call a sibling method instead: lstrip/rstrip, upper/lower, keys/values..."

    def mutations(self, node: cst.CSTNode, info: ModuleInfo) -> _Mutations:
        """Method calls with a same-signature sibling."""
        if (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and node.func.attr.value in _METHOD_SWAPS
        ):
            attr = node.func.attr
            yield attr, attr.with_changes(value=_METHOD_SWAPS[attr.value])


class MutantSwapBranches(_Mutant):
    """The two branches of an if/else (or of a conditional expression) exchanged, the
    condition kept."""

    name = "mutant_swap_branches"
    keeps_lines = False
    description = "exchange the two branches of an if/else or a conditional expression"

    def mutations(self, node: cst.CSTNode, info: ModuleInfo) -> _Mutations:
        """If/else statements with same-kind bodies and conditional expressions."""
        if isinstance(node, cst.IfExp):
            yield (
                node,
                node.with_changes(
                    body=wrap(strip_parens(node.orelse), 2), orelse=wrap(strip_parens(node.body), 1)
                ),
            )
        elif (
            isinstance(node, cst.If)
            and isinstance(node.orelse, cst.Else)
            and type(node.body) is type(node.orelse.body)
        ):
            then_body, else_body = node.body, node.orelse.body
            new_then = then_body.with_changes(body=else_body.body)
            new_else = else_body.with_changes(body=then_body.body)
            yield (
                node,
                node.with_changes(body=new_then, orelse=node.orelse.with_changes(body=new_else)),
            )


TRANSFORMS: tuple[type[Transform], ...] = (
    MutantOffByOne,
    MutantSwapComparison,
    MutantChangeConstant,
    MutantDropNegation,
    MutantArithmetic,
    MutantBooleanOperator,
    MutantSwapOperands,
    MutantDropCall,
    MutantDropStatement,
    MutantSwapMethod,
    MutantSwapBranches,
)

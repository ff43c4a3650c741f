"""`x op= y` <-> `x = x op y`, only where `x` provably holds an immutable value; every
such update of its function is rewritten with it, so the two spellings never stand together.

For a list, `x += y` extends the list in place (other references see the change) while
`x = x + y` builds a new list, so the rewrite is only exact when the value has no in-place
operator: numbers, strings, bytes, tuples, booleans, None. A flow-insensitive analysis of
each function gives a name a type tag only when every binding of the name in that function
(parameters included: their type is unknown) yields an immutable value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import libcst as cst

from transforms._analysis import (
    STR_ONLY_METHODS,
    ModuleInfo,
    children,
    import_binding,
    in_function,
    strip_parens,
    target_names,
    wrap,
)
from transforms._base import Transform

# Type tags: "str", "num", "tuple", "imm" (some immutable builtin value), None (unknown).
_Tag = str | None

_AUG_TO_BIN: dict[type[cst.BaseAugOp], type[cst.BaseBinaryOp]] = {
    cst.AddAssign: cst.Add,
    cst.SubtractAssign: cst.Subtract,
    cst.MultiplyAssign: cst.Multiply,
    cst.DivideAssign: cst.Divide,
    cst.FloorDivideAssign: cst.FloorDivide,
    cst.ModuloAssign: cst.Modulo,
    cst.PowerAssign: cst.Power,
    cst.LeftShiftAssign: cst.LeftShift,
    cst.RightShiftAssign: cst.RightShift,
    cst.BitAndAssign: cst.BitAnd,
    cst.BitOrAssign: cst.BitOr,
    cst.BitXorAssign: cst.BitXor,
}
_BIN_TO_AUG = {b: a for a, b in _AUG_TO_BIN.items()}

_NUM_BUILTINS = frozenset({"len", "int", "float", "ord", "abs", "round", "hash", "sum", "pow"})
_STR_BUILTINS = frozenset({"str", "chr", "repr", "hex", "bin", "oct", "format", "ascii"})
_STR_RESULT_METHODS = STR_ONLY_METHODS - {
    "split", "rsplit", "splitlines", "partition", "rpartition", "count", "find", "rfind",
    "index", "rindex", "encode", "decode",
} | {"join", "format"}  # fmt: skip
_NUM_RESULT_METHODS = frozenset({"count", "find", "rfind", "index", "rindex"})
_PRED_METHODS = frozenset(m for m in STR_ONLY_METHODS if m.startswith(("is", "starts", "ends")))


def _join(tags: list[_Tag]) -> _Tag:
    if not tags or any(t is None for t in tags):
        return None
    first = tags[0]
    return first if all(t == first for t in tags) else "imm"


class _Types:
    """Immutable-type tags of the locals of one function."""

    def __init__(self, func: cst.FunctionDef, info: ModuleInfo) -> None:
        self.info = info
        self.bindings: dict[str, list[tuple[str, cst.CSTNode]]] = {}
        params = func.params
        for param in [
            *params.posonly_params,
            *params.params,
            *params.kwonly_params,
            params.star_arg,
            params.star_kwarg,
        ]:
            if isinstance(param, cst.Param):
                self._bind(param.name.value, "unknown", param)
        self._collect(func.body)
        self.tags: dict[str, _Tag] = {name: "top" for name in self.bindings}
        for name in info.names.declared:
            self.tags[name] = None
        changed = True
        while changed:
            changed = False
            for name, binds in self.bindings.items():
                if self.tags.get(name) is None:
                    continue
                tag = _join([self._binding_tag(kind, node) for kind, node in binds])
                if tag != self.tags[name]:
                    self.tags[name] = tag
                    changed = True

    def _bind(self, name: str, kind: str, node: cst.CSTNode) -> None:
        self.bindings.setdefault(name, []).append((kind, node))

    def _collect(self, node: cst.CSTNode) -> None:
        for child in children(node):
            if isinstance(child, cst.FunctionDef | cst.ClassDef):
                self._bind(child.name.value, "unknown", child)
                continue
            if isinstance(child, cst.Lambda | cst.ListComp | cst.SetComp | cst.DictComp):
                continue
            if isinstance(child, cst.GeneratorExp):
                continue
            if isinstance(child, cst.Assign):
                for target in child.targets:
                    if isinstance(target.target, cst.Name):
                        self._bind(target.target.value, "value", child.value)
                    else:
                        for name in target_names(target.target) or set():
                            self._bind(name, "unknown", child)
            elif isinstance(child, cst.AnnAssign) and isinstance(child.target, cst.Name):
                self._bind(child.target.value, "value" if child.value else "unknown", child)
            elif isinstance(child, cst.AugAssign) and isinstance(child.target, cst.Name):
                self._bind(child.target.value, "aug", child)
            elif isinstance(child, cst.For):
                ranged = _is_range(child.iter) and self.info.is_builtin("range")
                kind = "range" if ranged else "iter"
                for name in target_names(child.target) or set():
                    self._bind(
                        name, kind if isinstance(child.target, cst.Name) else "unknown", child
                    )
            elif isinstance(child, cst.NamedExpr) and isinstance(child.target, cst.Name):
                self._bind(child.target.value, "value", child.value)
            elif isinstance(child, cst.AsName):
                for name in target_names(child.name) or set():
                    self._bind(name, "unknown", child)
            elif isinstance(child, cst.ImportAlias):
                self._bind(import_binding(child), "unknown", child)
            self._collect(child)

    def _binding_tag(self, kind: str, node: cst.CSTNode) -> _Tag:
        if kind == "unknown":
            return None
        if kind == "range":
            return "num"
        if kind == "aug":
            assert isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name)
            left = self.tags.get(node.target.value)
            op = _AUG_TO_BIN[type(node.operator)]
            return self._binary(left, op, self.tag(node.value))
        if kind == "iter":
            assert isinstance(node, cst.For)
            return "str" if self.tag(node.iter) == "str" else None
        assert isinstance(node, cst.BaseExpression)
        return self.tag(node)

    def _binary(self, left: _Tag, op: type[cst.BaseBinaryOp], right: _Tag) -> _Tag:
        """The tag of `left op right`: with one immutable builtin operand, the result is an
        immutable value or an error, except that a number (or bool) times a list is a list."""
        if left == "top" or right == "top":
            return "top"
        if left is not None and right is not None:
            if left == right and left in ("str", "num"):
                return left
            return "imm"
        known = left if left is not None else right
        if known is None:
            return None
        if op in (cst.Multiply, cst.MatrixMultiply):
            return known if known in ("str", "tuple") else None
        return "str" if left == "str" else "imm"

    def tag(self, expr: cst.BaseExpression) -> _Tag:
        """The type tag of `expr`'s value ("top" while the analysis has not converged)."""
        expr = strip_parens(expr)
        if isinstance(expr, cst.Integer | cst.Float | cst.Imaginary):
            return "num"
        if isinstance(expr, cst.SimpleString | cst.ConcatenatedString | cst.FormattedString):
            return "str"
        if isinstance(expr, cst.Tuple):
            return "tuple"
        if isinstance(expr, cst.Comparison):
            return "imm"
        if isinstance(expr, cst.Name):
            if expr.value in ("True", "False", "None"):
                return "imm"
            return self.tags.get(expr.value)
        if isinstance(expr, cst.UnaryOperation):
            if isinstance(expr.operator, cst.Not):
                return "imm"
            inner = self.tag(expr.expression)
            return inner if inner in ("num", "top") else None
        if isinstance(expr, cst.BinaryOperation):
            return self._binary(self.tag(expr.left), type(expr.operator), self.tag(expr.right))
        if isinstance(expr, cst.BooleanOperation):
            return _join([self.tag(expr.left), self.tag(expr.right)])
        if isinstance(expr, cst.IfExp):
            return _join([self.tag(expr.body), self.tag(expr.orelse)])
        if isinstance(expr, cst.Subscript):
            base = self.tag(expr.value)
            return "str" if base == "str" else ("top" if base == "top" else None)
        if isinstance(expr, cst.Call):
            return self._call_tag(expr)
        return None

    def _call_tag(self, call: cst.Call) -> _Tag:
        func = call.func
        if isinstance(func, cst.Name) and self.info.is_builtin(func.value):
            if func.value in _NUM_BUILTINS:
                if func.value == "sum" and len(call.args) != 1:
                    return None
                return "num"
            if func.value in _STR_BUILTINS:
                return "str"
            if func.value in ("bool", "isinstance", "tuple"):
                return "imm" if func.value != "tuple" else "tuple"
            return None
        if isinstance(func, cst.Attribute):
            method = func.attr.value
            if method in _NUM_RESULT_METHODS:
                return "num"
            if method in _PRED_METHODS:
                return "imm"
            if method in _STR_RESULT_METHODS:
                return "str"
        return None


def _is_range(expr: cst.BaseExpression) -> bool:
    return (
        isinstance(expr, cst.Call)
        and isinstance(expr.func, cst.Name)
        and expr.func.value == "range"
    )


def _immutable(tag: _Tag) -> bool:
    return tag in ("str", "num", "tuple", "imm")


def _function_types(info: ModuleInfo) -> dict[int, _Types]:
    return {
        id(node): _Types(node, info)
        for node in info.nodes
        if isinstance(node, cst.FunctionDef) and not info.in_class(node.body)
    }


def _augmented_name(node: cst.CSTNode) -> str | None:
    """`x` for `x op= y`."""
    if isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name):
        return node.target.value
    return None


def _self_operation_name(node: cst.CSTNode) -> str | None:
    """`x` for `x = x op y` (an operator that has an augmented form)."""
    if not isinstance(node, cst.Assign) or len(node.targets) != 1:
        return None
    target, value = node.targets[0].target, node.value
    if not isinstance(target, cst.Name) or not isinstance(value, cst.BinaryOperation):
        return None
    if value.lpar or type(value.operator) not in _BIN_TO_AUG:
        return None
    left = value.left
    if not isinstance(left, cst.Name) or left.value != target.value or left.lpar:
        return None
    return target.value


def _immutable_sites(
    info: ModuleInfo,
    name_of: Callable[[cst.CSTNode], str | None],
    kind: type[cst.CSTNode],
) -> list[cst.CSTNode]:
    """The nodes `name_of` names a local of, in a function, whose every value is immutable
    (`name_of` names nodes of type `kind` only: the others are not visited, and the types
    of the functions' locals are worked out, once per analysis, only when a node is named)."""
    named = [(n, name) for n in info.of_types((kind,)) if (name := name_of(n)) is not None]
    if not named:
        return []
    types = info.derived(_function_types)
    candidates: list[cst.CSTNode] = []
    for node, name in named:
        func = info.enclosing_function(node)
        if func is None or not in_function(node, info) or id(func) not in types:
            continue
        if _immutable(types[id(func)].tags.get(name)):
            candidates.append(node)
    return candidates


class _EveryUpdate(Transform):
    """Base: every site of the picked one's function (each update of an immutable local
    there) is rewritten with it: a person who writes `out = out + c` writes
    `out = out + rep` in the next branch too, not `out += rep`, and `count = count + 1`
    beside them."""

    site_local = True
    _sites: list[cst.CSTNode]

    def take_site(self, site: Any, info: ModuleInfo) -> bool:
        """Take every site of the same function along."""
        func = info.enclosing_function(site)
        group = [n for n in self._sites if info.enclosing_function(n) is func]
        self._group = {id(n) for n in group}
        self.limit_visit(group, info)
        return True

    def at_site(self, original_node: cst.CSTNode) -> bool:
        """Whether `original_node` is one of the sites rewritten."""
        return id(original_node) in self._group


class AugAssignExpand(_EveryUpdate):
    """`x += y` -> `x = x + y` where `x` holds an immutable value."""

    name = "augassign_expand"
    kind = "equivalent"
    keeps_lines = True
    description = "expand an augmented assignment x op= y into x = x op y (immutable x only)"

    def find_sites(self, info: ModuleInfo) -> list[cst.CSTNode]:
        """Find augmented assignments to locals whose every value is immutable."""
        self._sites = _immutable_sites(info, _augmented_name, cst.AugAssign)
        return self._sites

    def leave_AugAssign(
        self, original_node: cst.AugAssign, updated_node: cst.AugAssign
    ) -> cst.BaseSmallStatement:
        """Expand the chosen statement."""
        if not self.at_site(original_node):
            return updated_node
        aug = updated_node.operator
        binary = _AUG_TO_BIN[type(aug)]
        op = binary(
            whitespace_before=cst.SimpleWhitespace(" "),  # type: ignore[call-arg]
            whitespace_after=getattr(aug, "whitespace_after"),  # noqa: B009
        )
        needed = 12 if binary is cst.Power else _precedence_of(binary) + 1
        value = cst.BinaryOperation(
            left=cst.Name(updated_node.target.value),  # type: ignore[attr-defined]
            operator=op,
            right=wrap(updated_node.value, needed),
        )
        return cst.Assign(
            targets=[
                cst.AssignTarget(
                    target=updated_node.target,
                    whitespace_before_equal=aug.whitespace_before,  # type: ignore[attr-defined]
                    whitespace_after_equal=aug.whitespace_after,  # type: ignore[attr-defined]
                )
            ],
            value=value,
            semicolon=updated_node.semicolon,
        )


def _precedence_of(binary: type[cst.BaseBinaryOp]) -> int:
    from transforms._analysis import precedence

    sample = cst.BinaryOperation(left=cst.Name("a"), operator=binary(), right=cst.Name("b"))
    return precedence(sample)


class AugAssignContract(_EveryUpdate):
    """`x = x + y` -> `x += y` where `x` holds an immutable value."""

    name = "augassign_contract"
    kind = "equivalent"
    keeps_lines = True
    description = "contract x = x op y into an augmented assignment x op= y (immutable x only)"

    def find_sites(self, info: ModuleInfo) -> list[cst.CSTNode]:
        """Find `x = x op y` assignments to locals whose every value is immutable."""
        self._sites = _immutable_sites(info, _self_operation_name, cst.Assign)
        return self._sites

    def leave_Assign(
        self, original_node: cst.Assign, updated_node: cst.Assign
    ) -> cst.BaseSmallStatement:
        """Contract the chosen statement."""
        if not self.at_site(original_node):
            return updated_node
        value = updated_node.value
        assert isinstance(value, cst.BinaryOperation)
        assign_target = updated_node.targets[0]
        aug_type: Any = _BIN_TO_AUG[type(value.operator)]
        aug = aug_type(
            whitespace_before=assign_target.whitespace_before_equal,
            whitespace_after=assign_target.whitespace_after_equal,
        )
        return cst.AugAssign(
            target=assign_target.target,
            operator=aug,
            value=strip_parens(value.right),
            semicolon=updated_node.semicolon,
        )


TRANSFORMS: tuple[type[Transform], ...] = (AugAssignExpand, AugAssignContract)

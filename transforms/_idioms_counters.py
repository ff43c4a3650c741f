"""`idiom` rewrites of hand-kept counters and swaps.

- `idiom_counter_enumerate`: `i = 0` + `for x in xs: ...; i += 1` -> `for i, x in
  enumerate(xs): ...` (the increment last in the body, no `continue`, `i` touched nowhere
  else in the body and not read after the loop, where the two forms leave different values);
- `idiom_swap_temp`: `a, b = b, a` -> a temporary variable (`tmp = a`, `a = b`, `b = tmp`),
  for names or items with simple indices.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import libcst as cst

from transforms._analysis import (
    FreshNames,
    ModuleInfo,
    assigned_names,
    count_refs,
    has_comments,
    loop_control_of,
    name_values,
)
from transforms._base import Transform
from transforms._idioms_common import (
    IdiomRewrite,
    adjacent_statements,
    assign,
    function_sites,
    is_simple,
    line,
    single_small,
)

_EMPTY = cst.Module(body=[])


def _code(node: cst.CSTNode) -> str:
    return _EMPTY.code_for_node(node)


class CounterToEnumerate(IdiomRewrite):
    """`i = 0` + `for x in xs: ...; i += 1` -> `for i, x in enumerate(xs): ...`."""

    name = "idiom_counter_enumerate"
    description = "count loop iterations with enumerate() instead of a hand-kept counter"

    site: tuple[cst.SimpleStatementLine, cst.For, cst.SimpleStatementLine, str]

    def find_sites(self, info: ModuleInfo) -> Sequence[Any]:
        """A zeroed counter directly before a loop that increments it last."""
        if not info.is_builtin("enumerate"):
            return []
        return [
            site
            for func, _kinds, init, rest in adjacent_statements(info)
            if rest and (site := self._site(init, rest[0], func, info)) is not None
        ]

    def _site(
        self, init: cst.BaseStatement, loop: cst.BaseStatement, func: cst.FunctionDef, info: Any
    ) -> tuple[cst.SimpleStatementLine, cst.For, cst.SimpleStatementLine, str] | None:
        if not (isinstance(init, cst.SimpleStatementLine) and len(init.body) == 1):
            return None
        small = init.body[0]
        if not (
            isinstance(small, cst.Assign)
            and len(small.targets) == 1
            and isinstance(small.targets[0].target, cst.Name)
            and isinstance(small.value, cst.Integer)
            and small.value.value == "0"
        ):
            return None
        counter = small.targets[0].target.value
        if not isinstance(loop, cst.For) or loop.asynchronous or loop.orelse is not None:
            return None
        iterable = loop.iter
        if (
            isinstance(iterable, cst.Call)
            and isinstance(iterable.func, cst.Name)
            and iterable.func.value in ("range", "enumerate")
        ):
            return None  # the loop already has an index
        if not isinstance(loop.body, cst.IndentedBlock) or len(loop.body.body) < 2:
            return None
        last = loop.body.body[-1]
        if not (isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1):
            return None
        step = last.body[0]
        if not (
            isinstance(step, cst.AugAssign)
            and isinstance(step.operator, cst.AddAssign)
            and isinstance(step.target, cst.Name)
            and step.target.value == counter
            and isinstance(step.value, cst.Integer)
            and step.value.value == "1"
        ):
            return None
        rest = cst.IndentedBlock(body=loop.body.body[:-1])
        if counter in assigned_names(rest) or counter in assigned_names(loop.target):
            return None
        if counter in assigned_names(loop.iter) or count_refs(loop.iter, counter):
            return None
        if any(isinstance(c, cst.Continue) for c in loop_control_of(loop.body)):
            return None
        if count_refs(func, counter) != count_refs(loop, counter) + 1:
            return None  # read after the loop (or elsewhere), where the values differ
        if counter in info.captured_names(func) or counter in info.names.declared:
            return None
        if has_comments(init) or has_comments(last):
            return None
        return init, loop, last, counter

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> Any:
        """Drop the counter's initialisation and its increment."""
        init, _, last, _ = self.site
        if original_node is init or original_node is last:
            return cst.RemovalSentinel.REMOVE
        return updated_node

    def leave_For(self, original_node: cst.For, updated_node: cst.For) -> Any:
        """Iterate with enumerate()."""
        init, loop, _, counter = self.site
        if original_node is not loop:
            return updated_node
        target = updated_node.target
        if isinstance(target, cst.Tuple):
            target = target.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        new = updated_node.with_changes(
            target=cst.Tuple(
                elements=[cst.Element(value=cst.Name(counter)), cst.Element(value=target)],
                lpar=[],
                rpar=[],
            ),
            iter=cst.Call(func=cst.Name("enumerate"), args=[cst.Arg(value=updated_node.iter)]),
            leading_lines=[*init.leading_lines, *updated_node.leading_lines],
        )
        self.note_origin(init, new, deep=False)
        return new


def _plain_index(expr: cst.BaseExpression) -> bool:
    """Names and integers combined with + and -: the same value however often evaluated."""
    if is_simple(expr):
        return True
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add | cst.Subtract):
        return _plain_index(expr.left) and _plain_index(expr.right)
    return False


def _swappable(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.Name):
        return True
    return (
        isinstance(expr, cst.Subscript)
        and isinstance(expr.value, cst.Name)
        and len(expr.slice) == 1
        and isinstance(expr.slice[0].slice, cst.Index)
        and _plain_index(expr.slice[0].slice.value)
        and expr.value.value not in name_values(expr.slice[0].slice.value)
    )


def _swap(node: cst.CSTNode) -> cst.SimpleStatementLine | None:
    """`node` when it is a statement line `a, b = b, a`."""
    small = single_small(node)
    if not isinstance(small, cst.Assign) or len(small.targets) != 1:
        return None
    target, value = small.targets[0].target, small.value
    if not (isinstance(target, cst.Tuple) and isinstance(value, cst.Tuple)):
        return None
    if len(target.elements) != 2 or len(value.elements) != 2:
        return None
    a, b = (e.value for e in target.elements)
    c, d = (e.value for e in value.elements)
    if not (_swappable(a) and _swappable(b)) or has_comments(node):
        return None
    if _code(a) == _code(b) or _code(c) != _code(b) or _code(d) != _code(a):
        return None
    if isinstance(a, cst.Subscript) != isinstance(b, cst.Subscript):
        return None
    if isinstance(a, cst.Subscript) and isinstance(b, cst.Subscript):
        containers = {a.value.value, b.value.value}  # type: ignore[attr-defined]
        indices = name_values(a.slice[0]) | name_values(b.slice[0])
        if containers & indices:
            return None
    assert isinstance(node, cst.SimpleStatementLine)
    return node


class SwapToTemp(IdiomRewrite):
    """`a, b = b, a` -> `tmp = a`, `a = b`, `b = tmp`."""

    name = "idiom_swap_temp"
    site_local = True
    description = "swap two values through a temporary variable instead of tuple assignment"

    site: cst.SimpleStatementLine
    temp: str

    def find_sites(self, info: ModuleInfo) -> Sequence[cst.SimpleStatementLine]:
        """Tuple swaps."""
        return function_sites(
            info, lambda node, _func, _kinds: _swap(node), (cst.SimpleStatementLine,)
        )

    def take_site(self, site: cst.SimpleStatementLine, info: ModuleInfo) -> bool:
        """Name the temporary."""
        self.temp = FreshNames(info.names.identifiers).choose(["tmp", "temp"], self.rng)
        return True

    def replace(self, original_node: cst.CSTNode, updated_node: Any) -> Any:
        """Swap through the temporary."""
        if not self.at_site(original_node):
            return updated_node
        small = updated_node.body[0]
        assert isinstance(small, cst.Assign) and isinstance(small.targets[0].target, cst.Tuple)
        a, b = (e.value for e in small.targets[0].target.elements)
        assert isinstance(a, cst.Name | cst.Subscript) and isinstance(b, cst.Name | cst.Subscript)
        keep = assign(self.temp, a.deep_clone()).with_changes(
            leading_lines=updated_node.leading_lines
        )
        first = line(cst.Assign(targets=[cst.AssignTarget(target=a)], value=b.deep_clone()))
        second = line(cst.Assign(targets=[cst.AssignTarget(target=b)], value=cst.Name(self.temp)))
        produced = [keep, first, second]
        self.note_origin(original_node, *produced)
        return cst.FlattenSentinel(produced)


TRANSFORMS: tuple[type[Transform], ...] = (CounterToEnumerate, SwapToTemp)

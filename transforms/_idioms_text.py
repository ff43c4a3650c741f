"""`idiom` rewrites of straight-line str/list method calls into the expressions they compute.

Each is exact on the builtin kind that has the method (bytes aside: `_idioms_common` leaves
modules that touch bytes alone); a receiver proven of another kind is left alone, and on a
receiver of unknown kind that lacks the method the original raises AttributeError, which
differential verification rejects:

- `s.removeprefix(p)` -> `s[len(p):] if s.startswith(p) else s` (`s[2:]` for a literal `p`;
  a name `p` not proven of another kind: removeprefix raises TypeError on all but a str);
  `s.removesuffix(p)` -> `s[:len(s) - len(p)] if s.endswith(p) else s` (`s[:-2]` for a
  non-empty literal; `len(s) - len(p)` keeps the whole of `s` for an empty `p`, where
  `s[:-0]` would be empty);
- `s.ljust(n, c)` -> `s + c * (n - len(s))`, `s.rjust(n, c)` -> `c * (n - len(s)) + s`
  (a one-character literal fill; a negative count repeats to '', as the methods return `s`
  unchanged when it is already `n` long);
- `s.count('ab')` -> `len(s.split('ab')) - 1` for a proven str `s` (both count
  non-overlapping occurrences; a list has count but no split);
- `x in s` -> `s.find(x) != -1` (`not in`: `== -1`) for a proven str `s` (on a list or a
  dict `in` tests items or keys; a non-str `x` raises TypeError both ways);
- `xs.sort(key=k, reverse=r)` -> `xs[:] = sorted(xs, key=k, reverse=r)` (sort exists on
  list only; the same stable sort, in place through the slice, so every alias sees it), or
  `xs = sorted(xs, ...)` for a local that only ever holds new lists nothing else refers to.
  Where items do not compare both raise TypeError, but sort() may leave the list half
  sorted and sorted() leaves it as it was: verification compares the argument afterwards.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import libcst as cst

from transforms._analysis import (
    has_comments,
    is_pure,
    may_raise,
    name_values,
    param_names,
    walk,
    wrap,
)
from transforms._base import Transform
from transforms._idioms_common import (
    LIST,
    SEQ,
    STR,
    Kinds,
    builtin_call,
    call_expr,
    method_call,
    method_expr,
    str_value,
)
from transforms._idioms_methods import _ExpressionIdiom, method_operation


def _slice(
    receiver: cst.BaseExpression,
    lower: cst.BaseExpression | None,
    upper: cst.BaseExpression | None,
) -> cst.Subscript:
    return cst.Subscript(
        value=receiver, slice=[cst.SubscriptElement(slice=cst.Slice(lower=lower, upper=upper))]
    )


def _positional(args: list[cst.Arg]) -> bool:
    return all(a.keyword is None and not a.star for a in args)


def _str_receiver(receiver: cst.BaseExpression, node: cst.CSTNode, kinds: Kinds) -> bool:
    """A name that may hold a str: a method only str has pins it (see module doc)."""
    return isinstance(receiver, cst.Name) and kinds.excluding(node).of_name(receiver.value) in (
        STR,
        SEQ,
        None,
    )


class RemovePrefixToSlice(_ExpressionIdiom):
    """`s.removeprefix(p)` -> `s[len(p):] if s.startswith(p) else s` (and removesuffix
    with endswith)."""

    name = "idiom_removeprefix_slice"
    description = "slice a prefix or suffix off behind a startswith/endswith test"

    node_types = (cst.Call,)

    def operation(self, node: cst.CSTNode) -> Hashable | None:
        """Every removal of a prefix or suffix from one str."""
        return method_operation(node, ("removeprefix", "removesuffix"), "remove affix")

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        call = method_call(node)
        if call is None or call[1] not in ("removeprefix", "removesuffix"):
            return None
        receiver, method, args = call
        if len(args) != 1 or not _positional(args) or not _str_receiver(receiver, node, kinds):
            return None
        assert isinstance(receiver, cst.Name)
        parent = kinds.info.parent(node)
        if isinstance(parent, cst.If | cst.While | cst.IfExp) and parent.test is node:
            return None  # `if s[2:] if s.startswith('ab') else s:` reads as no one writes
        if isinstance(parent, cst.IfExp):
            return None
        affix = args[0].value
        literal = str_value(affix)
        if literal is not None and isinstance(affix, cst.SimpleString):
            if not literal:
                return None  # `s.removeprefix('')` is `s`: nothing natural to write
            return method, len(literal)
        # A name that may hold a str: removeprefix raises TypeError on any other argument
        # (a tuple, which startswith takes, included); one proven of another kind declines.
        if (
            isinstance(affix, cst.Name)
            and kinds.excluding(node).of_name(affix.value) in (STR, None)
            and affix.value != receiver.value
            and kinds.info.is_builtin("len")
        ):
            return method, None
        return None

    def build(self, updated: Any) -> Any:
        method, n = self.data
        receiver, affix = updated.func.value, updated.args[0].value
        piece: cst.BaseExpression
        if method == "removeprefix":
            lower = cst.Integer(str(n)) if n is not None else call_expr("len", affix.deep_clone())
            piece = _slice(receiver.deep_clone(), lower, None)
            test = method_expr(receiver.deep_clone(), "startswith", affix)
        else:
            upper: cst.BaseExpression
            if n is not None:
                upper = cst.UnaryOperation(operator=cst.Minus(), expression=cst.Integer(str(n)))
            else:
                upper = cst.BinaryOperation(
                    left=call_expr("len", receiver.deep_clone()),
                    operator=cst.Subtract(),
                    right=call_expr("len", affix.deep_clone()),
                )
            piece = _slice(receiver.deep_clone(), None, upper)
            test = method_expr(receiver.deep_clone(), "endswith", affix)
        return cst.IfExp(test=test, body=piece, orelse=receiver)


def _adds_own_length(width: cst.BaseExpression, name: str) -> bool:
    """Whether `width` is `len(name) + e` or `e + len(name)` (the padding would subtract
    the length it adds)."""
    if not isinstance(width, cst.BinaryOperation) or not isinstance(width.operator, cst.Add):
        return False
    for side in (width.left, width.right):
        if (
            isinstance(side, cst.Call)
            and isinstance(side.func, cst.Name)
            and side.func.value == "len"
            and len(side.args) == 1
            and isinstance(side.args[0].value, cst.Name)
            and side.args[0].value.value == name
        ):
            return True
    return _adds_own_length(width.left, name)


class JustifyToConcat(_ExpressionIdiom):
    """`s.ljust(n, c)` -> `s + c * (n - len(s))`; `s.rjust(n, c)` -> `c * (n - len(s)) + s`."""

    name = "idiom_justify_concat"
    description = "pad a string by concatenating repeated fill instead of ljust/rjust"

    node_types = (cst.Call,)

    def operation(self, node: cst.CSTNode) -> Hashable | None:
        """Every padding of one str."""
        return method_operation(node, ("ljust", "rjust"), "justify")

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        call = method_call(node)
        if call is None or call[1] not in ("ljust", "rjust"):
            return None
        receiver, method, args = call
        if len(args) not in (1, 2) or not _positional(args):
            return None
        if not _str_receiver(receiver, node, kinds) or not kinds.info.is_builtin("len"):
            return None
        width = args[0].value
        # The width is evaluated after the fill in the rewrite: it must not act.
        if not is_pure(width, kinds.info):
            return None
        if _adds_own_length(width, receiver.value):  # type: ignore[attr-defined]
            return None  # `s + '#' * (len(s) + 1 - len(s))`: no one pads so
        if any(isinstance(n, cst.Lambda | cst.GeneratorExp) for n in walk(width)):
            return None
        if len(args) == 2:
            fill = str_value(args[1].value)
            if fill is None or len(fill) != 1 or not isinstance(args[1].value, cst.SimpleString):
                return None  # ljust takes exactly one character; `*` repeats any str
        return method

    def build(self, updated: Any) -> Any:
        receiver = updated.func.value
        args = updated.args
        fill = args[1].value if len(args) == 2 else cst.SimpleString("' '")
        missing = cst.BinaryOperation(
            left=wrap(args[0].value, 10),
            operator=cst.Subtract(),
            right=call_expr("len", receiver.deep_clone()),
        )
        padding = cst.BinaryOperation(
            left=fill,
            operator=cst.Multiply(),
            right=missing.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]),
        )
        if self.data == "ljust":
            return cst.BinaryOperation(left=receiver, operator=cst.Add(), right=padding)
        return cst.BinaryOperation(left=padding, operator=cst.Add(), right=receiver)


class CountToSplit(_ExpressionIdiom):
    """`s.count('ab')` -> `len(s.split('ab')) - 1` for a str `s`."""

    name = "idiom_count_split"
    description = "count a substring by the pieces splitting on it gives"

    node_types = (cst.Call,)

    def operation(self, node: cst.CSTNode) -> Hashable | None:
        """Every count on one receiver."""
        return method_operation(node, ("count",), "count")

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        call = method_call(node)
        if call is None or call[1] != "count":
            return None
        receiver, _, args = call
        if len(args) != 1 or not _positional(args) or not kinds.info.is_builtin("len"):
            return None
        needle = args[0].value
        # An empty needle: count gives len(s) + 1, split raises ValueError.
        if not str_value(needle) or not isinstance(needle, cst.SimpleString):
            return None
        if kinds.excluding(node).of(receiver) != STR:
            return None  # a list or a tuple counts items and has no split
        return True

    def build(self, updated: Any) -> Any:
        receiver, needle = updated.func.value, updated.args[0].value
        pieces = call_expr("len", method_expr(receiver, "split", needle))
        return cst.BinaryOperation(left=pieces, operator=cst.Subtract(), right=cst.Integer("1"))


_FRESH_LIST_METHODS = frozenset({"split", "rsplit", "splitlines", "copy"})


def _fresh_list(value: cst.BaseExpression, kinds: Kinds) -> bool:
    """Whether `value` makes a new list no other name holds (a display, a comprehension,
    `list(...)`/`sorted(...)`, `s.split()`, a slice or a sum of lists)."""
    if isinstance(value, cst.List | cst.ListComp):
        return True
    call = builtin_call(value, kinds.info)
    if call is not None:
        return call[0] in ("list", "sorted")
    method = method_call(value)
    if method is not None:
        return method[1] in _FRESH_LIST_METHODS and kinds.of(value) == LIST
    if isinstance(value, cst.Subscript | cst.BinaryOperation):
        return kinds.of(value) == LIST
    return False


def _unshared_local(name: str, kinds: Kinds) -> bool:
    """Whether local `name` only ever holds new lists that nothing else refers to: each
    binding makes one, and every read is a method call, an item, `len()`, a comparison or
    the returned value (nothing keeps the list under another name), so rebinding it to a
    sorted copy is sorting it in place."""
    func, info = kinds.func, kinds.info
    if name in param_names(func) or name not in info.locals_of(func):
        return False
    for node in walk(func.body):
        binds = isinstance(node, cst.Assign) and any(
            name in name_values(t.target) for t in node.targets
        )
        if binds and not (
            isinstance(node, cst.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0].target, cst.Name)
            and _fresh_list(node.value, kinds)
        ):
            return False
        if not (isinstance(node, cst.Name) and node.value == name):
            continue
        parent = info.parent(node)
        if isinstance(parent, cst.AssignTarget) and parent.target is node:
            continue
        if isinstance(parent, cst.AugAssign) and parent.target is node:
            continue
        if isinstance(parent, cst.Attribute | cst.Subscript) and parent.value is node:
            continue
        if isinstance(parent, cst.Return | cst.Comparison | cst.ComparisonTarget):
            continue
        call = info.parent(parent) if isinstance(parent, cst.Arg) else None
        builtin = builtin_call(call, info) if call is not None else None
        if builtin is not None and builtin[0] == "len":
            continue
        return False
    return True


class SortToSorted(_ExpressionIdiom):
    """`xs.sort(key=k, reverse=r)` -> `xs[:] = sorted(xs, key=k, reverse=r)`, or
    `xs = sorted(xs, ...)` for a local list nothing else refers to."""

    name = "idiom_sort_sorted"
    description = "sort a list by assigning sorted() to its whole slice instead of sort()"

    node_types = (cst.Expr,)
    operation_types = (cst.Call,)

    def operation(self, node: cst.CSTNode) -> Hashable | None:
        """Every sort of one list."""
        return method_operation(node, ("sort",), "sort")

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        if not isinstance(node, cst.Expr):
            return None
        call = method_call(node.value)
        if call is None or call[1] != "sort":
            return None
        receiver, _, args = call
        if not isinstance(receiver, cst.Name) or not kinds.info.is_builtin("sorted"):
            return None
        if kinds.excluding(node.value).of_name(receiver.value) not in (LIST, SEQ, None):
            return None  # sort exists on list only among builtins
        names = {a.keyword.value for a in args if a.keyword is not None}
        if len(names) != len(args) or not names <= {"key", "reverse"}:
            return None
        # While sort() runs the list looks empty: a key that reads it must see the same.
        for arg in args:
            if receiver.value in name_values(arg.value):
                return None
        if receiver.value in kinds.info.captured_names(kinds.func):
            return None
        return "rebind" if _unshared_local(receiver.value, kinds) else "slice"

    def build(self, updated: Any) -> Any:
        call = updated.value
        receiver = call.func.value
        ordered = cst.Call(
            func=cst.Name("sorted"),
            args=[cst.Arg(value=receiver.deep_clone()), *call.args],
        )
        target = receiver if self.data == "rebind" else _slice(receiver, None, None)
        return cst.Assign(
            targets=[cst.AssignTarget(target=target)],
            value=ordered,
            semicolon=updated.semicolon,
        )


def _spaced(statement: cst.If | cst.While) -> bool:
    """Whether the keyword of `statement` is followed by whitespace."""
    space = (
        statement.whitespace_before_test
        if isinstance(statement, cst.If)
        else statement.whitespace_after_while
    )
    return isinstance(space, cst.SimpleWhitespace) and space.value != ""


class InToFind(_ExpressionIdiom):
    """`x in s` -> `s.find(x) != -1`, `x not in s` -> `s.find(x) == -1` for a str `s`."""

    name = "idiom_in_find"
    description = "test a substring with str.find instead of in"

    node_types = (cst.Comparison,)

    def operation(self, node: cst.CSTNode) -> Hashable | None:
        """Every membership test in one name."""
        if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
            target = node.comparisons[0]
            if isinstance(target.operator, cst.In | cst.NotIn) and isinstance(
                target.comparator, cst.Name
            ):
                return ("in", target.comparator.value)
        return None

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        if not isinstance(node, cst.Comparison) or len(node.comparisons) != 1:
            return None
        target = node.comparisons[0]
        if not isinstance(target.operator, cst.In | cst.NotIn):
            return None
        needle, haystack = node.left, target.comparator
        info = kinds.info
        # `in` on a list or a dict tests items or keys: only a str has find.
        if kinds.of(haystack) != STR or has_comments(node):
            return None
        if isinstance(haystack, cst.SimpleString | cst.ConcatenatedString | cst.FormattedString):
            return None  # `'aeiou'.find(c) != -1` for `c in 'aeiou'`: no one writes it
        if not (is_pure(needle, info) and is_pure(haystack, info)):
            return None
        if may_raise(needle, info) and may_raise(haystack, info):
            return None  # find evaluates them in the other order
        if any(isinstance(n, cst.NamedExpr | cst.Lambda) for n in walk(node)):
            return None
        return isinstance(target.operator, cst.In)

    def build(self, updated: Any) -> Any:
        needle = updated.left.with_changes(lpar=[], rpar=[])
        haystack = wrap(updated.comparisons[0].comparator, 16)
        found = method_expr(haystack, "find", needle)
        op: cst.BaseCompOp = cst.NotEqual() if self.data else cst.Equal()
        minus_one = cst.UnaryOperation(operator=cst.Minus(), expression=cst.Integer("1"))
        return cst.Comparison(left=found, comparisons=[cst.ComparisonTarget(op, minus_one)])

    def replace(self, original_node: cst.CSTNode, result: Any) -> Any:
        """As the base does, without the parentheses it puts after `if`/`while` for a test
        that starts with a quote (`if ',' in s:`): the keyword keeps its space."""
        new = super().replace(original_node, result)
        parent = self.info.parent(original_node)
        if (
            isinstance(new, cst.Comparison)
            and new.lpar
            and isinstance(original_node, cst.Comparison)
            and not original_node.lpar
            and isinstance(parent, cst.If | cst.While)
            and parent.test is original_node
            and _spaced(parent)
        ):
            return new.with_changes(lpar=[], rpar=[])
        return new


TRANSFORMS: tuple[type[Transform], ...] = (
    RemovePrefixToSlice,
    JustifyToConcat,
    CountToSplit,
    SortToSorted,
    InToFind,
)

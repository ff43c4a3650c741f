"""`idiom` rewrites between builtins, dict methods and the operations they stand for.

Each rewrite is exact for the value kinds it requires (see `_idioms_common.Kinds`):

- `len(xs) == 0` <-> `not xs`, `len(xs) > 0` (in a test) <-> `xs` (a str, list, tuple or
  dict: their truth is their length); `s == ''`, `xs == []`, `d == {}` -> `not s`... (of
  that kind);
- `if k in d: d[k] += 1 else: d[k] = 1` -> `d[k] = d.get(k, 0) + 1`,
  `if k in d: x = d[k] else: x = v` -> `x = d.get(k, v)`, `d[k] if k in d else v` ->
  `d.get(k, v)`, `if k not in d: d[k] = v` -> `d.setdefault(k, v)` (a dict `d`, a simple
  key, a literal or parameter default: evaluating it early changes nothing);
- `s[::-1]` <-> `''.join(reversed(s))` (a str), `xs[::-1]` <-> `list(reversed(xs))` (a list),
  `for x in xs[::-1]:` -> `for x in reversed(xs):` (a sequence the loop leaves alone);
- `sep.join([e for x in xs])` <-> `sep.join(e for x in xs)` (join builds a list from its
  argument first, so the two evaluate the same items in the same order), and
  `sep.join([x for x in xs])` -> `sep.join(xs)`;
- `d = {}` + `for x in xs: [if c:] d[k] = v` -> `d = {k: v for x in xs [if c]}`, and
  `s = set()` + `for x in xs: [if c:] s.add(e)` -> `s = {e for x in xs [if c]}` (the loop
  variables used nowhere else, since a comprehension has a scope of its own; `k` and `v`
  without effects, and not both able to raise: the comprehension evaluates `k` first, the
  assignment `v`);
- `for i in range(a, b, -1):` <-> `for i in reversed(range(b + 1, a + 1)):` (ints `a`, `b`;
  `range(n - 1, -1, -1)` is `reversed(range(n))`);
- `s = ''` + a loop that grows `s` only by `s += piece` (strs) -> a list of the pieces,
  `parts.append(piece)`, and `s = ''.join(parts)` after the loop.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import libcst as cst

from transforms._analysis import (
    FreshNames,
    ModuleInfo,
    assigned_names,
    children,
    contains,
    has_comments,
    in_boolean_context,
    is_literal,
    is_pure,
    may_raise,
    mutation_free,
    name_values,
    only_small,
    strip_parens,
    subscript_index,
    target_names,
    walk,
    wrap,
)
from transforms._base import Transform
from transforms._idioms_common import (
    DICT,
    INT,
    LIST,
    SEQ,
    STR,
    FoldLoop,
    IdiomRewrite,
    Kinds,
    added_to,
    adjacent_statements,
    assign,
    bare_genexp,
    builtin_call,
    call_expr,
    function_nodes,
    inside_try,
    is_simple,
    line,
    method_call,
    method_expr,
    next_use,
    private_to,
    str_value,
)
from transforms._idioms_methods import _ExpressionIdiom, _index, method_operation

_EMPTY = cst.Module(body=[])
_UNSAFE = cst.Lambda | cst.NamedExpr | cst.Yield | cst.Await | cst.FunctionDef | cst.ClassDef
_SIZED = (STR, LIST, DICT, SEQ)


def _code(node: cst.CSTNode) -> str:
    return _EMPTY.code_for_node(node)


def _compare(left: cst.BaseExpression, op: cst.BaseCompOp, right: int) -> cst.Comparison:
    return cst.Comparison(
        left=left,
        comparisons=[cst.ComparisonTarget(operator=op, comparator=cst.Integer(str(right)))],
    )


def _int_value(expr: cst.BaseExpression) -> int | None:
    if isinstance(expr, cst.Integer):
        value = expr.evaluated_value
        return value if isinstance(value, int) else None
    return None


# -- len(xs) == 0 <-> not xs -------------------------------------------------------------------


def _len_of(
    expr: cst.BaseExpression, kinds: Kinds, sized: tuple[str | None, ...] = _SIZED
) -> cst.Name | None:
    """`xs` for `len(xs)` on a local or parameter of a kind among `sized`."""
    call = builtin_call(expr, kinds.info)
    if call is None or call[0] != "len" or len(call[1]) != 1 or call[1][0].keyword:
        return None
    arg = call[1][0].value
    if isinstance(arg, cst.Name) and kinds.of_name(arg.value) in sized:
        return arg
    return None


def _empty_of(expr: cst.BaseExpression) -> str | None:
    """The kind of an empty str, list or dict display."""
    if str_value(expr) == "" and isinstance(expr, cst.SimpleString):
        return STR
    if isinstance(expr, cst.List) and not expr.elements:
        return LIST
    if isinstance(expr, cst.Dict) and not expr.elements:
        return DICT
    return None


class LenToTruth(_ExpressionIdiom):
    """`len(xs) == 0` (or `xs == []`) -> `not xs`, `len(xs) > 0` -> `xs` in a test, and the
    reverse."""

    name = "idiom_len_truth"
    description = "test a collection's emptiness by its truth instead of its length, or back"
    node_types = (cst.Comparison, cst.Name, cst.UnaryOperation)

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        if has_comments(node):
            return None
        if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
            target = node.comparisons[0]
            empty = _empty_of(target.comparator)
            if empty is not None and isinstance(node.left, cst.Name) and not node.left.lpar:
                # `s == ''`, `xs == []`, `d == {}` for a str, list, dict.
                if kinds.of_name(node.left.value) != empty:
                    return None
                if isinstance(target.operator, cst.Equal):
                    return ("not", node.left)
                if isinstance(target.operator, cst.NotEqual) and in_boolean_context(
                    node, kinds.info
                ):
                    return ("truth", node.left)
                return None
            bound = _int_value(target.comparator)
            # Every builtin with a len() is true exactly when its len() is not 0 (str, list,
            # tuple, dict, set, range...): the call pins the comparison to the truth test.
            seq = _len_of(node.left, kinds.excluding(None), (*_SIZED, None))
            if seq is None or bound is None:
                return None
            op = target.operator
            if (isinstance(op, cst.Equal) and bound == 0) or (
                isinstance(op, cst.LessThan) and bound == 1
            ):
                return ("not", seq)
            empty_test = isinstance(op, cst.NotEqual | cst.GreaterThan) and bound == 0
            if (empty_test or (isinstance(op, cst.GreaterThanEqual) and bound == 1)) and (
                in_boolean_context(node, kinds.info)
            ):
                return ("truth", seq)
            return None
        if not kinds.info.is_builtin("len"):
            return None
        parent = kinds.info.parent(node)
        if not isinstance(parent, cst.If | cst.While) or parent.test is not node:
            return None
        if isinstance(node, cst.Name) and kinds.of_name(node.value) in _SIZED:
            return ("len>0", node)
        if (
            isinstance(node, cst.UnaryOperation)
            and isinstance(node.operator, cst.Not)
            and isinstance(node.expression, cst.Name)
            and not node.expression.lpar
            and kinds.of_name(node.expression.value) in _SIZED
        ):
            return ("len==0", node.expression)
        return None

    def build(self, updated: Any) -> Any:
        form, seq = self.data
        name = cst.Name(seq.value)
        if form == "not":
            return cst.UnaryOperation(operator=cst.Not(), expression=name)
        if form == "truth":
            return name
        if form == "len>0":
            return _compare(call_expr("len", name), cst.GreaterThan(), 0)
        return _compare(call_expr("len", name), cst.Equal(), 0)


# -- membership test -> dict.get / dict.setdefault ----------------------------------------------


def _is_item(expr: cst.BaseExpression, mapping: str, key: str) -> bool:
    """Whether `expr` is `mapping[key]` (key compared as code)."""
    index = subscript_index(expr, mapping)
    return index is not None and _code(index.value) == key


def _assigned(small: cst.BaseSmallStatement | None) -> tuple[cst.BaseExpression, Any] | None:
    """`(target, value)` of a one-target plain assignment."""
    if isinstance(small, cst.Assign) and len(small.targets) == 1:
        return small.targets[0].target, small.value
    return None


def _increment(small: cst.BaseSmallStatement | None, mapping: str, key: str) -> int | None:
    """`n` for `d[k] += n` or `d[k] = d[k] + n` (an int literal `n`)."""
    if (
        isinstance(small, cst.AugAssign)
        and isinstance(small.operator, cst.AddAssign)
        and _is_item(small.target, mapping, key)
    ):
        return _int_value(small.value)
    pair = _assigned(small)
    if pair is None or not _is_item(pair[0], mapping, key):
        return None
    value = pair[1]
    if (
        isinstance(value, cst.BinaryOperation)
        and isinstance(value.operator, cst.Add)
        and _is_item(value.left, mapping, key)
    ):
        return _int_value(value.right)
    return None


class MembershipToGet(_ExpressionIdiom):
    """`if k in d:` branches that read or count an entry -> `d.get` / `d.setdefault`."""

    name = "idiom_membership_get"
    description = "look a key up with dict.get or setdefault instead of testing it with in"
    node_types = (cst.IfExp, cst.If)

    def _default_ok(self, expr: cst.BaseExpression, kinds: Kinds) -> bool:
        """A default that can be evaluated early: a literal, an empty display or a
        parameter the function never rebinds."""
        if is_literal(expr):
            return True
        if isinstance(expr, cst.List | cst.Dict | cst.Tuple) and not expr.elements:
            return True
        return isinstance(expr, cst.Name) and kinds.plain_param(expr.value)

    def _membership(
        self, test: cst.BaseExpression, kinds: Kinds, site: cst.CSTNode
    ) -> tuple[str, cst.BaseExpression, bool] | None:
        """`(dict name, key, negated)` for `key in d` / `key not in d` on a dict."""
        if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1 or test.lpar:
            return None
        op = test.comparisons[0].operator
        mapping = test.comparisons[0].comparator
        if not isinstance(op, cst.In | cst.NotIn) or not isinstance(mapping, cst.Name):
            return None
        if not is_simple(test.left) or kinds.excluding(site).of_name(mapping.value) != DICT:
            return None
        return mapping.value, test.left, isinstance(op, cst.NotIn)

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        if not kinds.info.is_builtin("dict") or has_comments(node):
            return None
        if isinstance(node, cst.IfExp):
            found = self._membership(node.test, kinds, node)
            if found is None or found[2]:
                return None
            mapping, key, _ = found
            if _is_item(node.body, mapping, _code(key)) and self._default_ok(node.orelse, kinds):
                return ("get", mapping, key, node.orelse)
            return None
        if not isinstance(node, cst.If):
            return None
        found = self._membership(node.test, kinds, node)
        if found is None:
            return None
        mapping, key, negated = found
        text = _code(key)
        present = only_small(node.body)
        absent: cst.BaseSmallStatement | None = None
        if node.orelse is not None:
            if not isinstance(node.orelse, cst.Else):
                return None
            absent = only_small(node.orelse.body)
            if absent is None:
                return None
        if negated:
            present, absent = absent, present
        if present is None and absent is not None and node.orelse is None:
            # `if k not in d: d[k] = v`
            pair = _assigned(absent)
            if pair and _is_item(pair[0], mapping, text) and self._default_ok(pair[1], kinds):
                return ("setdefault", mapping, key, pair[1])
            return None
        if present is None or absent is None:
            return None
        step = _increment(present, mapping, text)
        pair = _assigned(absent)
        if step is not None and pair is not None and _is_item(pair[0], mapping, text):
            if _int_value(pair[1]) == step:
                return ("count", mapping, key, pair[1])
            return None
        got, other = _assigned(present), pair
        if (
            got is not None
            and other is not None
            and isinstance(got[0], cst.Name)
            and isinstance(other[0], cst.Name)
            and got[0].value == other[0].value
            and got[0].value not in (mapping, *name_values(key))
            and _is_item(got[1], mapping, text)
            and self._default_ok(other[1], kinds)
        ):
            return ("assign", mapping, key, other[1], got[0].value)
        return None

    def build(self, updated: Any) -> Any:
        form, mapping, key, value, *rest = self.data
        receiver = cst.Name(mapping)
        if form == "get":
            if isinstance(value, cst.Name) and value.value == "None":
                return method_expr(receiver, "get", key)
            return method_expr(receiver, "get", key, value)
        if form == "setdefault":
            return line(
                cst.Expr(value=method_expr(receiver, "setdefault", key, value))
            ).with_changes(leading_lines=updated.leading_lines)
        if form == "count":
            item = cst.Subscript(
                value=cst.Name(mapping), slice=[cst.SubscriptElement(slice=cst.Index(value=key))]
            )
            total = cst.BinaryOperation(
                left=method_expr(receiver, "get", key, cst.Integer("0")),
                operator=cst.Add(),
                right=value,
            )
            small: cst.BaseSmallStatement = cst.Assign(
                targets=[cst.AssignTarget(target=item)], value=total
            )
        else:
            args = [key] if isinstance(value, cst.Name) and value.value == "None" else [key, value]
            small = cst.Assign(
                targets=[cst.AssignTarget(target=cst.Name(rest[0]))],
                value=method_expr(receiver, "get", *args),
            )
        return line(small).with_changes(leading_lines=updated.leading_lines)


# -- s[::-1] <-> reversed(s) -------------------------------------------------------------------


def _backwards_of(node: cst.CSTNode) -> cst.BaseExpression | None:
    """`s` for `s[::-1]`."""
    if not isinstance(node, cst.Subscript) or len(node.slice) != 1:
        return None
    piece = node.slice[0].slice
    if not isinstance(piece, cst.Slice) or piece.lower is not None or piece.upper is not None:
        return None
    step = piece.step
    if (
        isinstance(step, cst.UnaryOperation)
        and isinstance(step.operator, cst.Minus)
        and _int_value(step.expression) == 1
    ):
        return node.value
    return None


_CONSUMERS = frozenset(
    {"dict", "list", "tuple", "set", "sorted", "sum", "min", "max", "any", "all"}
)


def _consumed(node: cst.CSTNode, info: ModuleInfo) -> bool:
    """Whether `node` is the sole argument of a builtin that only iterates it once, or of
    `sep.join`."""
    arg = info.parent(node)
    call = info.parent(arg) if isinstance(arg, cst.Arg) else None
    if not isinstance(call, cst.Call) or len(call.args) != 1 or call.args[0] is not arg:
        return False
    if arg.keyword is not None or arg.star:
        return False
    builtin = builtin_call(call, info)
    if builtin is not None:
        return builtin[0] in _CONSUMERS
    method = method_call(call)
    return method is not None and method[1] == "join" and str_value(method[0]) is not None


#: `[::-1]` raises on anything but a sequence (str, list, tuple, range), and every one of
#: those gives reversed() the same items: a value nothing types is one of them.
_SEQUENCE_OR_UNKNOWN = (STR, LIST, SEQ, None)


def _slice_assigned(node: cst.CSTNode, info: ModuleInfo) -> bool:
    """Whether `node` is the value assigned to a slice (`xs[a:b] = node`), which takes any
    iterable and reads it whole before it stores."""
    parent = info.parent(node)
    if not isinstance(parent, cst.Assign) or parent.value is not node or len(parent.targets) != 1:
        return False
    target = parent.targets[0].target
    return (
        isinstance(target, cst.Subscript)
        and len(target.slice) == 1
        and isinstance(target.slice[0].slice, cst.Slice)
        and target.slice[0].slice.step is None
    )


class ReverseSlice(_ExpressionIdiom):
    """`s[::-1]` -> `''.join(reversed(s))` / `list(reversed(xs))` / `reversed(xs)` as a loop's
    iterable, and `''.join(reversed(s))` / `list(reversed(xs))` -> `[::-1]`."""

    name = "idiom_reverse_slice"
    description = "reverse a sequence with reversed() instead of a [::-1] slice, or back"
    node_types = (cst.Subscript, cst.Call)

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        info = kinds.info
        if has_comments(node) or not info.is_builtin("reversed"):
            return None
        seq = _backwards_of(node)
        if seq is not None:
            parent = info.parent(node)
            if isinstance(parent, cst.For) and parent.iter is node:
                if (
                    isinstance(seq, cst.Name)
                    and kinds.excluding(node).of(seq) in _SEQUENCE_OR_UNKNOWN
                    and seq.value not in assigned_names(parent.body)
                    and mutation_free(parent.body, info)
                ):
                    return ("iterate", seq)
                return None
            kind = kinds.excluding(node).of(seq)
            if kind in _SEQUENCE_OR_UNKNOWN and (
                _consumed(node, info) or _slice_assigned(node, info)
            ):
                return ("iterate", seq)  # `dict(xs[::-1])` -> `dict(reversed(xs))`
            if kind == STR:
                return ("join", seq)
            if kind == LIST and info.is_builtin("list"):
                return ("list", seq)
            return None
        call = builtin_call(node, info)
        outer: cst.BaseExpression | None = None
        if call is not None and call[0] == "list" and len(call[1]) == 1:
            outer, want = call[1][0].value, LIST
        method = method_call(node)
        if (
            method is not None
            and method[1] == "join"
            and len(method[2]) == 1
            and str_value(method[0]) == ""
        ):
            outer, want = method[2][0].value, STR
        if outer is None:
            return None
        inner = builtin_call(outer, info)
        if inner is None or inner[0] != "reversed" or len(inner[1]) != 1:
            return None
        seq = inner[1][0].value
        if kinds.excluding(node).of(seq) != want:
            return None
        return ("slice", seq)

    def build(self, updated: Any) -> Any:
        form, _ = self.data
        if form == "slice":
            outer = updated.args[0].value
            seq = outer.args[0].value
            backwards = cst.Slice(
                lower=None,
                upper=None,
                step=cst.UnaryOperation(operator=cst.Minus(), expression=cst.Integer("1")),
            )
            return _index(seq, backwards)
        seq = updated.value
        reversed_ = call_expr("reversed", seq.with_changes(lpar=[], rpar=[]))
        if form == "iterate":
            return reversed_
        if form == "list":
            return call_expr("list", reversed_)
        return method_expr(cst.SimpleString("''"), "join", reversed_)


# -- join over a list comprehension <-> over a generator ------------------------------------------


class JoinComprehension(_ExpressionIdiom):
    """`sep.join([e for x in xs])` <-> `sep.join(e for x in xs)`;
    `sep.join([x for x in xs])` -> `sep.join(xs)`."""

    name = "idiom_join_generator"
    description = "join a generator instead of a list comprehension (or back, or the iterable)"
    node_types = (cst.Call,)

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        method = method_call(node)
        if method is None or method[1] != "join" or len(method[2]) != 1:
            return None
        receiver, _, args = method
        if args[0].keyword is not None or has_comments(node):
            return None
        if str_value(receiver) is None and kinds.excluding(node).of(receiver) not in (STR, None):
            return None  # join exists on str only (bytes aside)
        comp = args[0].value
        if not isinstance(comp, cst.ListComp | cst.GeneratorExp):
            return None
        if isinstance(comp, cst.GeneratorExp) and comp.lpar:
            return None  # `join((e for x in xs))`: the parentheses would stay
        for_in = comp.for_in
        if (
            isinstance(comp, cst.ListComp)
            and for_in.inner_for_in is None
            and not for_in.ifs
            and not for_in.asynchronous
            and isinstance(comp.elt, cst.Name)
            and isinstance(for_in.target, cst.Name)
            and comp.elt.value == for_in.target.value
        ):
            return "iterable"
        return "genexp" if isinstance(comp, cst.ListComp) else "list"

    def build(self, updated: Any) -> Any:
        comp = updated.args[0].value
        if self.data == "iterable":
            new: cst.BaseExpression = comp.for_in.iter
        elif self.data == "genexp":
            new = cst.GeneratorExp(elt=comp.elt, for_in=comp.for_in, lpar=[], rpar=[])
        else:
            new = cst.ListComp(elt=comp.elt, for_in=comp.for_in)
        return updated.with_changes(args=[updated.args[0].with_changes(value=new)])


# -- map() / filter() -> comprehension; max(a, b) -> conditional -----------------------------------

_MAP_CONSUMERS = frozenset({"list", "set", "tuple", "sorted", "sum", "any", "all", "min", "max"})


def _inlined(func: cst.BaseExpression, kinds: Kinds) -> tuple[str, cst.BaseExpression] | None:
    """`(variable, body)` for `lambda variable: body`, or a fresh-variable call of a builtin
    name (`str` -> `str(x)` with the variable left to the caller as ""), else None."""
    info = kinds.info
    if isinstance(func, cst.Name) and info.is_builtin(func.value) and func.value != "next":
        return "", func
    if (
        isinstance(func, cst.Lambda)
        and len(func.params.params) == 1
        and not func.params.posonly_params
        and not func.params.kwonly_params
        and func.params.star_arg is cst.MaybeSentinel.DEFAULT
        and func.params.star_kwarg is None
        and func.params.params[0].default is None
        and not contains(func.body, _UNSAFE)
        and not any(isinstance(n, cst.Name) and n.value == "next" for n in walk(func.body))
    ):
        return func.params.params[0].name.value, func.body
    return None


class MapToComprehension(_ExpressionIdiom):
    """`list(map(f, xs))` -> `[f(x) for x in xs]`, `''.join(map(str, xs))` ->
    `''.join(str(x) for x in xs)`, `list(filter(lambda x: c, xs))` -> `[x for x in xs if c]`;
    `max(a, b)` -> `b if b > a else a` (and `min`), which is how they choose."""

    name = "idiom_map_comprehension"
    description = "use a comprehension instead of map()/filter(), a conditional instead of max()"
    node_types = (cst.Call,)

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        info = kinds.info
        call = builtin_call(node, info)
        if call is not None and call[0] in ("min", "max") and len(call[1]) == 2:
            a, b = (arg.value for arg in call[1])
            if is_literal(strip_parens(b)):
                return None  # `3 if 3 < w else w`: only that order keeps min's ties and NaN
            if all(
                is_simple(x) and not arg.keyword for x, arg in zip((a, b), call[1], strict=True)
            ):
                return ("choose", call[0])
            return None
        method = method_call(node)
        if call is not None and call[0] in _MAP_CONSUMERS and len(call[1]) == 1:
            inner = call[1][0].value
        elif (
            method is not None
            and method[1] == "join"
            and len(method[2]) == 1
            and str_value(method[0]) is not None
        ):
            inner = method[2][0].value
        else:
            return None
        mapped = builtin_call(inner, info)
        if mapped is None or mapped[0] not in ("map", "filter") or len(mapped[1]) != 2:
            return None
        if any(a.keyword for a in mapped[1]) or has_comments(node):
            return None
        func = mapped[1][0].value
        if mapped[0] == "filter" and isinstance(func, cst.Name) and func.value == "None":
            return ("filter", "", None)
        inlined = _inlined(func, kinds)
        if inlined is None or (mapped[0] == "filter" and not inlined[0]):
            return None
        return (mapped[0], *inlined)

    def build(self, updated: Any) -> Any:
        form = self.data[0]
        if form == "choose":
            a, b = (arg.value for arg in updated.args)
            op: cst.BaseCompOp = cst.GreaterThan() if self.data[1] == "max" else cst.LessThan()
            chooses = cst.Comparison(left=b, comparisons=[cst.ComparisonTarget(op, a.deep_clone())])
            return cst.IfExp(test=chooses, body=b.deep_clone(), orelse=a)
        _, variable, body = self.data
        outer = updated.args[0].value
        func, iterable = (a.value for a in outer.args)
        if not variable:
            variable = self.fresh_name(["x", "item", "value"])
        target = cst.Name(variable)
        if form == "map":
            elt: cst.BaseExpression = (
                call_expr(body.value, cst.Name(variable))
                if isinstance(func, cst.Name)
                else func.body
            )
            test: cst.BaseExpression | None = None
        else:
            elt = cst.Name(variable)
            test = cst.Name(variable) if body is None else func.body
        ifs = [] if test is None else [cst.CompIf(test=wrap(test, 3))]
        for_in = cst.CompFor(target=target, iter=wrap(iterable, 3), ifs=ifs)
        comp: cst.BaseExpression
        consumer = updated.func
        if isinstance(consumer, cst.Name) and consumer.value == "list":
            return cst.ListComp(elt=wrap(elt, 1), for_in=for_in)
        if isinstance(consumer, cst.Name) and consumer.value == "set":
            return cst.SetComp(elt=wrap(elt, 1), for_in=for_in)
        comp = cst.GeneratorExp(elt=wrap(elt, 1), for_in=for_in, lpar=[], rpar=[])
        return updated.with_changes(args=[updated.args[0].with_changes(value=comp)])


# -- list(xs) <-> [x for x in xs] ---------------------------------------------------------------


def _calls_next(node: cst.CSTNode) -> bool:
    """Whether `node` names `next` (a StopIteration it raises ends `list(genexp)` quietly
    but escapes a list comprehension)."""
    return any(isinstance(n, cst.Name) and n.value == "next" for n in walk(node))


class CopyComprehension(_ExpressionIdiom):
    """`list(e for x in xs)` -> `[e for x in xs]` (and `set`), `[x for x in xs]` ->
    `list(xs)`, and `list(xs)` <-> `[*xs]` (`set(xs)` <-> `{*xs}`); never `list(xs)` ->
    `[x for x in xs]`, a copy nobody spells that way."""

    name = "idiom_list_comprehension"
    description = "build a list or set with a comprehension instead of list()/set(), or back"
    node_types = (cst.Call, cst.List, cst.Set, cst.ListComp, cst.SetComp)

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        info = kinds.info
        if has_comments(node):
            return None
        call = builtin_call(node, info)
        if call is not None and call[0] in ("list", "set") and len(call[1]) == 1:
            arg = call[1][0]
            if arg.keyword is not None:
                return None
            if isinstance(arg.value, cst.GeneratorExp):
                if arg.value.for_in.asynchronous or _calls_next(arg.value):
                    return None
                return ("unwrap", call[0])
            if not isinstance(info.parent(node), cst.Assign | cst.Return):
                return None  # `for c in [*s]` reads worse than `for c in s`
            if not isinstance(arg.value, cst.Name | cst.Attribute | cst.Call | cst.Subscript):
                return None  # `[*x if c else y]` would need parentheses nobody writes
            return ("unpack", call[0])  # `[*text]`; never `[item for item in text]`
        if (
            isinstance(node, cst.List | cst.Set)
            and len(node.elements) == 1
            and isinstance(node.elements[0], cst.StarredElement)
        ):
            builtin = "list" if isinstance(node, cst.List) else "set"
            return ("call_star", builtin) if info.is_builtin(builtin) else None
        if isinstance(node, cst.ListComp | cst.SetComp):
            for_in = node.for_in
            builtin = "list" if isinstance(node, cst.ListComp) else "set"
            if (
                for_in.inner_for_in is None
                and not for_in.ifs
                and not for_in.asynchronous
                and isinstance(node.elt, cst.Name)
                and isinstance(for_in.target, cst.Name)
                and node.elt.value == for_in.target.value
                and info.is_builtin(builtin)
                and not _consumed(node, info)  # `''.join([c for c in t])`: join_generator's
            ):
                return ("call", builtin)
        return None

    def build(self, updated: Any) -> Any:
        form, builtin = self.data[0], self.data[1]
        if form == "call":
            return call_expr(builtin, updated.for_in.iter)
        if form == "call_star":
            return call_expr(builtin, updated.elements[0].value)
        arg = updated.args[0].value
        if form == "unpack":
            star = [cst.StarredElement(value=arg)]
            return cst.List(elements=star) if builtin == "list" else cst.Set(elements=star)
        for_in, elt = arg.for_in, arg.elt
        if builtin == "list":
            return cst.ListComp(elt=elt, for_in=for_in)
        return cst.SetComp(elt=elt, for_in=for_in)


# -- d.keys() <-> d -----------------------------------------------------------------------------


class DictKeys(_ExpressionIdiom):
    """`d.keys()` -> `d` where only its keys are iterated, tested or counted (`for k in
    d.keys()`, `k in d.keys()`, `len(d.keys())`, `list(d.keys())`), and `for k in d` ->
    `for k in d.keys()`, for a dict `d`."""

    name = "idiom_dict_keys"
    description = "iterate or test a dict directly instead of through keys(), or back"
    node_types = (cst.Call, cst.Name)

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        info = kinds.info
        parent = info.parent(node)
        call = method_call(node)
        if call is not None:
            receiver, method, args = call
            if method != "keys" or args or not isinstance(receiver, cst.Name):
                return None
            # keys exists on dict only among builtins: the name pins the receiver.
            if kinds.excluding(node).of_name(receiver.value) not in (DICT, None):
                return None
            if has_comments(node):
                return None
            if isinstance(parent, cst.For | cst.CompFor) and parent.iter is node:
                return "drop"
            if isinstance(parent, cst.ComparisonTarget) and isinstance(
                parent.operator, cst.In | cst.NotIn
            ):
                return "drop"
            if (isinstance(parent, cst.Arg) and _consumed(node, info)) or _sized(node, info):
                return "drop"
            return None
        if (
            isinstance(node, cst.Name)
            and isinstance(parent, cst.For)
            and parent.iter is node
            and kinds.of_name(node.value) == DICT
        ):
            return "keys"
        return None

    def build(self, updated: Any) -> Any:
        if self.data == "drop":
            return updated.func.value
        return method_expr(updated, "keys")


def _sized(node: cst.CSTNode, info: ModuleInfo) -> bool:
    """Whether `node` is the sole argument of the builtin `len`."""
    arg = info.parent(node)
    call = info.parent(arg) if isinstance(arg, cst.Arg) else None
    builtin = builtin_call(call, info) if call is not None else None
    return builtin is not None and builtin[0] == "len" and len(builtin[1]) == 1


# -- xs[-k] <-> xs[len(xs) - k] -------------------------------------------------------------------


class NegativeIndex(_ExpressionIdiom):
    """`xs[-1]` <-> `xs[len(xs) - 1]` for a str, list or tuple `xs` (both raise IndexError
    when it is empty; with -2 and beyond `xs[len(xs) - 2]` of a one-item `xs` is `xs[-1]`,
    not an error, so only the last item)."""

    name = "idiom_negative_index"
    description = "index the last item by len(xs) - 1 instead of -1, or back"
    node_types = (cst.Subscript,)

    def operation(self, node: cst.CSTNode) -> Hashable | None:
        """Every index of one sequence from its end, by a negative int or by its length."""
        if not isinstance(node, cst.Subscript) or not isinstance(node.value, cst.Name):
            return None
        item = _subscript_int(node)
        if item is not None:
            return ("from end", node.value.value) if item[1] < 0 else None
        index = node.slice[0].slice if len(node.slice) == 1 else None
        value = index.value if isinstance(index, cst.Index) else None
        if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Subtract):
            length = builtin_call(value.left, self.info)
            if (
                length is not None
                and length[0] == "len"
                and _code_all(length[1]) == [node.value.value]
            ):
                return ("from end", node.value.value)
        return None

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        if not isinstance(node, cst.Subscript) or has_comments(node):
            return None
        item = _subscript_int(node)
        seq = node.value
        if not isinstance(seq, cst.Name) or not kinds.info.is_builtin("len"):
            return None
        if kinds.excluding(node).of_name(seq.value) not in (STR, LIST, SEQ):
            return None
        if item is not None:
            return ("len", 1) if item[1] == -1 else None
        index = node.slice[0].slice if len(node.slice) == 1 else None
        value = index.value if isinstance(index, cst.Index) else None
        if (
            isinstance(value, cst.BinaryOperation)
            and isinstance(value.operator, cst.Subtract)
            and not value.lpar
            and _int_value(value.right) == 1
            and _len_of(value.left, kinds) is not None
            and _len_of(value.left, kinds).value == seq.value  # type: ignore[union-attr]
        ):
            return ("negative", 1)
        return None

    def build(self, updated: Any) -> Any:
        form, k = self.data
        seq = updated.value
        if form == "negative":
            index: cst.BaseExpression = _int_literal(-k)
        else:
            index = cst.BinaryOperation(
                left=call_expr("len", cst.Name(seq.value)),
                operator=cst.Subtract(),
                right=cst.Integer(str(k)),
            )
        return updated.with_changes(slice=[cst.SubscriptElement(slice=cst.Index(value=index))])


# -- str methods <-> the other str methods they stand for --------------------------------------


def _str_arg(expr: cst.BaseExpression, kinds: Kinds) -> bool:
    """A str literal or a name of kind str."""
    if str_value(expr) is not None and isinstance(expr, cst.SimpleString):
        return True
    return isinstance(expr, cst.Name) and kinds.of_name(expr.value) == STR


def _subscript_int(node: cst.CSTNode) -> tuple[cst.BaseExpression, int] | None:
    """`(value, i)` for `value[i]` with an int literal `i` (negative included)."""
    if not isinstance(node, cst.Subscript) or len(node.slice) != 1:
        return None
    index = node.slice[0].slice
    if not isinstance(index, cst.Index):
        return None
    value = _literal_int(index.value)
    return None if value is None else (node.value, value)


#: str tests that hold of a str when they hold of each of its characters and it has one.
_PER_CHARACTER = frozenset({"isdigit", "isdecimal", "isnumeric", "isalpha", "isalnum", "isspace"})


def _loop_targets(func: cst.FunctionDef) -> set[str]:
    """Names bound by a `for` in `func` (a character of a str, typically)."""
    return {
        name
        for node in walk(func)
        if isinstance(node, cst.For | cst.CompFor)
        for name in name_values(node.target)
    }


class StrMethodSwap(_ExpressionIdiom):
    """str methods by the other str methods that compute the same: `s.strip(c)` <->
    `s.lstrip(c).rstrip(c)`; `s.split(sep)[0]` <-> `s.partition(sep)[0]`;
    `s.split(sep)[-1]` -> `s.rpartition(sep)[2]`; `s.count(x) > 0` -> `x in s`;
    `s.find(x)` -> `s.index(x) if x in s else -1` (and `rfind` by `rindex`);
    `s.startswith(p)` -> `s.find(p) == 0` in a test; `s.isdigit()` (and the other
    per-character tests) -> `len(s) > 0 and all(ch.isdigit() for ch in s)`."""

    name = "idiom_str_methods"
    description = "compute with another str method: strip by lstrip/rstrip, split by partition..."
    node_types = (cst.Call, cst.Subscript, cst.Comparison)

    def operation(self, node: cst.CSTNode) -> Hashable | None:
        """Every find (or rfind), and every strip, on one str."""
        return method_operation(node, ("find", "rfind"), "find") or method_operation(
            node, ("strip",), "strip"
        )

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        if has_comments(node):
            return None
        call = method_call(node)
        if call is not None:
            receiver, method, args = call
            if any(a.keyword for a in args):
                return None
            if method == "strip" and len(args) <= 1 and all(is_simple(a.value) for a in args):
                return ("unstrip", None)
            if (
                method in _PER_CHARACTER
                and not args
                and isinstance(receiver, cst.Name)
                and kinds.excluding(node).of_name(receiver.value) == STR
                and receiver.value not in _loop_targets(kinds.func)
                and kinds.info.is_builtin("all")
                and kinds.info.is_builtin("len")
            ):
                return ("all", method)
            if (
                method == "startswith"
                and len(args) == 1
                and _str_arg(args[0].value, kinds)
                and isinstance(node, cst.Call)
                and in_boolean_context(node, kinds.info)
                and not isinstance(kinds.info.parent(node), cst.UnaryOperation)
            ):
                # str-only on both sides: any other receiver raises AttributeError in both.
                return ("find==0", None)
            if (
                method in ("find", "rfind")
                and len(args) == 1
                and isinstance(receiver, cst.Name)
                and is_simple(args[0].value)
                # find/rfind exist on str only (bytes aside): the name pins the receiver.
                and kinds.excluding(node).of_name(receiver.value) in (STR, SEQ, None)
            ):
                return ("index", method)
            inner = method_call(receiver)
            if (
                method in ("lstrip", "rstrip")
                and inner is not None
                and {method, inner[1]} == {"lstrip", "rstrip"}
                and _code_all(args) == _code_all(inner[2])
                and len(args) <= 1
                and all(is_simple(a.value) for a in args)
            ):
                return ("strip", None)
            return None
        item = _subscript_int(node)
        if item is not None:
            value, index = item
            split = method_call(value)
            if split is None or any(a.keyword for a in split[2]):
                return None
            receiver, method, args = split
            # An empty separator makes split and partition both raise ValueError.
            if not args or not _str_arg(args[0].value, kinds):
                return None
            maxsplit = _literal_int(args[1].value) if len(args) == 2 else -1
            if len(args) > 2 or maxsplit is None:
                return None
            if method == "split" and index == 0 and (maxsplit == -1 or maxsplit >= 1):
                return ("partition", None)
            if method in ("split", "rsplit") and index == -1:
                if method == "split" and maxsplit != -1:
                    return None
                if method == "rsplit" and not (maxsplit == -1 or maxsplit >= 1):
                    return None
                return ("rpartition", None)
            if method == "partition" and index == 0 and len(args) == 1:
                return ("split", None)
            return None
        if (
            isinstance(node, cst.Comparison)
            and len(node.comparisons) == 1
            and in_boolean_context(node, kinds.info)
        ):
            count = method_call(node.left)
            target = node.comparisons[0]
            bound = _int_value(target.comparator)
            if count is None or count[1] != "count" or len(count[2]) != 1 or count[2][0].keyword:
                return None
            # `xs.count(x) > 0` is `x in xs` on every builtin with count (str, list, tuple:
            # both compare by identity, then ==); a dict or a number has no count.
            if kinds.excluding(node).of(count[0]) not in (STR, LIST, SEQ, None):
                return None
            op = target.operator
            if (isinstance(op, cst.GreaterThan | cst.NotEqual) and bound == 0) or (
                isinstance(op, cst.GreaterThanEqual) and bound == 1
            ):
                return ("in", None)
            if isinstance(op, cst.Equal) and bound == 0:
                return ("not in", None)
        return None

    def build(self, updated: Any) -> Any:
        form, _ = self.data
        if form == "unstrip":
            args = [a.value for a in updated.args]
            left = method_expr(updated.func.value, "lstrip", *args)
            return method_expr(left, "rstrip", *[a.deep_clone() for a in args])
        if form == "all":
            receiver = updated.func.value
            variable = self.fresh_name(["ch", "c", "char"])
            each = method_expr(cst.Name(variable), self.data[1])
            every = call_expr("all", bare_genexp(each, cst.Name(variable), receiver))
            nonempty = _compare(call_expr("len", receiver.deep_clone()), cst.GreaterThan(), 0)
            return cst.BooleanOperation(left=nonempty, operator=cst.And(), right=every)
        if form == "find==0":
            position = method_expr(updated.func.value, "find", updated.args[0].value)
            return _compare(position, cst.Equal(), 0)
        if form == "index":
            receiver, sub = updated.func.value, updated.args[0].value
            method = "index" if self.data[1] == "find" else "rindex"
            found = cst.Comparison(
                left=wrap(sub, 7),
                comparisons=[cst.ComparisonTarget(operator=cst.In(), comparator=receiver)],
            )
            return cst.IfExp(
                test=found,
                body=method_expr(receiver.deep_clone(), method, sub.deep_clone()),
                orelse=_int_literal(-1),
            )
        if form == "strip":
            inner = updated.func.value
            return method_expr(inner.func.value, "strip", *[a.value for a in updated.args])
        if form in ("partition", "rpartition", "split"):
            split = updated.value
            receiver, sep = split.func.value, split.args[0].value
            if form == "split":
                whole = method_expr(receiver, "split", sep, cst.Integer("1"))
                return _index(whole, cst.Index(cst.Integer("0")))
            index = "0" if form == "partition" else "2"
            return _index(method_expr(receiver, form, sep), cst.Index(cst.Integer(index)))
        count = updated.left
        op: cst.BaseCompOp = cst.In() if form == "in" else cst.NotIn()
        return cst.Comparison(
            left=wrap(count.args[0].value, 7),
            comparisons=[cst.ComparisonTarget(operator=op, comparator=wrap(count.func.value, 7))],
        )


def _code_all(args: list[cst.Arg]) -> list[str]:
    return [_code(a.value) for a in args]


# -- d = {} + for loop storing into d -> dict / set comprehension --------------------------------


@dataclass
class _Build:
    init: cst.SimpleStatementLine
    loop: cst.For
    acc: str
    key: cst.BaseExpression | None  # None: a set
    value: cst.BaseExpression
    test: cst.BaseExpression | None


def _empty_collection(value: cst.BaseExpression, info: ModuleInfo) -> str | None:
    """ "dict" for `{}` or `dict()`, "set" for `set()`."""
    if isinstance(value, cst.Dict) and not value.elements:
        return "dict"
    call = builtin_call(value, info)
    if call is not None and not call[1] and call[0] in ("dict", "set"):
        return call[0]
    return None


def _store(stmt: cst.BaseStatement, acc: str, kind: str) -> tuple[Any, Any] | None:
    """`(k, v)` for `acc[k] = v` (a dict) or `(None, e)` for `acc.add(e)` (a set)."""
    small = (
        stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
    )
    if kind == "dict":
        pair = _assigned(small)
        if (
            pair is not None
            and isinstance(pair[0], cst.Subscript)
            and isinstance(pair[0].value, cst.Name)
            and pair[0].value.value == acc
            and len(pair[0].slice) == 1
            and isinstance(pair[0].slice[0].slice, cst.Index)
        ):
            return pair[0].slice[0].slice.value, pair[1]
        return None
    if isinstance(small, cst.Expr):
        call = method_call(small.value)
        if (
            call is not None
            and isinstance(call[0], cst.Name)
            and call[0].value == acc
            and call[1] == "add"
            and len(call[2]) == 1
            and call[2][0].keyword is None
        ):
            return None, call[2][0].value
    return None


class LoopToCollectionComprehension(FoldLoop):
    """`d = {}` + `for x in xs: d[k] = v` -> `d = {k: v for x in xs}` (and sets)."""

    name = "idiom_loop_dict_set_comprehension"
    description = "build a dict or set with a comprehension instead of a loop that fills it"

    site: _Build

    def find_sites(self, info: ModuleInfo) -> Sequence[_Build]:
        """Initialisations followed by a loop that only stores into the new collection (the
        statements between them do not mention it)."""
        return [
            site
            for func, _kinds, init, rest in adjacent_statements(info)
            if (loop := next_use(init, rest)) and (site := self._site(init, loop, func, info))
        ]

    def _site(
        self,
        init: cst.BaseStatement,
        loop: cst.BaseStatement,
        func: cst.FunctionDef,
        info: ModuleInfo,
    ) -> _Build | None:
        if not isinstance(init, cst.SimpleStatementLine) or len(init.body) != 1:
            return None
        pair = _assigned(init.body[0])
        if pair is None or not isinstance(pair[0], cst.Name):
            return None
        kind = _empty_collection(pair[1], info)
        if kind is None or not isinstance(loop, cst.For) or loop.orelse or loop.asynchronous:
            return None
        if has_comments(init) or has_comments(loop) or contains(loop, _UNSAFE):
            return None
        acc = pair[0].value
        stmts = list(loop.body.body) if isinstance(loop.body, cst.IndentedBlock) else []
        if len(stmts) != 1:
            return None
        test: cst.BaseExpression | None = None
        stmt = stmts[0]
        if isinstance(stmt, cst.If) and stmt.orelse is None:
            inner = list(stmt.body.body) if isinstance(stmt.body, cst.IndentedBlock) else []
            if len(inner) != 1:
                return None
            test, stmt = stmt.test, inner[0]
        found = _store(stmt, acc, kind)
        if found is None:
            return None
        key, value = found
        names = target_names(loop.target)
        if names is None or acc in names or not private_to(func, loop, names):
            return None
        parts = [p for p in (loop.iter, key, value, test, loop.target) if p is not None]
        if any(acc in name_values(p) for p in parts):
            return None
        if not all(is_pure(p, info) for p in parts):
            return None
        if key is not None and may_raise(key, info) and may_raise(value, info):
            return None
        if acc in info.captured_names(func) or inside_try(loop, func, info):
            return None
        return _Build(init, loop, acc, key, value, test)

    def folded(self, loop: cst.For) -> cst.BaseExpression:
        """The dict or set comprehension."""
        site = self.site
        ifs = [] if site.test is None else [cst.CompIf(test=wrap(strip_parens(site.test), 3))]
        for_in = cst.CompFor(target=site.loop.target, iter=wrap(site.loop.iter, 3), ifs=ifs)
        if site.key is None:
            return cst.SetComp(elt=wrap(site.value, 1), for_in=for_in)
        return cst.DictComp(key=wrap(site.key, 1), value=wrap(site.value, 1), for_in=for_in)


# -- range(n - 1, -1, -1) <-> reversed(range(n)) ---------------------------------------------


def _literal_int(node: cst.BaseExpression) -> int | None:
    """The value of an int literal, negative ones included."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = _int_value(node.expression)
        return None if inner is None else -inner
    return _int_value(node)


def _int_literal(value: int) -> cst.BaseExpression:
    if value < 0:
        return cst.UnaryOperation(operator=cst.Minus(), expression=cst.Integer(str(-value)))
    return cst.Integer(str(value))


def _shifted(expr: cst.BaseExpression, delta: int) -> cst.BaseExpression:
    """`expr + delta` written as a person would: `n - 1` + 1 is `n`, `3` + 1 is `4`."""
    literal = _literal_int(expr)
    if literal is not None:
        return _int_literal(literal + delta)
    base, offset = expr, 0
    if (
        isinstance(expr, cst.BinaryOperation)
        and isinstance(expr.operator, cst.Add | cst.Subtract)
        and not expr.lpar
        and _int_value(expr.right) is not None
    ):
        right = _int_value(expr.right)
        assert right is not None
        base = expr.left
        offset = right if isinstance(expr.operator, cst.Add) else -right
    offset += delta
    if offset == 0:
        return base
    operator: cst.BaseBinaryOp = cst.Add() if offset > 0 else cst.Subtract()
    return cst.BinaryOperation(
        left=wrap(base, 11), operator=operator, right=cst.Integer(str(abs(offset)))
    )


class ReversedRange(_ExpressionIdiom):
    """`range(a, b, -1)` <-> `reversed(range(b + 1, a + 1))` as the iterable of a loop:
    `range(n - 1, -1, -1)` <-> `reversed(range(n))`."""

    name = "idiom_reversed_range"
    description = "count down with reversed(range(...)) instead of a range with step -1, or back"
    node_types = (cst.Call,)

    def _is_int(self, expr: cst.BaseExpression, kinds: Kinds) -> bool:
        return _literal_int(expr) is not None or kinds.of(expr) == INT

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        info = kinds.info
        parent = info.parent(node)
        if not isinstance(parent, cst.For | cst.CompFor) or parent.iter is not node:
            return None
        if has_comments(node) or not (info.is_builtin("range") and info.is_builtin("reversed")):
            return None
        call = builtin_call(node, info)
        if call is None or any(a.keyword for a in call[1]):
            return None
        name, args = call
        if name == "range" and len(args) == 3:
            start, stop, step = (a.value for a in args)
            if (
                _literal_int(step) == -1
                and self._is_int(start, kinds)
                and self._is_int(stop, kinds)
            ):
                return ("reversed", start, stop)
            return None
        if name == "reversed" and len(args) == 1:
            inner = builtin_call(args[0].value, info)
            if inner is None or inner[0] != "range" or len(inner[1]) not in (1, 2):
                return None
            if any(a.keyword for a in inner[1]):
                return None
            bounds = [a.value for a in inner[1]]
            if not all(self._is_int(b, kinds) for b in bounds):
                return None
            lower = bounds[0] if len(bounds) == 2 else cst.Integer("0")
            return ("countdown", lower, bounds[-1])
        return None

    def build(self, updated: Any) -> Any:
        form, first, second = self.data
        if form == "reversed":
            upper, lower = _shifted(first, 1), _shifted(second, 1)
            bounds = [upper] if _literal_int(lower) == 0 else [lower, upper]
            return call_expr("reversed", call_expr("range", *bounds))
        lower, upper = first, second
        return call_expr("range", _shifted(upper, -1), _shifted(lower, -1), _int_literal(-1))


# -- s = '' + s += piece in a loop -> a list of parts joined after the loop ------------------


@dataclass
class _Builder:
    init: cst.SimpleStatementLine
    loop: cst.For | cst.While
    acc: str
    grows: set[int]  # ids of the `acc += piece` statement lines


def _loop_item_is_str(name: str, loop: cst.CSTNode, kinds: Kinds, info: ModuleInfo) -> bool:
    """Whether `name` is the target of a `for` (inside `loop`, or `loop` itself) over a str."""
    for node in [loop, *walk_nodes(loop)]:
        if (
            isinstance(node, cst.For)
            and isinstance(node.target, cst.Name)
            and node.target.value == name
            and kinds.of(node.iter) == STR
        ):
            return True
    return False


def walk_nodes(root: cst.CSTNode) -> list[cst.CSTNode]:
    """Every node below `root`."""
    out: list[cst.CSTNode] = []
    stack = list(children(root))
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(children(node))
    return out


class StrConcatToJoin(IdiomRewrite):
    """`s = ''` + a loop doing `s += piece` -> `parts.append(piece)` + `s = ''.join(parts)`."""

    name = "idiom_concat_parts_join"
    description = "collect string pieces in a list and join them instead of concatenating"

    site: _Builder
    parts: str

    def find_sites(self, info: ModuleInfo) -> Sequence[_Builder]:
        """`acc = ''` followed (later in its block) by the loop that builds it."""
        sites: list[_Builder] = []
        kinds: dict[int, Kinds] = {}
        for node, func in function_nodes(info):
            if not isinstance(node, cst.IndentedBlock):
                continue
            body = list(node.body)
            for i, init in enumerate(body):
                if id(func) not in kinds:
                    kinds[id(func)] = Kinds(func, info)
                site = self._site(init, body[i + 1 :], func, info, kinds[id(func)])
                if site is not None:
                    sites.append(site)
        return sites

    def take_site(self, site: Any, info: ModuleInfo) -> bool:
        """Name the list of pieces."""
        fresh = FreshNames(info.names.identifiers)
        self.parts = fresh.choose(["parts", "pieces", "chunks"], self.rng)
        return True

    def _site(
        self,
        init: cst.BaseStatement,
        rest: list[cst.BaseStatement],
        func: cst.FunctionDef,
        info: ModuleInfo,
        kinds: Kinds,
    ) -> _Builder | None:
        if not isinstance(init, cst.SimpleStatementLine) or len(init.body) != 1:
            return None
        pair = _assigned(init.body[0])
        if pair is None or not isinstance(pair[0], cst.Name) or str_value(pair[1]) != "":
            return None
        acc = pair[0].value
        loop = next((s for s in rest if acc in name_values(s)), None)
        if not isinstance(loop, cst.For | cst.While) or has_comments(init):
            return None
        if contains(loop, _UNSAFE) or acc in info.captured_names(func):
            return None
        if inside_try(loop, func, info) or not info.is_builtin("list"):
            return None
        grows: set[int] = set()
        for node in walk_nodes(loop):
            piece = added_to(node, acc)
            if piece is None:
                continue
            if acc in name_values(piece):
                return None
            if not (
                kinds.of(piece) == STR
                or (
                    isinstance(piece, cst.Name)
                    and _loop_item_is_str(piece.value, loop, kinds, info)
                )
            ):
                return None
            grows.add(id(node))
        if not grows:
            return None
        # Every mention of `acc` in the loop is the target of one of those statements.
        mentions = sum(1 for n in walk_nodes(loop) if isinstance(n, cst.Name) and n.value == acc)
        if mentions != len(grows):
            return None
        return _Builder(init, loop, acc, grows)

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> Any:
        """Start the list instead of the string; append instead of concatenating."""
        site = self.site
        if original_node is site.init:
            return assign(self.parts, cst.List(elements=[])).with_changes(
                leading_lines=updated_node.leading_lines
            )
        if id(original_node) in site.grows:
            small = updated_node.body[0]
            assert isinstance(small, cst.AugAssign)
            append = cst.Expr(
                value=method_expr(cst.Name(self.parts), "append", strip_parens(small.value))
            )
            return updated_node.with_changes(body=[append])
        return updated_node

    def _after(self, original_node: cst.CSTNode, updated_node: Any) -> Any:
        if original_node is not self.site.loop:
            return updated_node
        joined = assign(
            self.site.acc, method_expr(cst.SimpleString("''"), "join", cst.Name(self.parts))
        )
        self.note_origin(original_node, joined)
        return cst.FlattenSentinel([updated_node, joined])

    def leave_For(self, original_node: cst.For, updated_node: cst.For) -> Any:
        """Join the pieces after the loop."""
        return self._after(original_node, updated_node)

    def leave_While(self, original_node: cst.While, updated_node: cst.While) -> Any:
        """Join the pieces after the loop."""
        return self._after(original_node, updated_node)


TRANSFORMS: tuple[type[Transform], ...] = (
    LenToTruth,
    MembershipToGet,
    ReverseSlice,
    JoinComprehension,
    LoopToCollectionComprehension,
    ReversedRange,
    StrMethodSwap,
    MapToComprehension,
    CopyComprehension,
    DictKeys,
    NegativeIndex,
    StrConcatToJoin,
)

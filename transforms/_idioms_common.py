"""What the `idiom` transforms share: value kinds of names and expressions, site discovery.

An idiom rewrite swaps one way of computing a value for another that is only equivalent for
some types (`s.startswith('ab')` and `s[:2] == 'ab'` agree on strings, not on lists), so it
needs to know what kind of value an expression holds. `Kinds` answers that conservatively
from the source of one function:

- an expression's kind follows from its form (`''`, `f'..'`, `s.lower()`, `str(x)`: str;
  `[...]`, `sorted(x)`, `s.split()`: list; `{}`, `dict(...)`: dict; `len(x)`: int...);
- a local's kind is known when every assignment to it gives that kind;
- a parameter's kind is known when the function calls, on that parameter, a method that
  only that kind has (`text.lower()`: str; `nums.append(x)`: list; `d.items()`: dict), and
  never rebinds it to another kind. This last rule reads the whole function, not only the
  code before the rewritten site: an argument of another kind would make that call raise.

Functions that touch bytes (`b'..'`, `bytes`, `encode`, `decode`) are left alone: bytes
share most of str's methods with other semantics, and the rules above would confuse them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar, cast

import libcst as cst

from transforms._analysis import (
    STR_ONLY_METHODS,
    ModuleInfo,
    bound_names,
    copied_name,
    count_refs,
    name_values,
    param_names,
    single_small,
    walk,
)
from transforms._base import Transform


@dataclass(frozen=True)
class _AugValue:
    """A binding by augmented assignment (`x += e`)."""

    node: cst.AugAssign


@dataclass(frozen=True)
class _LoopItem:
    """A binding by a `for` target: an item of `iterable` (a str's items are strs), or, with
    `enumerated`, the index (0) or the item (1) of `for i, x in enumerate(iterable)`."""

    iterable: cst.BaseExpression
    enumerated: int | None = None


_Binding = cst.BaseExpression | _AugValue | _LoopItem | None


_T = TypeVar("_T")

STR = "str"
LIST = "list"
DICT = "dict"
INT = "int"
SEQ = "seq"  # a str, list or tuple, not known which

#: str methods that return a str (bytes are excluded module-wide, see `touches_bytes`).
STR_RESULT_METHODS = frozenset(
    {"lower", "upper", "strip", "lstrip", "rstrip", "replace", "capitalize", "title",
     "swapcase", "casefold", "center", "ljust", "rjust", "zfill", "join", "expandtabs",
     "removeprefix", "removesuffix", "translate", "format"}
)  # fmt: skip
_LIST_ONLY_METHODS = frozenset({"append", "extend", "insert", "sort", "reverse"})
_DICT_ONLY_METHODS = frozenset({"keys", "values", "items", "get", "setdefault", "popitem"})
_STR_EVIDENCE = STR_ONLY_METHODS - {"encode", "decode"}
#: str methods whose first n arguments must be strs (on a str receiver).
_STR_ARGUMENTS = {
    "count": 1, "find": 1, "rfind": 1, "index": 1, "rindex": 1, "replace": 2,
    "partition": 1, "rpartition": 1, "removeprefix": 1, "removesuffix": 1,
}  # fmt: skip
_INT_METHODS = frozenset({"count", "find", "rfind", "index", "rindex"})
_INT_BUILTINS = frozenset({"len", "ord", "int"})
_STR_BUILTINS = frozenset({"str", "chr", "repr", "format", "ascii"})


def touches_bytes(module: cst.Module) -> bool:
    """Whether the module has a bytes literal or names bytes, bytearray, encode or decode."""
    for node in walk(module):
        if isinstance(node, cst.SimpleString) and "b" in node.prefix.lower():
            return True
        if isinstance(node, cst.Name) and node.value in _BYTES_NAMES:
            return True
    return False


def function_nodes(
    info: ModuleInfo, types: tuple[type[cst.CSTNode], ...] | None = None
) -> Iterator[tuple[cst.CSTNode, cst.FunctionDef]]:
    """Every node inside a top-level-style function (not in a class), with its function;
    nothing at all for modules that use bytes or `global`/`nonlocal`. With `types`, only
    the nodes of those types (from the analysis's index by type, `ModuleInfo.of_types`)."""
    if types is None:
        return iter(info.derived(_function_nodes))
    return iter(info.derived_with(_function_nodes_of, types))


def _idiom_module(info: ModuleInfo) -> bool:
    """Whether the idioms look at the module at all (see `function_nodes`)."""
    if info.names.declared or info.names.has_match:
        return False
    # `touches_bytes(info.module)`, from the analysis: its identifiers are the values of
    # every `Name` node, and its index by type gives the strings.
    if not _BYTES_NAMES.isdisjoint(info.names.identifiers):
        return False
    return not any(
        "b" in cast(cst.SimpleString, node).prefix.lower()
        for node in info.of_types((cst.SimpleString,))
    )


_BYTES_NAMES = frozenset({"bytes", "bytearray", "encode", "decode", "memoryview"})


def _function_nodes(info: ModuleInfo) -> list[tuple[cst.CSTNode, cst.FunctionDef]]:
    return _in_functions(info, info.nodes)


def _function_nodes_of(
    info: ModuleInfo, types: tuple[type[cst.CSTNode], ...]
) -> list[tuple[cst.CSTNode, cst.FunctionDef]]:
    return _in_functions(info, info.of_types(types))


def _in_functions(
    info: ModuleInfo, nodes: Iterable[cst.CSTNode]
) -> list[tuple[cst.CSTNode, cst.FunctionDef]]:
    if not info.derived(_idiom_module):
        return []
    out: list[tuple[cst.CSTNode, cst.FunctionDef]] = []
    for node in nodes:
        func = info.enclosing_function(node)
        if func is not None and not info.in_class(node):
            out.append((node, func))
    return out


def function_sites(
    info: ModuleInfo,
    match: Callable[[cst.CSTNode, cst.FunctionDef, Kinds], _T | None],
    types: tuple[type[cst.CSTNode], ...] | None = None,
) -> list[_T]:
    """The sites `match(node, function, kinds)` finds among the nodes `function_nodes`
    yields (the `Kinds` of each function built once), in source order; with `types`, only
    among the nodes of those types (`match` must find nothing among the others: a test
    compares with the search over every node)."""
    kinds: dict[int, Kinds] = {}
    sites: list[_T] = []
    for node, func in function_nodes(info, types):
        if id(func) not in kinds:
            kinds[id(func)] = Kinds(func, info)
        site = match(node, func, kinds[id(func)])
        if site is not None:
            sites.append(site)
    return sites


def adjacent_statements(
    info: ModuleInfo,
) -> Iterator[tuple[cst.FunctionDef, Kinds, cst.BaseStatement, list[cst.BaseStatement]]]:
    """`(function, its kinds, statement, the statements after it in its block)` for every
    statement of every indented block of a function."""
    kinds: dict[int, Kinds] = {}
    for node, func in function_nodes(info):
        if isinstance(node, cst.IndentedBlock):
            if id(func) not in kinds:
                kinds[id(func)] = Kinds(func, info)
            body = list(node.body)
            for i, stmt in enumerate(body):
                yield func, kinds[id(func)], stmt, body[i + 1 :]


def next_use(init: cst.BaseStatement, rest: list[cst.BaseStatement]) -> cst.BaseStatement | None:
    """The first statement of `rest` that mentions the name `init` assigns (`init` being a
    one-name assignment line), or None."""
    small = single_small(init)
    if not (
        isinstance(small, cst.Assign)
        and len(small.targets) == 1
        and isinstance(small.targets[0].target, cst.Name)
    ):
        return None
    name = small.targets[0].target.value
    return next((stmt for stmt in rest if name in name_values(stmt)), None)


def statements(body: cst.BaseSuite) -> list[cst.BaseStatement]:
    """The statements of a block (a one-line suite as one statement line)."""
    if isinstance(body, cst.IndentedBlock):
        return list(body.body)
    assert isinstance(body, cst.SimpleStatementSuite)
    return [cst.SimpleStatementLine(body=list(body.body))]


def added_to(stmt: cst.CSTNode, acc: str) -> cst.BaseExpression | None:
    """`e` when `stmt` is a statement line that is exactly `acc += e`."""
    small = single_small(stmt)
    if (
        isinstance(small, cst.AugAssign)
        and isinstance(small.operator, cst.AddAssign)
        and isinstance(small.target, cst.Name)
        and small.target.value == acc
    ):
        return small.value
    return None


def bool_return(stmt: cst.CSTNode) -> bool | None:
    """True for a statement line `return True`, False for `return False`, else None."""
    small = single_small(stmt)
    if (
        isinstance(small, cst.Return)
        and isinstance(small.value, cst.Name)
        and small.value.value in ("True", "False")
    ):
        return small.value.value == "True"
    return None


def stored_or_returned(stmt: cst.CSTNode) -> tuple[str | None, cst.BaseExpression] | None:
    """`(name, value)` for a statement line `name = value`, `(None, value)` for
    `return value`."""
    small = single_small(stmt)
    if isinstance(small, cst.Assign) and len(small.targets) == 1:
        target = small.targets[0].target
        return (target.value, small.value) if isinstance(target, cst.Name) else None
    if isinstance(small, cst.Return) and small.value is not None:
        return None, small.value
    return None


def method_call(expr: cst.CSTNode) -> tuple[cst.BaseExpression, str, list[cst.Arg]] | None:
    """`(receiver, method, args)` for a plain method call `receiver.method(args)`."""
    if (
        isinstance(expr, cst.Call)
        and isinstance(expr.func, cst.Attribute)
        and all(not a.star for a in expr.args)
    ):
        return expr.func.value, expr.func.attr.value, list(expr.args)
    return None


def builtin_call(expr: cst.CSTNode, info: ModuleInfo) -> tuple[str, list[cst.Arg]] | None:
    """`(name, args)` for a call to a builtin the module never rebinds."""
    if (
        isinstance(expr, cst.Call)
        and isinstance(expr.func, cst.Name)
        and info.is_builtin(expr.func.value)
        and all(not a.star for a in expr.args)
    ):
        return expr.func.value, list(expr.args)
    return None


def is_str_literal(expr: cst.CSTNode) -> bool:
    """A plain (non-bytes, non-f) string literal."""
    return isinstance(expr, cst.SimpleString) and "b" not in expr.prefix.lower()


def str_value(expr: cst.CSTNode) -> str | None:
    """The value of a plain string literal, else None."""
    if is_str_literal(expr):
        assert isinstance(expr, cst.SimpleString)
        value = expr.evaluated_value
        return value if isinstance(value, str) else None
    return None


def is_simple(expr: cst.BaseExpression) -> bool:
    """A name or a literal number/string: evaluating it twice is the same as once."""
    if isinstance(expr, cst.Name | cst.Integer | cst.Float):
        return True
    if is_str_literal(expr):
        return True
    return (
        isinstance(expr, cst.UnaryOperation)
        and isinstance(expr.operator, cst.Minus)
        and isinstance(expr.expression, cst.Integer)
    )


def private_to(func: cst.CSTNode, owner: cst.CSTNode, names: set[str]) -> bool:
    """Every name in `names` appears in `func` only inside `owner`."""
    return all(count_refs(func, n) == count_refs(owner, n) for n in names)


def inside_try(node: cst.CSTNode, func: cst.FunctionDef, info: ModuleInfo) -> bool:
    """Whether `node` sits in a `try` (or `with`) of `func`, where a local's intermediate
    value could be seen after an exception."""
    for ancestor in info.ancestors(node):
        if ancestor is func:
            return False
        if isinstance(ancestor, cst.Try | cst.TryStar | cst.With):
            return True
    return False


def line(small: cst.BaseSmallStatement) -> cst.SimpleStatementLine:
    """A statement line holding one small statement."""
    return cst.SimpleStatementLine(body=[small])


def call_expr(func: str, *args: cst.BaseExpression) -> cst.Call:
    """`func(args)`, positional arguments only."""
    return cst.Call(func=cst.Name(func), args=[cst.Arg(value=a) for a in args])


def method_expr(receiver: cst.BaseExpression, name: str, *args: cst.BaseExpression) -> cst.Call:
    """`receiver.name(args)`, positional arguments only."""
    return cst.Call(
        func=cst.Attribute(value=receiver, attr=cst.Name(name)),
        args=[cst.Arg(value=a) for a in args],
    )


def assign(name: str, value: cst.BaseExpression) -> cst.SimpleStatementLine:
    """`name = value` as a statement line."""
    return line(cst.Assign(targets=[cst.AssignTarget(target=cst.Name(name))], value=value))


def bare_genexp(
    elt: cst.BaseExpression,
    target: cst.BaseAssignTargetExpression,
    iterable: cst.BaseExpression,
    condition: cst.BaseExpression | None = None,
) -> cst.GeneratorExp:
    """`elt for target in iterable [if condition]` without parentheses (a sole argument)."""
    ifs = [cst.CompIf(test=condition)] if condition is not None else []
    return cst.GeneratorExp(
        elt=elt,
        for_in=cst.CompFor(target=target, iter=iterable, ifs=ifs),
        lpar=[],
        rpar=[],
    )


def _loop_item(loop: cst.For, name: str) -> _LoopItem | None:
    """The binding of `name` by `loop`'s target, when it is the item or the index."""
    target = loop.target
    if isinstance(target, cst.Name):
        return _LoopItem(loop.iter)
    call = loop.iter
    if (
        isinstance(target, cst.Tuple)
        and len(target.elements) == 2
        and isinstance(call, cst.Call)
        and isinstance(call.func, cst.Name)
        and call.func.value == "enumerate"
        and len(call.args) == 1
        and not call.args[0].keyword
        and not call.args[0].star
    ):
        for position, element in enumerate(target.elements):
            if isinstance(element.value, cst.Name) and element.value.value == name:
                return _LoopItem(call.args[0].value, position)
    return None


class IdiomRewrite(Transform):
    """Base of the `idiom` family: equivalent rewrites by another idiom."""

    kind = "equivalent"
    family = "idiom"
    acc: str  # the accumulator a rewrite into a loop builds

    def accumulate(
        self,
        original: cst.SimpleStatementLine,
        updated: cst.SimpleStatementLine,
        start: cst.BaseExpression,
        loop: cst.For,
        returns: bool,
    ) -> cst.FlattenSentinel[cst.BaseStatement]:
        """`acc = start` and `loop` (which builds `self.acc`) in place of the statement
        `original`, then `return acc` when the statement returned the value."""
        produced: list[cst.BaseStatement] = [
            assign(self.acc, start).with_changes(leading_lines=updated.leading_lines),
            loop,
        ]
        if returns:
            produced.append(line(cst.Return(value=cst.Name(self.acc))))
        self.note_origin(original, *produced)
        return cst.FlattenSentinel(produced)


class Statement(NamedTuple):
    """A statement line `target = value` (`target` None: `return value`) of the function
    `func`, whose `Kinds` are `kinds`."""

    node: cst.SimpleStatementLine
    target: str | None
    value: cst.BaseExpression
    func: cst.FunctionDef
    kinds: Kinds


class StatementIdiom(IdiomRewrite):
    """Base of the rewrites of one statement `name = <value>` or `return <value>` of a
    function: `statement_site` says what site such a statement offers, if any (the statement,
    or a tuple whose first item is it), and `rewrite_statement` builds what takes its place."""

    def find_sites(self, info: ModuleInfo) -> Sequence[Any]:
        """The sites `statement_site` finds among the functions' statements."""

        def site(node: cst.CSTNode, func: cst.FunctionDef, kinds: Kinds) -> Any:
            found = stored_or_returned(node)
            if found is None:
                return None
            assert isinstance(node, cst.SimpleStatementLine)
            return self.statement_site(Statement(node, *found, func, kinds), info)

        return function_sites(info, site, (cst.SimpleStatementLine,))

    def statement_site(self, statement: Statement, info: ModuleInfo) -> Any:
        """The site `statement` offers, or None (hook)."""
        raise NotImplementedError

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> Any:
        """What `rewrite_statement` builds, at the site's statement."""
        if not self.at_site(original_node):
            return updated_node
        return self.rewrite_statement(original_node, updated_node)

    def rewrite_statement(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> Any:
        """What replaces the site's statement (`updated_node`: its children visited) (hook)."""
        raise NotImplementedError


class LoopReplacement(IdiomRewrite):
    """Base of the rewrites that put one statement in place of a loop and drop one statement
    the loop goes with (an initialisation before it, a return after it). The site has
    `loop`; subclasses say which statement goes (`dropped`) and build the new one."""

    def dropped(self) -> cst.CSTNode:
        """The statement that goes with the loop."""
        raise NotImplementedError

    def replacement(self, loop: cst.For) -> cst.BaseStatement:
        """The statement that replaces the loop (`loop`: the loop, children visited)."""
        raise NotImplementedError

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> Any:
        """Drop the statement that goes with the loop."""
        if original_node is self.dropped():
            return cst.RemovalSentinel.REMOVE
        return updated_node

    def leave_For(self, original_node: cst.For, updated_node: cst.For) -> Any:
        """Replace the loop."""
        if original_node is not self.site.loop:
            return updated_node
        new = self.replacement(updated_node)
        self.note_origin(self.dropped(), new)
        self.note_origin(original_node, new)
        return new


class FoldLoop(LoopReplacement):
    """Base of the rewrites of `acc = <start>` + a loop that builds `acc` into one assignment
    `acc = <expression>` where the loop stood. The site has `init`, `loop` and `acc`;
    subclasses find it and build the expression in `folded`."""

    def folded(self, loop: cst.For) -> cst.BaseExpression:
        """The expression that replaces the loop (`loop`: the loop, children visited)."""
        raise NotImplementedError

    def dropped(self) -> cst.CSTNode:
        """The initialisation (the assignment replaces it)."""
        return self.site.init

    def replacement(self, loop: cst.For) -> cst.BaseStatement:
        """`acc = <folded>`."""
        return assign(self.site.acc, self.folded(loop)).with_changes(
            leading_lines=self.site.init.leading_lines
        )


_Evidence = tuple[
    dict[str, list["_Binding"]],
    dict[str, list[tuple[str, cst.CSTNode]]],
    dict[str, list[tuple[cst.BaseExpression, cst.CSTNode]]],
]


def _kinds_evidence(info: ModuleInfo) -> dict[cst.FunctionDef, _Evidence]:
    """Where `Kinds` keeps what it collected of each function of an analysis."""
    return {}


class Kinds:
    """The kinds (str, list, dict, int) of the names of one function (see module doc)."""

    _bindings: dict[str, list[_Binding]]
    _methods: dict[str, list[tuple[str, cst.CSTNode]]]
    # name -> (expression, node): the name is a str when the expression is (the node raises
    # otherwise).
    _str_if: dict[str, list[tuple[cst.BaseExpression, cst.CSTNode]]]

    def __init__(self, func: cst.FunctionDef, info: ModuleInfo) -> None:
        """Collect every binding of every name of `func` and the methods called on them
        (once per function of an analysis: the collections are only read afterwards)."""
        self.info = info
        self.func = func
        collected = info.derived(_kinds_evidence)
        if func not in collected:
            self._collect(func)
            collected[func] = (self._bindings, self._methods, self._str_if)
        else:
            self._bindings, self._methods, self._str_if = collected[func]
        self._cache: dict[str, str | None] = {}
        self._pending: set[str] = set()
        self._recursed: set[str] = set()
        self._excluded: set[int] = set()
        self._excluded_root: cst.CSTNode | None = None

    def _collect(self, func: cst.FunctionDef) -> None:
        self._bindings = {}
        self._methods = {}
        self._str_if = {}
        for name in param_names(func):
            self._bindings.setdefault(name, []).append(None)
        for node in walk(func.body):
            if isinstance(node, cst.Assign):
                for target in node.targets:
                    if isinstance(target.target, cst.Name):
                        self._bind(target.target.value, node.value)
                    else:
                        for bound in bound_names(target.target):
                            self._bind(bound, None)
            elif isinstance(node, cst.AugAssign | cst.AnnAssign | cst.For | cst.NamedExpr):
                for bound in bound_names(node.target):
                    value = getattr(node, "value", None)
                    if isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name):
                        # `x += e` keeps x's kind when e has it (str + str, int + int).
                        self._bind(bound, _AugValue(node))
                    elif isinstance(node, cst.AnnAssign) and value is not None:
                        self._bind(bound, value)
                    elif isinstance(node, cst.For):
                        self._bind(bound, _loop_item(node, bound))
                    else:
                        self._bind(bound, None)
            elif isinstance(node, cst.AsName):
                for bound in bound_names(node.name):
                    self._bind(bound, None)
            elif isinstance(node, cst.Del):
                for bound in bound_names(node.target):
                    self._bind(bound, None)
            elif isinstance(node, cst.FunctionDef | cst.ClassDef | cst.Param):
                self._bind(node.name.value, None)
            elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
                receiver = node.func.value
                attr = node.func.attr.value
                if isinstance(receiver, cst.Name):
                    self._methods.setdefault(receiver.value, []).append((attr, node))
                # `s.count(x)`, `s.replace(a, b)`... raise unless x, a, b are strs when s is.
                for arg in node.args[: _STR_ARGUMENTS.get(attr, 0)]:
                    if isinstance(arg.value, cst.Name) and not arg.keyword and not arg.star:
                        self._str_if.setdefault(arg.value.value, []).append((receiver, node))
            elif isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
                # `p + 'x'` raises unless p is a str; `p + [x]` unless p is a list.
                for side, other in ((node.left, node.right), (node.right, node.left)):
                    if isinstance(side, cst.Name):
                        if is_str_literal(other):
                            self._methods.setdefault(side.value, []).append(("+str", node))
                        elif isinstance(other, cst.List):
                            self._methods.setdefault(side.value, []).append(("+list", node))
                        else:
                            self._str_if.setdefault(side.value, []).append((other, node))
            elif (
                isinstance(node, cst.Subscript)
                and isinstance(node.value, cst.Name)
                and any(isinstance(e.slice, cst.Slice) for e in node.slice)
            ):
                # Slicing raises on a dict, a set or a number.
                self._methods.setdefault(node.value.value, []).append(("[:]", node))

    def excluding(self, call: cst.CSTNode | None) -> Kinds:
        """These kinds, with nothing inside `call` counted as evidence (a rewrite of that
        very code must not rely on it: where it would raise, the rewrite may not)."""
        if call is not self._excluded_root:
            self._excluded_root = call
            self._excluded = {id(n) for n in walk(call)} if call is not None else set()
            self._cache = {}
        return self

    def _bind(self, name: str, value: _Binding) -> None:
        self._bindings.setdefault(name, []).append(value)

    def of_name(self, name: str) -> str | None:
        """The kind every value of local `name` has, or None when unknown.

        A binding that reads the name itself (`t = t[1:]`, `s = s + 'x'`) is judged by
        induction: when assuming the name's kind makes every binding give that kind, every
        value the name ever holds has it."""
        if name in self._cache:
            if self._cache[name] is None and name in self._pending:
                self._recursed.add(name)
            return self._cache[name]
        self._pending.add(name)
        result = self._of_name_once(name)
        self._pending.discard(name)
        if result is not None or name not in self._recursed:
            return result
        self._recursed.discard(name)
        kinds = {self._binding_kind(name, b) for b in self._bindings.get(name) or []}
        candidates = kinds - {None}
        if len(candidates) != 1:
            return None
        candidate = candidates.pop()
        saved = dict(self._cache)
        self._cache = {name: candidate}
        proven = all(
            self._binding_kind(name, b) == candidate for b in self._bindings.get(name) or []
        )
        self._cache = saved
        self._cache[name] = candidate if proven else None
        return self._cache[name]

    def _binding_kind(self, name: str, value: _Binding) -> str | None:
        if value is None:
            return self._evidence(name)
        if isinstance(value, _LoopItem):
            return self._item_kind(value)
        if isinstance(value, _AugValue):
            return self._aug_kind(value.node)
        return self.of(value)

    def _of_name_once(self, name: str) -> str | None:
        self._cache[name] = None  # recursion guard
        bindings = self._bindings.get(name)
        result: str | None = None
        plain = [b for b in bindings or [] if not isinstance(b, _AugValue)]
        grows = [b for b in bindings or [] if isinstance(b, _AugValue)]
        if plain and grows and all(isinstance(g.node.operator, cst.AddAssign) for g in grows):
            # `x += e` keeps a list a list (extend) and a str a str (or raises).
            kinds_ = {self._binding_kind(name, v) for v in plain}
            if len(kinds_) == 1 and (only := next(iter(kinds_))) in (LIST, STR):
                self._cache[name] = only
                return only
        if bindings:
            kinds = set()
            for value in bindings:
                if value is None:
                    kinds.add(self._evidence(name))
                elif isinstance(value, _LoopItem):
                    kinds.add(self._item_kind(value))
                elif isinstance(value, _AugValue):
                    kinds.add(self._aug_kind(value.node))
                else:
                    kinds.add(self.of(value))
            if len(kinds) == 1:
                result = kinds.pop()
        self._cache[name] = result
        return result

    def plain_param(self, name: str) -> bool:
        """Whether `name` is a parameter the function never rebinds (so it holds one of
        the call's arguments)."""
        return self._bindings.get(name) == [None] and name in param_names(self.func)

    def builtin_value(self, name: str) -> bool:
        """Whether `name` only ever holds values of builtin types: one of the call's
        arguments (a parameter), a name holding such a value, a slice or a `copy()` of
        one, a value whose kind `of` knows, or any of these grown by `+=` (not the result
        of an unknown call, which may be a deque or a defaultdict)."""
        seen: set[str] = set()
        todo = [name]
        while todo:
            current = todo.pop()
            if current in seen:
                continue
            seen.add(current)
            bindings = list(self._bindings.get(current) or [])
            if current in param_names(self.func) and None in bindings:
                bindings.remove(None)  # the argument itself
            elif not bindings:
                return False
            for value in bindings:
                if isinstance(value, _AugValue):
                    continue
                if value is None or isinstance(value, _LoopItem):
                    return False
                source = copied_name(value)
                if source is not None:
                    todo.append(source)
                elif self.of(value) is None:
                    return False
        return True

    def _evidence(self, name: str) -> str | None:
        if name not in param_names(self.func):
            return None
        methods = {
            attr for attr, node in self._methods.get(name, []) if id(node) not in self._excluded
        }
        found = set()
        if (
            methods & _STR_EVIDENCE
            or "+str" in methods
            or any(
                id(node) not in self._excluded and self.of(other) == STR
                for other, node in self._str_if.get(name, [])
            )
        ):
            found.add(STR)
        if methods & _LIST_ONLY_METHODS or "+list" in methods:
            found.add(LIST)
        if methods & _DICT_ONLY_METHODS:
            found.add(DICT)
        if not found and "[:]" in methods:
            found.add(SEQ)
        return found.pop() if len(found) == 1 else None

    def _item_kind(self, item: _LoopItem) -> str | None:
        if item.enumerated is not None and not self.info.is_builtin("enumerate"):
            return None
        if item.enumerated == 0:
            return INT
        return STR if self.of(item.iterable) == STR else None

    def _aug_kind(self, node: cst.AugAssign) -> str | None:
        assert isinstance(node.target, cst.Name)
        if not isinstance(node.operator, cst.AddAssign):
            return INT if self.of(node.value) == INT and self._int_op(node.operator) else None
        kind = self.of(node.value)
        return kind if kind in (STR, INT, LIST) else None

    @staticmethod
    def _int_op(op: cst.BaseAugOp) -> bool:
        return isinstance(
            op, cst.AddAssign | cst.SubtractAssign | cst.MultiplyAssign | cst.FloorDivideAssign
        )

    def of(self, expr: cst.BaseExpression) -> str | None:
        """The kind of the value of `expr`, or None when unknown."""
        info = self.info
        if isinstance(expr, cst.SimpleString | cst.ConcatenatedString | cst.FormattedString):
            if isinstance(expr, cst.SimpleString) and not is_str_literal(expr):
                return None
            return STR
        if isinstance(expr, cst.Integer):
            return INT
        if isinstance(expr, cst.List | cst.ListComp):
            return LIST
        if isinstance(expr, cst.Dict | cst.DictComp):
            return DICT
        if isinstance(expr, cst.Name):
            if expr.value in ("True", "False", "None"):
                return None
            return self.of_name(expr.value)
        if isinstance(expr, cst.Comparison):
            return None
        call = builtin_call(expr, info)
        if call is not None:
            name, args = call
            if name in _STR_BUILTINS and args:
                return STR
            if name in _INT_BUILTINS and args:
                return INT
            if name in ("list", "sorted"):
                return LIST
            if name == "dict":
                return DICT
            return None
        method = method_call(expr)
        if method is not None:
            receiver, attr, _ = method
            if attr in STR_RESULT_METHODS:
                return STR
            if attr in ("split", "rsplit", "splitlines"):
                return LIST
            if attr in _INT_METHODS:
                return INT
            if attr == "copy":
                return self.of(receiver)
            return None
        if isinstance(expr, cst.Subscript):
            base = self.of(expr.value)
            if base == STR:
                return STR
            if base == LIST and any(isinstance(e.slice, cst.Slice) for e in expr.slice):
                return LIST
            return None
        if isinstance(expr, cst.BinaryOperation):
            left, right = self.of(expr.left), self.of(expr.right)
            if isinstance(expr.operator, cst.Add):
                if STR in (left, right):
                    return STR
                if left == right and left in (LIST, INT):
                    return left
            if isinstance(expr.operator, cst.Multiply) and STR in (left, right):
                return STR
            if isinstance(expr.operator, cst.Modulo) and left == STR:
                return STR
            if (
                isinstance(expr.operator, cst.Add | cst.Subtract | cst.Multiply | cst.FloorDivide)
                and left == INT
                and right == INT
            ):
                return INT
            return None
        if isinstance(expr, cst.IfExp):
            body, orelse = self.of(expr.body), self.of(expr.orelse)
            return body if body == orelse else None
        return None

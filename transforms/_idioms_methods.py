"""`idiom` rewrites of str/list/dict method calls into the operators or loops they stand for.

Each rewrite is exact for the receiver kinds the method exists on (see `_idioms_common`).
Where the method's name pins the receiver among the builtin kinds a function gets (`find`,
`startswith`: str; `append`, `insert`, `reverse`: list; `get`, `items`: dict; `pop(k)`:
list or dict), a receiver nothing else types is taken to be of that kind: on any other the
original raises AttributeError, and differential verification rejects the variant. A
receiver proven to be of another kind is left alone.

- `s.startswith('ab')` -> `s[:2] == 'ab'`, `s.endswith('ab')` -> `s[-2:] == 'ab'` (one
  non-empty literal argument; the methods exist on str only);
- `s.find(x) == -1` -> `x not in s`, `s.find(x) != -1` (or `>= 0`, `> -1`) -> `x in s`;
- `s.count('a')` -> `sum(1 for ch in s if ch == 'a')` (a one-character literal, so the
  count is the same for a str, a list or a tuple receiver);
- `s.replace('a', 'b')` -> `'b'.join(s.split('a'))` (literal, non-empty `'a'`);
- `xs.append(x)` -> `xs += [x]`, `xs.extend(ys)` -> `xs += ys` (a local list);
- `xs.pop(i)` -> `xs[i]` then `del xs[i]` (a list or a dict; `xs.pop()` on a list only);
- `d.get(k, v)` -> `d[k] if k in d else v` (a simple key and default);
- `for k, v in d.items():` -> `for k in d:` with `v = d[k]` first in the body.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import libcst as cst
from libcst.metadata import MetadataWrapper

from transforms._analysis import (
    FreshNames,
    ModuleInfo,
    assigned_names,
    has_comments,
    invert_comparison,
    is_literal,
    is_pure,
    keep_parens,
    may_raise,
    name_values,
    required_precedence,
    resolves_locally,
    strip_parens,
    walk,
    wrap,
)
from transforms._base import Transform
from transforms._idioms_common import (
    DICT,
    LIST,
    SEQ,
    STR,
    IdiomRewrite,
    Kinds,
    bare_genexp,
    function_nodes,
    function_sites,
    is_simple,
    line,
    method_call,
    str_value,
)


def _index(expr: cst.BaseExpression, *slices: cst.BaseSlice) -> cst.Subscript:
    return cst.Subscript(
        value=wrap(expr, 16), slice=[cst.SubscriptElement(slice=s) for s in slices]
    )


def _neg(n: int) -> cst.BaseExpression:
    return cst.UnaryOperation(operator=cst.Minus(), expression=cst.Integer(str(n)))


def _one_positional(args: list[cst.Arg], count: int) -> bool:
    return len(args) == count and all(a.keyword is None for a in args)


#: The kinds a receiver of a str-only method may be proven to have (None: not known).
_STRISH = (STR, SEQ, None)


def _no_comments(node: cst.CSTNode) -> bool:
    return not has_comments(node)


#: Nodes whose keyword may touch the expression after it (`return[x]`, `if(x)`...).
_KEYWORDED = (
    cst.Return, cst.If, cst.While, cst.Yield, cst.UnaryOperation, cst.Comparison,
    cst.ComparisonTarget, cst.IfExp, cst.BooleanOperation, cst.CompFor, cst.CompIf,
    cst.Assert, cst.Del, cst.Raise, cst.Await, cst.Lambda, cst.For, cst.With,
)  # fmt: skip


def receiver_root(expr: cst.BaseExpression) -> str | None:
    """The name a chain of method calls starts from (`s` for `s.lower().replace('a',
    'b')`), or None when it starts from anything but a name."""
    while (call := method_call(expr)) is not None:
        expr = call[0]
    return expr.value if isinstance(expr, cst.Name) else None


def method_operation(node: cst.CSTNode, methods: Collection[str], label: str) -> Hashable | None:
    """`(label, root)` for a call `root...method(...)` of one of `methods`, the key by which
    `_ExpressionIdiom.operation` groups such calls on one receiver."""
    call = method_call(node)
    if call is None or call[1] not in methods:
        return None
    root = receiver_root(call[0])
    return None if root is None else (label, root)


def _nested(a: cst.CSTNode, b: cst.CSTNode) -> bool:
    """Whether one of two nodes is inside the other."""
    return any(n is b for n in walk(a)) or any(n is a for n in walk(b))


class _ExpressionIdiom(IdiomRewrite):
    """Base: pick one expression site in `prepare`, rebuild it in `replace`.

    The other sites of the same statement are rebuilt with it: a person who writes
    `(min(lo, t), max(hi, t))` as conditionals writes both so, not one of the two. So are
    the other sites of its operation in its function (`operation`), or none.
    """

    site_local = True
    #: The node types `match` can accept (a node of any other type is never a site): the
    #: site search visits only the nodes of these types (`ModuleInfo.of_types`). A test
    #: checks, on every node of the bundled and CRUXEval problems, that `match` accepts no
    #: node of another type.
    node_types: ClassVar[tuple[type[cst.CSTNode], ...]] = (cst.CSTNode,)

    site: cst.CSTNode
    info: ModuleInfo
    data: Any

    def find_sites(self, info: ModuleInfo) -> Sequence[tuple[cst.CSTNode, Any]]:
        """`(node, what build needs)` for every node of `node_types` that `match` accepts,
        but for the nodes of an operation (`operation`) that a node of their function
        spells without being a site."""
        self.info = info
        found = function_sites(info, self._matched, self.node_types)
        self._found = self._complete_operations(found)
        return self._found

    #: The node types `operation` names an operation of (None: `node_types`).
    operation_types: ClassVar[tuple[type[cst.CSTNode], ...] | None] = None

    def operation(self, node: cst.CSTNode) -> Hashable | None:
        """The operation a node of `operation_types` spells the way this idiom rewrites it,
        in a site or not (`('get', 'd')` for `d.get(...)`), or None (the default: the site
        stands alone).

        In a function, the sites of one operation are rewritten together, and none of them
        when another node spells it the old way without being a site (`d.get(k.lower(),
        0)`, whose key is not simple): a person who prefers one spelling uses it
        throughout, not `ans += g(x)` in one branch and `ans.extend(g(y))` in the next.
        One node of an occurrence gives its key (the call, not also the `Expr` around it)."""
        return None

    def _complete_operations(
        self, found: list[tuple[cst.CSTNode, Any]]
    ) -> list[tuple[cst.CSTNode, Any]]:
        """`found` without the sites of an operation that a node of their function spells
        outside every site; each kept site's operation in `_operations` (that of the first
        node in it that spells one: the site itself, or the call in a statement)."""
        self._operations: dict[int, tuple[int, Hashable]] = {}
        if type(self).operation is _ExpressionIdiom.operation or not found:
            return found
        spelling: dict[int, tuple[int, Hashable]] = {}
        spelled: Counter[tuple[int, Hashable]] = Counter()
        for node, func in function_nodes(self.info, self.operation_types or self.node_types):
            key = self.operation(node)
            if key is not None:
                spelling[id(node)] = (id(func), key)
                spelled[(id(func), key)] += 1
        covered: Counter[tuple[int, Hashable]] = Counter()
        for site, _ in found:
            where = next((w for n in walk(site) if (w := spelling.get(id(n)))), None)
            if where is not None:
                self._operations[id(site)] = where
                covered[where] += 1
        return [
            (node, data)
            for node, data in found
            if (where := self._operations.get(id(node))) is None or covered[where] == spelled[where]
        ]

    def prepare(self, wrapper: MetadataWrapper) -> bool:
        """Pick the site, take the other sites of its operation along (`operation`), and
        the siblings of each in its statement line."""
        if not super().prepare(wrapper):
            return False
        self._rebuilt: dict[int, tuple[cst.CSTNode, Any]] = {}
        todo = [(self.site, self.data, True)]
        for node, data, same_operation in todo:  # in order: `todo` grows as it is read
            if id(node) in self._rebuilt:
                continue
            if not same_operation and any(
                _nested(node, other) for other, _ in self._rebuilt.values()
            ):
                continue  # a sibling is never rebuilt inside another site, nor around one
            self._rebuilt[id(node)] = (node, data)
            where = self._operations.get(id(node))
            if where is not None:
                todo.extend(
                    (*s, True) for s in self._found if self._operations.get(id(s[0])) == where
                )
            todo.extend((*s, False) for s in self._same_line(node).values())
        if self._visited is not None:
            for node, _ in self._rebuilt.values():
                self._visited.update(id(n) for n in walk(node))
                self._visited.update(id(n) for n in self.info.ancestors(node))
        return True

    def _same_line(self, site: cst.CSTNode) -> dict[int, tuple[cst.CSTNode, Any]]:
        """The other sites of the statement line holding `site`, none inside another."""
        if isinstance(site, cst.BaseStatement | cst.BaseSmallStatement):
            return {}
        line_of = self._line_of(site)
        if line_of is None:
            return {}
        taken = {id(n) for n in walk(site)}
        siblings: dict[int, tuple[cst.CSTNode, Any]] = {}
        for node, data in self._found:
            if node is site or self._line_of(node) is not line_of:
                continue
            inside = {id(n) for n in walk(node)}
            if inside & taken or any(id(a) in taken for a in self.info.ancestors(node)):
                continue
            taken |= inside
            siblings[id(node)] = (node, data)
        return siblings

    def _line_of(self, node: cst.CSTNode) -> cst.SimpleStatementLine | None:
        for ancestor in self.info.ancestors(node):
            if isinstance(ancestor, cst.SimpleStatementLine):
                return ancestor
            if isinstance(ancestor, cst.BaseCompoundStatement | cst.BaseSuite):
                return None
        return None

    def _matched(
        self, node: cst.CSTNode, _func: cst.FunctionDef, kinds: Kinds
    ) -> tuple[cst.CSTNode, Any] | None:
        data = self.match(node, kinds)
        return None if data is None else (node, data)

    def take_site(self, site: tuple[cst.CSTNode, Any], info: ModuleInfo) -> bool:
        """Keep the node and its data apart."""
        self.site, self.data = site
        self.fresh = FreshNames(info.names.identifiers)
        return True

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        """What `build` needs to rewrite `node`, or None when `node` is not a site."""
        raise NotImplementedError

    def fresh_name(self, bases: list[str]) -> str:
        """One of `bases` (chosen with the rng) that is free, else a numbered one."""
        free = [b for b in bases if self.fresh.is_free(b)]
        return self.fresh.choose(free or bases, self.rng)

    def build(self, updated: Any) -> Any:
        """The replacement of the picked site (`updated`: the site with its children
        already visited)."""
        raise NotImplementedError

    def replace(self, original_node: cst.CSTNode, result: Any) -> Any:
        """Swap the picked site; a `not` right above a comparison it became is folded into
        the operator (`not s.startswith('!')` -> `s[:1] != '!'`, not `not s[:1] == '!'`)."""
        rebuilt = self._rebuilt.get(id(original_node))
        if rebuilt is not None and rebuilt[0] is original_node:
            # `build` reads the data of the site it rebuilds (and the site, for the origin
            # of the statements it writes).
            self.site, self.data = original_node, rebuilt[1]
        else:
            if (
                isinstance(result, cst.UnaryOperation)
                and isinstance(result.operator, cst.Not)
                and any(self.info.parent(n) is original_node for n, _ in self._rebuilt.values())
            ):
                inverted = invert_comparison(strip_parens(result.expression))
                if inverted is not None:
                    return inverted.with_changes(lpar=result.lpar, rpar=result.rpar)
            return result
        new = self.build(result)
        if isinstance(original_node, cst.BaseExpression) and isinstance(new, cst.BaseExpression):
            needed = required_precedence(original_node, self.info)
            new = wrap(new, needed)
            parent = self.info.parent(original_node)
            spaced_return = (
                isinstance(parent, cst.Return)
                and isinstance(parent.whitespace_after_return, cst.SimpleWhitespace)
                and parent.whitespace_after_return.value != ""
            )
            if original_node.lpar or (isinstance(parent, _KEYWORDED) and not spaced_return):
                # `return[...]` must not become `returnlist(...)`.
                return keep_parens(original_node, new)
            return new
        return new


class StartswithToSlice(_ExpressionIdiom):
    """`s.startswith('ab')` -> `s[:2] == 'ab'` (and `endswith` with a negative slice);
    `s.startswith(p)` -> `s[:len(p)] == p` for a str `p`."""

    name = "idiom_startswith_slice"
    description = "compare a slice instead of calling startswith/endswith with a literal"
    node_types = (cst.Call,)

    def operation(self, node: cst.CSTNode) -> Hashable | None:
        """Every test of a str's start or end."""
        return method_operation(node, ("startswith", "endswith"), "affix")

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        call = method_call(node)
        if call is None or call[1] not in ("startswith", "endswith"):
            return None
        receiver, method, args = call
        if not _one_positional(args, 1):
            return None
        # startswith/endswith exist on str (and bytes, which the module never touches):
        # a receiver of another kind raises AttributeError, which verification rejects.
        if not is_pure(receiver, kinds.info) or kinds.excluding(node).of(receiver) not in _STRISH:
            return None
        value = str_value(args[0].value)
        if value:
            return method, len(value)
        prefix = args[0].value
        if (
            method == "startswith"
            and isinstance(prefix, cst.Name)
            and kinds.of(prefix) == STR
            and kinds.info.is_builtin("len")
        ):
            return method, None
        return None

    def build(self, updated: Any) -> Any:
        method, n = self.data
        receiver = updated.func.value
        if n is None:
            length = cst.Call(func=cst.Name("len"), args=[cst.Arg(value=updated.args[0].value)])
            piece = cst.Slice(lower=None, upper=length)
        elif method == "startswith":
            piece = cst.Slice(lower=None, upper=cst.Integer(str(n)))
        else:
            piece = cst.Slice(lower=_neg(n), upper=None)
        return cst.Comparison(
            left=_index(receiver, piece),
            comparisons=[
                cst.ComparisonTarget(operator=cst.Equal(), comparator=updated.args[0].value)
            ],
        )


_FIND_TESTS = {
    (cst.Equal, "-1"): False,
    (cst.NotEqual, "-1"): True,
    (cst.GreaterThanEqual, "0"): True,
    (cst.GreaterThan, "-1"): True,
    (cst.LessThan, "0"): False,
}


def _int_text(expr: cst.BaseExpression) -> str | None:
    if isinstance(expr, cst.Integer):
        return expr.value
    if (
        isinstance(expr, cst.UnaryOperation)
        and isinstance(expr.operator, cst.Minus)
        and isinstance(expr.expression, cst.Integer)
    ):
        return "-" + expr.expression.value
    return None


class FindToIn(_ExpressionIdiom):
    """`s.find(x) == -1` -> `x not in s`; `s.find(x) != -1` / `>= 0` -> `x in s`."""

    name = "idiom_find_in"
    description = "test membership with in instead of comparing str.find with -1"
    node_types = (cst.Comparison,)

    def operation(self, node: cst.CSTNode) -> Hashable | None:
        """Every membership test by `find` on one str."""
        if not isinstance(node, cst.Comparison) or len(node.comparisons) != 1:
            return None
        target = node.comparisons[0]
        if (type(target.operator), _int_text(target.comparator) or "") not in _FIND_TESTS:
            return None
        return method_operation(node.left, ("find",), "find test")

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        if not isinstance(node, cst.Comparison) or len(node.comparisons) != 1:
            return None
        call = method_call(node.left)
        if call is None or call[1] != "find" or not _one_positional(call[2], 1):
            return None
        target = node.comparisons[0]
        found = _FIND_TESTS.get((type(target.operator), _int_text(target.comparator) or ""))
        if found is None:
            return None
        receiver, needle = call[0], call[2][0].value
        info = kinds.info
        if kinds.excluding(node.left).of(receiver) not in _STRISH:
            return None  # find exists on str only (bytes aside): the name pins it
        if not (is_pure(receiver, info) and is_pure(needle, info)):
            return None
        if may_raise(receiver, info) and may_raise(needle, info):
            return None  # `in` evaluates them in the other order
        return found

    def build(self, updated: Any) -> Any:
        call = updated.left
        op: cst.BaseCompOp = cst.In() if self.data else cst.NotIn()
        return cst.Comparison(
            left=wrap(call.args[0].value, 6),
            comparisons=[cst.ComparisonTarget(operator=op, comparator=wrap(call.func.value, 6))],
        )


class CountToSum(_ExpressionIdiom):
    """`s.count('a')` -> `sum(1 for ch in s if ch == 'a')`."""

    name = "idiom_count_sum"
    description = "count a one-character literal with sum over a generator"
    node_types = (cst.Call,)

    def operation(self, node: cst.CSTNode) -> Hashable | None:
        """Every count on one receiver."""
        return method_operation(node, ("count",), "count")

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        call = method_call(node)
        if call is None or call[1] != "count" or not _one_positional(call[2], 1):
            return None
        value = str_value(call[2][0].value)
        if value is None or len(value) != 1 or not kinds.info.is_builtin("sum"):
            return None
        # On every builtin sequence with count (str, list, tuple) a one-character literal
        # is counted item by item with ==; a receiver of another kind raises.
        if kinds.excluding(node).of(call[0]) not in (STR, LIST, SEQ, None):
            return None
        return True

    def build(self, updated: Any) -> Any:
        var = self.fresh.choose(["ch", "c", "item", "x"], self.rng)
        test = cst.Comparison(
            left=cst.Name(var),
            comparisons=[
                cst.ComparisonTarget(operator=cst.Equal(), comparator=updated.args[0].value)
            ],
        )
        gen = bare_genexp(cst.Integer("1"), cst.Name(var), updated.func.value, test)
        return cst.Call(func=cst.Name("sum"), args=[cst.Arg(value=gen)])


class ReplaceToSplitJoin(_ExpressionIdiom):
    """`s.replace('a', 'b')` -> `'b'.join(s.split('a'))`."""

    name = "idiom_replace_split_join"
    description = "replace a literal substring by splitting on it and joining"
    node_types = (cst.Call,)

    def operation(self, node: cst.CSTNode) -> Hashable | None:
        """Every replace on one str (a chain of them included)."""
        return method_operation(node, ("replace",), "replace")

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        call = method_call(node)
        if call is None or call[1] != "replace" or not _one_positional(call[2], 2):
            return None
        old, new = (str_value(a.value) for a in call[2])
        if not old or new is None:
            return None
        return True

    def build(self, updated: Any) -> Any:
        receiver = updated.func.value
        old, new = (a.value for a in updated.args)
        split = cst.Call(
            func=cst.Attribute(value=receiver, attr=cst.Name("split")),
            args=[cst.Arg(value=old)],
        )
        return cst.Call(
            func=cst.Attribute(value=new, attr=cst.Name("join")), args=[cst.Arg(value=split)]
        )


class AppendToAugAssign(_ExpressionIdiom):
    """`xs.append(x)` -> `xs += [x]`; `xs.extend(ys)` -> `xs += ys` (xs a local list)."""

    name = "idiom_append_augassign"
    description = "grow a list with += instead of append/extend"
    node_types = (cst.Expr,)
    operation_types = (cst.Call,)

    def operation(self, node: cst.CSTNode) -> Hashable | None:
        """Every append or extend of the function, on any list: `higgs += [i]` beside
        `lows.append(i)` is two spellings of one operation."""
        call = method_call(node)
        return ("grow",) if call is not None and call[1] in ("append", "extend") else None

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        if not isinstance(node, cst.Expr):
            return None
        call = method_call(node.value)
        if call is None or call[1] not in ("append", "extend") or not _one_positional(call[2], 1):
            return None
        receiver = call[0]
        if not isinstance(receiver, cst.Name):
            return None
        # append/extend: among the builtin values a function gets, only a list has them.
        if kinds.excluding(node.value).of_name(receiver.value) not in (LIST, SEQ, None):
            return None
        scope = kinds.info.scopes.get(receiver)
        if not resolves_locally(receiver, scope):
            return None
        if kinds.info.captured_names(kinds.func) & {receiver.value}:
            return None
        return call[1]

    def build(self, updated: Any) -> Any:
        call = updated.value
        value = call.args[0].value
        if self.data == "append":
            value = cst.List(elements=[cst.Element(value=value)])
        return cst.AugAssign(
            target=call.func.value,
            operator=cst.AddAssign(),
            value=value,
            semicolon=updated.semicolon,
        )


class AugAssignToAppend(_ExpressionIdiom):
    """`xs += [x]` -> `xs.append(x)`; `xs += ys` -> `xs.extend(ys)` (xs a list)."""

    name = "idiom_augassign_append"
    description = "grow a list with append/extend instead of +="
    node_types = (cst.AugAssign,)

    def operation(self, node: cst.CSTNode) -> Hashable | None:
        """Every `xs += ...` of the function on a list."""
        func = self.info.enclosing_function(node)
        if (
            isinstance(node, cst.AugAssign)
            and isinstance(node.operator, cst.AddAssign)
            and isinstance(node.target, cst.Name)
            and func is not None
            and Kinds(func, self.info).of_name(node.target.value) == LIST
        ):
            return ("grow",)
        return None

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        if not (
            isinstance(node, cst.AugAssign)
            and isinstance(node.operator, cst.AddAssign)
            and isinstance(node.target, cst.Name)
        ):
            return None
        if kinds.of_name(node.target.value) != LIST:
            return None
        value = node.value
        if isinstance(value, cst.List) and len(value.elements) == 1:
            element = value.elements[0]
            if isinstance(element, cst.Element):
                return "append"
            return None
        return "extend"

    def build(self, updated: Any) -> Any:
        value = updated.value
        if self.data == "append":
            value = value.elements[0].value
        call = cst.Call(
            func=cst.Attribute(value=updated.target, attr=cst.Name(self.data)),
            args=[cst.Arg(value=value)],
        )
        return cst.Expr(value=call, semicolon=updated.semicolon)


class FromkeysToComprehension(_ExpressionIdiom):
    """`dict.fromkeys(keys, v)` -> `{k: v for k in keys}` (v a name or an immutable
    literal: fromkeys shares one value object, the comprehension re-evaluates it)."""

    name = "idiom_fromkeys_comprehension"
    description = "build a dict with a comprehension instead of dict.fromkeys()"
    node_types = (cst.Call,)

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        call = method_call(node)
        if call is None or call[1] != "fromkeys" or len(call[2]) not in (1, 2):
            return None
        receiver, _, args = call
        if not (isinstance(receiver, cst.Name) and receiver.value == "dict"):
            return None
        if not kinds.info.is_builtin("dict") or not _one_positional(args, len(args)):
            return None
        if len(args) == 2:
            value = args[1].value
            if not (isinstance(value, cst.Name) or is_literal(value)):
                return None
        return True

    def build(self, updated: Any) -> Any:
        args = updated.args
        key = self.fresh.choose(["key", "k", "item"], self.rng)
        value = args[1].value if len(args) == 2 else cst.Name("None")
        return cst.DictComp(
            key=cst.Name(key),
            value=wrap(value, 1),
            for_in=cst.CompFor(target=cst.Name(key), iter=wrap(args[0].value, 3)),
        )


@dataclass
class _PopSite:
    receiver: str
    target: cst.BaseAssignTargetExpression | None


class PopToDel(_ExpressionIdiom):
    """`x = xs.pop(i)` -> `x = xs[i]` and `del xs[i]`; `xs.pop(i)` -> `del xs[i]`."""

    name = "idiom_pop_del"
    description = "take an item by index and delete it instead of calling pop"
    node_types = (cst.SimpleStatementLine,)
    operation_types = (cst.Call,)

    def operation(self, node: cst.CSTNode) -> Hashable | None:
        """Every pop from one receiver (`tmp[xs.pop()] = v` too, which cannot change)."""
        return method_operation(node, ("pop",), "pop")

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        if not isinstance(node, cst.SimpleStatementLine) or len(node.body) != 1:
            return None
        small = node.body[0]
        target: cst.BaseAssignTargetExpression | None = None
        if isinstance(small, cst.Expr):
            value = small.value
        elif isinstance(small, cst.Assign) and len(small.targets) == 1:
            target = small.targets[0].target
            if not isinstance(target, cst.Name):
                return None
            value = small.value
        else:
            return None
        call = method_call(value)
        if call is None or call[1] != "pop" or len(call[2]) > 1:
            return None
        receiver, _, args = call
        if not isinstance(receiver, cst.Name) or not _one_positional(args, len(args)):
            return None
        # pop(key) exists on list and dict, and `xs[key]` + `del xs[key]` is it on both
        # (IndexError/KeyError alike); a bare pop() also exists on set and dict: list only.
        kind = kinds.excluding(value).of_name(receiver.value)
        if kind == SEQ:
            kind = LIST  # sliced, so no dict or set; with pop, no str or tuple
        if kind not in (LIST, DICT, None) or (not args and kind != LIST):
            return None
        if kind is None and not kinds.builtin_value(receiver.value):
            return None  # a local of unknown kind may be a defaultdict: `d[k]` would add k
        if args and not is_simple(args[0].value):
            return None
        if target is not None and isinstance(target, cst.Name):
            used = name_values(value)
            if target.value in used:
                return None
        if not _no_comments(node):
            return None
        return _PopSite(receiver.value, target)

    def build(self, updated: Any) -> Any:
        small = updated.body[0]
        call = small.value
        index = call.args[0].value if call.args else _neg(1)
        item = _index(call.func.value, cst.Index(value=index))
        removal = cst.Del(target=item)
        if isinstance(small, cst.Expr):
            return updated.with_changes(body=[removal])
        first = updated.with_changes(body=[small.with_changes(value=item)])
        second = line(cst.Del(target=item.deep_clone()))
        self.note_origin(self.site, first, second)
        return cst.FlattenSentinel([first, second])


class DictGetToMembership(_ExpressionIdiom):
    """`d.get(k, v)` -> `d[k] if k in d else v`."""

    name = "idiom_get_membership"
    description = "look a key up behind an in test instead of calling dict.get"
    node_types = (cst.Call,)

    def operation(self, node: cst.CSTNode) -> Hashable | None:
        """Every `get` on one dict."""
        return method_operation(node, ("get",), "get")

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        call = method_call(node)
        if call is None or call[1] != "get" or len(call[2]) not in (1, 2):
            return None
        receiver, _, args = call
        if not isinstance(receiver, cst.Name) or not _one_positional(args, len(args)):
            return None
        if kinds.excluding(node).of_name(receiver.value) not in (DICT, None):
            return None  # get exists on dict only among builtins
        key = args[0].value
        if not is_simple(key):
            return None
        if len(args) == 2:
            default = args[1].value
            if not (is_literal(default) or isinstance(default, cst.Name)):
                return None
        return True

    def build(self, updated: Any) -> Any:
        receiver = updated.func.value
        key = updated.args[0].value
        default = updated.args[1].value if len(updated.args) == 2 else cst.Name("None")
        return cst.IfExp(
            test=cst.Comparison(
                left=key,
                comparisons=[cst.ComparisonTarget(operator=cst.In(), comparator=receiver)],
            ),
            body=_index(receiver, cst.Index(value=key)),
            orelse=wrap(default, 1),
        )


class ItemsToKeyLookup(_ExpressionIdiom):
    """`for k, v in d.items():` -> `for k in d:` with `v = d[k]` first in the body."""

    name = "idiom_items_lookup"
    description = "iterate over a dict's keys and look each value up instead of items()"
    node_types = (cst.For,)

    def operation(self, node: cst.CSTNode) -> Hashable | None:
        """Every loop over one dict's items."""
        if isinstance(node, cst.For):
            return method_operation(node.iter, ("items",), "items")
        return None

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        if not isinstance(node, cst.For) or node.asynchronous is not None:
            return None
        call = method_call(node.iter)
        if call is None or call[1] != "items" or call[2]:
            return None
        receiver = call[0]
        if not isinstance(receiver, cst.Name):
            return None
        if kinds.excluding(node.iter).of_name(receiver.value) not in (DICT, None):
            return None  # items exists on dict only among builtins
        target = node.target
        if not isinstance(target, cst.Tuple | cst.List) or len(target.elements) != 2:
            return None
        names = []
        for element in target.elements:
            if not isinstance(element, cst.Element) or not isinstance(element.value, cst.Name):
                return None
            names.append(element.value.value)
        if names[0] == names[1] or receiver.value in names:
            return None
        if receiver.value in assigned_names(node.body):
            return None
        return names

    def build(self, updated: Any) -> Any:
        key, value = self.data
        receiver = updated.iter.func.value
        lookup = line(
            cst.Assign(
                targets=[cst.AssignTarget(target=cst.Name(value))],
                value=_index(receiver, cst.Index(value=cst.Name(key))),
            )
        )
        self.note_origin(self.site, lookup)
        body = updated.body
        if isinstance(body, cst.IndentedBlock):
            new_body = body.with_changes(body=[lookup, *body.body])
        else:
            new_body = cst.IndentedBlock(
                body=[lookup, cst.SimpleStatementLine(body=list(body.body))],
                header=body.trailing_whitespace,
            )
        return updated.with_changes(
            target=cst.Name(key),
            iter=receiver.with_changes(lpar=[], rpar=[]),
            body=new_body,
        )


_SLICE_METHODS = frozenset({"clear", "copy", "reverse", "insert", "remove", "update"})


class ListMethodToSlice(_ExpressionIdiom):
    """List (and dict) methods as the slice or item operations they stand for:
    `xs.clear()` -> `del xs[:]`, `xs.copy()` -> `xs[:]` (a dict: `dict(d)`),
    `xs.reverse()` -> `xs[:] = xs[::-1]`, `xs.insert(i, x)` -> `xs[i:i] = [x]`,
    `xs.remove(x)` -> `del xs[xs.index(x)]`, `d.update({k: v})` -> `d[k] = v`."""

    name = "idiom_list_method_slice"
    description = "replace a list or dict method with the slice or item operation it performs"
    node_types = (cst.Expr, cst.Call)
    operation_types = (cst.Call,)

    def operation(self, node: cst.CSTNode) -> Hashable | None:
        """Every call of one of these methods on one receiver (`del xs[:]` beside
        `xs.reverse()` mixes the two ways of changing a list in place)."""
        return method_operation(node, _SLICE_METHODS, "slice method")

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        if isinstance(node, cst.Expr):
            call = method_call(node.value)
            exclude: cst.CSTNode = node.value
        else:
            call = method_call(node)
            exclude = node
        if call is None:
            return None
        receiver, method, args = call
        if not isinstance(receiver, cst.Name) or not _one_positional(args, len(args)):
            return None
        kind = kinds.excluding(exclude).of_name(receiver.value)
        if kind == SEQ:
            kind = LIST  # sliced, so no dict or set; with a list method, no str or tuple
        values = [a.value for a in args]
        if method == "copy" and not args and kind in (LIST, DICT):
            if isinstance(node, cst.Expr):
                return None
            if kind == DICT and not kinds.info.is_builtin("dict"):
                return None
            return ("copy", kind)
        if not isinstance(node, cst.Expr):
            return None
        if kind == LIST or (kind is None and kinds.builtin_value(receiver.value)):
            # reverse and insert exist on list only among builtins (a local of unknown kind
            # may be a deque, which has them but no slices); clear and remove also on dict
            # and set, which the slice forms do not take: those need a proven list.
            if method == "reverse" and not args:
                return (method, LIST)
            if method == "insert" and len(args) == 2 and is_simple(values[0]):
                return (method, LIST)
        if kind == LIST:
            if method == "clear" and not args:
                return (method, kind)
            if method == "remove" and len(args) == 1 and is_simple(values[0]):
                return (method, kind)
        if kind == DICT and method == "update" and len(args) == 1:
            mapping = values[0]
            if (
                isinstance(mapping, cst.Dict)
                and len(mapping.elements) == 1
                and isinstance(mapping.elements[0], cst.DictElement)
            ):
                element = mapping.elements[0]
                if is_simple(element.key) and (
                    is_simple(element.value) or is_literal(element.value)
                ):
                    return (method, kind)
        return None

    def build(self, updated: Any) -> Any:
        method, kind = self.data
        if method == "copy":
            receiver = updated.func.value
            if kind == DICT:
                return cst.Call(func=cst.Name("dict"), args=[cst.Arg(value=receiver)])
            return _index(receiver, cst.Slice(lower=None, upper=None))
        call = updated.value
        receiver = call.func.value
        values = [a.value for a in call.args]
        whole = _index(receiver, cst.Slice(lower=None, upper=None))
        small: cst.BaseSmallStatement
        if method == "clear":
            small = cst.Del(target=whole)
        elif method == "reverse":
            backwards = _index(receiver, cst.Slice(lower=None, upper=None, step=_neg(1)))
            small = cst.Assign(targets=[cst.AssignTarget(target=whole)], value=backwards)
        elif method == "insert":
            at, item = values
            lower = None if _int_text(at) == "0" else at
            piece = cst.Slice(lower=lower, upper=at.deep_clone())
            small = cst.Assign(
                targets=[cst.AssignTarget(target=_index(receiver, piece))],
                value=cst.List(elements=[cst.Element(value=item)]),
            )
        elif method == "remove":
            position = cst.Call(
                func=cst.Attribute(value=receiver, attr=cst.Name("index")),
                args=[cst.Arg(value=values[0])],
            )
            small = cst.Del(target=_index(receiver, cst.Index(value=position)))
        else:
            element = values[0].elements[0]
            small = cst.Assign(
                targets=[cst.AssignTarget(target=_index(receiver, cst.Index(value=element.key)))],
                value=element.value,
            )
        return small.with_changes(semicolon=updated.semicolon)


_MAP_BUILTINS = frozenset(
    {"str", "int", "float", "len", "abs", "ord", "chr", "bool", "tuple", "list", "sorted",
     "repr", "round", "set", "sum", "min", "max"}
)  # fmt: skip
_CONSUMERS = frozenset({"list", "set", "tuple", "sorted", "sum", "any", "all", "min", "max"})


class ComprehensionToMapFilter(_ExpressionIdiom):
    """`[str(x) for x in xs]` -> `list(map(str, xs))`; `[x for x in xs if c]` ->
    `list(filter(lambda x: c, xs))`; a generator passed to a consumer (`''.join(...)`,
    `sum(...)`...) becomes the bare `map(...)`/`filter(...)`."""

    name = "idiom_map_filter"
    description = "use map() or filter() instead of a comprehension"
    node_types = (cst.ListComp, cst.GeneratorExp)

    def match(self, node: cst.CSTNode, kinds: Kinds) -> Any:
        info = kinds.info
        if isinstance(node, cst.ListComp):
            wrapper = "list"
        elif isinstance(node, cst.GeneratorExp):
            parent = info.parent(node)
            consumer = info.parent(parent) if isinstance(parent, cst.Arg) else None
            if not isinstance(consumer, cst.Call) or len(consumer.args) != 1:
                return None
            func = consumer.func
            joined = isinstance(func, cst.Attribute) and func.attr.value == "join"
            consumed = (
                isinstance(func, cst.Name)
                and func.value in _CONSUMERS
                and info.is_builtin(func.value)
            )
            if not (joined or consumed):
                return None
            wrapper = None
        else:
            return None
        for_in = node.for_in
        if for_in.inner_for_in is not None or for_in.asynchronous or len(for_in.ifs) > 1:
            return None
        if not isinstance(for_in.target, cst.Name) or has_comments(node):
            return None
        var = for_in.target.value
        elt = node.elt
        if not for_in.ifs:
            if not (
                isinstance(elt, cst.Call)
                and isinstance(elt.func, cst.Name)
                and elt.func.value in _MAP_BUILTINS
                and info.is_builtin(elt.func.value)
                and len(elt.args) == 1
                and elt.args[0].keyword is None
                and not elt.args[0].star
                and isinstance(elt.args[0].value, cst.Name)
                and elt.args[0].value.value == var
                and elt.func.value != var
            ):
                return None
            return ("map", wrapper, False)
        if not (isinstance(elt, cst.Name) and elt.value == var):
            return None
        if any(isinstance(n, cst.NamedExpr | cst.Yield | cst.Await) for n in walk(node)):
            return None
        if not (info.is_builtin("filter") and (wrapper is None or info.is_builtin(wrapper))):
            return None
        return ("filter", wrapper, _called_with_only(for_in.ifs[0].test, var, info))

    def build(self, updated: Any) -> Any:
        how, wrapper, direct = self.data
        for_in = updated.for_in
        iterable = strip_parens(for_in.iter)
        if how == "map":
            call = cst.Call(
                func=cst.Name("map"),
                args=[cst.Arg(value=updated.elt.func), cst.Arg(value=iterable)],
            )
        else:
            test = strip_parens(for_in.ifs[0].test)
            # `filter(is_prime, xs)`, not `filter(lambda x: is_prime(x), xs)`: no one wraps
            # a function in a lambda that only calls it.
            predicate: cst.BaseExpression
            if direct and isinstance(test, cst.Call):
                predicate = test.func
            else:
                predicate = cst.Lambda(
                    params=cst.Parameters(params=[cst.Param(name=for_in.target)]), body=test
                )
            call = cst.Call(
                func=cst.Name("filter"), args=[cst.Arg(value=predicate), cst.Arg(value=iterable)]
            )
        if wrapper is None:
            return call
        return cst.Call(func=cst.Name(wrapper), args=[cst.Arg(value=call)])


def _called_with_only(test: cst.BaseExpression, var: str, info: ModuleInfo) -> bool:
    """Whether `test` is `g(var)`, `g` a function the module defines at its top or a
    builtin (bound before the filter runs, whatever the iterable holds)."""
    test = strip_parens(test)
    if not (
        isinstance(test, cst.Call)
        and isinstance(test.func, cst.Name)
        and test.func.value != var
        and len(test.args) == 1
        and test.args[0].keyword is None
        and not test.args[0].star
        and isinstance(test.args[0].value, cst.Name)
        and test.args[0].value.value == var
    ):
        return False
    name = test.func.value
    defined = {stmt.name.value for stmt in info.module.body if isinstance(stmt, cst.FunctionDef)}
    return info.is_builtin(name) or (name in defined and name not in info.names.declared)


TRANSFORMS: tuple[type[Transform], ...] = (
    StartswithToSlice,
    FindToIn,
    CountToSum,
    ReplaceToSplitJoin,
    AppendToAugAssign,
    AugAssignToAppend,
    PopToDel,
    DictGetToMembership,
    ItemsToKeyLookup,
    ListMethodToSlice,
    FromkeysToComprehension,
    ComprehensionToMapFilter,
)

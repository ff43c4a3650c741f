"""`idiom` rewrites between explicit loops and the builtins that stand for them.

- `idiom_loop_sum`: `n = 0` + `for x in xs: [if c:] n += e` -> `n = sum(e for x in xs [if c])`
  (the terms must be ints: `sum` adds floats in another order on Python >= 3.12);
- `idiom_loop_join`: `s = ''` + `for x in xs: [if c:] s += e` -> `s = ''.join(...)` (the
  pieces must be strs, so no piece can make `+=` fail part way);
- `idiom_accumulator_loop`: the reverse of both, from `n = sum(...)`, `s = ''.join(...)` or
  `return sum(...)`/`return ''.join(...)`;
- `idiom_loop_any_all`: `for x in xs: if c: return True` + `return False` ->
  `return any(c for x in xs)` (and `all` for the mirrored form);
- `idiom_any_all_loop`: the reverse;
- `idiom_return_flag`: the same loop with a flag variable and `break` instead of the early
  return;
- `idiom_index_enumerate`: `for i in range(len(xs)):` reading `xs[i]` -> `for x in xs:`
  (or `for i, x in enumerate(xs):` when `i` is used otherwise), for a str or list `xs`
  that the loop cannot change;
- `idiom_sorted_sort`: `ys = sorted(xs, ...)` -> `ys = list(xs)` + `ys.sort(...)`.

A comprehension has a scope of its own, so every rewrite that moves a loop into one (or out
of one) requires the loop variables to be used nowhere else in the function.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

import libcst as cst

from transforms._analysis import (
    FreshNames,
    ModuleInfo,
    assigned_names,
    contains,
    count_refs,
    has_comments,
    mutation_free,
    name_values,
    negate,
    negates_naturally,
    pure_call,
    strip_parens,
    subscript_index,
    target_names,
    walk,
    wrap,
)
from transforms._base import Transform
from transforms._idioms_common import (
    INT,
    LIST,
    SEQ,
    STR,
    FoldLoop,
    IdiomRewrite,
    Kinds,
    LoopReplacement,
    Statement,
    StatementIdiom,
    added_to,
    adjacent_statements,
    assign,
    bare_genexp,
    bool_return,
    builtin_call,
    function_sites,
    inside_try,
    line,
    method_call,
    next_use,
    private_to,
    single_small,
    statements,
    str_value,
)
from transforms._idioms_common import (
    STR_RESULT_METHODS as _STR_RESULT,
)

_SPLITS = frozenset({"split", "rsplit", "splitlines"})
_UNSAFE = cst.Lambda | cst.NamedExpr | cst.Yield | cst.Await | cst.FunctionDef | cst.ClassDef
_STR_TESTS = frozenset(
    {"isalpha", "isdigit", "isdecimal", "isnumeric", "isalnum", "isspace", "isupper",
     "islower", "istitle", "isascii", "isidentifier", "isprintable", "startswith", "endswith"}
) | _STR_RESULT  # fmt: skip


def _proves_str(test: cst.BaseExpression | None, name: str) -> bool:
    """Whether `test` being true means `name` holds a str: `test` calls a str-only method
    on `name` before anything can short-circuit."""
    while test is not None:
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
            if _proves_str(test.left, name):
                return True
            test = test.right
            continue
        if isinstance(test, cst.Comparison):
            test = test.left
            continue
        call = method_call(test)
        return (
            call is not None
            and isinstance(call[0], cst.Name)
            and call[0].value == name
            and call[1] in _STR_TESTS
        )
    return False


def _is_str(
    expr: cst.BaseExpression,
    kinds: Kinds,
    loop_target: cst.BaseAssignTargetExpression,
    iterable: cst.BaseExpression,
    test: cst.BaseExpression | None,
) -> bool:
    """Whether every value `expr` takes in the loop is a str."""
    if kinds.of(expr) == STR:
        return True
    if isinstance(expr, cst.IfExp):
        return _is_str(expr.body, kinds, loop_target, iterable, test) and _is_str(
            expr.orelse, kinds, loop_target, iterable, test
        )
    if isinstance(expr, cst.Name) and isinstance(loop_target, cst.Name):
        if expr.value != loop_target.value:
            return False
        return kinds.of(iterable) == STR or _proves_str(test, expr.value)
    return False


def _is_int(expr: cst.BaseExpression, kinds: Kinds) -> bool:
    if isinstance(expr, cst.IfExp):
        return _is_int(expr.body, kinds) and _is_int(expr.orelse, kinds)
    return kinds.of(expr) == INT


# -- loop <-> sum / ''.join -------------------------------------------------------------------


@dataclass
class _Fold:
    init: cst.SimpleStatementLine
    loop: cst.For
    acc: str
    elt: cst.BaseExpression
    test: cst.BaseExpression | None


class _LoopToFold(FoldLoop):
    """Base of `idiom_loop_sum` and `idiom_loop_join`."""

    fold: ClassVar[str]  # "sum" | "join"

    site: _Fold

    def find_sites(self, info: ModuleInfo) -> Sequence[_Fold]:
        """`acc = <start>` followed by a loop that only adds to `acc` (the statements between
        them do not mention it)."""
        sites = []
        for func, kinds, stmt, rest in adjacent_statements(info):
            loop = next_use(stmt, rest)
            site = self._site(stmt, loop, func, info, kinds) if loop is not None else None
            if site is not None:
                sites.append(site)
        return sites

    def _start(self, value: cst.BaseExpression) -> bool:
        if self.fold == "sum":
            return isinstance(value, cst.Integer) and value.value == "0"
        return str_value(value) == ""

    def _site(
        self,
        init: cst.BaseStatement,
        loop: cst.BaseStatement,
        func: cst.FunctionDef,
        info: ModuleInfo,
        kinds: Kinds,
    ) -> _Fold | None:
        small = single_small(init)
        if not (
            isinstance(small, cst.Assign)
            and len(small.targets) == 1
            and isinstance(small.targets[0].target, cst.Name)
            and self._start(small.value)
        ):
            return None
        assert isinstance(init, cst.SimpleStatementLine)
        acc = small.targets[0].target.value
        if not isinstance(loop, cst.For) or loop.orelse is not None or loop.asynchronous:
            return None
        if any(isinstance(n, cst.Continue | cst.Break) for n in walk(loop.body)):
            return None
        if has_comments(loop) or has_comments(init) or contains(loop, _UNSAFE):
            return None
        body = statements(loop.body)
        if len(body) > 1:
            return self._site_of_pieces(init, loop, body, acc, func, info, kinds)
        if len(body) != 1:
            return None
        stmt = body[0]
        test: cst.BaseExpression | None = None
        elt = added_to(stmt, acc)
        if elt is None and isinstance(stmt, cst.If):
            inner = statements(stmt.body)
            if len(inner) != 1:
                return None
            elt = added_to(inner[0], acc)
            if elt is None:
                return None
            if stmt.orelse is None:
                test = stmt.test
            elif isinstance(stmt.orelse, cst.Else):
                other = statements(stmt.orelse.body)
                other_elt = added_to(other[0], acc) if len(other) == 1 else None
                if other_elt is None:
                    return None
                elt = cst.IfExp(
                    test=wrap(stmt.test, 2), body=wrap(elt, 2), orelse=wrap(other_elt, 1)
                )
            else:
                return None
        if elt is None:
            return None
        names = target_names(loop.target)
        if names is None or acc in names:
            return None
        used = name_values(loop.iter) | name_values(elt) | name_values(loop.target)
        if test is not None:
            used |= name_values(test)
        if acc in used or not private_to(func, loop, names):
            return None
        if acc in info.captured_names(func) or inside_try(loop, func, info):
            return None
        if self.fold == "sum":
            if not (_is_int(elt, kinds) and info.is_builtin("sum")):
                return None
        elif not _is_str(elt, kinds, loop.target, loop.iter, test):
            return None
        return _Fold(init, loop, acc, elt, test)

    def _site_of_pieces(
        self,
        init: cst.SimpleStatementLine,
        loop: cst.For,
        body: list[cst.BaseStatement],
        acc: str,
        func: cst.FunctionDef,
        info: ModuleInfo,
        kinds: Kinds,
    ) -> _Fold | None:
        """A loop body of several `acc += e`: one term, their sum or concatenation."""
        pieces = [added_to(stmt, acc) for stmt in body]
        if any(p is None for p in pieces) or len(pieces) > 3:
            return None
        names = target_names(loop.target)
        if names is None or acc in names:
            return None
        used = name_values(loop.iter) | name_values(loop.target)
        elt: cst.BaseExpression | None = None
        for piece in pieces:
            assert piece is not None
            used |= name_values(piece)
            if self.fold == "sum" and not _is_int(piece, kinds):
                return None
            if self.fold == "join" and not _is_str(piece, kinds, loop.target, loop.iter, None):
                return None
            elt = (
                wrap(piece, 10)
                if elt is None
                else cst.BinaryOperation(left=elt, operator=cst.Add(), right=wrap(piece, 11))
            )
        if elt is None or acc in used or not private_to(func, loop, names):
            return None
        if acc in info.captured_names(func) or inside_try(loop, func, info):
            return None
        if self.fold == "sum" and not info.is_builtin("sum"):
            return None
        return _Fold(init, loop, acc, elt, None)

    def folded(self, loop: cst.For) -> cst.BaseExpression:
        """`sum(...)` or `''.join(...)` over the loop's terms."""
        site = self.site
        gen = bare_genexp(
            wrap(site.elt, 1),
            site.loop.target,
            wrap(site.loop.iter, 3),
            None if site.test is None else wrap(strip_parens(site.test), 3),
        )
        if self.fold == "sum":
            func: cst.BaseExpression = cst.Name("sum")
        else:
            func = cst.Attribute(value=cst.SimpleString("''"), attr=cst.Name("join"))
        return cst.Call(func=func, args=[cst.Arg(value=gen)])


class LoopToSum(_LoopToFold):
    """`n = 0` + `for x in xs: n += e` -> `n = sum(e for x in xs)`."""

    name = "idiom_loop_sum"
    description = "replace a counting or summing loop with sum() over a generator"
    fold = "sum"


class LoopToJoin(_LoopToFold):
    """`s = ''` + `for x in xs: s += e` -> `s = ''.join(e for x in xs)`."""

    name = "idiom_loop_join"
    description = "replace a string-building loop with ''.join() over a generator"
    fold = "join"


class _Unfold(NamedTuple):
    stmt: cst.SimpleStatementLine
    fold: str  # "sum" | "join"
    acc: str | None  # None: a `return`, which needs a fresh accumulator
    comp: cst.GeneratorExp | cst.ListComp


class AccumulatorToLoop(StatementIdiom):
    """`n = sum(e for x in xs)` / `s = ''.join(...)` -> an explicit accumulating loop."""

    name = "idiom_accumulator_loop"
    description = "replace sum() or ''.join() over a generator with an accumulating loop"

    site: _Unfold

    def take_site(self, chosen: _Unfold, info: ModuleInfo) -> bool:
        """Name the accumulator of a `return`."""
        if chosen.acc is not None:
            self.acc = chosen.acc
        else:
            fresh = FreshNames(info.names.identifiers)
            bases = ["total", "count"] if chosen.fold == "sum" else ["result", "out", "text"]
            self.acc = fresh.choose(bases, self.rng)
        return True

    def statement_site(self, statement: Statement, info: ModuleInfo) -> _Unfold | None:
        """`acc = sum(...)`, `acc = ''.join(...)` or `return` of one."""
        stmt, acc, value, func, kinds = statement
        if not isinstance(value, cst.Call) or len(value.args) != 1:
            return None
        arg = value.args[0]
        if arg.keyword is not None or arg.star:
            return None
        call = builtin_call(value, info)
        method = method_call(value)
        if call is not None and call[0] == "sum":
            fold = "sum"
        elif method is not None and method[1] == "join" and str_value(method[0]) == "":
            fold = "join"
        else:
            return None
        comp = arg.value
        if not isinstance(comp, cst.GeneratorExp | cst.ListComp):
            return None
        for_in = comp.for_in
        if for_in.inner_for_in is not None or len(for_in.ifs) > 1 or for_in.asynchronous:
            return None
        if has_comments(stmt) or contains(comp, _UNSAFE):
            return None
        names = target_names(for_in.target)
        if names is None or not private_to(func, comp, names):
            return None
        if acc is not None and (acc in name_values(comp) or acc in names):
            return None
        if acc is not None and acc in info.captured_names(func):
            return None
        if inside_try(stmt, func, info):
            return None
        test = for_in.ifs[0].test if for_in.ifs else None
        if fold == "sum" and not _is_int(comp.elt, kinds):
            return None
        if fold == "join" and not _is_str(comp.elt, kinds, for_in.target, for_in.iter, test):
            return None
        return _Unfold(stmt, fold, acc, comp)

    def rewrite_statement(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> Any:
        """Replace the statement with the loop."""
        site = self.site
        for_in = site.comp.for_in
        start: cst.BaseExpression = (
            cst.Integer("0") if site.fold == "sum" else cst.SimpleString("''")
        )
        add: cst.BaseStatement = line(
            cst.AugAssign(target=cst.Name(self.acc), operator=cst.AddAssign(), value=site.comp.elt)
        )
        if for_in.ifs:
            add = cst.If(test=for_in.ifs[0].test, body=cst.IndentedBlock(body=[add]))
        loop = cst.For(
            target=for_in.target.with_changes(lpar=[], rpar=[])
            if isinstance(for_in.target, cst.Tuple)
            else for_in.target,
            iter=for_in.iter,
            body=cst.IndentedBlock(body=[add]),
        )
        return self.accumulate(original_node, updated_node, start, loop, site.acc is None)


class _JoinSite(NamedTuple):
    stmt: cst.SimpleStatementLine
    acc: str | None
    sep: cst.BaseExpression | None  # None: the empty separator
    items: cst.BaseExpression  # a name, or a generator/list comprehension without `if`


class JoinToLoop(StatementIdiom):
    """`s = sep.join(words)` -> `for i in range(len(words)): if i > 0: s += sep; s += words[i]`,
    or a loop adding `word + sep` then `s = s[:-len(sep)]` (`''.join(words)`: a loop that
    adds every item)."""

    name = "idiom_join_loop"
    description = "build a joined string with a loop instead of str.join()"

    site: _JoinSite
    acc: str
    item: str
    index: str
    indexed: bool

    def take_site(self, chosen: _JoinSite, info: ModuleInfo) -> bool:
        """Name the accumulator, the item and the index."""
        fresh = FreshNames(info.names.identifiers)
        self.acc = chosen.acc or fresh.choose(["result", "out", "joined"], self.rng)
        items = chosen.items
        plural = items.value if isinstance(items, cst.Name) else ""
        singular = plural[:-1] if len(plural) > 3 and plural.endswith("s") else ""
        if singular and fresh.is_free(singular):
            self.item = fresh.choose([singular], self.rng)  # `for word in words`
        else:
            self.item = fresh.choose(["part", "piece", "item"], self.rng)
        self.index = fresh.choose(["i", "index", "pos"], self.rng)
        # With a separator: an index loop over a name, or add the separator after every
        # item and drop the last one; never `enumerate` (whose `while` form reads badly).
        self.indexed = isinstance(items, cst.Name) and self.rng.random() < 0.5
        return True

    def statement_site(self, statement: Statement, info: ModuleInfo) -> _JoinSite | None:
        """`acc = sep.join(items)` or `return sep.join(items)`."""
        stmt, acc, value, func, kinds = statement
        method = method_call(value)
        if method is None or method[1] != "join" or len(method[2]) != 1:
            return None
        sep_value = str_value(method[0])
        arg = method[2][0]
        if sep_value is None or arg.keyword is not None or has_comments(stmt):
            return None
        items = arg.value
        if inside_try(stmt, func, info):
            return None
        if acc is not None and (acc in name_values(items) or acc in info.captured_names(func)):
            return None
        if isinstance(items, cst.Name):
            # Iterating a str, list, tuple, dict or set has no effect and cannot fail part
            # way, so a non-str item makes both the loop and join() raise TypeError.
            if not (kinds.of_name(items.value) in (STR, LIST) or kinds.plain_param(items.value)):
                return None
        elif isinstance(items, cst.Call):
            # A str's split()/splitlines(), or sorted/reversed/list of something: every item
            # exists before the first is added, so both forms raise TypeError on a non-str.
            method_items = method_call(items)
            call_items = builtin_call(items, info)
            if not (
                (method_items is not None and method_items[1] in _SPLITS)
                or (call_items is not None and call_items[0] in ("sorted", "reversed", "list"))
            ):
                return None
            if contains(items, _UNSAFE) or not mutation_free(items, info):
                return None
        elif isinstance(items, cst.GeneratorExp | cst.ListComp):
            if sep_value == "":
                return None  # idiom_accumulator_loop's job
            for_in = items.for_in
            if for_in.inner_for_in is not None or for_in.ifs or for_in.asynchronous:
                return None
            if not isinstance(for_in.target, cst.Name) or contains(items, _UNSAFE):
                return None
            if not private_to(func, items, {for_in.target.value}):
                return None
            if acc == for_in.target.value:
                return None
            if not _is_str(items.elt, kinds, for_in.target, for_in.iter, None):
                return None
        else:
            return None
        sep = method[0] if sep_value else None
        return _JoinSite(stmt, acc, sep, items)

    def rewrite_statement(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> Any:
        """Replace the statement with the loop."""
        site = self.site
        items = site.items
        acc = cst.Name(self.acc)
        trim: cst.BaseExpression | None = None
        if isinstance(items, cst.Name | cst.Call):
            target: cst.BaseAssignTargetExpression = cst.Name(self.item)
            iterable: cst.BaseExpression = items
            elt: cst.BaseExpression = cst.Name(self.item)
        else:
            assert isinstance(items, cst.GeneratorExp | cst.ListComp)
            target, iterable, elt = items.for_in.target, items.for_in.iter, items.elt
        add = line(cst.AugAssign(target=acc, operator=cst.AddAssign(), value=elt))
        body: list[cst.BaseStatement] = [add]
        if site.sep is not None and self.indexed:
            # for i in range(len(parts)): if i > 0: out += sep; out += parts[i]
            assert isinstance(items, cst.Name)
            first = cst.Comparison(
                left=cst.Name(self.index),
                comparisons=[
                    cst.ComparisonTarget(operator=cst.GreaterThan(), comparator=cst.Integer("0"))
                ],
            )
            glue = line(cst.AugAssign(target=acc, operator=cst.AddAssign(), value=site.sep))
            fetch = cst.Subscript(
                value=items, slice=[cst.SubscriptElement(slice=cst.Index(cst.Name(self.index)))]
            )
            add = line(cst.AugAssign(target=acc, operator=cst.AddAssign(), value=fetch))
            body = [cst.If(test=first, body=cst.IndentedBlock(body=[glue])), add]
            target = cst.Name(self.index)
            length = cst.Call(func=cst.Name("len"), args=[cst.Arg(value=items)])
            iterable = cst.Call(func=cst.Name("range"), args=[cst.Arg(value=length)])
        elif site.sep is not None:
            # for part in parts: out += part + sep; then drop the last separator
            glued = cst.BinaryOperation(left=wrap(elt, 11), operator=cst.Add(), right=site.sep)
            body = [line(cst.AugAssign(target=acc, operator=cst.AddAssign(), value=glued))]
            width = len(str_value(site.sep) or "")
            trim = cst.Subscript(
                value=acc,
                slice=[
                    cst.SubscriptElement(
                        slice=cst.Slice(
                            lower=None,
                            upper=cst.UnaryOperation(
                                operator=cst.Minus(), expression=cst.Integer(str(width))
                            ),
                        )
                    )
                ],
            )
        loop = cst.For(target=target, iter=iterable, body=cst.IndentedBlock(body=body))
        produced: list[cst.BaseStatement] = [
            assign(self.acc, cst.SimpleString("''")).with_changes(
                leading_lines=updated_node.leading_lines
            ),
            loop,
        ]
        if site.acc is None:
            produced.append(line(cst.Return(value=trim or cst.Name(self.acc))))
        elif trim is not None:
            produced.append(assign(self.acc, trim))
        self.note_origin(original_node, *produced)
        return cst.FlattenSentinel(produced)


# -- loop <-> any / all, early return <-> flag -------------------------------------------------


@dataclass
class _Search:
    loop: cst.For
    after: cst.SimpleStatementLine
    test: cst.BaseExpression
    hit: bool  # what the early return returns


def _searches(info: ModuleInfo) -> list[_Search]:
    """`for x in xs: if c: return B` directly followed by `return not B`."""
    found = []
    for func, _kinds, loop, rest in adjacent_statements(info):
        if not rest or not isinstance(loop, cst.For):
            continue
        after = rest[0]
        if loop.orelse is not None or loop.asynchronous or has_comments(loop):
            continue
        inner = statements(loop.body)
        if len(inner) != 1 or not isinstance(inner[0], cst.If) or inner[0].orelse is not None:
            continue
        hits = statements(inner[0].body)
        hit = bool_return(hits[0]) if len(hits) == 1 else None
        miss = bool_return(after)
        if hit is None or miss is None or hit == miss or contains(loop, _UNSAFE):
            continue
        names = target_names(loop.target)
        if names is None or names & info.captured_names(func):
            continue
        assert isinstance(after, cst.SimpleStatementLine)
        found.append(_Search(loop, after, inner[0].test, hit))
    return found


class LoopToAnyAll(LoopReplacement):
    """`for x in xs: if c: return True` + `return False` -> `return any(c for x in xs)`."""

    name = "idiom_loop_any_all"
    description = "replace a searching loop with an early return by any() or all()"

    site: _Search

    def find_sites(self, info: ModuleInfo) -> Sequence[_Search]:
        """Searching loops."""
        if not (info.is_builtin("any") and info.is_builtin("all")):
            return []
        return [
            s for s in _searches(info) if s.hit or negates_naturally(s.test, boolean_context=True)
        ]  # not `all(not x < k for x in xs)`

    def dropped(self) -> cst.CSTNode:
        """The final return (the new return replaces the loop)."""
        return self.site.after

    def replacement(self, loop: cst.For) -> cst.BaseStatement:
        """`return any(...)` or `return all(...)`."""
        site = self.site
        if site.hit:
            name, elt = "any", site.test
        else:
            name, elt = "all", negate(site.test, boolean_context=True)
        gen = bare_genexp(wrap(elt, 1), site.loop.target, wrap(site.loop.iter, 3))
        return line(
            cst.Return(value=cst.Call(func=cst.Name(name), args=[cst.Arg(value=gen)]))
        ).with_changes(leading_lines=loop.leading_lines)


class AnyAllToLoop(StatementIdiom):
    """`return any(c for x in xs)` -> `for x in xs: if c: return True` + `return False`."""

    name = "idiom_any_all_loop"
    description = "replace return any()/all() over a generator with a loop that returns early"

    site: tuple[cst.SimpleStatementLine, bool, cst.GeneratorExp]

    def statement_site(
        self, statement: Statement, info: ModuleInfo
    ) -> tuple[cst.SimpleStatementLine, bool, cst.GeneratorExp] | None:
        """`return any(...)` / `return all(...)` over a one-loop generator."""
        stmt, target, value, func, _ = statement
        if target is not None:
            return None
        call = builtin_call(value, info)
        if call is None or call[0] not in ("any", "all") or len(call[1]) != 1:
            return None
        gen = call[1][0].value
        if call[1][0].keyword is not None or not isinstance(gen, cst.GeneratorExp):
            return None
        for_in = gen.for_in
        if for_in.inner_for_in is not None or for_in.ifs or for_in.asynchronous:
            return None
        if contains(gen, _UNSAFE) or has_comments(stmt):
            return None
        if call[0] == "all" and not negates_naturally(gen.elt, boolean_context=True):
            return None  # `if not x < k: return False`
        names = target_names(for_in.target)
        if names is None or names & info.captured_names(func):
            return None
        return (stmt, call[0] == "any", gen)

    def rewrite_statement(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> Any:
        """Replace the return with the loop and the final return."""
        _, is_any, gen = self.site
        test = gen.elt if is_any else negate(gen.elt, boolean_context=True)
        hit = line(cst.Return(value=cst.Name("True" if is_any else "False")))
        loop = cst.For(
            target=gen.for_in.target.with_changes(lpar=[], rpar=[])
            if isinstance(gen.for_in.target, cst.Tuple)
            else gen.for_in.target,
            iter=gen.for_in.iter,
            body=cst.IndentedBlock(body=[cst.If(test=test, body=cst.IndentedBlock(body=[hit]))]),
            leading_lines=updated_node.leading_lines,
        )
        miss = line(cst.Return(value=cst.Name("False" if is_any else "True")))
        self.note_origin(original_node, loop, miss)
        return cst.FlattenSentinel([loop, miss])


class EarlyReturnToFlag(IdiomRewrite):
    """`for x in xs: if c: return True` + `return False` -> a flag set before `break`."""

    name = "idiom_return_flag"
    description = "replace an early return from a searching loop with a flag and break"

    site: _Search
    flag: str

    def find_sites(self, info: ModuleInfo) -> Sequence[_Search]:
        """Searching loops."""
        return _searches(info)

    def take_site(self, chosen: _Search, info: ModuleInfo) -> bool:
        """Name the flag."""
        fresh = FreshNames(info.names.identifiers)
        self.flag = fresh.choose(["found", "result", "flag", "matched"], self.rng)
        return True

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> Any:
        """Return the flag where the loop's fall-through return was."""
        site = self.site
        if original_node is site.after:
            return updated_node.with_changes(body=[cst.Return(value=cst.Name(self.flag))])
        return updated_node

    def leave_For(self, original_node: cst.For, updated_node: cst.For) -> Any:
        """Set the flag before the loop and in place of the early return."""
        site = self.site
        if original_node is not site.loop:
            return updated_node
        inner = statements(updated_node.body)[0]
        assert isinstance(inner, cst.If)
        value = "True" if site.hit else "False"
        other = "False" if site.hit else "True"
        body = cst.IndentedBlock(body=[assign(self.flag, cst.Name(value)), line(cst.Break())])
        loop = updated_node.with_changes(
            body=cst.IndentedBlock(body=[inner.with_changes(body=body)]),
            leading_lines=[],
        )
        init = assign(self.flag, cst.Name(other)).with_changes(
            leading_lines=updated_node.leading_lines
        )
        self.note_origin(original_node, init, loop)
        return cst.FlattenSentinel([init, loop])


# -- index loops -> direct iteration / enumerate ---------------------------------------------


_MUTATING_OK_RECEIVERS = (cst.List, cst.ListComp, cst.Dict, cst.DictComp, cst.Set, cst.SetComp)


def _fresh_object_names(kinds: Kinds, func: cst.FunctionDef) -> set[str]:
    """Locals every binding of which builds a new list/dict/set (so they alias nothing)."""
    bindings: dict[str, list[cst.BaseExpression | None]] = {}
    for node in walk(func.body):
        if isinstance(node, cst.Assign):
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    bindings.setdefault(target.target.value, []).append(node.value)
    fresh = set()
    for name, values in bindings.items():
        if name in _bound_otherwise(func, name):
            continue
        if all(isinstance(v, _MUTATING_OK_RECEIVERS) for v in values):
            fresh.add(name)
    return fresh


def _bound_otherwise(func: cst.FunctionDef, name: str) -> set[str]:
    """`{name}` when `name` is a parameter or bound other than by plain assignment."""
    params = {p.name.value for p in walk(func.params) if isinstance(p, cst.Param)}
    if name in params:
        return {name}
    for node in walk(func.body):
        if isinstance(
            node, cst.AugAssign | cst.AnnAssign | cst.For | cst.NamedExpr
        ) and name in name_values(node.target):
            return {name}
        if isinstance(node, cst.AsName | cst.Del) and name in name_values(node):
            return {name}
        if isinstance(node, cst.Assign):
            for target in node.targets:
                if not isinstance(target.target, cst.Name) and name in name_values(target.target):
                    return {name}
    return set()


def _names_whole(expr: cst.BaseExpression, seq: str) -> bool:
    """Whether `expr` may evaluate to the object `seq` itself (a bare name, maybe inside a
    container display or a conditional), rather than to a part of it."""
    if isinstance(expr, cst.Name):
        return expr.value == seq
    if isinstance(expr, cst.Subscript | cst.Call | cst.BinaryOperation | cst.Comparison):
        return isinstance(expr, cst.Call) and any(_names_whole(a.value, seq) for a in expr.args)
    return seq in name_values(expr)


def _leaves_alone(body: cst.CSTNode, seq: str, fresh: set[str], info: ModuleInfo) -> bool:
    """Nothing in `body` can change the object `seq` names: calls are to pure builtins,
    non-mutating methods, or methods of fresh local containers; stores go only into those."""
    for node in walk(body):
        if isinstance(node, cst.Call):
            func = node.func
            if pure_call(node, info):
                continue
            if isinstance(func, cst.Attribute):
                receiver = func.value
                if not (isinstance(receiver, cst.Name) and receiver.value in fresh):
                    return False
                if any(_names_whole(a.value, seq) for a in node.args):
                    return False  # `out.append(xs)` would alias xs
            else:
                return False
        elif isinstance(node, cst.AssignTarget | cst.AugAssign):
            target = node.target
            if isinstance(target, cst.Subscript | cst.Attribute):
                base = target.value
                if not (isinstance(base, cst.Name) and base.value in fresh):
                    return False
                value = getattr(node, "value", None)
                if value is not None and _names_whole(value, seq):
                    return False
        elif isinstance(node, cst.Del | cst.Yield | cst.Await | cst.Global | cst.Nonlocal):
            return False
    return True


@dataclass
class _IndexLoop:
    loop: cst.For
    seq: str
    index: str
    reads: set[int] = field(default_factory=set)  # ids of the `xs[i]` nodes
    keep_index: bool = False
    kind: str | None = None


class IndexLoopToEnumerate(IdiomRewrite):
    """`for i in range(len(xs)): ... xs[i] ...` -> `for x in xs:` or `enumerate(xs)`."""

    name = "idiom_index_enumerate"
    description = "iterate over a sequence directly (or with enumerate) instead of by index"

    site: _IndexLoop
    item: str

    def find_sites(self, info: ModuleInfo) -> Sequence[_IndexLoop]:
        """Index loops over a str or list the loop leaves alone."""
        return function_sites(
            info,
            lambda node, func, kinds: (
                self._site(node, func, info, kinds)
                if isinstance(node, cst.For) and not node.asynchronous
                else None
            ),
            (cst.For,),
        )

    def take_site(self, chosen: _IndexLoop, info: ModuleInfo) -> bool:
        """Name the item."""
        fresh = FreshNames(info.names.identifiers)
        seq = chosen.seq
        bases = ["item", "value", "element"]
        if chosen.kind == STR:
            bases = ["ch", "char", "c"]
        if len(seq) > 2 and seq.endswith("s") and not seq.endswith("ss"):
            bases = [seq[:-1]]
        self.item = fresh.choose(bases, self.rng)
        return True

    def _site(
        self, loop: cst.For, func: cst.FunctionDef, info: ModuleInfo, kinds: Kinds
    ) -> _IndexLoop | None:
        call = builtin_call(loop.iter, info)
        if call is None or call[0] != "range" or len(call[1]) != 1 or call[1][0].keyword:
            return None
        inner = builtin_call(call[1][0].value, info)
        if inner is None or inner[0] != "len" or len(inner[1]) != 1:
            return None
        seq_expr = inner[1][0].value
        if not isinstance(seq_expr, cst.Name) or not isinstance(loop.target, cst.Name):
            return None
        seq, index = seq_expr.value, loop.target.value
        if kinds.of_name(seq) not in (STR, LIST, SEQ) or seq == index:
            return None
        if has_comments(loop) or contains(loop.body, _UNSAFE):
            return None
        if {seq, index} & assigned_names(loop.body) or {seq, index} & info.captured_names(func):
            return None
        fresh = _fresh_object_names(kinds, func) - {seq}
        if not _leaves_alone(loop.body, seq, fresh, info):
            return None
        reads: set[int] = set()
        for node in walk(loop.body):
            at = subscript_index(node, seq)
            if at is not None and isinstance(at.value, cst.Name) and at.value.value == index:
                reads.add(id(node))
        if not reads:
            return None
        keep = count_refs(func, index) != len(reads) + 1
        if loop.orelse is not None and index in name_values(loop.orelse):
            keep = True
        return _IndexLoop(loop, seq, index, reads, keep, kinds.of_name(seq))

    def leave_Subscript(self, original_node: cst.Subscript, updated_node: cst.Subscript) -> Any:
        """Read the item instead of indexing."""
        if id(original_node) in self.site.reads:
            return cst.Name(self.item, lpar=updated_node.lpar, rpar=updated_node.rpar)
        return updated_node

    def leave_For(self, original_node: cst.For, updated_node: cst.For) -> Any:
        """Iterate over the sequence."""
        site = self.site
        if original_node is not site.loop:
            return updated_node
        seq = cst.Name(site.seq)
        if site.keep_index:
            target: cst.BaseAssignTargetExpression = cst.Tuple(
                elements=[
                    cst.Element(value=cst.Name(site.index)),
                    cst.Element(value=cst.Name(self.item)),
                ],
                lpar=[],
                rpar=[],
            )
            iterable: cst.BaseExpression = cst.Call(
                func=cst.Name("enumerate"), args=[cst.Arg(value=seq)]
            )
        else:
            target, iterable = cst.Name(self.item), seq
        return updated_node.with_changes(target=target, iter=iterable)


@dataclass
class _ItemLoop:
    loop: cst.For
    seq: str
    item: str
    index: str | None  # the enumerate index, kept as the range loop's variable


class IterationToIndexLoop(IdiomRewrite):
    """`for x in xs:` (or `for i, x in enumerate(xs):`) -> `for i in range(len(xs)):` with
    `x = xs[i]` first in the body, for a str or list `xs` the loop does not change."""

    name = "idiom_iterate_by_index"
    description = "iterate over a sequence by index (range(len(...))) instead of directly"

    site: _ItemLoop
    index: str

    def find_sites(self, info: ModuleInfo) -> Sequence[_ItemLoop]:
        """Loops over a str or list name whose body leaves it alone."""
        if not (info.is_builtin("range") and info.is_builtin("len")):
            return []
        return function_sites(
            info,
            lambda node, func, kinds: (
                self._site(node, func, info, kinds) if isinstance(node, cst.For) else None
            ),
            (cst.For,),
        )

    def _site(
        self, loop: cst.For, func: cst.FunctionDef, info: ModuleInfo, kinds: Kinds
    ) -> _ItemLoop | None:
        if loop.asynchronous or not isinstance(loop.body, cst.IndentedBlock):
            return None
        iterable: cst.BaseExpression = loop.iter
        target: cst.BaseExpression = loop.target
        index = None
        call = builtin_call(iterable, info)
        if call is not None and call[0] == "enumerate" and len(call[1]) == 1:
            if call[1][0].keyword or not isinstance(target, cst.Tuple):
                return None
            names = [e.value for e in target.elements]
            if len(names) != 2 or not all(isinstance(n, cst.Name) for n in names):
                return None
            iterable = call[1][0].value
            index_name, target = names
            assert isinstance(index_name, cst.Name)
            index = index_name.value
        if not isinstance(iterable, cst.Name) or not isinstance(target, cst.Name):
            return None
        seq, item = iterable.value, target.value
        kind = kinds.of_name(seq)
        if kind not in (STR, LIST, SEQ) or seq in (item, index):
            return None
        if contains(loop.body, _UNSAFE) or seq in assigned_names(loop.body):
            return None
        if kind != STR and not mutation_free(loop.body, info):
            return None
        if seq in info.captured_names(func) or has_comments(loop.target):
            return None
        return _ItemLoop(loop, seq, item, index)

    def take_site(self, site: _ItemLoop, info: ModuleInfo) -> bool:
        """Name the index (an enumerate loop keeps its own)."""
        fresh = FreshNames(info.names.identifiers)
        self.index = site.index or fresh.choose(["i", "idx", "index"], self.rng)
        return True

    def leave_For(self, original_node: cst.For, updated_node: cst.For) -> Any:
        """Loop over the indices and read the item first."""
        site = self.site
        if original_node is not site.loop:
            return updated_node
        seq = cst.Name(site.seq)
        read = assign(
            site.item,
            cst.Subscript(
                value=seq, slice=[cst.SubscriptElement(slice=cst.Index(cst.Name(self.index)))]
            ),
        )
        body = updated_node.body
        assert isinstance(body, cst.IndentedBlock)
        indices = cst.Call(
            func=cst.Name("range"),
            args=[cst.Arg(cst.Call(func=cst.Name("len"), args=[cst.Arg(seq.deep_clone())]))],
        )
        return updated_node.with_changes(
            target=cst.Name(self.index),
            iter=indices,
            body=body.with_changes(body=[read, *body.body]),
        )


# -- sorted() -> list.sort() ------------------------------------------------------------------


class SortedToSort(StatementIdiom):
    """`ys = sorted(xs, ...)` -> `ys = list(xs)` + `ys.sort(...)`."""

    name = "idiom_sorted_sort"
    site_local = True
    description = "copy into a list and sort it in place instead of calling sorted()"

    site: cst.SimpleStatementLine
    fresh_name: str

    def statement_site(
        self, statement: Statement, info: ModuleInfo
    ) -> cst.SimpleStatementLine | None:
        """`name = sorted(iterable, key=..., reverse=...)` (or `return sorted(...)`)."""
        stmt, target, value, _, _ = statement
        call = builtin_call(value, info)
        if call is None or call[0] != "sorted" or not info.is_builtin("list"):
            return None
        args = call[1]
        if not args or args[0].keyword is not None:
            return None
        if any(a.keyword is None or a.keyword.value not in ("key", "reverse") for a in args[1:]):
            return None
        if (target is not None and target in name_values(value)) or has_comments(stmt):
            return None
        return stmt

    def take_site(self, chosen: cst.SimpleStatementLine, info: ModuleInfo) -> bool:
        """Name the list a `return sorted(...)` sorts."""
        self.fresh_name = FreshNames(info.names.identifiers).choose(
            ["ordered", "result", "items"], self.rng
        )
        return True

    def rewrite_statement(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> Any:
        """Split the statement into the copy and the in-place sort."""
        small = updated_node.body[0]
        assert isinstance(small, cst.Assign | cst.Return) and isinstance(small.value, cst.Call)
        args = list(small.value.args)
        sorted_value = args[0].value
        copied: cst.BaseExpression
        if isinstance(sorted_value, cst.GeneratorExp):
            # `sorted((w for w in ws), key=k)` -> `[w for w in ws]`: not `list((w for ...))`,
            # the parentheses the second argument needed kept around a sole argument.
            copied = cst.ListComp(elt=sorted_value.elt, for_in=sorted_value.for_in)
        else:
            copied = cst.Call(
                func=cst.Name("list"), args=[args[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)]
            )
        if isinstance(small, cst.Assign):
            target = small.targets[0].target
            copy = updated_node.with_changes(body=[small.with_changes(value=copied)])
        else:
            target = cst.Name(self.fresh_name)
            copy = assign(self.fresh_name, copied).with_changes(
                leading_lines=updated_node.leading_lines
            )
        rest = list(args[1:])
        if rest:
            rest[-1] = rest[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        sort = line(
            cst.Expr(
                value=cst.Call(func=cst.Attribute(value=target, attr=cst.Name("sort")), args=rest)
            )
        )
        produced: list[cst.BaseStatement] = [copy, sort]
        if isinstance(small, cst.Return):
            produced.append(line(cst.Return(value=cst.Name(self.fresh_name))))
        self.note_origin(original_node, *produced)
        return cst.FlattenSentinel(produced)


TRANSFORMS: tuple[type[Transform], ...] = (
    LoopToSum,
    LoopToJoin,
    AccumulatorToLoop,
    JoinToLoop,
    LoopToAnyAll,
    AnyAllToLoop,
    EarlyReturnToFlag,
    IndexLoopToEnumerate,
    IterationToIndexLoop,
    SortedToSort,
)

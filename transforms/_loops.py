"""`for` loops rewritten as `while` loops.

A `for` over `range(start, stop[, step])` with a literal step becomes an index loop. Where
the loop variable is neither assigned in the body nor used outside the loop, it is the index
itself (`i = start; while i < stop: ...; i += step`, with the increment also put before every
`continue` of the loop). Otherwise a hidden index keeps Python's semantics exactly: the loop
variable takes each value at the top of the body and keeps the last one after the loop, and
an empty range leaves it untouched. The stop bound is evaluated once, before the loop, unless
re-reading it is provably the same (a literal, or a local that the body does not touch).

Any other iterable becomes an index loop over a sequence, the way a person writes it:
`i = 0; while i < len(xs): x = xs[i]; i += 1; ...`. A local name is indexed directly when the
body does not rebind it (re-reading `len(xs)` on every test is what a list iterator does, so
mutation during iteration behaves the same); any other expression is evaluated once into a new
local first, through `list(...)` when it is not indexable (`zip`, `enumerate`, `map`, `filter`,
`reversed`, `set`, dict views). The increment comes right after the fetch, so `continue` needs
nothing more. The `next()`/`StopIteration` desugaring is never produced: it is not code a
person writes. Iterables the index form would misread (a dict or set held in a name) are
rejected by differential verification.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from transforms._analysis import (
    NON_MUTATING_METHODS,
    SEQUENCE_LITERALS,
    FreshNames,
    ModuleInfo,
    always_exits,
    assigned_names,
    count_refs,
    function_members,
    loop_control_of,
    mutation_free,
    name_values,
    range_args,
    strip_parens,
    target_names,
    walk,
    wrap,
)
from transforms._base import Transform
from transforms._idioms_common import is_str_literal


@dataclass
class _Plan:
    loop: cst.For
    form: str  # "natural" | "hidden" | "sequence"
    start: cst.BaseExpression | None = None
    stop: cst.BaseExpression | None = None
    stop_inline: bool = False
    step: int = 1
    continues: set[int] = field(default_factory=set)
    direct: bool = False  # index the iterable's name itself
    copy: bool = False  # hold `list(iterable)` rather than the iterable


def _literal_int(expr: cst.BaseExpression) -> int | None:
    if isinstance(expr, cst.Integer) and not expr.lpar:
        return int(expr.evaluated_value)
    if (
        isinstance(expr, cst.UnaryOperation)
        and isinstance(expr.operator, cst.Minus)
        and isinstance(expr.expression, cst.Integer)
    ):
        return -int(expr.expression.evaluated_value)
    return None


def _line(small: cst.BaseSmallStatement) -> cst.SimpleStatementLine:
    return cst.SimpleStatementLine(body=[small])


def _assign(name: str, value: cst.BaseExpression) -> cst.SimpleStatementLine:
    return _line(cst.Assign(targets=[cst.AssignTarget(target=cst.Name(name))], value=value))


def _increment(name: str, step: int) -> cst.AugAssign:
    op: cst.BaseAugOp = cst.AddAssign() if step > 0 else cst.SubtractAssign()
    return cst.AugAssign(target=cst.Name(name), operator=op, value=cst.Integer(str(abs(step))))


def _body_parts(
    body: cst.BaseSuite,
) -> tuple[list[cst.BaseStatement], cst.TrailingWhitespace, cst.IndentedBlock | None]:
    if isinstance(body, cst.IndentedBlock):
        return list(body.body), body.header, body
    assert isinstance(body, cst.SimpleStatementSuite)
    return [cst.SimpleStatementLine(body=list(body.body))], body.trailing_whitespace, None


class ForToWhile(Transform):
    """Rewrite one `for` loop as an equivalent `while` loop."""

    name = "for_to_while"
    kind = "equivalent"
    description = (
        "rewrite a for loop as a while loop over an index (range loops count the index, other "
        "iterables are indexed as sequences)"
    )

    plan: _Plan
    index_name: str
    stop_name: str
    holder_name: str | None

    def find_sites(self, info: ModuleInfo) -> list[_Plan]:
        """The loops that can be rewritten, each with the plan of its rewrite."""
        return [
            plan
            for loop, func in function_members(info, cst.For)
            if loop.asynchronous is None and (plan := self._plan(loop, func, info)) is not None
        ]

    def take_site(self, site: _Plan, info: ModuleInfo) -> bool:
        """Choose the names of the rewrite of the picked loop."""
        self.plan = chosen = site
        fresh = FreshNames(info.names.identifiers)
        loop = chosen.loop
        if chosen.form in ("sequence", "enumerate"):
            if chosen.form == "enumerate":
                assert isinstance(loop.target, cst.Tuple)
                first = loop.target.elements[0].value
                assert isinstance(first, cst.Name)
                self.index_name = first.value
            else:
                self.index_name = fresh.choose(["i", "idx", "index", "pos"], self.rng)
            self.holder_name = None
            if not chosen.direct:
                string = _string_expr(strip_parens(loop.iter))
                holders = (
                    ["chars", "text", "letters"]
                    if string
                    else ["items", "values", "seq", "elements"]
                )
                holder = self.rng.choice(holders)
                # Another of the usual names before a `new_items` next to `items`.
                free = [h for h in [holder, *holders] if fresh.is_free(h)]
                self.holder_name = fresh.take(free[0]) if free else fresh.choose([holder], self.rng)
        else:
            if chosen.form == "hidden":
                self.index_name = fresh.choose(["idx", "index", "pos", "cursor"], self.rng)
            else:
                assert isinstance(loop.target, cst.Name)
                self.index_name = loop.target.value
                if self.index_name == "_" and count_refs(loop.body, "_") == 0:
                    # `_` says "never read"; a counter the loop test reads gets a real name
                    self.index_name = fresh.choose(["i"], self.rng)
            if not chosen.stop_inline:
                self.stop_name = fresh.choose(["stop", "end", "limit", "bound"], self.rng)
        return True

    def _plan(self, loop: cst.For, func: cst.FunctionDef, info: ModuleInfo) -> _Plan | None:
        iterable = loop.iter
        args = range_args(iterable, info)
        if args is not None and isinstance(loop.target, cst.Name) and not iterable.lpar:
            step = _literal_int(args[2]) if len(args) == 3 else 1
            if step:
                return self._range_plan(loop, func, info, args, step)
        if not all(info.is_builtin(n) for n in ("len", "list")):
            return None
        if (
            isinstance(iterable, cst.Call)
            and isinstance(iterable.func, cst.Name)
            and iterable.func.value == "enumerate"
        ):
            return self._enumerate_plan(loop, func, info)
        return _sequence_plan(loop, func, info)

    def _enumerate_plan(
        self, loop: cst.For, func: cst.FunctionDef, info: ModuleInfo
    ) -> _Plan | None:
        """`for i, x in enumerate(xs)` as `i = 0; while i < len(xs): x = xs[i] ... i += 1`
        when `i` is a plain counter (not assigned in the body, not read after the loop);
        `list(enumerate(xs))` indexed by another counter is not code a person writes."""
        call = loop.iter
        assert isinstance(call, cst.Call)
        target = loop.target
        if (
            not info.is_builtin("enumerate")
            or len(call.args) != 1
            or call.args[0].keyword is not None
            or call.args[0].star
            or not isinstance(target, cst.Tuple)
            or len(target.elements) != 2
            or not isinstance(target.elements[0].value, cst.Name)
        ):
            return None
        var = target.elements[0].value.value
        item = target.elements[1].value
        if var in name_values(item) or var in name_values(call):
            return None
        natural = (
            var not in assigned_names(loop.body)
            and var not in info.names.declared
            and count_refs(func, var) == count_refs(loop.body, var) + 1
            and not any(
                isinstance(n, cst.Lambda | cst.FunctionDef | cst.ClassDef) and var in name_values(n)
                for n in walk(loop.body)
            )
        )
        if not natural:
            return None
        inner = _sequence_plan(loop.with_changes(iter=call.args[0].value, target=item), func, info)
        if inner is None:
            return None
        inner.loop = loop
        inner.form = "enumerate"
        inner.continues = {id(c) for c in loop_control_of(loop.body) if isinstance(c, cst.Continue)}
        return inner

    def _range_plan(
        self,
        loop: cst.For,
        func: cst.FunctionDef,
        info: ModuleInfo,
        args: list[cst.BaseExpression],
        step: int,
    ) -> _Plan:
        assert isinstance(loop.target, cst.Name)
        var = loop.target.value
        start = args[0] if len(args) >= 2 else cst.Integer("0")
        stop = args[1] if len(args) >= 2 else args[0]
        body_assigned = assigned_names(loop.body)
        stop_names = name_values(stop)
        natural = (
            var not in body_assigned
            and var not in info.names.declared
            and var not in stop_names
            and count_refs(func, var) == count_refs(loop.body, var) + 1
            and not any(
                isinstance(n, cst.Lambda | cst.FunctionDef | cst.ClassDef) and var in name_values(n)
                for n in walk(loop.body)
            )
        )
        locals_ = info.locals_of(func)
        inline = _literal_int(stop) is not None
        if isinstance(stop, cst.Name) and stop.value in locals_:
            inline = stop.value not in body_assigned
        elif (
            isinstance(stop, cst.Call)
            and isinstance(stop.func, cst.Name)
            and stop.func.value == "len"
            and info.is_builtin("len")
            and len(stop.args) == 1
            and isinstance(stop.args[0].value, cst.Name)
            and not stop.args[0].star
        ):
            target = stop.args[0].value.value
            inline = (
                target in locals_
                and target not in body_assigned
                and target not in info.names.declared
                and mutation_free(loop.body, info)
            )
        if natural and inline and var in stop_names:
            natural = False
        plan = _Plan(
            loop=loop,
            form="natural" if natural else "hidden",
            start=start,
            stop=stop,
            stop_inline=inline,
            step=step,
        )
        if natural:
            plan.continues = {
                id(c) for c in loop_control_of(loop.body) if isinstance(c, cst.Continue)
            }
        return plan

    # -- the rewrite ---------------------------------------------------------------------

    def _with_increments(
        self, original: cst.SimpleStatementLine | cst.SimpleStatementSuite, updated: cst.CSTNode
    ) -> list[cst.BaseSmallStatement] | None:
        if not any(id(s) in self.plan.continues for s in original.body):
            return None
        assert isinstance(updated, cst.SimpleStatementLine | cst.SimpleStatementSuite)
        smalls: list[cst.BaseSmallStatement] = []
        for before, after in zip(original.body, updated.body, strict=True):
            if id(before) in self.plan.continues:
                smalls.append(_increment(self.index_name, self.plan.step))
            smalls.append(after)
        return smalls

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        """Put the index increment before a `continue` of the rewritten loop."""
        if not self.plan.continues:
            return updated_node
        smalls = self._with_increments(original_node, updated_node)
        if smalls is None:
            return updated_node
        if len(original_node.body) == 1:
            first = cst.SimpleStatementLine(
                body=[smalls[0]], leading_lines=updated_node.leading_lines
            )
            second = updated_node.with_changes(body=[smalls[1]], leading_lines=[])
            return cst.FlattenSentinel([first, second])
        return updated_node.with_changes(body=smalls)

    def leave_SimpleStatementSuite(
        self, original_node: cst.SimpleStatementSuite, updated_node: cst.SimpleStatementSuite
    ) -> cst.SimpleStatementSuite:
        """Put the index increment before a `continue` on a one-line suite."""
        if not self.plan.continues:
            return updated_node
        smalls = self._with_increments(original_node, updated_node)
        return updated_node if smalls is None else updated_node.with_changes(body=smalls)

    def leave_For(
        self, original_node: cst.For, updated_node: cst.For
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        """Replace the chosen loop."""
        if original_node is not self.plan.loop:
            return updated_node
        if self.plan.form in ("sequence", "enumerate"):
            produced = self._sequence_loop(updated_node)
        else:
            produced = self._index_loop(updated_node)
        produced[0] = produced[0].with_changes(leading_lines=updated_node.leading_lines)
        self.note_origin(original_node, *produced)
        return cst.FlattenSentinel(produced)

    def _index_loop(self, loop: cst.For) -> list[cst.BaseStatement]:
        plan = self.plan
        assert plan.start is not None and plan.stop is not None
        assert isinstance(loop.iter, cst.Call) and isinstance(loop.target, cst.Name)
        args = [a.value for a in loop.iter.args]
        start = args[0] if len(args) >= 2 else cst.Integer("0")
        stop_expr = args[1] if len(args) >= 2 else args[0]
        index = self.index_name
        statements: list[cst.BaseStatement] = [_assign(index, start)]
        if plan.stop_inline:
            stop: cst.BaseExpression = stop_expr
        else:
            statements.append(_assign(self.stop_name, stop_expr))
            stop = cst.Name(self.stop_name)
        op: cst.BaseCompOp = cst.LessThan() if plan.step > 0 else cst.GreaterThan()
        test = cst.Comparison(
            left=cst.Name(index),
            comparisons=[cst.ComparisonTarget(operator=op, comparator=wrap(stop, 6))],
        )
        body, header, block = _body_parts(loop.body)
        if plan.form == "hidden":
            body = [
                _assign(loop.target.value, cst.Name(index)),
                _line(_increment(index, plan.step)),
                *body,
            ]
        elif not always_exits(loop.body):
            body = [*body, _line(_increment(index, plan.step))]
        statements.append(_while(test, body, header, block, loop))
        return statements

    def _sequence_loop(self, loop: cst.For) -> list[cst.BaseStatement]:
        index = self.index_name
        statements: list[cst.BaseStatement] = []
        counted = self.plan.form == "enumerate"
        iterable = loop.iter
        target = loop.target
        if counted:
            assert isinstance(iterable, cst.Call) and isinstance(target, cst.Tuple)
            iterable = iterable.args[0].value
            target = target.elements[1].value  # type: ignore[assignment]
        if self.holder_name is None:
            assert isinstance(iterable, cst.Name)
            sequence: cst.BaseExpression = cst.Name(iterable.value)
        else:
            value = iterable
            if self.plan.copy:
                value = cst.Call(func=cst.Name("list"), args=[cst.Arg(value=strip_parens(value))])
            statements.append(_assign(self.holder_name, strip_parens(value)))
            sequence = cst.Name(self.holder_name)
        statements.append(_assign(index, cst.Integer("0")))
        test = cst.Comparison(
            left=cst.Name(index),
            comparisons=[
                cst.ComparisonTarget(
                    operator=cst.LessThan(),
                    comparator=cst.Call(func=cst.Name("len"), args=[cst.Arg(value=sequence)]),
                )
            ],
        )
        fetch = _line(
            cst.Assign(
                targets=[cst.AssignTarget(target=target)],
                value=cst.Subscript(
                    value=sequence,
                    slice=[cst.SubscriptElement(slice=cst.Index(value=cst.Name(index)))],
                ),
            )
        )
        body, header, block = _body_parts(loop.body)
        if not counted:
            body = [fetch, _line(_increment(index, 1)), *body]
        elif always_exits(loop.body):
            body = [fetch, *body]
        else:
            # The counter is the enumerate index, read by the body: it moves on at the end
            # (and before every `continue`, see leave_SimpleStatementLine).
            body = [fetch, *body, _line(_increment(index, 1))]
        statements.append(_while(test, body, header, block, loop))
        return statements


def _while(
    test: cst.BaseExpression,
    body: list[cst.BaseStatement],
    header: cst.TrailingWhitespace,
    block: cst.IndentedBlock | None,
    loop: cst.For,
) -> cst.While:
    """`while test:` over `body`, in the loop's own block (comments kept) when it had one,
    with the loop's `else`."""
    new_block = (
        block.with_changes(body=body, header=header)
        if block is not None
        else cst.IndentedBlock(body=body, header=header)
    )
    return cst.While(test=test, body=new_block, orelse=loop.orelse)


_STR_METHODS = frozenset(
    {
        "split", "rsplit", "splitlines", "lower", "upper", "strip", "lstrip", "rstrip",
        "replace", "title", "capitalize", "swapcase", "join", "casefold", "center", "ljust",
        "rjust", "zfill", "format", "expandtabs", "translate", "removeprefix", "removesuffix",
    }
)  # fmt: skip
_SEQUENCE_BUILTINS = frozenset({"list", "sorted", "tuple", "str"})
# The string methods whose result is a str (of a str receiver; bytes when it is bytes).
_STR_RESULTS = _STR_METHODS - {"split", "rsplit", "splitlines"}
# Builtins that read an object without changing it (passing the iterable to them is safe).
_READERS = frozenset(
    {"len", "str", "repr", "list", "tuple", "sorted", "sum", "min", "max", "any", "all", "print",
     "set", "dict", "enumerate", "zip", "reversed", "bool", "int", "float", "abs", "isinstance"}
)  # fmt: skip


def _sequence_expr(expr: cst.BaseExpression, info: ModuleInfo) -> bool:
    """Whether `expr` surely gives a list, tuple or string (indexable like its iteration)."""
    if isinstance(expr, SEQUENCE_LITERALS):
        return True
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
        # `key + 'abc'` is a str and `xs + [0]` a list: on builtin values the other operand
        # is one too, or the `+` raises before any loop runs, in either form.
        sides = (strip_parens(expr.left), strip_parens(expr.right))
        return any(_sequence_expr(side, info) for side in sides)
    if isinstance(expr, cst.Call):
        func = expr.func
        if isinstance(func, cst.Name):
            return func.value in _SEQUENCE_BUILTINS and info.is_builtin(func.value)
        if isinstance(func, cst.Attribute):
            return func.attr.value in _STR_METHODS
    return False


def _string_expr(expr: cst.BaseExpression) -> bool:
    """Whether `expr` surely gives a str (a literal, `str(...)`, a str method that returns a
    str, or a `+` with one of them): the local holding it is named as text, not `items`."""
    if isinstance(expr, cst.ConcatenatedString | cst.FormattedString) or is_str_literal(expr):
        return True
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
        return _string_expr(strip_parens(expr.left)) or _string_expr(strip_parens(expr.right))
    if isinstance(expr, cst.Call):
        func = expr.func
        if isinstance(func, cst.Name):
            return func.value == "str"
        return isinstance(func, cst.Attribute) and func.attr.value in _STR_RESULTS
    return False


def _known_sequence(name: str, func: cst.FunctionDef, info: ModuleInfo) -> bool:
    """Whether every binding of local `name` in `func` surely gives a list, tuple or string."""
    if name in {p.name.value for p in walk(func.params) if isinstance(p, cst.Param)}:
        return False
    found = False
    for node in walk(func.body):
        if isinstance(node, cst.Assign):
            for target in node.targets:
                if isinstance(target.target, cst.Name) and target.target.value == name:
                    if not _sequence_expr(node.value, info):
                        return False
                    found = True
                elif name in (target_names(target.target) or set()):
                    return False
        elif isinstance(node, cst.For | cst.CompFor):
            if name in (target_names(node.target) or {name}):
                return False
        elif (
            isinstance(node, cst.NamedExpr | cst.AnnAssign) and name in name_values(node.target)
        ) or (isinstance(node, cst.AsName) and name in name_values(node.name)):
            return False
    return found


def _may_mutate(body: cst.CSTNode, name: str, info: ModuleInfo) -> bool:
    """Whether `body` may change the object `name` holds: a method call on it other than a
    known non-mutating one, a store or `del` into it, or passing it to a call."""
    for node in walk(body):
        if isinstance(node, cst.Call):
            func = node.func
            if (
                isinstance(func, cst.Attribute)
                and isinstance(func.value, cst.Name)
                and func.value.value == name
                and func.attr.value not in NON_MUTATING_METHODS
            ):
                return True
            reader = (
                isinstance(func, cst.Name)
                and func.value in _READERS
                and info.is_builtin(func.value)
            )
            passed = any(isinstance(a.value, cst.Name) and a.value.value == name for a in node.args)
            if passed and not reader:
                return True
        elif isinstance(node, cst.AssignTarget | cst.AugAssign | cst.Del):
            target = node.target
            inner = target.value if isinstance(target, cst.Subscript | cst.Attribute) else None
            if isinstance(inner, cst.Name) and inner.value == name:
                return True
    return False


def _sequence_plan(loop: cst.For, func: cst.FunctionDef, info: ModuleInfo) -> _Plan | None:
    """How to index the loop's iterable, or None when no index loop is surely the same.

    A name the body does not change is indexed directly when it surely holds a sequence,
    else through `list(name)` (a copy, which the loop cannot tell from the original); a name
    the body changes is indexed directly only when it surely holds a list (a list iterator
    reads the list live, as the index loop does). Any other expression is held in a new
    local, through `list(...)` unless it surely gives a sequence.
    """
    iterable = loop.iter
    if not isinstance(iterable, cst.Name) or iterable.lpar:
        return _Plan(loop=loop, form="sequence", copy=not _sequence_expr(iterable, info))
    name = iterable.value
    if name in info.names.declared:
        return None
    rebound = name in assigned_names(loop.body) | (target_names(loop.target) or {name})
    known = _known_sequence(name, func, info)
    if _may_mutate(loop.body, name, info):
        if not known or rebound:
            return None
        return _Plan(loop=loop, form="sequence", direct=True)
    return _Plan(loop=loop, form="sequence", direct=known and not rebound, copy=not known)


TRANSFORMS: tuple[type[Transform], ...] = (ForToWhile,)

"""What a variable holds, guessed from how the code uses it: the role a new name must fit.

A role is one of "text", "char", "list", "keys" (a dict's keys, listed), "dict", "set",
"number", "largest"/"smallest" (a `max(...)`/`min(...)`), "index", "counter" (a count:
`n += 1`), "total" (a sum of values: `total += x`), "length",
"flag", "function", "sequence" (some sequence, kind unknown), "key", "entry", "item",
"value" (nothing tells) and "result" (a returned local). Evidence, strongest first:
the types of the arguments the calls pass (a parameter given a `str` is a text, whatever
else the code does with it), the literals assigned, the methods called on the variable
(`append` a list, `isdigit` a text), its place in loops (`for i in range(...)` an index,
`for k, v in d.items()` a key and an entry), its use as a subscript (`d[k]` with `d` a dict:
a key; `xs[i]` with `xs` a list or a text: an index), comparisons with string literals, and
the name a person chose, where that name says one thing only. An ambiguous use says nothing:
`value * 3` repeats a string as well as it multiplies a number, so it is no evidence of a
number. When nothing tells, the role is a neutral one ("value", "sequence", "item"), so a
name is never confidently wrong.
"""

from __future__ import annotations

import ast
import functools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import libcst as cst

from transforms._analysis import STR_ONLY_METHODS, copied_name, walk

# `clear` is not here: dicts and sets have it too.
_LIST_METHODS = frozenset({"append", "extend", "insert", "sort", "reverse", "remove"})
_DICT_METHODS = frozenset({"keys", "values", "items", "setdefault", "update", "popitem", "get"})
_SET_METHODS = frozenset({"add", "discard", "union", "intersection", "difference"})
_CHARACTER_METHODS = frozenset(
    {"isdigit", "isalpha", "isalnum", "isspace", "isupper", "islower", "isdecimal",
     "isnumeric", "upper", "lower", "swapcase"}
)  # fmt: skip
# String methods whose arguments are strings too (`text.startswith(prefix)`).
_STR_ARGUMENT_METHODS = frozenset(
    {"startswith", "endswith", "removeprefix", "removesuffix", "replace", "split", "rsplit",
     "partition", "rpartition", "strip", "lstrip", "rstrip"}
)  # fmt: skip
# Operators that only numbers take with a number on the other side (`*` also repeats a
# string or a list, `%` also formats a string).
_NUMERIC_OPERATORS = (cst.Subtract, cst.Divide, cst.FloorDivide, cst.Power, cst.Add)

ROLE_PRIORITY = [
    "function", "keys", "list", "dict", "set", "text", "index", "counter", "total", "flag",
    "length",
    "largest", "smallest", "number", "sequence", "char", "key", "entry", "item", "value",
]  # fmt: skip
"""Ties between roles go to the first of this order."""

NEUTRAL_ROLES = frozenset({"value", "item", "entry", "key", "sequence", "result"})
"""Roles that claim little about what the variable holds."""

# Roles that fit a value of each type (an argument's type rules out every other role).
_FITS: dict[str, frozenset[str]] = {
    "str": frozenset({"text", "char", "sequence", "item", "value", "key", "entry"}),
    "int": frozenset(
        {"number", "index", "counter", "total", "length", "item", "value", "key", "entry"}
    ),
    "float": frozenset({"number", "counter", "total", "item", "value", "entry"}),
    "bool": frozenset({"flag", "item", "value", "entry"}),
    "list": frozenset({"list", "sequence", "item", "value", "entry"}),
    "tuple": frozenset({"sequence", "item", "value", "key", "entry"}),
    "dict": frozenset({"dict", "item", "value", "entry"}),
    "set": frozenset({"set", "item", "value", "entry"}),
}
# The role a value of each type gets when the code's own evidence contradicts its type.
_TYPE_ROLE = {
    "str": "text", "int": "number", "float": "number", "bool": "flag", "list": "list",
    "tuple": "sequence", "dict": "dict", "set": "set",
}  # fmt: skip


def literal_role(expr: cst.BaseExpression) -> str | None:
    """The role of a variable assigned `expr`, when the expression tells (a literal, a call
    of a constructor or of a method whose result type is known)."""
    if isinstance(expr, cst.List | cst.ListComp):
        return "list"
    if isinstance(expr, cst.Dict | cst.DictComp):
        return "dict"
    if isinstance(expr, cst.Set | cst.SetComp):
        return "set"
    if isinstance(expr, cst.SimpleString | cst.FormattedString | cst.ConcatenatedString):
        return "text"
    if isinstance(expr, cst.Integer | cst.Float):
        return "number"
    if isinstance(expr, cst.Lambda):
        return "function"
    if isinstance(expr, cst.Comparison):
        return "flag"
    if isinstance(expr, cst.Name) and expr.value in ("True", "False"):
        return "flag"
    if isinstance(expr, cst.Call):
        func = expr.func
        if isinstance(func, cst.Name):
            return {
                "list": "list", "sorted": "list", "dict": "dict", "set": "set", "str": "text",
                "len": "length", "int": "number", "sum": "number", "float": "number",
            }.get(func.value)  # fmt: skip
        if isinstance(func, cst.Attribute):
            if func.attr.value in ("count", "find", "rfind", "index", "rindex"):
                return "number"  # a position or a count, though `rfind` is a str method
            if func.attr.value in ("join",) or func.attr.value in STR_ONLY_METHODS:
                if func.attr.value not in ("split", "rsplit", "splitlines", "partition"):
                    return "text"
                return "list"
    return None


def _lists_keys(expr: cst.BaseExpression) -> bool:
    """`d.keys()`, or it listed, sorted or copied (`list(d.keys())`): a dict's keys."""
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and len(expr.args) == 1:
        if expr.func.value in ("list", "sorted", "tuple", "set"):
            return _lists_keys(expr.args[0].value)
        return False
    return (
        isinstance(expr, cst.Call)
        and isinstance(expr.func, cst.Attribute)
        and expr.func.attr.value == "keys"
        and not expr.args
    )


def _extreme(expr: cst.BaseExpression) -> str | None:
    """ "largest" for `max(...)`, "smallest" for `min(...)`."""
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.args:
        return {"max": "largest", "min": "smallest"}.get(expr.func.value)
    return None


def unambiguous_hints(pools: Iterable[Mapping[str, Sequence[str]]]) -> dict[str, str]:
    """Name -> role for the names of the pools that belong to one role only, of two letters
    or more (`s`, `n`, `c` are written for anything: CRUXEval passes a number as `s`)."""
    roles_of: dict[str, set[str]] = {}
    for pool in pools:
        for role, names in pool.items():
            for name in names:
                roles_of.setdefault(name, set()).add(role)
    return {
        name: next(iter(roles))
        for name, roles in roles_of.items()
        if len(roles) == 1 and len(name) >= 2 and not roles <= NEUTRAL_ROLES
    }


_EXTRA_HINTS = {
    "nums": "list", "numbers": "list", "words": "list", "lst": "list", "arr": "list",
    "strs": "list", "chars": "list", "string": "text", "txt": "text", "text": "text",
    "i": "index", "j": "index", "idx": "index",
}  # fmt: skip


def argument_types(module: cst.Module, calls: Sequence[str]) -> dict[str, set[str]]:
    """Parameter name -> the type names of the literal arguments `calls` pass to it.

    A call is `f(...)` (a module-level function) or `Solution().method(...)` (a method of a
    module-level class, whose first parameter is the instance); arguments that are not
    literals, and calls that name no such function, tell nothing.
    """
    found: dict[str, set[str]] = {}
    for text in calls:
        parsed = _call_kinds(text)
        if parsed is None:
            continue
        func, kinds = parsed
        params = _called_params(module, func)
        for param, kind in zip(params or (), kinds, strict=False):
            if kind == "*":
                break
            if kind is not None:
                found.setdefault(param, set()).add(kind)
    return found


@functools.lru_cache(maxsize=4096)
def _call_kinds(text: str) -> tuple[ast.expr, tuple[str | None, ...]] | None:
    """The called expression of a call and the type name of each positional argument (None
    where it is no literal, "*" for a starred one), parsed once per call text: every
    renaming of every chain reads the same calls."""
    try:
        call = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not isinstance(call, ast.Call):
        return None
    kinds: list[str | None] = []
    for arg in call.args:
        if isinstance(arg, ast.Starred):
            kinds.append("*")
            continue
        try:
            value = ast.literal_eval(arg)
        except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
            kinds.append(None)
            continue
        kind = type(value).__name__
        kinds.append("char" if isinstance(value, str) and len(value) == 1 else kind)
    return call.func, tuple(kinds)


def _called_params(module: cst.Module, func: ast.expr) -> list[str] | None:
    """The positional parameters a call of `func` fills, in order, or None."""
    method: str | None = None
    if isinstance(func, ast.Name):
        name = func.id
    elif (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Call)
        and isinstance(func.value.func, ast.Name)
    ):
        name, method = func.value.func.id, func.attr
    else:
        return None
    for stmt in module.body:
        if method is None and isinstance(stmt, cst.FunctionDef) and stmt.name.value == name:
            return [p.name.value for p in (*stmt.params.posonly_params, *stmt.params.params)]
        if method is not None and isinstance(stmt, cst.ClassDef) and stmt.name.value == name:
            for inner in stmt.body.body:
                if isinstance(inner, cst.FunctionDef) and inner.name.value == method:
                    every = [*inner.params.posonly_params, *inner.params.params]
                    static = any(
                        isinstance(d.decorator, cst.Name) and d.decorator.value == "staticmethod"
                        for d in inner.decorators
                    )
                    return [p.name.value for p in (every if static else every[1:])]
    return None


def _keyed(node: cst.Subscript) -> bool:
    """Whether the subscript may be a dict's (`d[k]`, not `xs[0]` nor `xs[1:]`)."""
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return False
    key = node.slice[0].slice.value
    if isinstance(key, cst.UnaryOperation):
        key = key.expression
    return not isinstance(key, cst.Integer)


class _Votes:
    """Evidence for each wanted name, gathered in one walk of the module."""

    def __init__(self, wanted: set[str]) -> None:
        self.votes: dict[str, Counter[str]] = {name: Counter() for name in wanted}
        self.loops: list[tuple[str, str]] = []  # (loop variable, the name it iterates over)
        self.subscripts: list[tuple[str, str]] = []  # (container, the name indexing it)
        self.members: list[tuple[str, str]] = []  # (container, the name tested `in` it)
        self.accumulated: list[tuple[str, str | None]] = []  # (`total`, `x`) of `total += x`
        self.aliases: list[tuple[str, str]] = []  # (`res`, `d`) of `res = d.copy()`, `res = d`
        self.elements: list[tuple[str, str]] = []  # (`x`, `xs`) of `x = xs[i]`
        self.returned: set[str] = set()
        self.params: set[str] = set()

    def vote(self, target: cst.CSTNode, role: str | None, weight: int = 1) -> None:
        if isinstance(target, cst.Name):
            self.vote_name(target.value, role, weight)

    def vote_name(self, name: str, role: str | None, weight: int = 1) -> None:
        if role is not None and name in self.votes:
            self.votes[name][role] += weight

    def visit(self, node: cst.CSTNode) -> None:
        """Count the evidence `node` gives (one branch per kind of evidence)."""
        if isinstance(node, cst.Assign):
            role = literal_role(node.value) if not _lists_keys(node.value) else "keys"
            extreme = _extreme(node.value)
            if extreme is not None:
                role = extreme  # `m = max(xs)`: the largest, no mere `value`
            if role == "text" and isinstance(node.value, cst.SimpleString):
                value = node.value.evaluated_value
                role = "char" if isinstance(value, str) and len(value) == 1 else role
            for target in node.targets:
                # `lo = len(xs)` is a length, however it is used later (`range(lo - 1)`);
                # `ks = list(d.keys())` keys, `m = max(xs)` the largest, however used.
                strong = role in ("length", "keys", "largest", "smallest")
                self.vote(target.target, role, 3 if strong else 1)
            source = copied_name(node.value)
            assigned = node.targets[0].target if len(node.targets) == 1 else None
            if source is not None and isinstance(assigned, cst.Name):
                self.aliases.append((assigned.value, source))
            elif (
                isinstance(assigned, cst.Name)
                and isinstance(node.value, cst.Subscript)
                and isinstance(node.value.value, cst.Name)
                and len(node.value.slice) == 1
                and isinstance(node.value.slice[0].slice, cst.Index)
            ):
                self.elements.append((assigned.value, node.value.value.value))
        elif isinstance(node, cst.DictComp):
            self.vote(node.key, "key", 2)
            self.vote(node.value, "entry", 2)
        elif isinstance(node, cst.AugAssign):
            self._augassign(node)
        elif isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
            self._comparison(node)
        elif isinstance(node, cst.For | cst.CompFor):
            self._loop(node.target, node.iter)
        elif isinstance(node, cst.FunctionDef):
            self.vote(node.name, "function", 5)
        elif isinstance(node, cst.Param):
            self.params.add(node.name.value)
            if node.default is not None:
                self.vote(node.name, literal_role(node.default))
        elif isinstance(node, cst.Return) and isinstance(node.value, cst.Name):
            self.returned.add(node.value.value)
        elif isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name):
            method = node.attr.value
            if method in _LIST_METHODS:
                self.vote(node.value, "list", 2)
            elif method in _DICT_METHODS:
                self.vote(node.value, "dict", 2)
            elif method in _SET_METHODS:
                self.vote(node.value, "set", 2)
            elif method in STR_ONLY_METHODS:
                # `isdigit`, `upper`... are as much a character's as a text's.
                self.vote(node.value, "text", 1 if method in _CHARACTER_METHODS else 2)
        elif isinstance(node, cst.Subscript):
            for element in node.slice:
                if isinstance(element.slice, cst.Slice):  # `s[i:j]`: positions
                    self.vote(element.slice.lower or cst.Ellipsis(), "index", 2)
                    self.vote(element.slice.upper or cst.Ellipsis(), "index", 2)
            if not _keyed(node):
                self.vote(node.value, "sequence")  # `xs[0]`, `xs[1:]`; `d[k]` may be a dict
            if (
                isinstance(node.value, cst.Name)
                and len(node.slice) == 1
                and isinstance(node.slice[0].slice, cst.Index)
                and isinstance(node.slice[0].slice.value, cst.Name)
            ):
                self.subscripts.append((node.value.value, node.slice[0].slice.value.value))
            elif len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
                key = node.slice[0].slice.value
                if isinstance(key, cst.SimpleString):
                    self.vote(node.value, "dict", 2)  # `d['a']`
        elif isinstance(node, cst.StarredDictElement):
            self.vote(node.value, "dict", 2)  # `{**a, **b}`
        elif isinstance(node, cst.Call):
            self._call(node)
        elif isinstance(node, cst.BinaryOperation):
            self._binary(node)

    def _augassign(self, node: cst.AugAssign) -> None:
        if isinstance(node.value, cst.Integer):
            # `n += 1` counts; `n //= 10` works on a number that counts nothing.
            counts = isinstance(node.operator, cst.AddAssign | cst.SubtractAssign)
            self.vote(node.target, "counter" if counts else "number", 2)
        elif isinstance(node.operator, cst.AddAssign | cst.SubtractAssign) and isinstance(
            node.target, cst.Name
        ):
            # `total += x` sums when `total` is a number, concatenates when it is a text
            # (`even += c`): decided once the target's role is known.
            part = node.value.value if isinstance(node.value, cst.Name) else None
            self.accumulated.append((node.target.value, part))
        else:
            self.vote(node.target, literal_role(node.value))

    def _comparison(self, node: cst.Comparison) -> None:
        operator = node.comparisons[0].operator
        other = node.comparisons[0].comparator
        member = isinstance(operator, cst.In | cst.NotIn)
        if isinstance(other, cst.SimpleString):
            # `ch in 'aeiou'`, `ch == 'a'`: a character; `s == 'abc'`: a text.
            value = other.evaluated_value
            single = isinstance(value, str) and len(value) == 1
            self.vote(node.left, "char" if member or single else "text", 2)
        elif member and isinstance(node.left, cst.Name) and isinstance(other, cst.Name):
            self.members.append((other.value, node.left.value))
        elif isinstance(other, cst.Integer | cst.Float) and not member:
            self.vote(node.left, "number")  # `x > 0`

    def _loop(self, target: cst.BaseExpression, iterable: cst.BaseExpression) -> None:
        func = iterable.func if isinstance(iterable, cst.Call) else None
        called = func.value if isinstance(func, cst.Name) else None
        pair = isinstance(target, cst.Tuple) and len(target.elements) == 2
        if called == "range":
            self.vote(target, "index", 3)
        elif called == "enumerate" and pair and isinstance(target, cst.Tuple):
            self.vote(target.elements[0].value, "index", 3)
            element = target.elements[1].value
            self.vote(element, "item", 2)
            inner = iterable.args[0].value if isinstance(iterable, cst.Call) else None
            if isinstance(element, cst.Name) and isinstance(inner, cst.Name):
                self.loops.append((element.value, inner.value))
        elif (
            isinstance(func, cst.Attribute)
            and func.attr.value == "items"
            and isinstance(iterable, cst.Call)
            and not iterable.args
            and pair
            and isinstance(target, cst.Tuple)
        ):
            self.vote(target.elements[0].value, "key", 3)
            self.vote(target.elements[1].value, "entry", 3)
            self.vote(func.value, "dict", 2)
        else:
            self.vote(target, "item", 2)
            self.vote(iterable, "sequence")
            if isinstance(target, cst.Name) and isinstance(iterable, cst.Name):
                self.loops.append((target.value, iterable.value))
            elif isinstance(target, cst.Name) and literal_role(iterable) == "text":
                self.vote(target, "char", 3)

    def _call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Name) and node.args:
            if func.value == "len":
                self.vote(node.args[0].value, "sequence")
            elif func.value == "range":
                for arg in node.args:
                    self.vote(arg.value, "number")
        elif isinstance(func, cst.Attribute) and func.attr.value == "insert" and node.args:
            # `xs.insert(spot, x)`: a position, whatever the name says; what goes in is an item.
            self.vote(node.args[0].value, "index", 3)
            if len(node.args) > 1:
                self.vote(node.args[1].value, "item", 2)
        elif isinstance(func, cst.Attribute) and func.attr.value in _STR_ARGUMENT_METHODS:
            # The strings only: `split(sep, 2)`, `replace(old, new, 1)`.
            strings = 2 if func.attr.value == "replace" else 1
            for arg in node.args[:strings]:
                if arg.keyword is None:
                    self.vote(arg.value, "text", 2)
        elif isinstance(func, cst.Attribute) and func.attr.value == "join" and node.args:
            self.vote(func.value, "text", 2)  # `sep.join(xs)`: the separator is a text

    def _binary(self, node: cst.BinaryOperation) -> None:
        for side, other in ((node.left, node.right), (node.right, node.left)):
            if isinstance(other, cst.Integer | cst.Float):
                if isinstance(node.operator, _NUMERIC_OPERATORS):
                    self.vote(side, "number")
            elif isinstance(other, cst.SimpleString | cst.List):
                if isinstance(node.operator, cst.Multiply):
                    self.vote(side, "number")  # `'!' * n`: a count of repetitions
                elif isinstance(node.operator, cst.Add):
                    self.vote(side, "text" if isinstance(other, cst.SimpleString) else "list")


def infer_roles(
    module: cst.Module,
    wanted: set[str],
    *,
    hints: Mapping[str, str] | None = None,
    arguments: Mapping[str, set[str]] | None = None,
) -> dict[str, str]:
    """A guess of what each of the `wanted` names holds (see the module docstring); "value"
    when nothing tells.

    Args:
        module: the code.
        wanted: the names to guess a role for.
        hints: name -> role for names that say what they hold (`words` a list): a person's
            choice of name is evidence too, a weak one.
        arguments: parameter -> type names of the arguments calls pass it
            (`argument_types`); a role the types rule out is never given.
    """
    found = _Votes(wanted)
    for node in walk(module):
        found.visit(node)
    names = {**(hints or {}), **_EXTRA_HINTS}
    for name, counter in found.votes.items():
        hint = names.get(name)
        if hint is not None:
            counter[hint] += 1  # the name a person chose says something of the role too
    roles = _settle(found, arguments or {})
    # Evidence that depends on what another variable holds.
    for container, index in found.subscripts:
        kind = roles.get(container)
        if kind == "dict":
            found.vote_name(index, "key", 3)
        elif kind in ("list", "text"):
            found.vote_name(index, "index", 3)
    for container, member in found.members:
        if roles.get(container) in ("dict", "set"):
            found.vote_name(member, "key", 2)
    for element, container in found.elements:
        kind = roles.get(container)
        if kind == "text":
            found.vote_name(element, "char", 3)  # `c = text[i]`
        elif kind == "dict":
            found.vote_name(element, "entry", 2)
        elif kind == "list":
            found.vote_name(element, "item", 1)
    for total, part in found.accumulated:
        kind = roles.get(total)
        if kind == "text":
            pass  # `out += c`: a character or a text, either way
        elif kind in ("counter", "total", "number", "length", "index", "value"):
            found.vote_name(total, "total")  # `total += x`, `total += n % 10`
            if part is not None:
                found.vote_name(part, "number")
    roles = _settle(found, arguments or {})
    for loop_var, iterated in found.loops:
        if roles.get(loop_var) in ("item", "text", "value") and roles.get(iterated) == "text":
            roles[loop_var] = "char"  # `for c in text: c.isdigit()` is a character
        elif roles.get(loop_var) == "char" and roles.get(iterated) in ("sequence", "value"):
            roles[iterated] = "text"  # `for x in doc: x in 'aeiou'`: doc is a text
    for name in found.returned & set(roles) - found.params:
        if roles[name] in ("list", "dict", "set", "text", "sequence", "value"):
            roles[name] = "result"
    return roles


def _settle(found: _Votes, arguments: Mapping[str, set[str]]) -> dict[str, str]:
    """Roles from the votes, then held to the arguments' types, then passed on to copies
    (`res = d.copy()` holds what `d` holds)."""
    roles = _decide(found.votes)
    for name, kinds in arguments.items():
        if name in roles:
            roles[name] = _fit_types(roles[name], kinds)
    for target, source in found.aliases:
        kind = roles.get(source)
        if target in roles and kind in _CONTAINERS and roles[target] in NEUTRAL_ROLES:
            roles[target] = kind
    return roles


_CONTAINERS = frozenset({"list", "dict", "set", "text"})


def _decide(votes: Mapping[str, Counter[str]]) -> dict[str, str]:
    roles: dict[str, str] = {}
    for name, counter in votes.items():
        if not counter:
            roles[name] = "value"
            continue
        if any(counter.get(kind) for kind in _CONTAINERS):
            # Sliced, measured, iterated: what any sequence is; one sign of which kind of
            # sequence (`ls = text.split()`) says more than many of those.
            counter = Counter({k: v for k, v in counter.items() if k != "sequence"})
        best = max(counter.values())
        roles[name] = next(r for r in ROLE_PRIORITY if counter.get(r) == best)
    return roles


def _fit_types(role: str, kinds: set[str]) -> str:
    """The role of a parameter whose arguments have the types `kinds`: `role` if values of
    every type fit it and it says more than "some value", else the role of the type."""
    if kinds == {"char"} and role in ("char", "item", "value", "sequence"):
        return "char"
    kinds = {"str" if k == "char" else k for k in kinds}
    known = sorted(k for k in kinds if k in _FITS)
    if len(known) != len(kinds) or len(known) != 1:
        fits = all(role in _FITS[k] for k in known)
        return role if fits and role in NEUTRAL_ROLES else "value"
    if role in ("item", "value", "sequence") or role not in _FITS[known[0]]:
        return _TYPE_ROLE[known[0]]
    return role

"""Analyses shared by the transforms: names and scopes, precedence and negation, effects.

Everything here is conservative: when a question cannot be answered for sure from the source
(is this call free of side effects? can this expression raise?), the answer is the one that
makes a transform decline.
"""

from __future__ import annotations

import builtins
import keyword
import random
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType, UnionType
from typing import Any, TypeVar, cast

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst.metadata import (
    Assignment,
    ClassScope,
    ComprehensionScope,
    ExpressionContextProvider,
    FunctionScope,
    GlobalScope,
    MetadataWrapper,
    Scope,
    ScopeProvider,
)
from libcst.metadata.scope_provider import ScopeVisitor

from transforms._node_checks import plain_node_checks

# LibCST node classes are ABCs, whose `isinstance` is slow: answer from the hierarchy.
plain_node_checks()

_N = TypeVar("_N", bound=cst.CSTNode)
_V = TypeVar("_V")
_K = TypeVar("_K")

BUILTIN_NAMES = frozenset(dir(builtins))
RESERVED_NAMES = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | BUILTIN_NAMES

#: Names whose use lets code read or write local variables by name (or reach frames).
DYNAMIC_NAMES = frozenset(
    {"locals", "vars", "eval", "exec", "globals", "dir", "__import__", "breakpoint", "compile"}
)
_DYNAMIC_ATTRIBUTES = frozenset(
    {"_getframe", "f_locals", "f_globals", "f_back", "currentframe", "__code__", "__closure__"}
)

#: Builtins that have no side effect on their arguments beyond iterating them.
PURE_BUILTINS = frozenset(
    {
        "abs", "all", "any", "ascii", "bin", "bool", "bytes", "chr", "dict", "divmod",
        "enumerate", "float", "format", "frozenset", "hash", "hex", "int", "isinstance",
        "len", "list", "max", "min", "oct", "ord", "pow", "range", "repr", "reversed",
        "round", "set", "sorted", "str", "sum", "tuple", "type", "zip",
    }
)  # fmt: skip

#: Builtins that look at their argument without iterating it.
_NON_ITERATING_BUILTINS = frozenset(
    {"abs", "ascii", "bin", "bool", "chr", "float", "hash", "hex", "int", "isinstance",
     "len", "oct", "ord", "repr", "round", "str", "type", "format", "range", "divmod", "pow"}
)  # fmt: skip

#: Methods of builtin types that never mutate their receiver (str, bytes, list, tuple, dict).
NON_MUTATING_METHODS = frozenset(
    {
        "capitalize", "casefold", "center", "count", "encode", "endswith", "expandtabs",
        "find", "format", "index", "isalnum", "isalpha", "isascii", "isdecimal", "isdigit",
        "isidentifier", "islower", "isnumeric", "isprintable", "isspace", "istitle",
        "isupper", "join", "ljust", "lower", "lstrip", "partition", "removeprefix",
        "removesuffix", "replace", "rfind", "rindex", "rjust", "rpartition", "rsplit",
        "rstrip", "split", "splitlines", "startswith", "strip", "swapcase", "title",
        "upper", "zfill", "copy", "get", "keys", "values", "items", "decode",
    }
)  # fmt: skip

#: Methods that exist on str (and bytes) only and never look into another object's state.
STR_ONLY_METHODS = NON_MUTATING_METHODS - {"count", "index", "copy", "get", "keys", "values",
                                           "items", "join", "format"}  # fmt: skip

#: Expressions that give a list, a tuple or a str by their syntax alone.
SEQUENCE_LITERALS = (
    cst.List,
    cst.Tuple,
    cst.ListComp,
    cst.SimpleString,
    cst.ConcatenatedString,
    cst.FormattedString,
)


# --------------------------------------------------------------------------------------------
# Names


_CHILDREN: dict[int, tuple[cst.CSTNode, tuple[cst.CSTNode, ...]]] = {}
_CHILDREN_LIMIT = 100_000


def children(node: cst.CSTNode) -> tuple[cst.CSTNode, ...]:
    """`node.children`, listed once per node.

    LibCST lists a node's children by rebuilding the node (tens of microseconds), and the
    analyses walk the same trees over and over; nodes never change, so one list serves them
    all. An entry holds its node, so the node's id cannot be reused while the entry lives.
    """
    entry = _CHILDREN.get(id(node))
    if entry is not None and entry[0] is node:
        return entry[1]
    found = _fields_children(node)
    if len(_CHILDREN) >= _CHILDREN_LIMIT:
        _CHILDREN.clear()
    _CHILDREN[id(node)] = (node, found)
    return found


#: Node type -> the fields its `_visit_and_replace_children` visits, in visiting order.
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}
#: Type of a field's value -> whether it is a node (LibCST node classes are ABCs, whose
#: `isinstance` is slow).
_IS_NODE: dict[type, bool] = {}


class _FieldOrder(cst.CSTVisitor):
    """Records the fields a node's children are visited from, in order (and no deeper)."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: list[str] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        return False

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        self.fields.append(attribute)


def _fields_children(node: cst.CSTNode) -> tuple[cst.CSTNode, ...]:
    """`node.children` read from the node's fields, without rebuilding the node.

    Every node type visits its fields in one fixed order (a field may be visited as a node
    or as a sequence, never skipped or moved), which is learnt once per type from LibCST's
    own `_visit_and_replace_children`; the children are then the nodes those fields hold,
    in that order (a differential test compares with `node.children` on every node of the
    CRUXEval problems and their variants).
    """
    kind = type(node)
    fields = _CHILD_FIELDS.get(kind)
    if fields is None:
        order = _FieldOrder()
        node._visit_and_replace_children(order)
        fields = _CHILD_FIELDS[kind] = tuple(order.fields)
    found: list[cst.CSTNode] = []
    for name in fields:
        value = getattr(node, name)
        value_type = type(value)
        if value_type is tuple or value_type is list:
            for item in value:
                if _is_node_type(type(item)):
                    found.append(item)
        elif _is_node_type(value_type):
            found.append(value)
    return tuple(found)


def identifiers(module: cst.CSTNode) -> set[str]:
    """Every identifier spelled anywhere in `module` (variables, attributes, keywords...)."""
    found: set[str] = set()
    stack: list[cst.CSTNode] = [module]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Name):
            found.add(node.value)
        stack.extend(children(node))
    return found


_COMMENT_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def code_like(word: str) -> bool:
    """Whether a word of a comment reads as an identifier rather than an English word: it has
    an underscore, a digit or an inner capital, or is a single letter other than "a"/"I"."""
    if len(word) == 1:
        return word not in ("a", "A", "I")
    inner_capital = any(c.isupper() for c in word[1:]) and any(c.islower() for c in word)
    return "_" in word or any(c.isdigit() for c in word) or inner_capital


def comment_mentions(comment: str, names: Iterable[str]) -> list[re.Match[str]]:
    """The mentions of `names` in a comment's text: code-like words (`code_like`) and words
    quoted with backticks or quotes; a plain English word that happens to be a name ("count
    the vowels") is not a mention."""
    wanted = set(names)
    found: list[re.Match[str]] = []
    for match in _COMMENT_WORD.finditer(comment):
        word = match[0]
        if word not in wanted:
            continue
        before = comment[match.start() - 1] if match.start() else ""
        after = comment[match.end()] if match.end() < len(comment) else ""
        quoted = before in "`'\"" and before != "" and after == before
        if quoted or code_like(word):
            found.append(match)
    return found


_NEXT_LETTERS = "ijkmnpqrstuvwxyzabcdegh"


def _alternatives(base: str) -> list[str]:
    """Other names a person would write for what `base` names, when `base` is taken."""
    if len(base) == 1 and base in _NEXT_LETTERS:
        start = _NEXT_LETTERS.index(base)
        return list(_NEXT_LETTERS[start + 1 :] + _NEXT_LETTERS[:start])
    return [f"new_{base}", f"all_{base}", f"my_{base}"]


class FreshNames:
    """Hands out identifiers that collide with nothing in the module nor with each other."""

    def __init__(self, taken: Iterable[str]) -> None:
        """Start from the names already `taken` (reserved names are always taken)."""
        self.taken = set(taken) | RESERVED_NAMES

    def is_free(self, name: str) -> bool:
        """Whether `name` is a valid identifier not yet taken."""
        return name.isidentifier() and name not in self.taken

    def choose(self, options: Sequence[str], rng: random.Random) -> str:
        """A free name among `options` (a random one first), else a free variant of one a
        person would write (`j` after `i`, `new_items` for `items`), `items_2` only when none
        of those is free either; marks it taken."""
        first = rng.choice(options)
        order = [first, *(o for o in options if o != first)]
        letters = [alt for base in order if len(base) == 1 for alt in _alternatives(base)]
        words = [alt for base in order if len(base) > 1 for alt in _alternatives(base)]
        for name in [*order, *letters, *words]:
            if self.is_free(name):
                self.taken.add(name)
                return name
        return self.take(order[0])

    def take(self, base: str) -> str:
        """`base`, or `base_2`, `base_3`... whichever is free first; marks it taken."""
        name = base
        n = 2
        while not self.is_free(name):
            name = f"{base}_{n}"
            n += 1
        self.taken.add(name)
        return name


@dataclass
class NameIndex:
    """Every `Name` node of a module, split by role.

    Attributes:
        references: Name nodes that denote a variable (loads, stores, deletes, parameter and
            function names); not attribute names, keyword-argument names, names inside
            import statements, or names in `global`/`nonlocal` statements.
        identifiers: every identifier spelled anywhere.
        declared: names that appear in a `global` or `nonlocal` statement.
        dynamic: the module uses a feature that reads or writes variables by name
            (`locals()`, `eval`, frames, `f"{x=}"`...), so names must be left alone.
        has_match: the module has a `match` statement (patterns bind names in ways this
            index does not follow).
    """

    references: list[cst.Name] = field(default_factory=list)
    identifiers: set[str] = field(default_factory=set)
    declared: set[str] = field(default_factory=set)
    dynamic: bool = False
    has_match: bool = False


def name_index(module: cst.Module, nodes: Iterable[cst.CSTNode] | None = None) -> NameIndex:
    """Index the names of `module` (see `NameIndex`), in source order.

    One pass over the nodes in source order (`walk`, whose children lists the analysis
    shares, or `nodes`: the module's nodes in that order, when already listed): a node that
    hides names (an attribute, a keyword argument, an import, a `global`) comes before the
    names it hides.
    """
    index = NameIndex()
    skip: set[int] = set()
    for node in walk(module) if nodes is None else nodes:
        role = _type_role(type(node), _NAME_ROLES)
        if role is None:
            continue
        if role is cst.Name:
            name = cast(cst.Name, node)
            index.identifiers.add(name.value)
            if id(name) in skip:
                continue
            if name.value in DYNAMIC_NAMES:
                index.dynamic = True
            index.references.append(name)
        elif isinstance(node, cst.Attribute):
            skip.add(id(node.attr))
            if node.attr.value in _DYNAMIC_ATTRIBUTES:
                index.dynamic = True
        elif isinstance(node, cst.Arg):
            if node.keyword is not None:
                skip.add(id(node.keyword))
        elif isinstance(node, cst.Import | cst.ImportFrom):
            skip.update(id(sub) for sub in walk(node) if isinstance(sub, cst.Name))
        elif isinstance(node, cst.Global | cst.Nonlocal):
            for item in node.names:
                index.declared.add(item.name.value)
                skip.add(id(item.name))
        elif isinstance(node, cst.FormattedStringExpression):
            if node.equal is not None:
                index.dynamic = True
        elif isinstance(node, cst.Match):
            index.has_match = True
    return index


#: The node types `name_index` looks at (any other node only leads to its children).
_NAME_ROLES: tuple[type[cst.CSTNode], ...] = (
    cst.Name,
    cst.Attribute,
    cst.Arg,
    cst.Import,
    cst.ImportFrom,
    cst.Global,
    cst.Nonlocal,
    cst.FormattedStringExpression,
    cst.Match,
)
#: Per tuple of roles (by id: the tuples are module constants), type -> its role.
_ROLES: dict[int, dict[type, type | None]] = {}


def _type_role(kind: type, roles: tuple[type[cst.CSTNode], ...]) -> type | None:
    """The first of `roles` that `kind` is a subclass of, or None, found once per type
    (walks ask it of every node; a key of the type alone, as a tuple key would be hashed
    afresh on every call)."""
    table = _ROLES.get(id(roles))
    if table is None:
        table = _ROLES[id(roles)] = {}
    role = table.get(kind, _UNKNOWN)
    if role is _UNKNOWN:
        role = table[kind] = next((r for r in roles if issubclass(kind, r)), None)
    return cast("type | None", role)


_UNKNOWN = object()


_LOCAL_SCOPES = (FunctionScope, ComprehensionScope)


def resolves_locally(node: cst.Name, scope: Scope | None) -> bool:
    """Whether the variable `node` names is local to a function, lambda or comprehension
    (every assignment it may refer to is a plain assignment in such a scope)."""
    if scope is None or isinstance(scope, GlobalScope | ClassScope):
        return False
    referents = scope[node.value]
    if not referents:
        return False
    return all(isinstance(r, Assignment) and isinstance(r.scope, _LOCAL_SCOPES) for r in referents)


_SCOPE_ROLES: tuple[type[cst.CSTNode], ...] = (cst.FunctionDef, cst.ClassDef)
_SHARED_INFOS: OrderedDict[int, tuple[MetadataWrapper, ModuleInfo]] = OrderedDict()
_SHARED_LIMIT = 64


class ModuleInfo:
    """Structure and (lazily) scopes of one module, shared by a transform's analyses.

    `ModuleInfo.of(wrapper)` gives the one analysis of a wrapper, shared by every transform
    tried on it (`apply_transform` keeps one wrapper per source): parents, names and scopes
    are computed once per code, not once per transform. Transforms only read it.
    """

    _ready: bool

    def __new__(cls, wrapper: MetadataWrapper) -> ModuleInfo:
        """The shared analysis of `wrapper` when there is one (so transforms that write
        `ModuleInfo(wrapper)` share it too), else a new one."""
        entry = _SHARED_INFOS.get(id(wrapper))
        if entry is not None and entry[0] is wrapper:
            _SHARED_INFOS.move_to_end(id(wrapper))
            return entry[1]
        info = super().__new__(cls)
        info._ready = False
        _SHARED_INFOS[id(wrapper)] = (wrapper, info)
        while len(_SHARED_INFOS) > _SHARED_LIMIT:
            _SHARED_INFOS.popitem(last=False)
        return info

    @classmethod
    def of(cls, wrapper: MetadataWrapper) -> ModuleInfo:
        """The shared analysis of `wrapper` (made on first use; the latest few are kept)."""
        return cls(wrapper)

    def __init__(self, wrapper: MetadataWrapper) -> None:
        """Index `wrapper.module`: every node in source order and each node's parent (once
        per wrapper: a shared analysis is not indexed again)."""
        if self._ready:
            return
        self._ready = True
        self.wrapper = wrapper
        self.module = wrapper.module
        self.nodes: list[cst.CSTNode] = []
        # Keyed by id (the analysis holds every node of its tree, so ids are not reused):
        # LibCST's `__hash__` of a node is a Python call, and these are asked of nearly
        # every node.
        self.parents: dict[int, cst.CSTNode] = {}
        # The nearest enclosing `def` and whether inside a class, found on the way down:
        # transforms ask both of nearly every node.
        self._function: dict[int, cst.FunctionDef] = {}
        self._in_class: set[int] = set()
        _Frame = tuple[cst.CSTNode, cst.CSTNode | None, cst.FunctionDef | None, bool]
        stack: list[_Frame] = [(self.module, None, None, False)]
        nodes, parents, functions = self.nodes, self.parents, self._function
        known = _CHILDREN.get  # `children`, inlined for the nodes already listed
        while stack:
            node, parent, func, in_class = stack.pop()
            nodes.append(node)
            key = id(node)
            if parent is not None:
                parents[key] = parent
            if func is not None:
                functions[key] = func
            if in_class:
                self._in_class.add(key)
            entry = known(key)
            kids = entry[1] if entry is not None and entry[0] is node else children(node)
            if not kids:
                continue
            role = _type_role(type(node), _SCOPE_ROLES)
            if role is None:
                stack.extend([(child, node, func, in_class) for child in reversed(kids)])
                continue
            inner = cast(cst.FunctionDef, node) if role is cst.FunctionDef else func
            inner_class = in_class or role is cst.ClassDef
            if role is cst.FunctionDef and inner_class:
                # A method's body and parameters are a function's, not the class body's
                # (LeetCode's `class Solution: def solve(self, nums)`): its name, decorators
                # and annotations stay in the class.
                method = cast(cst.FunctionDef, node)
                stack.extend(
                    (child, node, inner, child is not method.body and child is not method.params)
                    for child in reversed(kids)
                )
                continue
            stack.extend([(child, node, inner, inner_class) for child in reversed(kids)])
        self.names = name_index(self.module, self.nodes)
        self._scopes: Mapping[cst.CSTNode, Scope | None] | None = None
        self._bound: set[str] | None = None
        self._derived: dict[Any, Any] = {}
        self._locals: dict[cst.FunctionDef, frozenset[str]] = {}
        self._captured: dict[cst.FunctionDef, frozenset[str]] = {}
        self._by_type: dict[type, list[int]] | None = None
        self._of_types: dict[tuple[type, ...], tuple[cst.CSTNode, ...]] = {}

    def of_types(self, types: tuple[type[cst.CSTNode], ...]) -> tuple[cst.CSTNode, ...]:
        """The nodes of `nodes` whose type is one of `types` or derives from one, in source
        order: from an index of the nodes by type, built once per analysis (a site search
        that knows the types it accepts visits only those nodes, not the whole tree)."""
        found = self._of_types.get(types)
        if found is None:
            if self._by_type is None:
                by_type: dict[type, list[int]] = {}
                for position, node in enumerate(self.nodes):
                    by_type.setdefault(type(node), []).append(position)
                self._by_type = by_type
            positions = sorted(
                p for kind, at in self._by_type.items() if issubclass(kind, types) for p in at
            )
            found = self._of_types[types] = tuple(self.nodes[p] for p in positions)
        return found

    def derived(self, compute: Callable[[ModuleInfo], _V]) -> _V:
        """`compute(self)`, computed once per analysis: for figures of the whole module that
        several transforms read (`compute` must only read the analysis)."""
        if compute not in self._derived:
            self._derived[compute] = compute(self)
        result: _V = self._derived[compute]
        return result

    def derived_with(self, compute: Callable[[ModuleInfo, _K], _V], argument: _K) -> _V:
        """`compute(self, argument)`, computed once per analysis and `argument` (hashable):
        for figures that several transforms read with the same options."""
        key = (compute, argument)
        if key not in self._derived:
            self._derived[key] = compute(self, argument)
        result: _V = self._derived[key]
        return result

    @property
    def scopes(self) -> Mapping[cst.CSTNode, Scope | None]:
        """LibCST scope of every node (resolved on first use: it is the costly part)."""
        if self._scopes is None:
            self._scopes = resolve_scopes(self.wrapper)
        return self._scopes

    def parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The parent of `node`, or None for the module."""
        return self.parents.get(id(node))

    def ancestors(self, node: cst.CSTNode) -> Iterator[cst.CSTNode]:
        """The ancestors of `node`, nearest first."""
        current = self.parents.get(id(node))
        while current is not None:
            yield current
            current = self.parents.get(id(current))

    def enclosing_function(self, node: cst.CSTNode) -> cst.FunctionDef | None:
        """The nearest `def` around `node` (lambdas are not counted), or None."""
        return self._function.get(id(node))

    def in_class(self, node: cst.CSTNode) -> bool:
        """Whether `node` is inside a class body and not inside one of its methods' bodies
        (a method's body is a function's like any other)."""
        return id(node) in self._in_class

    def is_builtin(self, name: str) -> bool:
        """Whether `name` is a builtin the module never rebinds (so a call to it is known)."""
        if self._bound is None:
            self._bound = _assigned_in(self.nodes)  # `assigned_names(self.module)`
        return name in BUILTIN_NAMES and name not in self._bound

    def function_scope(self, func: cst.FunctionDef) -> Scope | None:
        """The scope of the body of `func`."""
        body = func.body
        inner = body.body[0] if isinstance(body, cst.IndentedBlock) and body.body else body
        return self.scopes.get(inner)

    def locals_of(self, func: cst.FunctionDef) -> set[str]:
        """Names local to `func`: its parameters and what its own body binds (not nested
        functions, lambdas or comprehensions), minus `global`/`nonlocal` names (worked out
        once per function: several transforms ask)."""
        known = self._locals.get(func)
        if known is None:
            known = self._locals[func] = frozenset(self._find_locals(func))
        return set(known)

    def _find_locals(self, func: cst.FunctionDef) -> set[str]:
        found = {p.name.value for p in walk(func.params) if isinstance(p, cst.Param)}
        declared: set[str] = set()
        stack: list[cst.CSTNode] = [func.body]
        while stack:
            node = stack.pop()
            if isinstance(node, cst.FunctionDef | cst.ClassDef):
                found.add(node.name.value)
                continue
            if isinstance(node, _NESTED_SCOPES):
                continue
            if isinstance(node, cst.Global | cst.Nonlocal):
                declared.update(item.name.value for item in node.names)
            found |= _binds_directly(node)
            stack.extend(children(node))
        return found - declared

    def captured_names(self, func: cst.FunctionDef) -> set[str]:
        """Locals of `func` that appear inside a nested function, lambda or comprehension
        (which may read or keep them), conservatively by name (worked out once per
        function: several transforms ask)."""
        known = self._captured.get(func)
        if known is None:
            known = self._captured[func] = frozenset(self._find_captured(func))
        return set(known)

    def _find_captured(self, func: cst.FunctionDef) -> set[str]:
        local = self.locals_of(func)
        found: set[str] = set()
        for node in walk(func.body):
            if isinstance(node, (cst.FunctionDef, cst.ClassDef, *_NESTED_SCOPES)):
                found |= name_values(node) & local
        return found

    def has_global_or_nonlocal(self, func: cst.CSTNode) -> bool:
        """Whether `func` (or anything inside it) has a `global` or `nonlocal` statement
        (none can when the module has none: each names at least one name)."""
        if not self.names.declared:
            return False
        return any(isinstance(n, cst.Global | cst.Nonlocal) for n in walk(func))


_VISITOR_NAMES: dict[type[cst.BatchableCSTVisitor], tuple[str, ...]] = {}


class _KnownVisitors(cst.BatchableCSTVisitor):
    """Hands `cst.visit_batched` the visit/leave methods of `inner`, looked up once per
    class: LibCST looks them up with `inspect.getmembers` on every traversal, which costs
    about as much as the traversal itself."""

    def __init__(self, inner: cst.BatchableCSTVisitor) -> None:
        """Stand for `inner`."""
        super().__init__()
        self.inner = inner

    def get_visitors(self) -> Mapping[str, Callable[[cst.CSTNode], None]]:
        """`inner.get_visitors()`, from the names found for its class."""
        kind = type(self.inner)
        names = _VISITOR_NAMES.get(kind)
        if names is None:
            names = _VISITOR_NAMES[kind] = tuple(self.inner.get_visitors())
        return {name: getattr(self.inner, name) for name in names}


class _Batched(cst.CSTVisitor):
    """What `cst.visit_batched` traverses with for one batchable visitor (no hooks): the
    visitor's `visit_*`/`leave_*` methods by node type (and attribute), children always
    entered."""

    def __init__(self, methods: Mapping[str, Callable[[cst.CSTNode], None]]) -> None:
        super().__init__()
        self.methods = methods

    def on_visit(self, node: cst.CSTNode) -> bool:
        method = self.methods.get("visit_" + type(node).__name__)
        if method is not None:
            method(node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        method = self.methods.get("leave_" + type(original_node).__name__)
        if method is not None:
            method(original_node)

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        method = self.methods.get(f"visit_{type(node).__name__}_{attribute}")
        if method is not None:
            method(node)

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        method = self.methods.get(f"leave_{type(original_node).__name__}_{attribute}")
        if method is not None:
            method(original_node)


def resolve_scopes(wrapper: MetadataWrapper) -> Mapping[cst.CSTNode, Scope | None]:
    """`wrapper.resolve(ScopeProvider)`, computed with two traversals instead of three.

    LibCST resolves `ScopeProvider` as a batched visitor whose only method is `visit_Module`,
    which runs a traversal of its own; the batched traversal around it does nothing, and the
    method lookup of each batched provider costs about as much as a traversal. This runs the
    expression contexts (the dependency) as a batched visitor with its methods looked up once
    per class, then `visit_Module` directly. The mapping is the one `resolve` gives (a
    differential test compares them).
    """
    contexts = ExpressionContextProvider()
    visit_in_place(wrapper.module, _Batched(_KnownVisitors(contexts).get_visitors()))
    provider = ScopeProvider()
    provider.metadata = {ExpressionContextProvider: MappingProxyType(dict(contexts._computed))}
    # `ScopeProvider.visit_Module`, with the traversal in place.
    scopes = ScopeVisitor(provider)
    visit_in_place(wrapper.module, scopes)
    scopes.infer_accesses()
    return cast(Mapping[cst.CSTNode, Scope | None], MappingProxyType(dict(provider._computed)))


def visit_in_place(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    """`node.visit(visitor)` for a visitor (which changes nothing), without rebuilding
    every node on the way: LibCST's traversal builds a copy of each node it enters even for
    a visitor, and throws it away. This makes the same calls, in the same order, on the
    same nodes: `on_visit`, then for each field a node visits (`_CHILD_FIELDS`)
    `on_visit_attribute`, the field's nodes, `on_leave_attribute`, then `on_leave`."""
    if visitor.on_visit(node):
        kind = type(node)
        fields = _CHILD_FIELDS.get(kind)
        if fields is None:
            _fields_children(node)
            fields = _CHILD_FIELDS[kind]
        for name in fields:
            visitor.on_visit_attribute(node, name)
            value = getattr(node, name)
            value_type = type(value)
            if value_type is tuple or value_type is list:
                for item in value:
                    if _is_node_type(type(item)):
                        visit_in_place(item, visitor)
            elif _is_node_type(value_type):
                visit_in_place(value, visitor)
            visitor.on_leave_attribute(node, name)
    visitor.on_leave(node)


def _is_node_type(kind: type) -> bool:
    found = _IS_NODE.get(kind)
    if found is None:
        found = _IS_NODE[kind] = issubclass(kind, cst.CSTNode)
    return found


_NESTED_SCOPES = (cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def function_members(info: ModuleInfo, kind: type[_N]) -> Iterator[tuple[_N, cst.FunctionDef]]:
    """`(node, its function)` for every node of type `kind` inside a function (not in a
    class), in source order."""
    for node in info.of_types((kind,)):
        func = info.enclosing_function(node)
        if func is not None and not info.in_class(node):
            yield cast(_N, node), func


def function_blocks(info: ModuleInfo) -> Iterator[cst.IndentedBlock]:
    """Every indented block inside a function (see `in_function`), in source order."""
    for block, _func in function_members(info, cst.IndentedBlock):
        yield block


def in_function(node: cst.CSTNode, info: ModuleInfo) -> bool:
    """Whether `node` is inside a function (and not inside a class)."""
    return info.enclosing_function(node) is not None and not info.in_class(node)


_TARGET_HOLDERS = (
    cst.AssignTarget,
    cst.AugAssign,
    cst.AnnAssign,
    cst.For,
    cst.CompFor,
    cst.NamedExpr,
    cst.Del,
)


def _binds_directly(node: cst.CSTNode) -> set[str]:
    """Names that `node` itself binds (not its children) as a target of an assignment, a
    loop (comprehensions' too), a walrus, a deletion, `with`/`except ... as`, or an import."""
    if isinstance(node, _TARGET_HOLDERS):
        return set(bound_names(node.target))
    if isinstance(node, cst.AsName):
        return set(bound_names(node.name))
    if isinstance(node, cst.ImportAlias):
        return {import_binding(node)}
    return set()


def walk(root: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Every node under `root` (itself included), in source order."""
    stack: list[cst.CSTNode] = [root]
    known = _CHILDREN.get  # `children`, inlined for the nodes already listed (most)
    while stack:
        node = stack.pop()
        yield node
        entry = known(id(node))
        kids = entry[1] if entry is not None and entry[0] is node else children(node)
        stack.extend(reversed(kids))


def variable_names(node: cst.CSTNode) -> list[cst.Name]:
    """The `Name` nodes used as variables in `node`, in source order (attribute and keyword
    names excluded)."""
    skip: set[int] = set()
    found: list[cst.Name] = []
    for sub in walk(node):
        if isinstance(sub, cst.Attribute):
            skip.add(id(sub.attr))
        elif isinstance(sub, cst.Arg) and sub.keyword is not None:
            skip.add(id(sub.keyword))
        elif isinstance(sub, cst.Name) and id(sub) not in skip:
            found.append(sub)
    return found


def subscript_index(expr: cst.CSTNode, name: str) -> cst.Index | None:
    """The index of `expr` when it is `name[index]` (one index, not a slice), else None."""
    if (
        isinstance(expr, cst.Subscript)
        and isinstance(expr.value, cst.Name)
        and expr.value.value == name
        and len(expr.slice) == 1
        and isinstance(expr.slice[0].slice, cst.Index)
    ):
        return expr.slice[0].slice
    return None


def copied_name(expr: cst.BaseExpression) -> str | None:
    """`x` when `expr` is `x`, `x.copy()` or `x[a:b]`: a value of the same kind as `x`."""
    if isinstance(expr, cst.Name):
        return expr.value
    if (
        isinstance(expr, cst.Call)
        and not expr.args
        and isinstance(expr.func, cst.Attribute)
        and expr.func.attr.value == "copy"
        and isinstance(expr.func.value, cst.Name)
    ):
        return expr.func.value.value
    if (
        isinstance(expr, cst.Subscript)
        and isinstance(expr.value, cst.Name)
        and len(expr.slice) == 1
        and isinstance(expr.slice[0].slice, cst.Slice)
    ):
        return expr.value.value
    return None


def name_values(node: cst.CSTNode) -> set[str]:
    """Identifiers used as variables in `node` (attribute and keyword names excluded)."""
    return {sub.value for sub in variable_names(node)}


def count_refs(node: cst.CSTNode, name: str) -> int:
    """How many times `name` appears as a variable in `node`."""
    return [sub.value for sub in variable_names(node)].count(name)


def assigned_names(node: cst.CSTNode) -> set[str]:
    """Names that `node` binds anywhere inside it, nested functions included (targets of
    assignments, loops, `with`, `except`, walrus, imports, `def`/`class`, deletions)."""
    return _assigned_in(walk(node))


def _assigned_in(nodes: Iterable[cst.CSTNode]) -> set[str]:
    found: set[str] = set()
    for sub in nodes:
        found |= _binds_directly(sub)
        if isinstance(sub, cst.FunctionDef | cst.ClassDef | cst.Param):
            found.add(sub.name.value)
        elif isinstance(sub, cst.Global | cst.Nonlocal):
            found.update(item.name.value for item in sub.names)
    return found


def import_binding(alias: cst.ImportAlias) -> str:
    """The name an import binds (`import a.b` binds `a`; `import a as b` binds `b`)."""
    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
        return alias.asname.name.value
    name = alias.name
    while isinstance(name, cst.Attribute):
        name = name.value  # type: ignore[assignment]
    return name.value if isinstance(name, cst.Name) else ""


def bound_names(target: cst.CSTNode) -> list[str]:
    """The names a target rebinds itself, in order (not those inside its attribute or
    subscript targets, which store into an object)."""
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, cst.Tuple | cst.List):
        return [n for e in target.elements for n in bound_names(e.value)]
    if isinstance(target, cst.StarredElement):
        return bound_names(target.value)
    return []


def target_names(target: cst.CSTNode) -> set[str] | None:
    """The names an assignment target binds, or None when it stores into an object
    (attribute or subscript targets)."""
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, cst.Tuple | cst.List):
        return all_target_names(element.value for element in target.elements)
    if isinstance(target, cst.StarredElement):
        return target_names(target.value)
    return None


def all_target_names(targets: Iterable[cst.CSTNode]) -> set[str] | None:
    """The names several assignment targets (`a, b = ...`, `a = b = ...`) bind together, or
    None when one of them stores into an object."""
    out: set[str] = set()
    for target in targets:
        inner = target_names(target)
        if inner is None:
            return None
        out |= inner
    return out


# --------------------------------------------------------------------------------------------
# Precedence, parentheses and negation

ATOM = 16

_BINARY_PRECEDENCE: dict[type[cst.BaseBinaryOp], int] = {
    cst.BitOr: 6,
    cst.BitXor: 7,
    cst.BitAnd: 8,
    cst.LeftShift: 9,
    cst.RightShift: 9,
    cst.Add: 10,
    cst.Subtract: 10,
    cst.Multiply: 11,
    cst.Divide: 11,
    cst.FloorDivide: 11,
    cst.Modulo: 11,
    cst.MatrixMultiply: 11,
    cst.Power: 13,
}


def precedence(expr: cst.BaseExpression) -> int:
    """How tightly `expr` binds (higher binds tighter; parenthesized expressions are atoms)."""
    if expr.lpar:
        return ATOM
    if isinstance(expr, cst.NamedExpr | cst.Yield | cst.GeneratorExp | cst.StarredElement):
        return -1
    if isinstance(expr, cst.Tuple):
        return -1
    if isinstance(expr, cst.Lambda):
        return 0
    if isinstance(expr, cst.IfExp):
        return 1
    if isinstance(expr, cst.BooleanOperation):
        return 2 if isinstance(expr.operator, cst.Or) else 3
    if isinstance(expr, cst.UnaryOperation):
        return 4 if isinstance(expr.operator, cst.Not) else 12
    if isinstance(expr, cst.Comparison):
        return 5
    if isinstance(expr, cst.BinaryOperation):
        return _BINARY_PRECEDENCE[type(expr.operator)]
    if isinstance(expr, cst.Await):
        return 14
    return ATOM


def parenthesize(expr: cst.BaseExpression) -> cst.BaseExpression:
    """`expr` in parentheses."""
    return expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def wrap(expr: cst.BaseExpression, needed: int) -> cst.BaseExpression:
    """`expr`, parenthesized if it binds less tightly than `needed`."""
    return expr if precedence(expr) >= needed else parenthesize(expr)


_EMPTY_MODULE = cst.Module(body=[])


def keep_parens(original: cst.BaseExpression, new: cst.BaseExpression) -> cst.BaseExpression:
    """`new`, wearing the parentheses of the `original` it replaces when it has none of its
    own (so `if(x):` stays valid whatever `x` becomes), or new parentheses when `original`
    started with a bracket and `new` with a letter (`return(a)[0]` must not become
    `returnhelper(a)`)."""
    if new.lpar:
        return new
    if original.lpar:
        return new.with_changes(lpar=original.lpar, rpar=original.rpar)
    before = _EMPTY_MODULE.code_for_node(original)[:1]
    after = _EMPTY_MODULE.code_for_node(new)[:1]
    if before and not (before.isalnum() or before == "_") and (after.isalnum() or after == "_"):
        return parenthesize(new)
    return new


class _Respelling(CodegenState):
    """LibCST's printer state, spelling the `Name` nodes listed in `spellings` (by id)
    otherwise: a name prints its value as one token, after the tokens of its opening
    parentheses (none of which can equal an identifier)."""

    def __init__(self, module: cst.Module, spellings: Mapping[int, str]) -> None:
        super().__init__(
            default_indent=module.default_indent, default_newline=module.default_newline
        )
        self.spellings = spellings
        self.pending: tuple[str, str] | None = None

    def before_codegen(self, node: cst.CSTNode) -> None:
        spelling = self.spellings.get(id(node))
        if spelling is not None and type(node) is cst.Name:
            self.pending = (node.value, spelling)

    def add_token(self, value: str) -> None:
        if self.pending is not None and value == self.pending[0]:
            value = self.pending[1]
            self.pending = None
        self.tokens.append(value)


def code_respelled(module: cst.Module, node: cst.CSTNode, spellings: Mapping[int, str]) -> str:
    """`module.code_for_node(node)` with each `Name` node whose id is in `spellings` spelled
    as given: the code of a copy of `node` with those names changed, without building the
    copy (a test compares both)."""
    state = _Respelling(module, spellings)
    node._codegen(state)
    return "".join(state.tokens)


def strip_parens(expr: cst.BaseExpression) -> cst.BaseExpression:
    """`expr` without its outer parentheses (callers re-wrap as the new context needs)."""
    if not expr.lpar:
        return expr
    if isinstance(expr, cst.Tuple | cst.GeneratorExp | cst.Yield):
        return expr
    return expr.with_changes(lpar=[], rpar=[])


_INVERSE_CMP: dict[type[cst.BaseCompOp], type[cst.BaseCompOp]] = {
    cst.Equal: cst.NotEqual,
    cst.NotEqual: cst.Equal,
    cst.In: cst.NotIn,
    cst.NotIn: cst.In,
    cst.Is: cst.IsNot,
    cst.IsNot: cst.Is,
}


def operator_like(kind: type[Any], like: cst.CSTNode) -> Any:
    """An operator of type `kind` (binary, augmented, boolean or comparison) with the outer
    whitespace of `like` (`not in` and `is not` get one blank inside)."""
    before = getattr(like, "whitespace_before", cst.SimpleWhitespace(" "))
    after = getattr(like, "whitespace_after", cst.SimpleWhitespace(" "))
    if kind in (cst.NotIn, cst.IsNot):
        return kind(
            whitespace_before=before,
            whitespace_between=cst.SimpleWhitespace(" "),
            whitespace_after=after,
        )
    return kind(whitespace_before=before, whitespace_after=after)


_INVERSE_ORDER: dict[type[cst.BaseCompOp], type[cst.BaseCompOp]] = {
    cst.LessThan: cst.GreaterThanEqual,
    cst.GreaterThanEqual: cst.LessThan,
    cst.GreaterThan: cst.LessThanEqual,
    cst.LessThanEqual: cst.GreaterThan,
}

# Calls that surely give an int (or raise): `len(x) < n` is an integer comparison.
_INT_BUILTINS = frozenset({"len", "ord", "int", "abs"})
_INT_METHODS = frozenset({"count", "find", "rfind", "index", "rindex"})


_STR_RESULT_METHODS = frozenset(
    {"lower", "upper", "strip", "lstrip", "rstrip", "title", "capitalize", "swapcase",
     "casefold", "join", "replace", "zfill", "center", "ljust", "rjust"}
)  # fmt: skip
_INT_OPERATORS = (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Modulo)


def _surely_int_or_str(expr: cst.BaseExpression) -> bool:
    """An int or str literal, a call that gives an int (`len(...)`, `s.find(...)`) or a
    str (`s.lower()`), or int arithmetic on such (`len(xs) - 1`)."""
    expr = strip_parens(expr)
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        expr = strip_parens(expr.expression)
    if isinstance(expr, cst.Integer | cst.SimpleString):
        return True
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, _INT_OPERATORS):
        return _surely_int_or_str(expr.left) and _surely_int_or_str(expr.right)
    if isinstance(expr, cst.Call):
        func = expr.func
        if isinstance(func, cst.Name):
            return func.value in _INT_BUILTINS
        if isinstance(func, cst.Attribute):
            return func.attr.value in _INT_METHODS | _STR_RESULT_METHODS
    return False


def invert_comparison(expr: cst.BaseExpression) -> cst.BaseExpression | None:
    """`a != b` for `a == b` (and `in`/`not in`, `is`/`is not`), `a >= b` for `a < b` where
    one operand is an int or str (a literal, `len(...)`...), or None where inverting the
    operator is not exact.

    `not a < b` is not `a >= b` for sets (subset order) or NaN; with an int or str on one
    side, a set, list or tuple on the other raises either way, so only a float NaN could
    tell the two apart, which differential verification over the calls catches.
    """
    if not isinstance(expr, cst.Comparison) or len(expr.comparisons) != 1:
        return None
    target = expr.comparisons[0]
    inverse = _INVERSE_CMP.get(type(target.operator))
    if inverse is None and (_surely_int_or_str(expr.left) or _surely_int_or_str(target.comparator)):
        inverse = _INVERSE_ORDER.get(type(target.operator))
    if inverse is None:
        return None
    op = operator_like(inverse, target.operator)
    return expr.with_changes(comparisons=[target.with_changes(operator=op)])


def negate(expr: cst.BaseExpression, *, boolean_context: bool) -> cst.BaseExpression:
    """An expression whose truth is the opposite of `expr`'s.

    In a boolean context (an `if` test, an operand of `not`...) only truth matters, so
    `not x` negates to `x`, and `a or not b` to `not a and b` (De Morgan, when at least as
    many operands lose a `not` as gain one); elsewhere the result is always a bool, as
    `not expr` is (`not x` negates to `bool(x)`). No double negation is ever written.
    """
    inner = strip_parens(expr)
    if isinstance(inner, cst.UnaryOperation) and isinstance(inner.operator, cst.Not):
        if boolean_context:
            return inner.expression
        return cst.Call(func=cst.Name("bool"), args=[cst.Arg(value=strip_parens(inner.expression))])
    inverted = invert_comparison(inner)
    if inverted is not None:
        return inverted
    if boolean_context and isinstance(inner, cst.BooleanOperation):
        pushed = _push_negation(inner)
        if pushed is not None:
            return pushed
    return cst.UnaryOperation(operator=cst.Not(), expression=wrap(inner, 4))


def negates_naturally(expr: cst.BaseExpression, *, boolean_context: bool) -> bool:
    """Whether `negate(expr)` reads as a person would write it: no `not` put before a
    comparison whose operator could not be inverted exactly (`not num < k`, for operands of
    unknown type). A transform that would write one declines rather than leave it."""
    return not _negated_comparison(negate(expr, boolean_context=boolean_context))


def _negated_comparison(expr: cst.BaseExpression) -> bool:
    """`not` before a comparison, or before an and/or holding an order comparison that
    cannot be inverted (`not (a >= b or c <= a)`: De Morgan could not push the `not` in)."""
    inner = strip_parens(expr)
    if isinstance(inner, cst.UnaryOperation) and isinstance(inner.operator, cst.Not):
        negated = strip_parens(inner.expression)
        if isinstance(negated, cst.BooleanOperation):
            return any(
                isinstance(o := strip_parens(op), cst.Comparison)
                and len(o.comparisons) == 1
                and type(o.comparisons[0].operator) in _INVERSE_ORDER
                and invert_comparison(o) is None
                for op in bool_operands(negated)
            )
        return isinstance(negated, cst.Comparison)
    if isinstance(inner, cst.BooleanOperation):
        return any(_negated_comparison(o) for o in bool_operands(inner))
    return False


def bool_operands(expr: cst.BooleanOperation) -> list[cst.BaseExpression]:
    """The operands of a chain `a and b and c` (same operator, no parentheses between)."""
    kind = type(expr.operator)
    out: list[cst.BaseExpression] = []
    for side in (expr.left, expr.right):
        if isinstance(side, cst.BooleanOperation) and not side.lpar and type(side.operator) is kind:
            out.extend(bool_operands(side))
        else:
            out.append(side)
    return out


def _push_negation(expr: cst.BooleanOperation) -> cst.BaseExpression | None:
    """`not (a or not b)` as `not a and b` (boolean context), or None when that writes more
    `not`s than it removes."""
    operands = bool_operands(expr)
    negated = [negate(o, boolean_context=True) for o in operands]
    fresh = sum(
        isinstance(n, cst.UnaryOperation) and isinstance(n.operator, cst.Not) for n in negated
    )
    if fresh > len(negated) - fresh:
        return None
    dual: type[cst.BaseBooleanOp] = cst.Or if isinstance(expr.operator, cst.And) else cst.And
    needed = 3 if dual is cst.Or else 4
    result = wrap(negated[0], needed)
    for operand in negated[1:]:
        result = cst.BooleanOperation(left=result, operator=dual(), right=wrap(operand, needed))
    return result


def in_boolean_context(node: cst.BaseExpression, info: ModuleInfo) -> bool:
    """Whether only the truth of `node`'s value matters where it stands."""
    current: cst.CSTNode = node
    while True:
        parent = info.parent(current)
        if parent is None:
            return False
        if isinstance(parent, cst.If | cst.While | cst.IfExp | cst.Assert | cst.CompIf):
            return getattr(parent, "test", None) is current
        if isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not):
            return True
        if isinstance(parent, cst.BooleanOperation):
            current = parent
            continue
        return False


# --------------------------------------------------------------------------------------------
# Effects


def is_literal(expr: cst.BaseExpression) -> bool:
    """A number, string (not an f-string), `True`, `False`, `None` or `...`."""
    if isinstance(expr, cst.Integer | cst.Float | cst.Imaginary | cst.SimpleString | cst.Ellipsis):
        return True
    if isinstance(expr, cst.ConcatenatedString):
        return is_literal(expr.left) and is_literal(expr.right)
    if isinstance(expr, cst.Name):
        return expr.value in ("True", "False", "None")
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus | cst.Plus):
        return isinstance(expr.expression, cst.Integer | cst.Float | cst.Imaginary)
    return False


def range_args(node: cst.CSTNode, info: ModuleInfo) -> list[cst.BaseExpression] | None:
    """The 1 to 3 positional arguments of a call to the builtin `range`, else None."""
    if (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Name)
        and node.func.value == "range"
        and info.is_builtin("range")
        and 1 <= len(node.args) <= 3
        and all(a.keyword is None and not a.star for a in node.args)
    ):
        return [a.value for a in node.args]
    return None


def pure_call(call: cst.Call, info: ModuleInfo) -> bool:
    """Whether `call` calls a pure builtin the module never rebinds, or a method that
    changes no object (whatever its receiver)."""
    func = call.func
    if isinstance(func, cst.Name):
        return func.value in PURE_BUILTINS and info.is_builtin(func.value)
    return isinstance(func, cst.Attribute) and func.attr.value in NON_MUTATING_METHODS


def is_pure(expr: cst.CSTNode, info: ModuleInfo) -> bool:
    """Whether evaluating `expr` changes no state, other than by iterating iterators it is
    given (it may still raise). Calls count only to builtins and non-mutating methods."""
    for node in walk(expr):
        if isinstance(node, cst.Call) and not pure_call(node, info):
            return False
        if isinstance(node, cst.NamedExpr | cst.Yield | cst.Await):
            return False
    return True


def mutation_free(body: cst.CSTNode, info: ModuleInfo) -> bool:
    """No call in `body` can change an object: only builtins and non-mutating methods are
    called, and nothing is stored into a subscript or attribute, or deleted."""
    for node in walk(body):
        if isinstance(node, cst.Call) and not pure_call(node, info):
            return False
        if isinstance(node, cst.AssignTarget | cst.AugAssign) and isinstance(
            node.target, cst.Subscript | cst.Attribute
        ):
            return False
        if isinstance(node, cst.Del | cst.Yield | cst.Await | cst.Global | cst.Nonlocal):
            return False
    return True


def touched_names(expr: cst.CSTNode) -> set[str]:
    """Names whose object evaluating `expr` may iterate (and so consume, if an iterator)."""
    found: set[str] = set()
    for node in walk(expr):
        if isinstance(node, cst.Call):
            func = node.func
            if isinstance(func, cst.Name) and func.value in _NON_ITERATING_BUILTINS:
                continue
            if isinstance(func, cst.Attribute) and func.attr.value not in STR_ONLY_METHODS:
                found |= name_values(func.value)
            for arg in node.args:
                found |= name_values(arg.value)
        elif isinstance(node, cst.CompFor):
            found |= name_values(node.iter)
        elif isinstance(node, cst.StarredElement | cst.StarredDictElement):
            found |= name_values(node.value)
    return found


_NO_ARG_CONSTRUCTORS = frozenset({"list", "dict", "set", "str", "tuple", "int", "float", "bool"})


def may_raise(expr: cst.BaseExpression, info: ModuleInfo) -> bool:
    """Whether evaluating `expr` might raise (reading a local is assumed not to)."""
    if is_literal(expr) or isinstance(expr, cst.Name):
        return False
    if isinstance(expr, cst.Tuple | cst.List):
        return any(
            isinstance(e, cst.StarredElement) or may_raise(e.value, info) for e in expr.elements
        )
    if isinstance(expr, cst.Dict):
        for element in expr.elements:
            if not isinstance(element, cst.DictElement):
                return True
            if not isinstance(element.key, cst.Integer | cst.SimpleString):
                return True
            if may_raise(element.value, info):
                return True
        return False
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and not expr.args:
        return not (expr.func.value in _NO_ARG_CONSTRUCTORS and info.is_builtin(expr.func.value))
    return not isinstance(expr, cst.Lambda)


# --------------------------------------------------------------------------------------------
# Statements


def small_statements(stmt: cst.BaseStatement) -> Sequence[cst.BaseSmallStatement]:
    """The small statements of a simple statement line (empty for compound statements)."""
    if isinstance(stmt, cst.SimpleStatementLine):
        return stmt.body
    return ()


def single_small(stmt: cst.CSTNode | None) -> cst.BaseSmallStatement | None:
    """The small statement of a statement line that holds exactly one."""
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
        return stmt.body[0]
    return None


def only_small(block: cst.BaseSuite) -> cst.BaseSmallStatement | None:
    """The one small statement of an indented block of one statement line, else None."""
    if not isinstance(block, cst.IndentedBlock) or len(block.body) != 1:
        return None
    return single_small(block.body[0])


def block_statements(body: cst.BaseSuite) -> Sequence[cst.BaseStatement]:
    """The statements of an indented block (a one-line suite gives none)."""
    if isinstance(body, cst.IndentedBlock):
        return body.body
    return ()


def always_exits(body: cst.BaseSuite) -> bool:
    """Whether the last statement of `body` is a `return`, `raise`, `continue` or `break`."""
    if isinstance(body, cst.IndentedBlock):
        if not body.body:
            return False
        last = body.body[-1]
        if not isinstance(last, cst.SimpleStatementLine):
            return False
        smalls = last.body
    elif isinstance(body, cst.SimpleStatementSuite):
        smalls = body.body
    else:
        return False
    return bool(smalls) and isinstance(
        smalls[-1], cst.Return | cst.Raise | cst.Continue | cst.Break
    )


def leading_lines(stmt: cst.BaseStatement) -> Sequence[cst.EmptyLine]:
    """The blank and comment lines above a statement."""
    if isinstance(stmt, cst.SimpleStatementLine | cst.BaseCompoundStatement):
        return stmt.leading_lines
    return ()


_COMMENTED: dict[int, tuple[cst.CSTNode, bool]] = {}
_COMMENTED_LIMIT = 100_000


def has_comments(node: cst.CSTNode) -> bool:
    """Whether any comment appears inside `node` (`node` itself included).

    Worked out once per node, bottom-up: transforms ask it of nearly every node of a
    module, and a walk of each node's subtree made that quadratic in the nesting depth.
    """
    entry = _COMMENTED.get(id(node))
    if entry is not None and entry[0] is node:
        return entry[1]
    if len(_COMMENTED) >= _COMMENTED_LIMIT:
        _COMMENTED.clear()
    # Post-order without recursion: a node is settled once all its children are.
    stack: list[tuple[cst.CSTNode, bool]] = [(node, False)]
    while stack:
        current, expanded = stack.pop()
        known = _COMMENTED.get(id(current))
        if known is not None and known[0] is current:
            continue
        kids = children(current)
        if not expanded:
            stack.append((current, True))
            stack.extend((child, False) for child in kids)
            continue
        found = isinstance(current, cst.Comment) or any(_COMMENTED[id(child)][1] for child in kids)
        _COMMENTED[id(current)] = (current, found)
    return _COMMENTED[id(node)][1]


def loop_control_of(loop_body: cst.CSTNode) -> list[cst.Continue | cst.Break]:
    """`continue`/`break` statements in `loop_body` that belong to the loop owning it (not
    to loops nested inside, nor to nested functions)."""
    found: list[cst.Continue | cst.Break] = []

    def visit(node: cst.CSTNode) -> None:
        for child in children(node):
            if isinstance(child, cst.Continue | cst.Break):
                found.append(child)
            elif isinstance(child, cst.For | cst.While):
                # The loop's own else clause still belongs to the outer loop.
                if child.orelse is not None:
                    visit(child.orelse)
            elif isinstance(child, cst.FunctionDef | cst.ClassDef | cst.Lambda):
                continue
            else:
                visit(child)

    visit(loop_body)
    return found


def contains(node: cst.CSTNode, kinds: type | UnionType | tuple[type, ...]) -> bool:
    """Whether a node of one of `kinds` appears in `node` (itself included)."""
    return any(isinstance(n, kinds) for n in walk(node))


def is_generator(func: cst.FunctionDef) -> bool:
    """Whether `func` itself (not a nested function) contains `yield`."""

    def visit(node: cst.CSTNode) -> bool:
        for child in children(node):
            if isinstance(child, cst.Yield):
                return True
            if isinstance(child, cst.FunctionDef | cst.ClassDef | cst.Lambda):
                continue
            if visit(child):
                return True
        return False

    return visit(func.body)


def required_precedence(node: cst.BaseExpression, info: ModuleInfo) -> int:
    """The least precedence an expression put in place of `node` needs to parse the same
    way without parentheses (ATOM where unsure, which forces parentheses)."""
    parent = info.parent(node)
    if parent is None:
        return ATOM
    if isinstance(parent, cst.BinaryOperation):
        own = _BINARY_PRECEDENCE[type(parent.operator)]
        if isinstance(parent.operator, cst.Power):
            return 14 if parent.left is node else 12
        return own if parent.left is node else own + 1
    if isinstance(parent, cst.UnaryOperation):
        return 4 if isinstance(parent.operator, cst.Not) else 12
    if isinstance(parent, cst.Comparison | cst.ComparisonTarget):
        return 6
    if isinstance(parent, cst.BooleanOperation):
        own = 2 if isinstance(parent.operator, cst.Or) else 3
        return own if parent.left is node else own + 1
    if isinstance(parent, cst.IfExp):
        return 1 if parent.orelse is node else 2
    if isinstance(parent, cst.CompFor | cst.CompIf):
        return 2
    if isinstance(parent, cst.StarredElement | cst.StarredDictElement):
        return 6
    if isinstance(
        parent,
        cst.Arg
        | cst.Assign
        | cst.AugAssign
        | cst.AnnAssign
        | cst.Return
        | cst.Expr
        | cst.Element
        | cst.DictElement
        | cst.Index
        | cst.Slice
        | cst.Param
        | cst.If
        | cst.While
        | cst.For
        | cst.Assert
        | cst.Raise
        | cst.Lambda,
    ):
        return 1 if isinstance(parent, cst.Element | cst.DictElement) else 0
    return ATOM


# --------------------------------------------------------------------------------------------
# Definite assignment


def param_names(func: cst.FunctionDef) -> set[str]:
    """Every parameter name of `func`."""
    params = func.params
    names = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            names.add(star.name.value)
    return names


def definitely_assigned(stmt: cst.BaseStatement) -> set[str]:
    """Names bound once `stmt` completes normally, whatever path it takes."""
    if isinstance(stmt, cst.SimpleStatementLine):
        out: set[str] = set()
        for small in stmt.body:
            if isinstance(small, cst.Assign):
                for target in small.targets:
                    out |= target_names(target.target) or set()
            elif isinstance(small, cst.AugAssign | cst.AnnAssign):
                if isinstance(small.target, cst.Name) and (
                    not isinstance(small, cst.AnnAssign) or small.value is not None
                ):
                    out.add(small.target.value)
            elif isinstance(small, cst.Import | cst.ImportFrom) and not isinstance(
                small.names, cst.ImportStar
            ):
                out |= {import_binding(alias) for alias in small.names}
        return out
    if isinstance(stmt, cst.FunctionDef | cst.ClassDef):
        return {stmt.name.value}
    if isinstance(stmt, cst.If) and isinstance(stmt.orelse, cst.Else):
        return _block_assigned(stmt.body) & _block_assigned(stmt.orelse.body)
    if isinstance(stmt, cst.If) and isinstance(stmt.orelse, cst.If):
        return _block_assigned(stmt.body) & definitely_assigned(stmt.orelse)
    if isinstance(stmt, cst.With):
        return _block_assigned(stmt.body)
    return set()


def _block_assigned(body: cst.BaseSuite) -> set[str]:
    if isinstance(body, cst.IndentedBlock):
        out: set[str] = set()
        for stmt in body.body:
            out |= definitely_assigned(stmt)
        return out
    if isinstance(body, cst.SimpleStatementSuite):
        return definitely_assigned(cst.SimpleStatementLine(body=list(body.body)))
    return set()


def bound_before(stmt: cst.CSTNode, func: cst.FunctionDef, info: ModuleInfo) -> set[str]:
    """Names of `func` surely bound when `stmt` (a statement of `func`) starts running."""
    bound = param_names(func)
    node: cst.CSTNode = stmt
    while node is not func:
        parent = info.parent(node)
        if parent is None:
            break
        if isinstance(parent, cst.IndentedBlock):
            for prev in parent.body:
                if prev is node:
                    break
                bound |= definitely_assigned(prev)
        elif isinstance(parent, cst.For) and node is parent.body:
            bound |= target_names(parent.target) or set()
        elif isinstance(parent, cst.ExceptHandler) and node is parent.body and parent.name:
            bound |= target_names(parent.name.name) or set()
        elif isinstance(parent, cst.With) and node is parent.body:
            for item in parent.items:
                if item.asname is not None:
                    bound |= target_names(item.asname.name) or set()
        node = parent
    return bound - info.derived_with(_deleted_names, func)


def _deleted_names(info: ModuleInfo, func: cst.FunctionDef) -> frozenset[str]:
    """Names a `del` anywhere in `func` deletes (once per function of an analysis)."""
    return frozenset(
        name
        for sub in walk(func)
        if isinstance(sub, cst.Del)
        for name in (target_names(sub.target) or set())
    )

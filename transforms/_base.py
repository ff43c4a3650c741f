"""The `Transform` base class, transform results and provenance, and the transform registry.

A transform is a LibCST transformer with a `name`, a `kind` ("equivalent" or "mutant") and a
one-line `description`. `apply_transform` runs one on a module in two phases:

1. `Transform.prepare` analyses the (metadata-wrapped) module, collects the sites where the
   transform applies and picks among them with the transform's `random.Random`; it returns
   False to decline (nothing to change, or not safe here).
2. The transform visits the module and rewrites only the picked sites, so every other node,
   comment and whitespace is kept byte for byte.

Provenance is recorded on the way: a renaming transform fills `renames`, and the base class
keeps track of which original statement each statement of the result comes from (every
statement a `leave_*` method returns is an "offspring" of the statement it replaces; moved
statements keep their identity), from which `apply_transform` derives the line map.
"""

from __future__ import annotations

import contextlib
import random
import warnings
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, TypeVar, cast

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider
from libcst.metadata.position_provider import PositionProvidingCodegenState

from transforms._analysis import ModuleInfo, children, walk

Kind = Literal["equivalent", "mutant"]

#: The families a transform belongs to (the same values as `core_bench.schemas.VariantFamily`):
#: "rewrite" (natural structural rewrites, the default axis), "idiom" (the same computation by
#: another idiom), "rename" (renaming styles, a factor of its own), "distractor" (dead code,
#: constant unfolding, misleading comments: off by default), "mutant" (controls).
Family = Literal["rewrite", "idiom", "rename", "distractor", "reimplementation", "mutant"]
FAMILIES: tuple[Family, ...] = (
    "rewrite",
    "idiom",
    "rename",
    "distractor",
    "reimplementation",
    "mutant",
)

_T = TypeVar("_T")

#: Nodes that start a line the tracer can stop on (an `else:` counts: `else: break` runs
#: code on that line); the line map is computed over these.
LINE_NODES: tuple[type[cst.CSTNode], ...] = (
    cst.SimpleStatementLine,
    cst.BaseCompoundStatement,
    cst.ExceptHandler,
    cst.Else,
    cst.Finally,
)


#: The longest line an equivalent transform may write (the project's own line length, ruff's
#: `line-length` in pyproject.toml), unless the code it rewrites already has a longer one;
#: distractors, unnatural by design (`lI1lI1` names), are not held to it.
LINE_LIMIT = 100


def longest_line(code: str) -> int:
    """The length of the longest line of `code`, in characters."""
    return max(map(len, code.splitlines()), default=0)


class TransformBugWarning(UserWarning):
    """A transform produced code that does not compile; the result was dropped."""


@dataclass
class Provenance:
    """Where the variant's names and lines come from.

    Attributes:
        renames: old name -> new name, for every local, parameter or nested function a
            transform renamed (every occurrence of the old name as a variable was renamed).
        line_map: original line -> variant lines (1-based) for every statement line whose
            offspring could be located; lines of removed statements are absent.
    """

    renames: dict[str, str] = field(default_factory=dict)
    line_map: dict[int, list[int]] = field(default_factory=dict)


@dataclass
class TransformResult:
    """The outcome of one transform applied to one module.

    Attributes:
        code: the variant's source.
        name: the transform's name.
        kind: "equivalent" or "mutant".
        provenance: renames and line map.
    """

    code: str
    name: str
    kind: str
    provenance: Provenance


class Transform(cst.CSTTransformer):
    """Base class of every transform.

    Subclasses set `name`, `kind`, `description` (and `family`, `keeps_lines` when they
    differ from the defaults) and follow the site protocol:

    1. `find_sites(info)` lists the sites where the transform applies (a site is a node, or a
       tuple whose first item is the node), from the shared analysis of the module;
    2. the base `prepare` picks one with the transform's rng into `self.site`, then calls
       `take_site(site, info)` to finish planning (fresh names, replacements); False declines;
    3. `leave_*` methods (or `replace`, for a node of any type) rewrite the site, recognising
       it with `at_site(original_node)` (identity: `original_node` is a node of the analysed
       tree). A transform whose site is `(node, replacement)` needs only `swap_site`.

    A subclass may instead override `prepare` itself (the older form, still supported).
    Statements a rewrite builds can be tied to the statements they come from with
    `note_origin`/`carry_origin`, for the line map.

    Attributes:
        rng: the source of every choice the transform makes (so results are deterministic).
        renames: filled by renaming transforms, old name -> new name.
    """

    name: ClassVar[str]
    kind: ClassVar[Kind]
    description: ClassVar[str]
    #: The family the transform's variants belong to (see `Family`); every variant a chain
    #: of transforms makes is reported under the family of its first non-rename transform.
    family: ClassVar[Family] = "rewrite"
    #: True when every statement line of the result is its original line (renamings,
    #: expression-level rewrites): the line map is then the identity.
    keeps_lines: ClassVar[bool] = False
    #: True when the transform changes nothing but its picked site (the node `at_site`
    #: recognises), what is inside it and, through `replace`, the site's ancestors: a visit
    #: then skips every other subtree (LibCST would rebuild each of its nodes unchanged).
    site_local: ClassVar[bool] = False
    #: True when the transform reads the problem's calls (a `calls` keyword of its
    #: constructor): renames infer a variable's role from the arguments' types.
    uses_calls: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A mutant transform that declares no family is of family "mutant"."""
        super().__init_subclass__(**kwargs)
        if getattr(cls, "kind", None) == "mutant" and "family" not in cls.__dict__:
            cls.family = "mutant"

    def __init__(self, rng: random.Random) -> None:
        """Create the transform; `rng` makes every choice among candidate sites."""
        super().__init__()
        self.rng = rng
        self.site: Any = None
        self.renames: dict[str, str] = {}
        self._origins: dict[int, tuple[cst.CSTNode, list[cst.CSTNode]]] = {}
        self._statements_only = _statements_only(type(self))
        self._visited: set[int] | None = None  # with `site_local`: the nodes a visit enters

    def prepare(self, wrapper: MetadataWrapper) -> bool:
        """Analyse `wrapper.module` and pick the site to rewrite (the site protocol: see the
        class docstring); a transform that defines no `find_sites` applies everywhere.

        Args:
            wrapper: the module with metadata; `wrapper.resolve(...)` gives positions,
                scopes, parents of the very nodes the transform will visit, and
                `ModuleInfo.of(wrapper)` the shared analysis.

        Returns:
            False to decline (the transform does not apply, or is not safe here).
        """
        if type(self).find_sites is Transform.find_sites:
            return True
        info = ModuleInfo.of(wrapper)
        chosen = self.pick(self.find_sites(info))
        if chosen is None:
            return False
        self.site = chosen
        if not self.take_site(chosen, info):
            return False
        if self.site_local:
            node = self.site[0] if isinstance(self.site, tuple) else self.site
            if isinstance(node, cst.CSTNode):
                self.limit_visit([node], info)
        return True

    def limit_visit(self, nodes: Iterable[cst.CSTNode], info: ModuleInfo) -> None:
        """Make the visit enter only `nodes`, everything inside them and their ancestors,
        and keep every other subtree as it is (LibCST would rebuild each of its nodes
        unchanged): for a transform that changes nothing else (`leave_*` methods and
        `replace` still see the root of each subtree kept)."""
        visited = self._visited if self._visited is not None else set()
        for node in nodes:
            visited.update(id(n) for n in walk(node))
            for ancestor in info.ancestors(node):
                if id(ancestor) in visited:
                    break  # its own ancestors are in already
                visited.add(id(ancestor))
        self._visited = visited

    def find_sites(self, info: ModuleInfo) -> Sequence[Any]:
        """The sites where the transform applies, in source order (hook)."""
        return ()

    def take_site(self, site: Any, info: ModuleInfo) -> bool:
        """Finish planning the rewrite of the picked `site`; False declines (hook)."""
        return True

    def at_site(self, original_node: cst.CSTNode) -> bool:
        """Whether `original_node` is the picked site's node."""
        site = getattr(self, "site", None)
        node = site[0] if isinstance(site, tuple) else site
        return node is not None and original_node is node

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> Any:
        """For a site with `block` and `index` (a place in a block): `rewrite_block` on that
        block; every other block is kept."""
        site: Any = getattr(self, "block_site", None) or getattr(self, "site", None)
        if getattr(site, "block", None) is not original_node:
            return updated_node
        return self.rewrite_block(original_node, updated_node, site.index)

    def rewrite_block(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock, index: int
    ) -> Any:
        """Rewrite the site's block (`updated_node`: children already visited) at statement
        `index` (hook for sites that are a place in a block)."""
        return updated_node

    def swap_site(self, original_node: cst.CSTNode, result: Any) -> Any:
        """For a site `(node, replacement)`: the replacement at the site, else `result`.
        Call it from `replace`."""
        return self.site[1] if self.at_site(original_node) else result

    def pick(self, candidates: Sequence[_T]) -> _T | None:
        """One of `candidates`, chosen with the transform's rng, or None if there are none."""
        if not candidates:
            return None
        return candidates[self.rng.randrange(len(candidates))]

    def note_origin(self, original: cst.CSTNode, *nodes: cst.CSTNode, deep: bool = True) -> None:
        """Record that `nodes` (and, with `deep`, the new statements inside them, those with
        no origin yet) come from the original statement `original` (a node may come from
        several originals)."""
        for node in nodes:
            for sub in _line_nodes(node) if deep else [node]:
                if sub is not node and id(sub) in self._origins:
                    continue  # a statement moved inside `node` keeps its own origin
                entry = self._origins.setdefault(id(sub), (sub, []))
                if original not in entry[1]:
                    entry[1].append(original)

    def carry_origin(self, source: cst.CSTNode, target: cst.CSTNode) -> None:
        """`target` (typically `source.with_changes(...)`) comes from where `source` came."""
        entry = self._origins.get(id(source))
        if entry is not None and entry[0] is source:
            for original in entry[1]:
                self.note_origin(original, target, deep=False)

    # LibCST's dispatch formats a method name and looks it up for every node and every
    # attribute of a node, and calls it even when it is one of LibCST's empty stubs (most
    # are); these give the same calls from a table per transform class.

    def on_visit(self, node: cst.CSTNode) -> bool:
        """Call the `visit_*` method of `node`'s type, as LibCST does; skip the children of
        a node that holds no statement when every handler of the transform is for
        statements (`_statements_only`): nothing could change there, and LibCST would
        rebuild every node of the subtree (its expressions, most of the tree) for nothing."""
        kind = type(node)
        if self._statements_only and not _holds_statements(kind):
            return False
        if self._visited is not None and id(node) not in self._visited:
            return False
        method = _handler(type(self), "visit_", kind)
        return method is None or method(self, node) is not False

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        """Call the `visit_<type>_<attribute>` method, as LibCST does."""
        method = _handler(type(self), "visit_", type(node), attribute)
        if method is not None:
            method(self, node)

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        """Call the `leave_<type>_<attribute>` method, as LibCST does."""
        method = _handler(type(self), "leave_", type(original_node), attribute)
        if method is not None:
            method(self, original_node)

    def on_leave(self, original_node: Any, updated_node: Any) -> Any:
        """Run the `leave_*` method and `replace`, and remember the offspring of every
        statement."""
        method = _handler(type(self), "leave_", type(original_node))
        left = updated_node if method is None else method(self, original_node, updated_node)
        result = self.replace(original_node, left)
        if _is_line_node(type(original_node)):
            if isinstance(result, cst.FlattenSentinel):
                produced: Sequence[Any] = list(result.nodes)
            elif isinstance(result, cst.CSTNode):
                produced = [result]
            else:
                produced = []
            for node in produced:
                if isinstance(node, LINE_NODES) and id(node) not in self._origins:
                    self._origins[id(node)] = (node, [original_node])
        return result

    def replace(self, original_node: cst.CSTNode, result: Any) -> Any:
        """Hook for transforms that swap one node, whatever its type: `result` is what the
        `leave_*` method returned for `original_node`; return its replacement."""
        return result

    def line_map(
        self,
        wrapper: MetadataWrapper,
        result: cst.Module,
        after: Mapping[cst.CSTNode, CodeRange] | None = None,
    ) -> dict[int, list[int]]:
        """Original line -> variant lines, from the offspring recorded while visiting
        (`after`: the positions of `result`'s nodes, when already known)."""
        before = _source_positions(wrapper)
        if after is None:
            after = MetadataWrapper(result, unsafe_skip_copy=True).resolve(PositionProvider)
        mapping: dict[int, set[int]] = {}
        for node in _line_nodes(result):
            entry = self._origins.get(id(node))
            if entry is not None and entry[0] is node:
                originals = entry[1]
            elif node in before:
                originals = [node]
            else:
                continue
            if node not in after:
                continue
            for original in originals:
                if original not in before:
                    continue
                old, new = before[original], after[node]
                for line, targets in _map_lines(original, old, node, new).items():
                    mapping.setdefault(line, set()).update(targets)
        return {line: sorted(targets) for line, targets in sorted(mapping.items())}


_HANDLERS: dict[tuple[type, str, type, str], Any] = {}

#: The nodes that can hold a statement, a small statement or a block (anything else holds
#: only expressions, whitespace and the like: Python has no statement inside an expression).
_STATEMENT_HOLDER_TYPES: tuple[type[cst.CSTNode], ...] = (
    cst.Module,
    cst.BaseStatement,
    cst.BaseSmallStatement,
    cst.BaseSuite,
    cst.Else,
    cst.Finally,
    cst.ExceptHandler,
    cst.ExceptStarHandler,
    cst.MatchCase,
)
_HOLDS_STATEMENTS: dict[type, bool] = {}
_STATEMENTS_ONLY: dict[type, bool] = {}
#: The hooks a transform may override that see every node.
_EVERY_NODE_HOOKS = ("replace", "on_visit", "on_leave", "on_visit_attribute", "on_leave_attribute")


def _holds_statements(kind: type) -> bool:
    found = _HOLDS_STATEMENTS.get(kind)
    if found is None:
        found = _HOLDS_STATEMENTS[kind] = issubclass(kind, _STATEMENT_HOLDER_TYPES)
    return found


def _statements_only(cls: type[Transform]) -> bool:
    """Whether every `visit_*`/`leave_*` method of `cls` is for a node type that holds
    statements (`_holds_statements`) and it overrides no hook that sees every node: then
    no method of it runs on a node inside an expression, and a visit can skip those."""
    found = _STATEMENTS_ONLY.get(cls)
    if found is None:
        found = all(getattr(cls, hook) is getattr(Transform, hook) for hook in _EVERY_NODE_HOOKS)
        for name in dir(cls) if found else ():
            if not name.startswith(("visit_", "leave_")):
                continue
            if getattr(getattr(cls, name), "_is_no_op", False):
                continue  # LibCST's empty stub
            node_type = getattr(cst, name.split("_")[1], None)
            is_node = isinstance(node_type, type) and issubclass(node_type, cst.CSTNode)
            found = found and is_node and _holds_statements(cast(type, node_type))
        _STATEMENTS_ONLY[cls] = found
    return found


_LINE_TYPES: dict[type, bool] = {}


def _is_line_node(kind: type) -> bool:
    """Whether nodes of type `kind` are `LINE_NODES` (found once per type: LibCST node
    classes are ABCs, whose `isinstance` is slow, and every node of a visit is asked)."""
    found = _LINE_TYPES.get(kind)
    if found is None:
        found = _LINE_TYPES[kind] = issubclass(kind, LINE_NODES)
    return found


def _handler(cls: type, prefix: str, node_type: type, attribute: str = "") -> Any:
    """The function `cls` has for `prefix + node type [+ "_" + attribute]`, or None when
    it has none or only LibCST's empty stub (marked `_is_no_op`), which does nothing and
    returns what it is given."""
    key = (cls, prefix, node_type, attribute)
    try:
        return _HANDLERS[key]
    except KeyError:
        name = prefix + node_type.__name__ + ("_" + attribute if attribute else "")
        method = getattr(cls, name, None)
        if method is not None and getattr(method, "_is_no_op", False):
            method = None
        _HANDLERS[key] = method
        return method


def _map_lines(
    original: cst.CSTNode, old: CodeRange, node: cst.CSTNode, new: CodeRange
) -> dict[int, list[int]]:
    if not isinstance(node, cst.SimpleStatementLine) or not isinstance(
        original, cst.SimpleStatementLine
    ):
        return {old.start.line: [new.start.line]}
    old_lines = list(range(old.start.line, old.end.line + 1))
    new_lines = list(range(new.start.line, new.end.line + 1))
    if len(old_lines) == len(new_lines):
        return {o: [n] for o, n in zip(old_lines, new_lines, strict=True)}
    return {o: new_lines for o in old_lines}


#: The nodes that can hold statements (a statement holds no statement otherwise): walks for
#: `LINE_NODES` need not enter anything else.
_STATEMENT_HOLDERS: tuple[type[cst.CSTNode], ...] = (
    cst.Module,
    cst.IndentedBlock,
    cst.BaseCompoundStatement,
    cst.Else,
    cst.Finally,
    cst.ExceptHandler,
    cst.ExceptStarHandler,
    cst.MatchCase,
)


def _line_nodes(root: cst.CSTNode) -> Iterator[cst.CSTNode]:
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, LINE_NODES):
            yield node
        if isinstance(node, _STATEMENT_HOLDERS):
            stack.extend(reversed(children(node)))


def apply_transform(
    transform: type[Transform] | str, code: str, *, seed: int, **options: Any
) -> TransformResult | None:
    """Apply one transform to `code`.

    Args:
        transform: the transform class or its registered name.
        code: a Python module (CRUXEval: one function `f`, sometimes with globals).
        seed: seeds the transform's `random.Random`; the same seed gives the same result.
        **options: keyword options of the transform's constructor (e.g. `rename_params`).

    Returns:
        The variant and its provenance, or None when the transform declines (it does not
        apply, it is not safe here, or the code does not parse). Equivalent transforms
        always decline on code that reaches variables by name (`locals()`, `eval`...),
        and, but for distractors, where they would write a line longer than `LINE_LIMIT`
        and the code's own longest line.

    Raises:
        KeyError: `transform` names no registered transform.
    """
    applied = apply_transform_lazily(transform, code, seed=seed, **options)
    return None if applied is None else applied.result()


class LazyResult:
    """A transform's result whose line map is worked out on first use.

    The line map reads the positions of the input's statements and of the result's; the
    result's come from the printing that gave its code (`printed_statement_positions`), and
    the input's are printed on first use (a variant generator applies many transforms whose
    results it never keeps, so it asks for `provenance()` only for those it keeps). The map
    is the one `apply_transform` gives: it is computed from the same trees, which never
    change.

    Attributes:
        code: the variant's source.
        name: the transform's name.
        kind: "equivalent" or "mutant".
    """

    __slots__ = (
        "_instance",
        "_positions",
        "_provenance",
        "_tree",
        "_wrapper",
        "code",
        "kind",
        "name",
    )

    def __init__(
        self,
        code: str,
        instance: Transform,
        wrapper: MetadataWrapper,
        tree: cst.Module,
        positions: Mapping[cst.CSTNode, CodeRange] | None = None,
    ) -> None:
        """Keep what the line map needs: the transform (its record of where statements
        come from), the input's wrapper, the resulting tree and, when known, the positions
        of its statement-level nodes (`statement_positions`)."""
        self.code = code
        self.name = instance.name
        self.kind: str = instance.kind
        self._instance = instance
        self._wrapper = wrapper
        self._tree = tree
        self._positions = positions
        self._provenance: Provenance | None = None

    def provenance(self) -> Provenance:
        """Renames and line map (computed once)."""
        if self._provenance is None:
            positions = self._positions
            if positions is None:
                positions = statement_positions(self._tree)
            line_map = self._instance.line_map(self._wrapper, self._tree, positions)
            self._positions = None  # read once: the map is kept
            self._provenance = Provenance(renames=dict(self._instance.renames), line_map=line_map)
        return self._provenance

    def result(self) -> TransformResult:
        """The `TransformResult` (with its provenance)."""
        return TransformResult(
            code=self.code, name=self.name, kind=self.kind, provenance=self.provenance()
        )


def apply_transform_lazily(
    transform: type[Transform] | str, code: str, *, seed: int, **options: Any
) -> LazyResult | None:
    """`apply_transform`, with the provenance worked out only when asked for (see
    `LazyResult`); None exactly when `apply_transform` gives None."""
    cls = get_transform(transform) if isinstance(transform, str) else transform
    wrapper = analysed(code)
    if wrapper is None:
        return None
    if cls.kind == "equivalent" and ModuleInfo.of(wrapper).names.dynamic:
        # `locals()`, `eval`, frames...: adding, removing or renaming a variable could be seen.
        return None
    instance = cls(random.Random(seed), **options)
    if not instance.prepare(wrapper):
        return None
    try:
        result = wrapper.visit(instance)
    except (cst.CSTValidationError, cst.CSTLogicError) as exc:
        warnings.warn(
            f"{cls.name} built an invalid tree ({exc}); dropped", TransformBugWarning, stacklevel=3
        )
        return None
    # The code and the statements' positions (most results a generator builds are kept,
    # and their line maps read those positions) from one printing.
    new_code, positions = printed_statement_positions(result)
    if new_code == code:  # `wrapper.module` prints as `code`: LibCST round-trips exactly
        return None
    if (
        cls.kind == "equivalent"
        and cls.family != "distractor"
        and longest_line(new_code) > max(LINE_LIMIT, longest_line(code))
    ):
        return None  # nobody writes `d[k] = (d[k] if k in d else 0) + 1` on 101 columns
    try:
        compile(new_code, "<variant>", "exec", dont_inherit=True)
    except SyntaxError as exc:
        warnings.warn(
            f"{cls.name} produced code that does not compile ({exc.msg}); dropped",
            TransformBugWarning,
            stacklevel=3,
        )
        return None
    return LazyResult(new_code, instance, wrapper, result, positions)


def printed_with_positions(module: cst.Module) -> tuple[str, Mapping[cst.CSTNode, CodeRange]]:
    """`module.code` and `PositionProvider`'s position of every node, from one printing.

    Both print the whole tree (the costly part of applying a transform after the analysis);
    this prints once, with LibCST's own position-recording printer state, so the code and
    the positions are exactly those of `module.code` and `resolve(PositionProvider)`.
    """
    provider = PositionProvider()
    state = PositionProvidingCodegenState(
        default_indent=module.default_indent,
        default_newline=module.default_newline,
        provider=provider,
    )
    module._codegen(state)
    positions = cast(Mapping[cst.CSTNode, CodeRange], provider._computed)
    return "".join(state.tokens), positions


#: The nodes whose positions a line map reads (`LINE_NODES`) and those their positions are
#: taken from (a compound statement ends where its body, last clause or handler ends; a
#: statement line where its last small statement does; a block spans its statements; an
#: import where its last name or closing parenthesis does).
_STATEMENT_LEVEL: tuple[type[cst.CSTNode], ...] = (
    cst.ImportAlias,
    cst.ImportStar,
    cst.RightParen,
    cst.BaseStatement,
    cst.BaseSmallStatement,
    cst.BaseSuite,
    cst.ExceptHandler,
    cst.ExceptStarHandler,
    cst.Else,
    cst.Finally,
    cst.MatchCase,
)
_STATEMENT_TYPES: dict[type, bool] = {}
_NO_RECORD = contextlib.nullcontext()


def _statement_level(kind: type) -> bool:
    found = _STATEMENT_TYPES.get(kind)
    if found is None:
        found = _STATEMENT_TYPES[kind] = issubclass(kind, _STATEMENT_LEVEL)
    return found


class _StatementPositions(PositionProvidingCodegenState):
    """LibCST's position-recording printer state, recording statement-level nodes only.

    Recording every node's position is most of the cost of a position-recording printing;
    a line map reads the positions of statements only. Each statement-level node is
    recorded exactly as `PositionProvidingCodegenState` records it (the nodes a statement's
    position is taken from are statement-level too), so those positions are the same.
    """

    def _update_position(self, value: str) -> None:
        if "\n" in value or "\r" in value:
            super()._update_position(value)
        else:
            self.column += len(value)

    def before_codegen(self, node: cst.CSTNode) -> None:
        if _statement_level(type(node)):
            super().before_codegen(node)

    def after_codegen(self, node: cst.CSTNode) -> None:
        if _statement_level(type(node)):
            super().after_codegen(node)

    def record_syntactic_position(  # type: ignore[override]
        self,
        node: cst.CSTNode,
        *,
        start_node: cst.CSTNode | None = None,
        end_node: cst.CSTNode | None = None,
    ) -> contextlib.AbstractContextManager[None]:
        if not _statement_level(type(node)):
            return _NO_RECORD
        return super().record_syntactic_position(node, start_node=start_node, end_node=end_node)


def statement_positions(module: cst.Module) -> Mapping[cst.CSTNode, CodeRange]:
    """`PositionProvider`'s position of every statement-level node of `module` (every
    `LINE_NODES` node among them), from one printing that records no other node (a
    differential test compares them with `printed_with_positions`)."""
    return printed_statement_positions(module)[1]


def printed_statement_positions(
    module: cst.Module,
) -> tuple[str, Mapping[cst.CSTNode, CodeRange]]:
    """`module.code` and `statement_positions(module)`, from one printing."""
    provider = PositionProvider()
    state = _StatementPositions(
        default_indent=module.default_indent,
        default_newline=module.default_newline,
        provider=provider,
    )
    try:
        module._codegen(state)
    except KeyError:  # a position taken from a node not recorded: LibCST changed; record all
        return printed_with_positions(module)
    return "".join(state.tokens), cast(Mapping[cst.CSTNode, CodeRange], provider._computed)


_POSITIONS: OrderedDict[int, tuple[MetadataWrapper, Mapping[cst.CSTNode, CodeRange]]] = (
    OrderedDict()
)
_POSITIONS_LIMIT = 32


def _source_positions(wrapper: MetadataWrapper) -> Mapping[cst.CSTNode, CodeRange]:
    """`wrapper.resolve(PositionProvider)`, from one printing (`resolve` adds a traversal
    of the whole tree that computes nothing), kept for the latest few wrappers: the results
    of a chain's step share their input's."""
    entry = _POSITIONS.get(id(wrapper))
    if entry is not None and entry[0] is wrapper:
        _POSITIONS.move_to_end(id(wrapper))
        return entry[1]
    positions = statement_positions(wrapper.module)
    _POSITIONS[id(wrapper)] = (wrapper, positions)
    while len(_POSITIONS) > _POSITIONS_LIMIT:
        _POSITIONS.popitem(last=False)
    return positions


_ANALYSED: OrderedDict[str, MetadataWrapper | None] = OrderedDict()
_ANALYSED_LIMIT = 32


def analysed(code: str) -> MetadataWrapper | None:
    """The parsed, metadata-wrapped module of `code`, shared by every transform applied to
    the same code (with its `ModuleInfo.of` analysis); None when `code` does not parse.

    Transforms never change the tree they visit (LibCST trees are immutable; a transform
    returns a new one), so one wrapper serves them all. The latest few codes are kept: a
    variant generator tries many transforms on the original, then on each intermediate.
    """
    if code in _ANALYSED:
        _ANALYSED.move_to_end(code)
        return _ANALYSED[code]
    try:
        # The tree is fresh and never changed in place, so the wrapper need not copy it.
        module = cst.parse_module(code)
        wrapper: MetadataWrapper | None = MetadataWrapper(module, unsafe_skip_copy=True)
    except (cst.ParserSyntaxError, RecursionError, ValueError):
        wrapper = None
    _ANALYSED[code] = wrapper
    while len(_ANALYSED) > _ANALYSED_LIMIT:
        _ANALYSED.popitem(last=False)
    return wrapper


def compose_provenance(first: Provenance, second: Provenance) -> Provenance:
    """The provenance of applying the transform of `first`, then that of `second`.

    Renames chain (a -> b then b -> c gives a -> c; a rename that is undone is dropped); a
    rename by `second` of a name `first` did not produce is kept as is. Lines map through
    both line maps; an original line whose lines `second` does not map is dropped.
    """
    renames: dict[str, str] = {}
    produced = set(first.renames.values())
    for old, mid in first.renames.items():
        renames[old] = second.renames.get(mid, mid)
    for old, new in second.renames.items():
        if old not in produced and old not in renames:
            renames[old] = new
    renames = {old: new for old, new in renames.items() if old != new}
    line_map: dict[int, list[int]] = {}
    for line, middle in first.line_map.items():
        targets = sorted({t for m in middle for t in second.line_map.get(m, [])})
        if targets:
            line_map[line] = targets
    return Provenance(renames=renames, line_map=line_map)


def all_transforms(
    kind: Kind | None = None, *, families: Iterable[Family] | None = None
) -> list[type[Transform]]:
    """Every registered transform, in a stable order.

    Args:
        kind: only transforms of this kind ("equivalent" or "mutant").
        families: only transforms of these families.
    """
    from transforms._registry import ALL_TRANSFORMS  # the registry imports every transform

    wanted = None if families is None else set(families)
    return [
        t
        for t in ALL_TRANSFORMS
        if (kind is None or t.kind == kind) and (wanted is None or t.family in wanted)
    ]


def get_transform(name: str) -> type[Transform]:
    """The transform registered as `name`.

    Raises:
        KeyError: no transform has that name; the message lists the known names.
    """
    for transform in all_transforms():
        if transform.name == name:
            return transform
    known = ", ".join(t.name for t in all_transforms())
    raise KeyError(f"unknown transform {name!r}; known transforms: {known}")

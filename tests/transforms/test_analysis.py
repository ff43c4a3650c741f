"""The shared analysis's shortcuts give what LibCST and plain walks give."""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Mapping
from typing import Any

import libcst as cst
from libcst.metadata import GlobalScope, MetadataWrapper, ScopeProvider
from transform_testing import code

from core_bench.datasets import load_dataset
from transforms import _analysis, _base
from transforms._analysis import ModuleInfo, children
from transforms._idioms_common import Kinds

SOURCE = code(
    """
    LIMIT = 3

    class Box:
        def put(self, items):
            def key(x):
                return -x
            return sorted(items, key=key)

    def f(text, n):
        def helper(c):
            return c.upper() if c.isalpha() else c
        out = ''
        for i, c in enumerate(text):
            try:
                out += helper(c)
            except ValueError:
                pass
            else:
                continue
            finally:
                n -= 1
        while n > 0:
            n -= 1
        else:
            out = out + 'x'
        match n:
            case 0:
                return out
            case _:
                return [y for y in out if y != ' ']  # a comment
    """
)


def _all_nodes(root: cst.CSTNode) -> list[cst.CSTNode]:
    out = [root]
    for child in root.children:
        out.extend(_all_nodes(child))
    return out


def test_children_are_libcst_children_listed_once() -> None:
    module = cst.parse_module(SOURCE)
    for node in _all_nodes(module):
        first = children(node)
        assert list(first) == list(node.children)
        assert children(node) is first


def _problems(limit: int) -> list[tuple[str, str]]:
    """(code, one call) of the first `limit` CRUXEval problems when the dataset is given,
    else of the bundled problems (a fresh checkout has those)."""
    dataset = os.environ.get("CORE_BENCH_CRUXEVAL")
    if dataset:
        with open(dataset, encoding="utf-8") as fh:
            rows = [json.loads(line) for line in fh if line.strip()][:limit]
        return [(row["code"], f"f({row['input']})") for row in rows]
    problems = [row.problem for row in load_dataset("bundled").rows][:limit]
    return [(problem.code, problem.calls[0]) for problem in problems]


def _sources(limit: int) -> list[str]:
    """SOURCE, NAMES and the code of the first `limit` problems (see `_problems`)."""
    return [SOURCE, NAMES, *(code for code, _ in _problems(limit))]


@functools.cache
def _sources_and_variants(limit: int) -> list[cst.Module]:
    """SOURCE and the first `limit` CRUXEval problems (when the dataset is given), each with
    every transform's result on it (trees that transforms built, not only parsed ones)."""
    sources = _sources(limit)
    trees: list[cst.Module] = []
    for source in sources:
        trees.append(cst.parse_module(source))
        for transform in _base.all_transforms():
            result = _base.apply_transform_lazily(transform, source, seed=1)
            if result is not None:
                trees.append(result._tree)
    return trees


def test_children_read_from_fields_are_those_libcst_lists() -> None:
    for module in _sources_and_variants(25):
        for node in _all_nodes(module):
            ours, theirs = _analysis._fields_children(node), node.children
            assert len(ours) == len(theirs)
            assert all(a is b for a, b in zip(ours, theirs, strict=True))


def test_statement_positions_are_those_of_the_full_printing() -> None:
    trees = _sources_and_variants(25)
    for module in trees:
        full = _base.printed_with_positions(module)[1]
        expected = {n: r for n, r in full.items() if _base._statement_level(type(n))}
        assert dict(_base.statement_positions(module)) == expected
        assert any(isinstance(n, _base.LINE_NODES) for n in expected)
        code, positions = _base.printed_statement_positions(module)
        assert code == module.code
        assert dict(positions) == expected


def test_lazy_results_give_the_provenance_of_apply_transform() -> None:
    """The line map from the positions kept from the printing of the result is the one
    worked out from a fresh printing."""
    checked = 0
    for source in _sources(25):
        for transform in _base.all_transforms():
            lazy = _base.apply_transform_lazily(transform, source, seed=2)
            if lazy is None:
                continue
            fresh = _base.LazyResult(lazy.code, lazy._instance, lazy._wrapper, lazy._tree)
            assert lazy.provenance() == fresh.provenance()
            checked += 1
    assert checked > 200


def _in_class_body(node: cst.CSTNode, ancestors: list[cst.CSTNode]) -> bool:
    """Whether a class body holds `node` with no method body in between (a method's body
    and parameters are a function's)."""
    child = node
    for ancestor in ancestors:
        if isinstance(ancestor, cst.FunctionDef) and child in (ancestor.body, ancestor.params):
            return False
        if isinstance(ancestor, cst.ClassDef):
            return True
        child = ancestor
    return False


def test_enclosing_function_and_in_class_are_those_of_the_ancestors() -> None:
    info = ModuleInfo(MetadataWrapper(cst.parse_module(SOURCE)))
    functions = 0
    for node in info.nodes:
        ancestors = list(info.ancestors(node))
        expected = next((a for a in ancestors if isinstance(a, cst.FunctionDef)), None)
        assert info.enclosing_function(node) is expected
        assert info.in_class(node) == _in_class_body(node, ancestors)
        functions += expected is not None
    assert functions > 100
    for node in info.nodes:
        assert all(info.parent(child) is node for child in node.children)
    assert info.parent(info.module) is None
    stranger = cst.parse_expression("x + 1")
    assert info.enclosing_function(stranger) is None
    assert not info.in_class(stranger)
    assert info.parent(stranger) is None and list(info.ancestors(stranger)) == []


def test_line_nodes_skip_only_what_holds_no_statement() -> None:
    module = cst.parse_module(SOURCE)
    everything = [n for n in _all_nodes(module) if isinstance(n, _base.LINE_NODES)]
    assert list(_base._line_nodes(module)) == everything
    assert len(everything) > 20


def test_derived_figures_are_computed_once_per_analysis() -> None:
    calls: list[ModuleInfo] = []

    def count_names(info: ModuleInfo) -> int:
        calls.append(info)
        return len(info.nodes)

    info = ModuleInfo(MetadataWrapper(cst.parse_module(SOURCE)))
    assert info.derived(count_names) == info.derived(count_names) == len(info.nodes)
    assert calls == [info]


def test_kinds_sharing_a_function_s_evidence_answer_as_a_fresh_one() -> None:
    source = code(
        """
        def f(s, items):
            t = s[1:]
            t = t + 'a'
            n = len(items)
            for x in items:
                n += x
            return t.upper(), n, items.count(1)
        """
    )
    wrapper = _base.analysed(source)
    assert wrapper is not None
    info = ModuleInfo.of(wrapper)
    func = next(n for n in info.nodes if isinstance(n, cst.FunctionDef))
    names = ["s", "t", "n", "items", "x"]
    first = [Kinds(func, info).of_name(name) for name in names]
    shared = [Kinds(func, info).of_name(name) for name in names]
    _analysis._SHARED_INFOS.clear()
    fresh_info = ModuleInfo(MetadataWrapper(cst.parse_module(source)))
    fresh_func = next(n for n in fresh_info.nodes if isinstance(n, cst.FunctionDef))
    fresh = [Kinds(fresh_func, fresh_info).of_name(name) for name in names]
    assert first == shared == fresh
    assert any(first)


def test_one_printing_gives_the_code_and_the_positions_of_libcst() -> None:
    module = cst.parse_module(SOURCE).visit(_Upper())
    code, positions = _base.printed_with_positions(module)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(cst.metadata.PositionProvider)
    assert code == module.code != SOURCE
    assert dict(positions) == dict(expected)
    assert len(positions) == len(_all_nodes(module))


class _Upper(cst.CSTTransformer):
    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        return updated_node.with_changes(value=updated_node.value.upper())


class _ReferenceNames(cst.CSTVisitor):
    """The plain visitor `name_index` replaced: a differential reference."""

    def __init__(self) -> None:
        super().__init__()
        self.references: list[cst.Name] = []
        self.identifiers: set[str] = set()
        self.declared: set[str] = set()
        self.skip: set[int] = set()
        self.imports = 0

    def visit_Name(self, node: cst.Name) -> None:
        self.identifiers.add(node.value)
        if id(node) not in self.skip and not self.imports:
            self.references.append(node)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.skip.add(id(node.attr))

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self.skip.add(id(node.keyword))

    def visit_Import(self, node: cst.Import) -> None:
        self.imports += 1

    def leave_Import(self, original_node: cst.Import) -> None:
        self.imports -= 1

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.imports += 1

    def leave_ImportFrom(self, original_node: cst.ImportFrom) -> None:
        self.imports -= 1

    def visit_Global(self, node: cst.Global) -> None:
        for item in node.names:
            self.declared.add(item.name.value)
            self.skip.add(id(item.name))

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        self.visit_Global(cst.Global(names=node.names))


NAMES = code(
    """
    import os.path as osp
    from collections import Counter as C, deque

    def f(text, n=3):
        global LIMIT
        def g():
            nonlocal n
            n = int(text, base=10)
            return osp.join(text, str(n))
        return sorted(C(text).items(), key=lambda kv: (-kv[1], kv[0])), f"{n=}", g()
    """
)


def test_name_index_finds_what_a_visitor_finds() -> None:
    sources = _sources(200)
    for source in sources:
        module = cst.parse_module(source)
        index = _analysis.name_index(module)
        reference = _ReferenceNames()
        module.visit(reference)
        assert index.references == reference.references
        assert index.identifiers == reference.identifiers
        assert index.declared == reference.declared
    names = _analysis.name_index(cst.parse_module(NAMES))
    assert names.dynamic and names.declared == {"LIMIT", "n"}
    assert "osp" not in [n.value for n in names.references[:3]]


def _scope_description(module: cst.Module, scopes: Mapping[cst.CSTNode, Any]) -> list[Any]:
    """Every node's scope, and every scope's kind, parent, assignments and accesses, with
    nodes and scopes named by their position in source order (so two resolutions of one
    tree compare equal exactly when they build the same scopes)."""
    nodes = _all_nodes(module)
    order = {id(n): i for i, n in enumerate(nodes)}
    seen: dict[int, int] = {}
    found: list[Any] = []

    def number(scope: Any) -> int | None:
        if scope is None:
            return None
        if id(scope) not in seen:
            seen[id(scope)] = len(seen)
            found.append(scope)
        return seen[id(scope)]

    where = [(order[id(n)], number(scopes[n])) for n in nodes if n in scopes]
    described = []
    for scope in found:  # grows while parents are numbered
        assignments = sorted(
            (a.name, order.get(id(getattr(a, "node", None)), -1)) for a in scope.assignments
        )
        accesses = sorted(
            (
                a.node.value if isinstance(a.node, cst.Name) else type(a.node).__name__,
                order[id(a.node)],
                sorted(order.get(id(getattr(r, "node", None)), -1) for r in a.referents),
            )
            for a in scope.accesses
        )
        parent = None if isinstance(scope, GlobalScope) else number(scope.parent)
        described.append((type(scope).__name__, parent, assignments, accesses))
    return [len(scopes), where, described]


def test_resolved_scopes_are_those_of_libcst() -> None:
    sources = _sources(200)
    for source in sources:
        module = cst.parse_module(source)
        ours = _analysis.resolve_scopes(MetadataWrapper(module, unsafe_skip_copy=True))
        libcst_s = MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)
        assert set(ours) == set(libcst_s)
        assert _scope_description(module, ours) == _scope_description(module, libcst_s)
    wrapper = MetadataWrapper(cst.parse_module(SOURCE))
    assert ModuleInfo.of(wrapper).scopes.keys() == wrapper.resolve(ScopeProvider).keys()


def test_has_comments_is_whether_a_walk_meets_a_comment() -> None:
    """`has_comments` is worked out once per node, bottom-up; it answers what a walk of
    the node's subtree finds, whichever node is asked first."""
    asked = 0
    for module in _sources_and_variants(25):
        nodes = _all_nodes(module)
        for node in [*reversed(nodes), *nodes]:
            expected = any(isinstance(n, cst.Comment) for n in _all_nodes(node))
            assert _analysis.has_comments(node) == expected
            asked += expected
    assert asked > 0


class _Recorder(cst.CSTVisitor):
    """Logs every call LibCST's traversal makes; declines to enter `Call` nodes (so a
    skipped subtree is part of what is compared)."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[tuple[str, int, str]] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.log.append(("visit", id(node), ""))
        return not isinstance(node, cst.Call)

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self.log.append(("leave", id(original_node), ""))

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        self.log.append(("visit_attribute", id(node), attribute))

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        self.log.append(("leave_attribute", id(original_node), attribute))


def test_visit_in_place_makes_libcsts_calls_in_its_order() -> None:
    for module in _sources_and_variants(25):
        theirs, ours = _Recorder(), _Recorder()
        module.visit(theirs)
        _analysis.visit_in_place(module, ours)
        assert ours.log == theirs.log


def test_locals_and_captured_names_kept_per_function_are_those_worked_out_afresh() -> None:
    asked = 0
    for module in _sources_and_variants(25):
        info = ModuleInfo(MetadataWrapper(module, unsafe_skip_copy=True))
        for func in (n for n in info.nodes if isinstance(n, cst.FunctionDef)):
            for _ in range(2):
                got = info.locals_of(func)
                got.add("mutated by the caller")  # a copy: the kept set is not changed
                assert info.locals_of(func) == info._find_locals(func)
                assert info.captured_names(func) == info._find_captured(func)
            asked += bool(info.captured_names(func))
    assert asked > 0


def test_figures_derived_with_an_argument_are_computed_once_per_argument() -> None:
    calls: list[tuple[ModuleInfo, int]] = []

    def first_nodes(info: ModuleInfo, n: int) -> int:
        calls.append((info, n))
        return len(info.nodes[:n])

    info = ModuleInfo(MetadataWrapper(cst.parse_module(SOURCE)))
    assert info.derived_with(first_nodes, 3) == info.derived_with(first_nodes, 3) == 3
    assert info.derived_with(first_nodes, 1) == 1
    assert calls == [(info, 3), (info, 1)]


def test_renamings_sharing_names_and_roles_give_the_results_of_fresh_ones() -> None:
    # The renaming styles tried on one code share its renameable names and guessed roles;
    # each result must be what the style gives on a fresh analysis, whichever ran before.
    sources: list[tuple[str, tuple[str, ...]]] = [(SOURCE, ("f('ab', 2)",)), (NAMES, ())]
    sources += [(code, (call,)) for code, call in _problems(60)]
    styles = _base.all_transforms(families=["rename"])
    assert len(styles) >= 4
    orders = [styles, styles[::-1]]
    runs = [
        (order, source, calls, params)
        for source, calls in sources
        for order in orders
        for params in (True, False)
    ]
    shared: list[Any] = []
    for order, source, calls, params in runs:
        for style in order:
            shared.append(
                _base.apply_transform(style, source, seed=2, calls=calls, rename_params=params)
            )
    fresh: list[Any] = []
    for order, source, calls, params in runs:
        for style in order:
            _base._ANALYSED.clear()
            _analysis._SHARED_INFOS.clear()
            fresh.append(
                _base.apply_transform(style, source, seed=2, calls=calls, rename_params=params)
            )
    assert sum(r is not None for r in shared) >= 8
    assert shared == fresh


class _Respell(cst.CSTTransformer):
    """The plain way: a copy of the tree with the listed names changed."""

    def __init__(self, spellings: Mapping[int, str]) -> None:
        super().__init__()
        self.spellings = spellings

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        spelling = self.spellings.get(id(original_node))
        return updated_node if spelling is None else updated_node.with_changes(value=spelling)


def test_code_respelled_is_the_code_of_a_respelled_copy() -> None:
    checked = 0
    for source in _sources(150):
        module = cst.parse_module(source)
        info = ModuleInfo(MetadataWrapper(module, unsafe_skip_copy=True))
        for node in info.nodes:
            if not isinstance(node, cst.BaseExpression | cst.BaseStatement):
                continue
            names = [n for n in _analysis.walk(node) if isinstance(n, cst.Name)]
            for spellings in (
                {id(n): "_" for n in names},
                {id(n): f"{n.value}_x" for n in names[::2]},
                {id(n): "x" for n in names[1::2]},  # a name others may already have
            ):
                expected = module.code_for_node(node.visit(_Respell(spellings)))
                assert _analysis.code_respelled(module, node, spellings) == expected
                checked += 1
    assert checked > 1000


def test_names_bound_before_a_statement_are_those_worked_out_afresh() -> None:
    # A function's deleted names are kept per analysis; every statement asks.
    checked = 0
    for source in [*_sources(150), "def f(a, b):\n    del a\n    c = 1\n    del b, c\n"]:
        module = cst.parse_module(source)
        shared = ModuleInfo(MetadataWrapper(module, unsafe_skip_copy=True))
        for node in shared.nodes:
            func = shared.enclosing_function(node)
            if func is None or not isinstance(node, cst.BaseStatement):
                continue
            fresh = ModuleInfo(MetadataWrapper(module, unsafe_skip_copy=True))
            expected = _analysis.bound_before(node, func, fresh)
            assert _analysis.bound_before(node, func, shared) == expected
            checked += 1
    assert checked > 500
    module = cst.parse_module("def f(a, b):\n    del a\n    c = 1\n    del b, c\n    return 0\n")
    info = ModuleInfo(MetadataWrapper(module, unsafe_skip_copy=True))
    func = module.body[0]
    assert isinstance(func, cst.FunctionDef) and isinstance(func.body, cst.IndentedBlock)
    assert _analysis.bound_before(func.body.body[-1], func, info) == set()


def test_walk_gives_every_node_in_source_order_before_and_after_children_are_kept() -> None:
    for source in _sources(40):
        module = cst.parse_module(source)
        plain: list[cst.CSTNode] = []
        stack: list[cst.CSTNode] = [module]
        while stack:
            node = stack.pop()
            plain.append(node)
            stack.extend(reversed(node.children))
        for _ in range(2):  # the first walk lists children, the second reads them kept
            walked = list(_analysis.walk(module))
            assert len(walked) == len(plain)
            assert all(a is b for a, b in zip(walked, plain, strict=True))

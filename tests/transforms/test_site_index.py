"""Site searches that visit only some nodes find exactly what a search of every node finds.

An expression idiom declares the node types its `match` accepts (`node_types`) and its site
search visits only the nodes of those types, from the analysis's index by type
(`ModuleInfo.of_types`). These tests compare, for every expression idiom, the sites found that
way with the sites found by offering `match` every node, on the bundled problems and every
transform's result on them (the CRUXEval-wide check is slow). An idiom that forgets to declare
a type it matches fails here rather than silently losing those sites.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any
from unittest import mock

import libcst as cst
import pytest
from cruxeval_generation import Generation

from core_bench.datasets import load_dataset
from transforms import _analysis, _augassign, _helpers, _idioms_common, _rename, all_transforms
from transforms._analysis import ModuleInfo, walk
from transforms._base import analysed, apply_transform_lazily
from transforms._idioms_common import function_sites
from transforms._idioms_methods import _ExpressionIdiom
from transforms._rename import _Rename

_WITH_VARIANTS = 20


def _expression_idioms() -> list[type[_ExpressionIdiom]]:
    return [t for t in all_transforms() if issubclass(t, _ExpressionIdiom)]


@functools.cache
def _bundled_codes() -> tuple[str, ...]:
    """The bundled problems' code, and every transform's result on the first few (code that
    transforms wrote, where idioms find other sites)."""
    codes: list[str] = []
    for n, row in enumerate(load_dataset("bundled").rows):
        codes.append(row.problem.code)
        if n >= _WITH_VARIANTS:
            continue
        for transform in all_transforms():
            result = apply_transform_lazily(transform, row.problem.code, seed=1)
            if result is not None:
                codes.append(result.code)
    return tuple(dict.fromkeys(codes))


def _same(a: object, b: object) -> bool:
    """Equal sites: the same nodes of the tree, equal values, and nodes that a search built
    (`cst.Integer("0")`) equal in structure."""
    if isinstance(a, cst.CSTNode) and isinstance(b, cst.CSTNode):
        return a is b or a.deep_equals(b)
    if isinstance(a, tuple | list) and isinstance(b, tuple | list):
        return type(a) is type(b) and len(a) == len(b) and all(map(_same, a, b))
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return type(a) is type(b) and all(
            _same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a)
        )
    return a == b


def _every_node(
    info: ModuleInfo, types: tuple[type[cst.CSTNode], ...] | None = None
) -> Iterator[tuple[cst.CSTNode, cst.FunctionDef]]:
    """`function_nodes` ignoring `types`: the search of every node."""
    return _FUNCTION_NODES(info)


_FUNCTION_NODES = _idioms_common.function_nodes


def _mismatches(codes: Sequence[str]) -> list[str]:
    """For every code: a node an expression idiom's `match` accepts outside its
    `node_types`, and the idioms whose site search by type finds other sites than the search
    of every node."""
    problems: list[str] = []
    idioms = all_transforms(families=("idiom",))
    for code in codes:
        wrapper = analysed(code)
        if wrapper is None:
            continue
        info = ModuleInfo.of(wrapper)
        for cls in _expression_idioms():
            for node, _ in function_sites(info, cls(random.Random(0))._matched):
                if not isinstance(node, cls.node_types):
                    problems.append(f"{cls.name} matches a {type(node).__name__}:\n{code}")
        for cls in idioms:
            typed = cls(random.Random(0)).find_sites(info)
            with mock.patch.object(_idioms_common, "function_nodes", _every_node):
                full = cls(random.Random(0)).find_sites(info)
            if len(typed) != len(full) or not all(map(_same, typed, full)):
                problems.append(f"{cls.name} finds other sites by type:\n{code}")
    return problems


def test_of_types_lists_the_nodes_of_those_types_in_source_order() -> None:
    kinds: list[tuple[type[cst.CSTNode], ...]] = [
        (cst.Call,),
        (cst.Comparison, cst.Name, cst.UnaryOperation),
        (cst.BaseCompoundStatement,),  # a base class: every type deriving from it
        (cst.BaseExpression, cst.SimpleStatementLine),
        (cst.Match,),  # absent from most codes
    ]
    for code in _bundled_codes()[:60]:
        wrapper = analysed(code)
        assert wrapper is not None
        info = ModuleInfo.of(wrapper)
        for types in kinds:
            expected = [n for n in info.nodes if isinstance(n, types)]
            found = info.of_types(types)
            assert list(found) == expected
            assert info.of_types(types) is found  # once per analysis


def test_every_expression_idiom_declares_the_node_types_it_matches() -> None:
    idioms = _expression_idioms()
    assert len(idioms) >= 20
    for cls in idioms:
        assert cls.node_types != _ExpressionIdiom.node_types, cls.name
        assert all(issubclass(t, cst.CSTNode) for t in cls.node_types), cls.name


def test_typed_site_search_finds_the_sites_of_the_search_of_every_node() -> None:
    codes = _bundled_codes()
    assert len(codes) > 400
    assert _mismatches(codes) == []


def test_an_undeclared_type_fails_the_check() -> None:
    """The check catches an idiom whose `match` accepts a type it did not declare."""

    class Undeclared(_ExpressionIdiom):
        name = "test_undeclared"
        description = "accepts names, declares calls"
        node_types = (cst.Call,)

        def match(self, node: cst.CSTNode, kinds: object) -> object:
            return True if isinstance(node, cst.Name) and node.value == "x" else None

    code = "def f(x):\n    return len(x)\n"
    wrapper = analysed(code)
    assert wrapper is not None
    info = ModuleInfo.of(wrapper)
    full = function_sites(info, Undeclared(random.Random(0))._matched)
    typed = function_sites(info, Undeclared(random.Random(0))._matched, Undeclared.node_types)
    assert len(full) == 2 and typed == []
    with mock.patch.object(_idioms_common, "function_nodes", _every_node):
        patched = function_sites(info, Undeclared(random.Random(0))._matched, (cst.Call,))
    assert len(patched) == 2  # what the comparison of searches offers every node to


@pytest.mark.slow
def test_typed_site_search_on_every_cruxeval_problem_and_variant(
    cruxeval_generation: Generation,
) -> None:
    path = os.environ.get("CORE_BENCH_CRUXEVAL")
    assert path
    rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()]
    codes = [row["code"] for row in rows]
    codes += [v.code for r in cruxeval_generation.reports for v in r.variants]
    assert _mismatches(list(dict.fromkeys(codes))) == []


def test_idioms_skip_the_modules_touches_bytes_and_the_names_index_skip() -> None:
    """Whether the idioms look at a module, read from the analysis, is what walking the
    module for bytes (`touches_bytes`) and its `global`/`match` statements say."""
    extra = [
        "def f(s):\n    return s.encode()\n",
        "def f(s):\n    return s + b'x'\n",
        "def f(s):\n    return s + B'x' + rb'y'\n",
        "def f(s):\n    return bytes(s)\n",
        "def f(s):\n    global g\n    return s\n",
        "def f(s):\n    match s:\n        case 1:\n            return 2\n",
        "def f(s):\n    return s + 'b' + u'x'\n",
    ]
    answers = set()
    for code in [*_bundled_codes()[:100], *extra]:
        wrapper = analysed(code)
        assert wrapper is not None
        info = ModuleInfo.of(wrapper)
        expected = not (
            _idioms_common.touches_bytes(info.module) or info.names.declared or info.names.has_match
        )
        assert _idioms_common._idiom_module(info) == expected, code
        answers.add(expected)
    assert answers == {True, False}


def test_a_module_without_global_statements_has_none_in_any_function() -> None:
    for code in [*_bundled_codes()[:100], "def f(s):\n    def g():\n        nonlocal s\n"]:
        wrapper = analysed(code)
        assert wrapper is not None
        info = ModuleInfo.of(wrapper)
        for node in info.of_types((cst.FunctionDef,)):
            walked = any(isinstance(n, cst.Global | cst.Nonlocal) for n in walk(node))
            assert info.has_global_or_nonlocal(node) == walked


def test_a_visit_that_enters_only_what_changes_gives_the_full_visit_s_result() -> None:
    """Transforms that limit their visit (`Transform.limit_visit`: site-local ones, the
    renamings, helper extraction) give the code and line map a visit of every node gives."""
    commented = (
        "def f(text, n):\n"
        "    # count `text` chars; n is the limit\n"
        "    out = [c for c in text if c.isalpha()]  # keep letters of text\n"
        "    return out[:n] + [len(text) * 2 + n]\n",
        ("f('ab1c', 2)",),
    )
    rows = [(row.problem.code, tuple(row.problem.calls)) for row in load_dataset("bundled").rows]
    checked: Counter[str] = Counter()
    for source, calls in [commented, *rows[:60]]:
        wrapper = analysed(source)
        assert wrapper is not None
        for cls in all_transforms():
            options: dict[str, Any] = {"calls": calls} if cls.uses_calls else {}
            partial = cls(random.Random(3), **options)
            if not partial.prepare(wrapper) or partial._visited is None:
                continue
            full = cls(random.Random(3), **options)
            assert full.prepare(wrapper)
            full._visited = None
            ours, theirs = wrapper.visit(partial), wrapper.visit(full)
            assert ours.code == theirs.code, cls.name
            assert partial.line_map(wrapper, ours) == full.line_map(wrapper, theirs), cls.name
            checked[cls.name] += 1
    assert checked["extract_helper_expr"] > 5
    assert sum(checked[t.name] for t in all_transforms() if issubclass(t, _Rename)) > 100
    assert len(checked) > 30


def test_augmented_assignment_sites_by_type_are_those_of_every_node() -> None:
    """The sites of both augmented-assignment rewrites, found among the nodes of their type
    with the locals' types shared by the analysis, are those a walk of every node finds with
    the types worked out afresh."""
    checked = 0
    for code in [*_bundled_codes()[:150], "def f(a):\n    a += 1\n    b = 2\n    b = b * a\n"]:
        wrapper = analysed(code)
        assert wrapper is not None
        info = ModuleInfo.of(wrapper)
        for cls in (_augassign.AugAssignExpand, _augassign.AugAssignContract):
            transform = cls(random.Random(0))
            name_of, kind = transform.site_name, cls.site_type
            types = _augassign._function_types(info)
            expected = [
                node
                for node in info.nodes
                if (name := name_of(node)) is not None
                and (func := info.enclosing_function(node)) is not None
                and _augassign.in_function(node, info)
                and id(func) in types
                and _augassign._immutable(types[id(func)].tags.get(name))
            ]
            assert _augassign._immutable_sites(info, name_of, kind) == expected
            assert transform.find_sites(info) == expected
            checked += len(expected)
    assert checked > 20


def test_function_members_and_blocks_by_type_are_those_of_every_node() -> None:
    for code in _bundled_codes()[:150]:
        wrapper = analysed(code)
        assert wrapper is not None
        info = ModuleInfo.of(wrapper)
        for kind in (cst.For, cst.While, cst.If, cst.Call, cst.BaseExpression):
            expected = [
                (n, info.enclosing_function(n))
                for n in info.nodes
                if isinstance(n, kind)
                and info.enclosing_function(n) is not None
                and not info.in_class(n)
            ]
            assert list(_analysis.function_members(info, kind)) == expected
        blocks = [
            n
            for n in info.nodes
            if isinstance(n, cst.IndentedBlock) and _analysis.in_function(n, info)
        ]
        assert list(_analysis.function_blocks(info)) == blocks


def test_called_names_read_once_are_those_read_afresh() -> None:
    for calls in (("f(1)",), ("Solution().solve([1, 2])", "g(x=1)"), ("f((",), ()):
        first = _rename._called_names(calls)
        assert first == _rename._called_names.__wrapped__(calls)
        # What is kept cannot be changed by a caller.
        assert isinstance(first, frozenset)
        assert _rename._called_names(calls) == _rename._called_names.__wrapped__(calls)
    assert _rename._called_names(("f(1)",)) == {"f"}
    assert _rename._called_names(("Solution().solve([1, 2])", "g(x=1)")) == {"Solution", "g"}
    assert _rename._called_names(("f((",)) == frozenset()


def test_the_analysis_s_nodes_are_a_walk_s_and_index_the_names_as_a_walk_does() -> None:
    for code in _bundled_codes()[:150]:
        wrapper = analysed(code)
        assert wrapper is not None
        info = ModuleInfo.of(wrapper)
        assert [id(n) for n in info.nodes] == [id(n) for n in walk(info.module)]
        assert info.names == _analysis.name_index(info.module)


def test_helper_roles_shared_per_analysis_are_those_guessed_afresh() -> None:
    rows = [(row.problem.code, tuple(row.problem.calls)) for row in load_dataset("bundled").rows]
    for source, calls in rows[:80]:
        wrapper = analysed(source)
        assert wrapper is not None
        info = ModuleInfo.of(wrapper)
        extract = _helpers.ExtractHelperExpr(random.Random(0), calls=calls)
        names = {n.value for n in info.names.references}
        fresh = _rename.guess_roles(info.module, names, calls)
        assert extract.roles(info) == fresh
        assert extract.roles(info) is extract.roles(info)  # once per analysis and calls

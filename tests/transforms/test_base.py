"""The transform API: registry, apply_transform, provenance and its composition."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tomllib
import warnings
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper
from transform_testing import code

from transforms import FAMILIES, _analysis, _base
from transforms._base import (
    Provenance,
    Transform,
    TransformBugWarning,
    TransformResult,
    all_transforms,
    apply_transform,
    compose_provenance,
    get_transform,
)

SAMPLE = code(
    """
    def f(text, n):
        count = 0
        for i in range(n):
            if text[i] == 'a':
                count += 1
        return count
    """
)


def test_registry_has_enough_transforms_of_each_kind_in_a_stable_order() -> None:
    equivalent = all_transforms("equivalent")
    mutants = all_transforms("mutant")
    assert len(equivalent) >= 14 and len(mutants) >= 4
    assert all_transforms() == equivalent + mutants
    assert [t.name for t in all_transforms()] == [t.name for t in all_transforms()]
    names = [t.name for t in all_transforms()]
    assert len(set(names)) == len(names)
    for t in all_transforms():
        assert issubclass(t, Transform) and t.description and t.kind in ("equivalent", "mutant")
        assert get_transform(t.name) is t


def test_families_are_class_attributes_and_select_transforms() -> None:
    for t in all_transforms():
        assert t.family in FAMILIES
        assert (t.family == "mutant") == (t.kind == "mutant")
    by_family = {f: {t.name for t in all_transforms(families=[f])} for f in FAMILIES}
    assert {"rename_short", "rename_descriptive"} <= by_family["rename"]
    assert {
        "dead_branch",
        "dead_assignment",
        "constant_unfold",
        "misleading_comment",
        "rename_obfuscated",
        "rename_misleading",
    } == (by_family["distractor"])
    assert {"for_to_while", "de_morgan", "guard_clause"} <= by_family["rewrite"]
    assert all_transforms("equivalent", families=["mutant"]) == []


def test_a_mutant_subclass_without_a_family_is_of_family_mutant() -> None:
    class _Plain(Transform):
        name = "plain_mutant_for_test"
        kind = "mutant"
        description = "nothing"

    assert _Plain.family == "mutant"


def test_transforms_declared_line_keeping_map_every_line_to_itself() -> None:
    samples = [
        SAMPLE,
        code(
            """
            def f(xs, k):
                out = []
                if not (k > 0 and len(xs) > 1):
                    out.append(xs[0] + 1)
                total = 0
                total = total + k
                return out, total
            """
        ),
    ]
    checked = 0
    for t in all_transforms():
        if not t.keeps_lines:
            continue
        for sample in samples:
            for seed in range(3):
                result = apply_transform(t, sample, seed=seed)
                if result is None:
                    continue
                checked += 1
                lines = sample.count("\n")
                statements = {i + 1 for i, line in enumerate(sample.splitlines()) if line.strip()}
                assert set(result.provenance.line_map) == statements, t.name
                assert all(v == [k] for k, v in result.provenance.line_map.items()), t.name
                assert result.code.count("\n") == lines, t.name
    assert checked >= 20


def test_get_transform_lists_known_names() -> None:
    with pytest.raises(KeyError) as info:
        get_transform("no_such_transform")
    assert "rename_short" in str(info.value) and "mutant_off_by_one" in str(info.value)


def test_apply_by_name_or_class_is_deterministic() -> None:
    first = apply_transform("rename_obfuscated", SAMPLE, seed=7)
    second = apply_transform(get_transform("rename_obfuscated"), SAMPLE, seed=7)
    assert isinstance(first, TransformResult) and first == second
    others = {apply_transform("rename_obfuscated", SAMPLE, seed=s).code for s in range(5)}  # type: ignore[union-attr]
    assert len(others) > 1


def test_apply_declines_on_unparsable_code() -> None:
    assert apply_transform("rename_short", "def f(:\n", seed=0) is None


def test_every_transform_is_seeded_and_returns_new_code_or_none() -> None:
    for t in all_transforms():
        result = apply_transform(t, SAMPLE, seed=3)
        again = apply_transform(t, SAMPLE, seed=3)
        assert result == again
        if result is not None:
            assert result.code != SAMPLE
            assert result.name == t.name and result.kind == t.kind
            compile(result.code, "<variant>", "exec")


class _Broken(Transform):
    name = "broken_for_test"
    kind = "equivalent"
    description = "produces code that does not compile"

    def prepare(self, wrapper: MetadataWrapper) -> bool:
        return True

    def leave_Return(self, original_node: cst.Return, updated_node: cst.Return) -> cst.Return:
        return updated_node.with_changes(value=cst.Name("yield"))


def test_code_that_does_not_compile_is_dropped_with_a_warning() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert apply_transform(_Broken, SAMPLE, seed=0) is None
    assert any(issubclass(w.category, TransformBugWarning) for w in caught)


def test_transform_rng_is_what_the_constructor_got() -> None:
    rng = random.Random(1)
    t = get_transform("flip_comparison")(rng)
    assert t.rng is rng


def test_compose_provenance() -> None:
    first = Provenance(renames={"a": "b", "x": "y"}, line_map={1: [1], 2: [2, 3], 4: [5]})
    second = Provenance(renames={"b": "c", "q": "r", "y": "x"}, line_map={1: [1], 2: [4], 3: [6]})
    composed = compose_provenance(first, second)
    # a -> b -> c; x -> y -> x is undone; q was not produced by the first step.
    assert composed.renames == {"a": "c", "q": "r"}
    # line 4 went to 5, which the second step does not map.
    assert composed.line_map == {1: [1], 2: [4, 6]}


def test_line_maps_of_a_chain_compose_through_real_transforms() -> None:
    first = apply_transform("misleading_comment", SAMPLE, seed=4)
    assert first is not None
    second = apply_transform("rename_short", first.code, seed=0)
    assert second is not None
    composed = compose_provenance(first.provenance, second.provenance)
    assert set(composed.renames) == {"text", "count"}  # `n` and `i` are short already
    original = SAMPLE.splitlines()
    final = second.code.splitlines()
    for line, targets in composed.line_map.items():
        assert len(targets) == 1
        # The same statement: its first token, renamed, starts the mapped line.
        token = original[line - 1].split()[0]
        assert final[targets[0] - 1].split()[0] == composed.renames.get(token, token)


_DIGEST_SCRIPT = """
import hashlib
from transforms._base import all_transforms, apply_transform
programs = [
    "def f(text, n):\\n    count = 0\\n    for i in range(n):\\n        if text[i] == 'a':\\n"
    "            count += 1\\n    return count\\n",
    "def f(xs):\\n    out = [x * 2 for x in xs if x]\\n    seen = {}\\n    for x in xs:\\n"
    "        seen[x] = not (x > 1 and x < 5)\\n    return out, seen\\n",
]
digest = hashlib.sha256()
for t in all_transforms():
    for program in programs:
        for seed in range(4):
            result = apply_transform(t, program, seed=seed)
            digest.update(repr((result.code, result.provenance) if result else None).encode())
print(digest.hexdigest())
"""


def test_results_do_not_depend_on_hash_randomisation() -> None:
    root = Path(__file__).resolve().parents[2]
    digests = set()
    for hash_seed in ("1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.check_output([sys.executable, "-c", _DIGEST_SCRIPT], cwd=root, env=env)
        digests.add(out.strip())
    assert len(digests) == 1


def test_equivalent_transforms_leave_dynamic_code_alone() -> None:
    source = (
        "def f(xs):\n    total = 0\n    for x in xs:\n        total += x\n    return locals()\n"
    )
    for t in all_transforms("equivalent"):
        for seed in range(3):
            assert apply_transform(t, source, seed=seed) is None, t.name
    assert any(apply_transform(t, source, seed=0) for t in all_transforms("mutant"))


def test_shared_analysis_gives_the_results_of_a_fresh_one() -> None:
    # Every transform tried in turn on one code shares one parse and analysis; each result
    # must be what the transform gives on a freshly parsed and analysed module.
    samples = [SAMPLE, SAMPLE.replace("count += 1", "count = count + len(text[:i])")]
    shared = [
        apply_transform(t, sample, seed=seed)
        for sample in samples
        for seed in range(2)
        for t in all_transforms()
    ]
    fresh = []
    for sample in samples:
        for seed in range(2):
            for t in all_transforms():
                _base._ANALYSED.clear()
                _analysis._SHARED_INFOS.clear()
                fresh.append(apply_transform(t, sample, seed=seed))
    assert sum(r is not None for r in shared) >= 30
    assert shared == fresh


def test_a_provenance_worked_out_late_is_the_one_applying_gives() -> None:
    # The variant generator asks for a result's provenance only when it keeps the variant,
    # after many other transforms were applied (and other codes analysed) in between.
    samples = [SAMPLE, SAMPLE.replace("count += 1", "count = count + len(text[:i])")]
    lazy = [
        (t, sample, _base.apply_transform_lazily(t, sample, seed=1))
        for sample in samples
        for t in all_transforms()
    ]
    for t, _, result in lazy:
        if result is not None:
            apply_transform(t, result.code, seed=2)  # analyses more codes meanwhile
    applied = 0
    for t, sample, result in reversed(lazy):
        _base._ANALYSED.clear()
        _analysis._SHARED_INFOS.clear()
        fresh = apply_transform(t, sample, seed=1)
        assert (None if result is None else result.result()) == fresh, t.name
        applied += fresh is not None
    assert applied >= 15


def test_dispatch_table_gives_the_results_of_libcst_s_dispatch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The table skips LibCST's empty stubs; LibCST's own dispatch looks every method up and
    # calls it, stubs included. Both must rewrite every sample alike.
    samples = [SAMPLE, SAMPLE.replace("count += 1", "count = count + len(text[:i])")]
    runs = [(t, sample, seed) for sample in samples for seed in range(2) for t in all_transforms()]
    tabled = [apply_transform(t, sample, seed=seed) for t, sample, seed in runs]

    def looked_up(cls: type, prefix: str, node_type: type, attribute: str = "") -> object:
        name = prefix + node_type.__name__ + ("_" + attribute if attribute else "")
        return getattr(cls, name, None)

    monkeypatch.setattr(_base, "_handler", looked_up)
    _base._ANALYSED.clear()
    _analysis._SHARED_INFOS.clear()
    plain = [apply_transform(t, sample, seed=seed) for t, sample, seed in runs]
    assert sum(r is not None for r in tabled) >= 30
    assert tabled == plain


def _dataset_sources(limit: int) -> list[str]:
    dataset = os.environ.get("CORE_BENCH_CRUXEVAL")
    if not dataset:
        return []
    with open(dataset, encoding="utf-8") as fh:
        return [json.loads(line)["code"] for line in fh if line.strip()][:limit]


def test_visits_that_skip_subtrees_give_the_full_visits_result(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A transform whose methods are all for statements skips expression subtrees, and a
    `site_local` one every subtree that does not hold its site; the result (code and
    provenance) is that of the full visit."""
    skipping = [t for t in all_transforms() if _base._statements_only(t) or t.site_local]
    names = {t.name for t in skipping}
    assert {"for_to_while", "guard_clause", "idiom_loop_sum", "idiom_startswith_slice"} <= names
    assert "mutant_off_by_one" in names
    assert not _base._statements_only(get_transform("rename_short"))
    assert not get_transform("rename_short").site_local
    sources = [
        code(
            """
            def f(xs, n):
                total = 0
                for x in xs:
                    if x > n and not x.startswith('a'):
                        total += x.count('b') * 2
                    else:
                        total -= 1
                return total
            """
        ),
        *_dataset_sources(60),
    ]
    applied = 0
    for source in sources:
        for transform in skipping:
            full_visit = type(transform.__name__, (transform,), {"site_local": False})
            for seed in (0, 1):
                skipped = apply_transform(transform, source, seed=seed)
                with monkeypatch.context() as patch:
                    patch.setattr(_base, "_statements_only", lambda cls: False)
                    full = apply_transform(full_visit, source, seed=seed)
                assert skipped == full, (transform.name, source)
                applied += full is not None
    assert applied > 0


def test_an_equivalent_transform_declines_to_write_a_line_over_the_limit() -> None:
    # Bundled cb-025 after a verbose renaming: `idiom_get_membership` wrote
    # `lookup_table[character] = (lookup_table[character] if character in lookup_table
    # else 0) + 1` on 101 columns (the longest line of the code is 98).
    verbose = code(
        """
        def f(source_text):
            lookup_table = {}
            for character in source_text:
                if character != ' ':
                    lookup_table[character] = lookup_table.get(character, 0) + 1
            item_list = sorted(lookup_table.items(), key=lambda kv: (-kv[1], kv[0]))
            return ''.join(character for character, amount in item_list if amount > 1)
        """
    )
    assert _base.longest_line(verbose) < _base.LINE_LIMIT
    assert all(apply_transform("idiom_get_membership", verbose, seed=s) is None for s in range(3))
    # With short names the same rewrite fits, and is made.
    short = verbose.replace("lookup_table", "counts").replace("character", "ch")
    result = apply_transform("idiom_get_membership", short, seed=0)
    assert result is not None
    assert "counts[ch] = (counts[ch] if ch in counts else 0) + 1" in result.code
    # A code whose own longest line is over the limit may keep lines that long.
    long_line = "    xs = [" + ", ".join(["1"] * 40) + "]\n"
    wide = short.replace("    counts = {}\n", "    counts = {}\n" + long_line)
    assert _base.longest_line(wide) > _base.LINE_LIMIT
    assert apply_transform("idiom_get_membership", wide, seed=0) is not None


def test_longest_line_counts_characters_of_the_longest_line() -> None:
    assert _base.longest_line("") == 0
    assert _base.longest_line("a = 1\nbb = 22\n") == 7
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    ruff = tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["ruff"]
    assert ruff["line-length"] == _base.LINE_LIMIT


def test_a_distractor_may_write_a_long_line() -> None:
    # Obfuscated names are unnatural by design: the line limit does not hold them back.
    wide = code(
        """
        def f(ab, cd):
            return [ab + cd, ab - cd, ab * cd, ab // cd, ab % cd, ab**2, cd**2, ab + 1, cd + 1]
        """
    )
    assert _base.longest_line(wide) <= _base.LINE_LIMIT
    obfuscated = apply_transform("rename_obfuscated", wide, seed=0)
    assert obfuscated is not None
    assert _base.longest_line(obfuscated.code) > _base.LINE_LIMIT
    assert apply_transform("rename_verbose", wide, seed=0) is None

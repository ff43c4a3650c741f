"""Variant generation and equivalence verification, with real transforms and a real sandbox."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import libcst as cst
import pytest

from tracer import Outcome, SandboxPool
from transforms import _generate, find_artifacts
from transforms._base import Transform, all_transforms
from transforms._generate import (
    Problem,
    _Builder,
    compare_outcomes,
    generate_variants,
    generate_variants_many,
    generate_variants_report,
    verify_equivalent,
)
from transforms._metrics import cyclomatic_complexity, jaccard

# Mutates its argument, returns a tuple, has a loop and a condition.
MUTATING = """\
def f(nums, limit):
    total = 0
    kept = []
    for n in nums:
        if n < limit:
            total += n
            kept.append(n)
    nums.clear()
    return total, kept
"""

# Returns a set, raises on some inputs.
SETS = """\
def f(text, ch):
    if not ch:
        raise ValueError('empty separator')
    parts = text.split(ch)
    seen = set()
    for part in parts:
        if part:
            seen.add(part.upper())
    return seen
"""


@pytest.fixture(scope="module")
def pool() -> Iterator[SandboxPool]:
    with SandboxPool(workers=2) as p:
        yield p


# -- comparing values and outcomes ------------------------------------------------------------


def _reason(original: Outcome, variant: Outcome) -> str | None:
    difference = compare_outcomes(original, variant)
    return None if difference is None else difference[0]


def test_compare_outcomes_names_the_difference() -> None:
    ok = Outcome("ok", result="3", result_literal=True, args_after=["[1]"])
    assert compare_outcomes(ok, Outcome("ok", result="3", args_after=["[1]"])) is None
    assert compare_outcomes(ok, Outcome("ok", result="4", args_after=["[1]"])) == (
        "differs: return value",
        "original returned 3, variant returned 4",
    )
    assert _reason(ok, Outcome("ok", result="3", args_after=["[]"])) == "differs: argument state"
    assert _reason(ok, Outcome("timeout")) == "differs: status"
    printed = Outcome("ok", result="3", args_after=["[1]"], stdout="hi\n")
    assert _reason(ok, printed) == "differs: stdout"
    raised = Outcome("exception", exception="ValueError: bad x")
    assert compare_outcomes(raised, Outcome("exception", exception="ValueError: bad y")) is None
    assert _reason(raised, Outcome("ok", result="None")) == "differs: status"
    assert compare_outcomes(raised, Outcome("exception", exception="KeyError: 'x'")) == (
        "differs: exception",
        "original raised ValueError, variant raised KeyError",
    )


def test_keyword_argument_states_compare_by_value() -> None:
    a = Outcome("ok", result="None", args_after=["xs={1, 2}"])
    assert compare_outcomes(a, Outcome("ok", result="None", args_after=["xs={2, 1}"])) is None
    assert compare_outcomes(a, Outcome("ok", result="None", args_after=["ys={1, 2}"]))


# -- verify_equivalent --------------------------------------------------------------------------


def test_wrong_variant_is_rejected_naming_the_differing_call(pool: SandboxPool) -> None:
    original = "def f(xs):\n    return sorted(xs)\n"
    wrong = "def f(xs):\n    return sorted(xs)[:3]\n"
    calls = ["f([2, 1])", "f([3, 2, 1])", "f([5, 4, 3, 2, 1])", "f([])"]
    result = verify_equivalent(original, wrong, calls, pool=pool)
    assert not result.kept
    assert result.reason == "differs: return value"
    assert result.differing_call == "f([5, 4, 3, 2, 1])"
    assert result.detail == "original returned [1, 2, 3, 4, 5], variant returned [1, 2, 3]"
    assert result.calls == 4


def test_variant_that_forgets_a_mutation_is_rejected(pool: SandboxPool) -> None:
    forgetful = MUTATING.replace("    nums.clear()\n", "")
    result = verify_equivalent(MUTATING, forgetful, ["f([1, 5, 2], 3)"], pool=pool)
    assert (result.kept, result.reason) == (False, "differs: argument state")
    assert result.differing_call == "f([1, 5, 2], 3)"


def test_exception_type_must_match_but_not_the_message(pool: SandboxPool) -> None:
    calls = ["f('a,b', ',')", "f('a,b', '')"]
    reworded = SETS.replace("'empty separator'", "'no separator given'")
    assert verify_equivalent(SETS, reworded, calls, pool=pool).kept
    other_type = SETS.replace("raise ValueError", "raise KeyError")
    result = verify_equivalent(SETS, other_type, calls, pool=pool)
    assert (result.reason, result.differing_call) == ("differs: exception", "f('a,b', '')")


def test_set_built_in_another_order_is_equivalent(pool: SandboxPool) -> None:
    reordered = SETS.replace("for part in parts:", "for part in reversed(parts):")
    calls = ["f('b,a,c,d,e,f,g,h', ',')", "f('x-y-z', '-')"]
    assert verify_equivalent(SETS, reordered, calls, pool=pool).kept


def test_non_compiling_variant_is_rejected_without_running(pool: SandboxPool) -> None:
    result = verify_equivalent(SETS, "def f(:\n", ["f('a', ',')"], pool=pool)
    assert (result.kept, result.reason, result.calls) == (False, "does not compile", 0)


def test_calls_on_which_the_original_does_not_finish_are_not_counted(pool: SandboxPool) -> None:
    original = "def f(n):\n    while n:\n        pass\n    return n\n"
    result = verify_equivalent(
        original, original + "\n", ["f(0)", "f(1)"], pool=pool, timeout_s=0.5
    )
    assert (result.kept, result.calls) == (True, 1)


# -- generate_variants --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code, calls", [(MUTATING, ["f([4, 1, 7, 2], 5)"]), (SETS, ["f('a,b,a', ',')"])]
)
def test_generated_variants_are_verified_and_described(
    pool: SandboxPool, code: str, calls: list[str]
) -> None:
    report = generate_variants_report(code, calls, k=4, seed=1, pool=pool)
    assert report.calls[: len(calls)] == calls
    assert len(report.calls) >= len(calls) + 4
    variants = report.variants
    assert len(variants) == 4
    names = {t.name for t in all_transforms("equivalent")}
    assert len({v.code for v in variants}) == 4
    for v in variants:
        assert v.kind == "equivalent"
        assert v.code != code
        assert v.chain and set(v.chain) <= names
        assert v.jaccard == pytest.approx(jaccard(code, v.code))
        assert v.cc == cyclomatic_complexity(v.code)
        assert v.verified_calls == len(report.calls)
        compile(v.code, "<variant>", "exec")
        again = verify_equivalent(code, v.code, report.calls, pool=pool)
        assert again.kept, (v.chain, again)
    assert report.verified >= 4
    assert report.transform_s > 0 and report.execute_s > 0


def test_renaming_is_a_factor_not_applied_to_every_variant(pool: SandboxPool) -> None:
    variants = generate_variants(MUTATING, ["f([4, 1, 7, 2], 5)"], k=4, seed=0, pool=pool)
    families = {t.name: t.family for t in all_transforms()}
    renamed = [any(families[name] == "rename" for name in v.chain) for v in variants]
    assert 1 <= sum(renamed) <= 2  # at most half of the composed variants are renamed
    assert all(2 <= len(v.chain) <= 5 and not v.single for v in variants)
    renamed_chains = [v.chain for v, r in zip(variants, renamed, strict=True) if r]
    assert (
        not all(families[chain[-1]] == "rename" for chain in renamed_chains)
        or len(renamed_chains) == 1
    )


def test_single_variants_are_one_transform_each_with_a_renaming_of_their_own(
    pool: SandboxPool,
) -> None:
    report = generate_variants_report(MUTATING, ["f([4, 1, 7, 2], 5)"], k=2, singles=4, pool=pool)
    singles = [v for v in report.variants if v.single]
    composed = [v for v in report.variants if not v.single]
    assert len(composed) == 2 and len(singles) == 4
    families = {t.name: t.family for t in all_transforms()}
    for v in singles:
        assert len(v.chain) == 1 and v.family == families[v.chain[0]]
        assert verify_equivalent(MUTATING, v.code, report.calls, pool=pool).kept
    assert [v.family for v in singles].count("rename") == 1
    assert {v.family for v in singles} <= {"rewrite", "idiom", "rename"}


def test_the_original_runs_each_generated_call_once(
    pool: SandboxPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs: Counter[str] = Counter()
    real = pool.run_batch
    real_map = pool.map

    def counting(code: str, calls: Sequence[str], **options: Any) -> list[Outcome]:
        if code == MUTATING:
            runs.update(calls)
        return real(code, calls, **options)

    def counting_map(jobs: Any, **options: Any) -> list[list[Outcome]]:
        jobs = list(jobs)
        for code, calls in jobs:
            if code == MUTATING:
                runs.update(calls)
        return real_map(jobs, **options)

    monkeypatch.setattr(pool, "run_batch", counting)
    monkeypatch.setattr(pool, "map", counting_map)
    own = "f([4, 1, 7, 2], 5)"
    report = generate_variants_report(MUTATING, [own], k=2, extra_calls=4, pool=pool)
    generated = report.calls[1:]
    assert len(generated) == 4 and runs[own] == 1
    assert all(runs[call] == 1 for call in generated), runs
    # Outcomes a caller already has are not run again either.
    runs.clear()
    known = {call: real(MUTATING, [call], trace=True)[0] for call in generated}
    runs.clear()
    again = generate_variants_report(
        MUTATING, [own, *generated], k=2, extra_calls=0, pool=pool, known_outcomes=known
    )
    assert len(report.variants) == 2
    assert [v.code for v in again.variants] == [v.code for v in report.variants]
    assert runs == Counter({own: 1})


def test_mutants_reuse_the_original_s_traced_outcomes(
    pool: SandboxPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs: Counter[str] = Counter()
    real_map = pool.map

    def counting_map(jobs: Any, **options: Any) -> list[list[Outcome]]:
        jobs = list(jobs)
        for code, calls in jobs:
            if code == MUTATING and options.get("trace"):
                runs.update(calls)
        return real_map(jobs, **options)

    own = "f([4, 1, 7, 2], 5)"
    report = generate_variants_report(MUTATING, [own], k=0, mutants=2, extra_calls=4, pool=pool)
    generated = report.calls[1:]
    assert len(generated) == 4 and sum(v.kind == "mutant" for v in report.variants) == 2
    known = dict(zip(generated, pool.map([(MUTATING, generated)], trace=True)[0], strict=True))
    monkeypatch.setattr(pool, "map", counting_map)
    limits = _generate._Limits(2.0, 512, 10_000)
    reused = _generate._traced_reference(pool, MUTATING, report.calls, known, limits)
    assert runs == Counter({own: 1})  # only the call no traced outcome is known for
    fresh = _generate._traced_reference(pool, MUTATING, report.calls, {}, limits)
    for a, b in zip(reused, fresh, strict=True):
        assert (a.status, a.result, a.args_after) == (b.status, b.result, b.args_after)
        assert a.trace is not None and b.trace is not None
        assert len(a.trace.steps) == len(b.trace.steps)
    # A known outcome that used up the step budget is run again.
    runs.clear()
    tight = _generate._Limits(2.0, 512, min(len(o.trace.steps) for o in fresh if o.trace))
    _generate._traced_reference(pool, MUTATING, report.calls, known, tight)
    assert runs[own] == 1 and sum(runs.values()) > 1


def test_generated_calls_that_raise_still_verify_variants(pool: SandboxPool) -> None:
    # A traced run reports the arguments after an exception, an untraced run does not: the
    # reference for a raising generated call must be untraced, like the variants' runs.
    code = (
        "def f(string, encryption):\n"
        "    if encryption == 0:\n"
        "        return string\n"
        "    else:\n"
        "        return string.upper().encode('rot13')\n"
    )
    report = generate_variants_report(code, ["f('UppEr', 0)"], k=2, singles=2, pool=pool)
    raising = [c for c in report.calls if pool.run_batch(code, [c])[0].status == "exception"]
    assert raising
    assert len(report.variants) >= 3 and "differs: argument state" not in report.rejected


def test_singles_alone_need_no_composed_variants(pool: SandboxPool) -> None:
    report = generate_variants_report(MUTATING, ["f([4, 1, 7, 2], 5)"], k=0, singles=3, pool=pool)
    assert len(report.variants) == 3 and all(v.single for v in report.variants)
    assert report.candidates == 3


def test_distractors_are_off_by_default_and_on_when_asked(pool: SandboxPool) -> None:
    calls = ["f([4, 1, 7, 2], 5)"]
    default = generate_variants_report(MUTATING, calls, k=4, singles=6, seed=3, pool=pool)
    assert all(v.family != "distractor" for v in default.variants)
    distractor_names = {t.name for t in all_transforms(families=["distractor"])}
    assert not any(set(v.chain) & distractor_names for v in default.variants)
    found = set()
    for seed in range(4):
        report = generate_variants_report(
            MUTATING, calls, k=4, singles=8, seed=seed, pool=pool, distractors=True
        )
        found |= {name for v in report.variants for name in v.chain} & distractor_names
    assert found


def test_same_seed_gives_identical_variants(pool: SandboxPool) -> None:
    calls = ["f([4, 1, 7, 2], 5)"]
    first = generate_variants(MUTATING, calls, k=4, seed=7, mutants=2, pool=pool)
    second = generate_variants(MUTATING, calls, k=4, seed=7, mutants=2, pool=pool)
    assert first == second
    other = generate_variants(MUTATING, calls, k=4, seed=8, mutants=2, pool=pool)
    assert [v.code for v in other] != [v.code for v in first]


def test_many_problems_in_processes_match_one_by_one(pool: SandboxPool) -> None:
    problems = [
        Problem(MUTATING, ("f([4, 1, 7, 2], 5)",)),
        Problem(SETS, ("f('a,b,a', ',')",)),
        Problem("def f(a, b):\n    return a * b if a > b else a + b\n", ("f(3, 4)",)),
    ]
    seen: list[int] = []
    many = generate_variants_many(problems, processes=2, chunk_size=1, progress=seen.append, k=2)
    single = [generate_variants_report(p.code, p.calls, k=2, pool=pool) for p in problems]
    assert [r.variants for r in many] == [r.variants for r in single]
    assert [r.calls for r in many] == [r.calls for r in single]
    assert seen[-1] == 3


# -- mutants ------------------------------------------------------------------------------------


class _AppendUnused(Transform):
    """A "mutant" that changes nothing a call can see."""

    name = "test_append_unused"
    kind = "mutant"
    description = "append an unused assignment"

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        return updated_node.with_changes(
            body=[*updated_node.body, cst.parse_statement("_unused = 1\n")]
        )


class _OneToTwo(Transform):
    """A real mutant: every literal 1 becomes 2."""

    name = "test_one_to_two"
    kind = "mutant"
    description = "replace 1 by 2"

    def leave_Integer(self, original_node: cst.Integer, updated_node: cst.Integer) -> cst.Integer:
        return updated_node.with_changes(value="2") if updated_node.value == "1" else updated_node


class _NeverStep(Transform):
    """A mutant that makes the loop below run forever."""

    name = "test_never_step"
    kind = "mutant"
    description = "make `i += 1` add nothing"

    def leave_AugAssign(self, _: cst.AugAssign, updated_node: cst.AugAssign) -> cst.AugAssign:
        return updated_node.with_changes(value=cst.Integer("0"))


class _RaiseFirst(Transform):
    """A crash-only mutant: the function raises before doing anything."""

    name = "test_raise_first"
    kind = "mutant"
    description = "raise at the top of the function"

    def leave_FunctionDef(self, _: cst.FunctionDef, node: cst.FunctionDef) -> cst.FunctionDef:
        raising = cst.parse_statement("raise ValueError(n)\n")
        return node.with_changes(body=node.body.with_changes(body=[raising, *node.body.body]))


LOOP = """\
def f(n):
    i = 0
    out = []
    while i < n:
        out.append(i * 1)
        i += 1
    return out
"""


@pytest.fixture()
def fake_mutants(monkeypatch: pytest.MonkeyPatch) -> None:
    real = _generate.all_transforms
    fakes: list[type[Transform]] = [_AppendUnused, _NeverStep, _RaiseFirst, _OneToTwo]

    def patched(kind: str | None = None, **options: Any) -> list[type[Transform]]:
        if kind == "mutant":
            return list(fakes)
        return real(kind, **options) + (fakes if kind is None else [])  # type: ignore[arg-type]

    monkeypatch.setattr(_generate, "all_transforms", patched)


@pytest.mark.usefixtures("fake_mutants")
def test_mutants_are_kept_only_when_some_call_differs(pool: SandboxPool) -> None:
    started = time.monotonic()
    report = generate_variants_report(LOOP, ["f(3)"], k=1, mutants=3, pool=pool, timeout_s=5.0)
    mutants = [v for v in report.variants if v.kind == "mutant"]
    # _AppendUnused behaves the same; _NeverStep never finishes; _RaiseFirst only raises;
    # only _OneToTwo returns another value.
    assert [m.chain for m in mutants] == [["test_one_to_two"]]
    assert mutants[0].family == "mutant"
    assert mutants[0].differing_calls and "f(3)" in mutants[0].differing_calls
    assert not verify_equivalent(LOOP, mutants[0].code, report.calls, pool=pool).kept
    # The looping mutant is stopped by the step budget, not by a 5-second timeout per call.
    assert time.monotonic() - started < 5.0


@pytest.mark.usefixtures("fake_mutants")
def test_crash_only_mutants_are_kept_when_asked_and_separated_on_shipped_calls(
    pool: SandboxPool,
) -> None:
    report = generate_variants_report(
        LOOP, ["f(3)"], k=0, mutants=4, pool=pool, timeout_s=5.0, crash_mutants=True
    )
    chains = sorted(m.chain[0] for m in report.variants if m.kind == "mutant")
    assert chains == ["test_one_to_two", "test_raise_first"]
    for m in report.variants:
        assert m.differing_calls == ["f(3)"]  # the generated calls are not shipped


@pytest.mark.usefixtures("fake_mutants")
def test_a_mutant_told_apart_only_on_unshipped_calls_is_dropped(pool: SandboxPool) -> None:
    # On f(0) and f(1) the two functions return the same value ([] and [0]).
    for shipped, expected in ((["f(0)"], []), (["f(3)"], [["test_one_to_two"]])):
        report = generate_variants_report(
            LOOP,
            [*shipped, "f(1)", "f(2)"],
            k=0,
            mutants=4,
            pool=pool,
            shipped=shipped,
            extra_calls=0,
        )
        assert [m.chain for m in report.variants] == expected


def test_mutants_do_not_depend_on_the_pool_s_width(pool: SandboxPool) -> None:
    # Mutant candidates are built and traced as many at a time as the pool runs at once.
    calls = ["f([4, 1, 7, 2], 5)"]
    for seed in range(3):
        wide = generate_variants_report(MUTATING, calls, k=0, mutants=2, seed=seed, pool=pool)
        with SandboxPool(workers=1) as one:
            narrow = generate_variants_report(MUTATING, calls, k=0, mutants=2, seed=seed, pool=one)
        assert len(wide.variants) == 2 and all(v.kind == "mutant" for v in wide.variants)
        assert wide.variants == narrow.variants
        assert wide.rejected == narrow.rejected


def test_real_mutants_differ_from_the_original(pool: SandboxPool) -> None:
    code = MUTATING.replace("nums.clear()", "nums.append(limit + 1)")
    report = generate_variants_report(code, ["f([1, 5, 3, 8], 2)"], k=2, mutants=2, pool=pool)
    mutants = [v for v in report.variants if v.kind == "mutant"]
    assert mutants, "expected at least one mutant for a function with a comparison and a +"
    for m in mutants:
        assert m.differing_calls
        result = verify_equivalent(code, m.code, report.calls, pool=pool)
        assert not result.kept and result.differing_call in m.differing_calls


def test_a_chain_that_leaves_a_machine_artifact_is_not_a_candidate() -> None:
    # CRUXEval sample_687: the helper holds `':'.join([c for c in t])` (two operations) until
    # idiom_join_generator shrinks it to `':'.join(t)`, a one-operation helper no step alone
    # would write.
    code = (
        "def f(text):\n    t = list(text)\n    t.pop(len(t) // 2)\n"
        "    t.append(text.lower())\n    return ':'.join([c for c in t])\n"
    )
    chain = [
        "extract_helper_expr",
        "idiom_join_generator",
        "idiom_list_comprehension",
        "comprehension_to_loop",
    ]
    builder = _Builder(code, 1, Counter())
    built = builder.run_chain(chain, 0)
    assert built is not None and "def joined(t):\n    return ':'.join(t)\n" in built[0]
    assert find_artifacts(code, built[0]) == ["one-operation helper"]
    assert builder.build([chain], "equivalent", 0) == []
    assert builder.rejected == Counter({"machine artifact": 1})


def test_singles_go_to_the_rewrites_that_change_the_code_most_and_one_at_random() -> None:
    # Identifier-normalised Jaccard of each transform alone; the order is the seeded shuffle.
    changed = {
        "extract_helper_expr": 0.996,
        "flip_comparison": 0.93,
        "for_to_while": 0.70,
        "name_returned_value": 0.98,
        "idiom_loop_sum": 0.84,
        "guard_clause": 0.90,
    }
    order = list(changed)
    picked = _generate._pick_singles(order, changed, 3)
    assert picked == ["for_to_while", "idiom_loop_sum", "flip_comparison"]
    # The random slot never goes to a surface rewrite while another one is left.
    assert _generate._pick_singles(order, changed, 2) == ["for_to_while", "flip_comparison"]
    assert _generate._pick_singles(["extract_helper_expr", "guard_clause"], changed, 1) == [
        "guard_clause"
    ]
    assert _generate._pick_singles(order[:1], changed, 3) == ["extract_helper_expr"]
    assert _generate._pick_singles(order, changed, 0) == []


def test_a_composed_chain_grows_by_what_its_steps_make_applicable() -> None:
    # CRUXEval sample_338: no loop rewrite applies to the original; once the comprehension is
    # a loop, `for_to_while` does, and lowers the normalised Jaccard further.
    code = "def f(my_dict):\n    result = {v: k for k, v in my_dict.items()}\n    return result\n"
    builder = _Builder(code, 0, Counter())
    assert builder.apply(code, "for_to_while", 0) is None
    chain = _generate._grown(builder, ["comprehension_to_loop"], 0, 4)
    assert chain == ["comprehension_to_loop", "for_to_while"]
    built = builder.run_chain(chain, 0)
    assert built is not None
    assert "    while idx < len(seq):\n        k, v = seq[idx]\n        idx += 1\n" in built[0]
    # No growth beyond the longest chain asked for.
    assert _generate._grown(builder, ["comprehension_to_loop"], 0, 1) == ["comprehension_to_loop"]
    structural = {t.name for t in all_transforms("equivalent", families=("rewrite", "idiom"))}
    follow_ups = _generate._FOLLOW_UPS
    assert {n for first, then in follow_ups.items() for n in (first, *then)} <= structural


def test_a_step_that_undoes_an_earlier_one_is_left_out_of_a_chain() -> None:
    # CRUXEval sample_314: the guard clause turns the `else` that early_return_to_else wrote
    # back into the original's form, so the chain would name two rewrites its code does not
    # show; it is left out and the chain grows by a follow-up that shows.
    code = (
        "def f(text):\n    if ',' in text:\n        before, _, after = text.partition(',')\n"
        "        return after + ' ' + before\n    return ',' + text.partition(' ')[-1] + ' 0'\n"
    )
    builder = _Builder(code, 0, Counter())
    undone = builder.run_chain(["early_return_to_else", "guard_clause"], 0)
    assert undone is not None and undone[0] == code
    chain = _generate._grown(builder, ["early_return_to_else", "guard_clause"], 0, 2)
    assert chain == ["early_return_to_else", "if_else_swap"]
    built = builder.run_chain(chain, 0)
    assert built is not None and "    if ',' not in text:\n" in built[0]


def _selectable(
    name: str, structure: set[str], steps: int, family: str, shape: tuple[str, ...] = ()
) -> _generate._Candidate:
    original = frozenset({"def", "ID", "(", ")", ":", "return", "for", "in"})
    tokens = frozenset(structure)
    return _generate._Candidate(
        code=name,
        kind="equivalent",
        chain=[name],
        results=[],
        token_set=tokens,
        jaccard=1.0,
        family=family,  # type: ignore[arg-type]
        structure=tokens,
        structural_jaccard=_generate._set_jaccard(original, tokens),
        steps=steps,
        shape=shape or (name,),
    )


def test_selection_prefers_more_rewrites_and_keeps_an_idiom_variant() -> None:
    base = {"def", "ID", "(", ")", ":", "return"}
    three = _selectable("three", base | {"while", "+=", "len"}, 3, "rewrite")
    two = _selectable("two", base | {"while", "+=", "len", "<", "0", "[", "]"}, 2, "rewrite")
    idiom = _selectable("idiom", base | {"for", "in", "sum"}, 2, "idiom")
    # `two` changes the tokens most, but `three` stacks more rewrites.
    assert _generate._select_diverse([two, three], 1) == [three]
    # The last pick is the idiom variant when no pick before it is one.
    picked = _generate._select_diverse([two, three, idiom], 2)
    assert picked == [three, idiom]
    assert _generate._select_diverse([idiom, two, three], 3) == [three, two, idiom]


def test_selection_prefers_a_structure_no_variant_has_yet() -> None:
    # Of CRUXEval's first 200 problems (seed 0), 349 of 788 composed variants differed from a
    # single or a sibling only in names: a sibling with more rewrites but the same structure
    # under another renaming won over a different structure.
    base = {"def", "ID", "(", ")", ":", "return"}
    loop = base | {"while", "+=", "len"}
    first = _selectable("first", loop, 3, "rewrite", shape=("while",))
    renamed = _selectable("renamed", loop, 3, "rewrite", shape=("while",))
    other = _selectable("other", base | {"if", "not"}, 2, "rewrite", shape=("if",))
    assert _generate._select_diverse([first, renamed, other], 2) == [first, other]
    # A single's structure is taken already: a composed variant repeating it comes last.
    assert _generate._select_diverse([first, other], 1, taken={("while",)}) == [other]
    # With nothing else left, a repeat still fills the slot.
    assert _generate._select_diverse([first, renamed], 2) == [first, renamed]


@pytest.mark.parametrize(
    ("code", "first", "then", "unwanted"),
    [
        # CRUXEval sample_7's tail: the guard clause, then its `else` form again.
        (
            "def f(items):\n    if items:\n        items.pop(0)\n    return items\n",
            "guard_clause",
            "early_return_to_else",
            "    if not items:\n        return items\n    else:\n",
        ),
        # A returned test made a branch, then the branch made a ternary of two booleans.
        (
            "def f(text, n):\n    return len(text) > n\n",
            "idiom_return_branch",
            "if_to_ternary",
            "return True if len(text) > n else False",
        ),
    ],
)
def test_a_chain_never_takes_a_step_after_one_it_must_not_follow(
    code: str, first: str, then: str, unwanted: str
) -> None:
    builder = _Builder(code, 0, Counter())
    # The pair applies in this order and writes what no one writes...
    both = builder.run_chain([first, then], 0)
    assert both is not None and unwanted in both[0]
    # ...so a chain that asks for it keeps the first step only, and growth never adds it.
    assert _generate._must_not_follow(then, [first])
    assert then not in _generate._grown(builder, [first, then], 0, 2)
    assert then not in _generate._grown(builder, [first], 0, 4, [then])


def test_the_while_loop_for_to_while_writes_gets_no_loop_body_helper() -> None:
    # Why `_NOT_AFTER` needs no entry for this pair: the helper would take and return the
    # loop's index, and `extract_loop_body` declines such a body on its own.
    code = (
        "def f(xs):\n    total = 0\n    for x in xs:\n        if x % 2:\n"
        "            total += x * 3\n        else:\n            total -= 1\n    return total\n"
    )
    builder = _Builder(code, 0, Counter())
    assert builder.apply(code, "extract_loop_body", 0) is not None
    loop = builder.apply(code, "for_to_while", 0)
    assert loop is not None and "while idx < len(seq):" in loop.code
    assert builder.apply(loop.code, "extract_loop_body", 0) is None


def test_a_built_candidate_is_its_last_step_s_result_which_compiles() -> None:
    """Building does not compile a candidate again: its code is its last step's result,
    which compiled when applied (a result that does not compile is dropped there)."""
    code = (
        "def f(xs, n):\n    total = 0\n    for x in xs:\n        total += x * n\n    return total\n"
    )
    builder = _Builder(code, 0, Counter())
    names = [t.name for t in all_transforms("equivalent")]
    candidates = builder.build([[name] for name in names] + [names[:6]], "equivalent", 0)
    assert len(candidates) > 5
    for candidate in candidates:
        assert candidate.code is candidate.results[-1].code
        compile(candidate.code, "<variant>", "exec", dont_inherit=True)


def test_the_renaming_single_goes_to_a_style_that_applies() -> None:
    # CRUXEval sample_81: a verbose renaming would write a line over 100 columns and
    # declines. Before, a seed that drew `rename_verbose` for the renaming slot left the
    # problem without a renaming single (9 of 800 problems, seed 0).
    code = (
        "def f(dic, inx):\n"
        "    try:\n"
        "        dic[list(dic)[list(dic).index(inx)]] = list(dic)[list(dic).index(inx)].lower()\n"
        "    except ValueError:\n"
        "        pass\n"
        "    return list(dic.items())\n"
    )
    calls = ['f({"Bulls": 23, "White Sox": 45}, "Bulls")']
    drawn = set()
    for seed in range(6):
        variants = generate_variants(code, calls, k=1, singles=2, mutants=0, seed=seed)
        renamings = [v.chain[0] for v in variants if v.single and v.family == "rename"]
        assert len(renamings) == 1, (seed, [v.chain for v in variants])
        drawn.update(renamings)
    assert "rename_verbose" not in drawn

"""Sized suites: what each keeps of a benchmark, and the standard suite's sizing rule."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest
from records import manifest

from core_bench.benchmark import Benchmark
from core_bench.runs import make_tasks
from core_bench.schemas import (
    Anchor,
    Probe,
    ProbeFeatures,
    Problem,
    Variant,
)
from core_bench.suites import QUICK_BUDGET, TARGET_HALF_WIDTH, half_width, select_suite

FAMILIES = ("rewrite", "rewrite", "rewrite", "idiom", "rename", "rewrite")
KINDS = ("state_after", "branch", "coverage", "next_line", "loop_iterations")


def synthetic(problems: int, *, calls: int = 8, probes_per_call: int = 3) -> Benchmark:
    """A benchmark of `problems` problems, each with 6 equivalents (families as FAMILIES,
    the first three single-transform), 2 mutants and, on every call, `probes_per_call` probes of
    the original each anchored in every equivalent, plus one own probe per mutant and call."""
    built = manifest("synthetic", "0" * 64, built_at="2026-12-01T00:00:00+00:00")
    all_problems: list[Problem] = []
    all_variants: list[Variant] = []
    all_probes: list[Probe] = []
    for number in range(problems):
        pid = f"p{number:04d}"
        call_list = [f"f({i})" for i in range(calls)]
        outputs = [repr(i * 2) for i in range(calls)]
        all_problems.append(
            Problem(
                id=pid,
                source="synthetic",
                code="def f(x):\n    return x * 2\n",
                entry="f",
                calls=call_list,
                outputs=outputs,
            )
        )
        variants = [("original", None, False, f"{pid}:orig")]
        variants += [
            ("equivalent", family, index < 3, f"{pid}:eq{index + 1}")
            for index, family in enumerate(FAMILIES)
        ]
        variants += [("mutant", "mutant", True, f"{pid}:mut{i}") for i in (1, 2)]
        for kind, family, single, vid in variants:
            all_variants.append(
                Variant(
                    id=vid,
                    problem_id=pid,
                    kind=kind,
                    code="def f(x):\n    return x * 2\n",
                    chain=[] if family is None else [f"{family}_t"],
                    jaccard=1.0,
                    cc=1,
                    verified_calls=calls,
                    family=family,
                    single=single,
                    outputs=list(outputs),
                )
            )
        for call in range(calls):
            for slot in range(probes_per_call):
                kind = KINDS[(call * probes_per_call + slot) % len(KINDS)]
                first = f"{pid}:orig:c{call}:q{slot}"
                all_probes.append(probe(first, pid, f"{pid}:orig", call, kind, None))
                for index in range(len(FAMILIES)):
                    vid = f"{pid}:eq{index + 1}"
                    all_probes.append(probe(f"{vid}:c{call}:q{slot}", pid, vid, call, kind, first))
            for mutant in (1, 2):
                vid = f"{pid}:mut{mutant}"
                all_probes.append(probe(f"{vid}:c{call}:q0", pid, vid, call, "branch", None))
    return Benchmark(Path("synthetic"), built, all_problems, all_variants, all_probes)


ANCHOR = Anchor(line=2, occurrence=1)
FEATURES = ProbeFeatures(step_index=1)


def probe(pid: str, problem: str, variant: str, call: int, kind: str, of: str | None) -> Probe:
    return Probe.model_construct(  # validated records would make the fixture slow
        id=pid,
        problem_id=problem,
        variant_id=variant,
        call_index=call,
        kind=kind,  # type: ignore[arg-type]
        dimensions=["State"],
        question="?",
        anchor=ANCHOR,
        answer="1",
        answer_type="int",
        features=FEATURES,
        anchored=of is not None,
        anchor_of=of,
    )


@pytest.fixture(scope="module")
def large() -> Benchmark:
    return synthetic(600)


def test_full_keeps_everything(large: Benchmark) -> None:
    selection = select_suite(large, "full")
    assert selection.benchmark.problems == large.problems
    assert selection.benchmark.variants == large.variants
    assert selection.benchmark.probes == large.probes
    assert selection.met is None


def test_quick_stays_within_its_budget_and_counts_the_tasks_a_run_makes(large: Benchmark) -> None:
    selection = select_suite(large, "quick")
    chosen = selection.benchmark
    assert 0 < selection.tasks <= QUICK_BUDGET
    tasks = make_tasks(chosen, kinds=("output", "input", "probe", "full_trace"))
    assert len(tasks) == selection.tasks
    assert len(chosen.problems) >= 10  # a smoke test still spans several problems


@pytest.mark.parametrize("suite", ["quick", "standard"])
def test_a_problem_is_kept_whole_with_its_original_and_anchored_groups(
    large: Benchmark, suite: str
) -> None:
    chosen = select_suite(large, suite, seed=3).benchmark  # type: ignore[arg-type]
    problems = {p.id: p for p in chosen.problems}
    kinds = Counter((v.problem_id, v.kind) for v in chosen.variants)
    for pid in problems:
        assert kinds[(pid, "original")] == 1
    probe_ids = {p.id for p in chosen.probes}
    copies: Counter[str] = Counter(p.anchor_of for p in chosen.probes if p.anchor_of)
    kept_equivalents = Counter(v.problem_id for v in chosen.variants if v.kind == "equivalent")
    for probe_ in chosen.probes:
        assert probe_.call_index < len(problems[probe_.problem_id].calls)
        if probe_.anchor_of is not None:
            assert probe_.anchor_of in probe_ids  # never a copy without its original
        elif probe_.variant_id.endswith(":orig"):
            # an original probe comes with its copies in every kept equivalent
            assert copies[probe_.id] == kept_equivalents[probe_.problem_id]
    for variant in chosen.variants:
        assert len(variant.outputs) == len(problems[variant.problem_id].calls)


def test_standard_takes_one_variant_per_family_before_a_second_of_any(large: Benchmark) -> None:
    chosen = select_suite(large, "standard").benchmark
    by_problem: dict[str, list[Variant]] = {}
    for variant in chosen.variants:
        if variant.kind == "equivalent":
            by_problem.setdefault(variant.problem_id, []).append(variant)
    for variants in by_problem.values():
        families = Counter(v.family for v in variants)
        assert set(families) == {"rewrite", "idiom", "rename"}
        rewrites = [v for v in variants if v.family == "rewrite"]
        assert all(v.single for v in rewrites)  # single-transform variants first


def test_standard_adds_problems_until_the_rule_is_met(large: Benchmark) -> None:
    selection = select_suite(large, "standard")
    assert selection.met is True
    assert selection.gap_half_width is not None and selection.probe_half_width is not None
    assert max(selection.gap_half_width, selection.probe_half_width) <= TARGET_HALF_WIDTH
    assert len(selection.benchmark.problems) < len(large.problems)
    # one problem fewer would not have met it
    fewer = len(selection.benchmark.problems) - 1
    per_problem_pairs = selection.gap_pairs / len(selection.benchmark.problems)
    worse = half_width(round(per_problem_pairs * fewer), fewer, 0.42)
    per_problem_probes = selection.probes / len(selection.benchmark.problems)
    worse_probe = half_width(round(per_problem_probes * fewer), fewer, 0.21)
    assert worse is not None and worse_probe is not None
    assert max(worse, worse_probe) > TARGET_HALF_WIDTH


def test_standard_on_a_benchmark_too_small_takes_everything_and_says_so() -> None:
    small = synthetic(12)
    selection = select_suite(small, "standard")
    assert selection.met is False
    assert [p.id for p in selection.benchmark.problems] == [p.id for p in small.problems]


def test_selection_is_seeded(large: Benchmark) -> None:
    first = select_suite(large, "quick", seed=1).benchmark
    again = select_suite(large, "quick", seed=1).benchmark
    other = select_suite(large, "quick", seed=2).benchmark
    assert [p.id for p in first.problems] == [p.id for p in again.problems]
    assert [q.id for q in first.probes] == [q.id for q in again.probes]
    assert [p.id for p in first.problems] != [p.id for p in other.problems]


def test_half_width_follows_the_formula() -> None:
    # independent items (one per problem): the textbook 1.96 * sqrt(p (1 - p) / n)
    width = half_width(897, 897, 0.21)
    assert width is not None
    assert math.isclose(width, 1.959963984540054 * math.sqrt(0.21 / 897))
    assert width <= 0.03 < (half_width(896, 896, 0.21) or 0)
    # clusters of 16 with ICC 0.2 inflate the variance by 1 + 15 * 0.2 = 4
    clustered = half_width(1600, 100, 0.21)
    assert clustered is not None
    assert math.isclose(clustered, 1.959963984540054 * math.sqrt(0.21 * 4 / 1600))
    assert half_width(0, 0, 0.21) is None


def test_unknown_suite_is_an_error(large: Benchmark) -> None:
    with pytest.raises(ValueError, match="quick, standard, full"):
        select_suite(large, "huge")  # type: ignore[arg-type]

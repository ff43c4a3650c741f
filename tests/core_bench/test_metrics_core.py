"""CoRE's metrics on their budget: the equations on hand-made samples, the seeded budget, and
the expected value of a model right on 95% of items under independent errors."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from records import manifest, sample

from core_bench.benchmark import Benchmark
from core_bench.metrics import draw_budget, expected_strict, summarize
from core_bench.metrics._core import CALLS, IMPLEMENTATIONS, PROBES
from core_bench.schemas import (
    Anchor,
    MetricRow,
    Probe,
    ProbeFeatures,
    Problem,
    Sample,
    Variant,
    VariantFamily,
)


def variant(pid: str, name: str, family: VariantFamily | None = "rewrite") -> Variant:
    original = name == "orig"
    return Variant(
        id=f"{pid}:{name}",
        problem_id=pid,
        kind="original" if original else "equivalent",
        family=None if original else family,
        single=not original,
        code="",
        chain=[] if original else ["for_to_while"],
        jaccard=1.0,
        cc=1,
        verified_calls=1,
    )


def probe(variant_id: str, call: int, number: int) -> Probe:
    return Probe(
        id=f"{variant_id}:c{call}:p{number}",
        problem_id=variant_id.split(":")[0],
        variant_id=variant_id,
        call_index=call,
        kind="state_after",
        dimensions=["State"],
        question="?",
        anchor=Anchor(line=1, occurrence=1),
        answer="1",
        answer_type="int",
        features=ProbeFeatures(step_index=1),
        anchored=False,
    )


def make_bench(
    problems: int, names: list[str], calls: int, probes_per_call: int, seed: int = 0
) -> Benchmark:
    pids = [f"p{i}" for i in range(problems)]
    return Benchmark(
        Path("."),
        manifest(seed=seed),
        [
            Problem(
                id=p,
                source="test",
                code="",
                entry="f",
                calls=[f"f({c})" for c in range(calls)],
                outputs=[str(c) for c in range(calls)],
            )
            for p in pids
        ],
        [variant(p, n) for p in pids for n in names],
        [
            probe(f"{p}:{n}", c, k)
            for p in pids
            for n in names
            for c in range(calls)
            for k in range(probes_per_call)
        ],
    )


def rows(samples: list[Sample], bench: Benchmark) -> dict[tuple[str, str, str], MetricRow]:
    return {(r.task, r.metric, r.group): r for r in summarize(samples, bench, "m")}


def test_equations_6_to_9_average_over_implementations() -> None:
    # p0: eq1 wrong on call 0's output; eq2 wrong on its probe of call 1. p1: all right.
    bench = make_bench(2, ["orig", "eq1", "eq2"], calls=2, probes_per_call=1)
    samples = []
    for p in ("p0", "p1"):
        for v in ("orig", "eq1", "eq2"):
            vid = f"{p}:{v}"
            for c in (0, 1):
                samples.append(sample("output", vid, c, (p, v, c) != ("p0", "eq1", 0)))
                pid = f"{vid}:c{c}:p0"
                samples.append(sample("probe", vid, c, (p, v, c) != ("p0", "eq2", 1), pid))
    got = rows(samples, bench)
    # p0: I = 0; Is = 2/3 (pooled over calls it would be 5/6); I_call = 1/2.
    assert got[("output", "core_I", "all")].value == pytest.approx(50)
    assert got[("output", "core_Is", "all")].value == pytest.approx(100 * (2 / 3 + 1) / 2)
    assert got[("output", "I_call", "all")].value == pytest.approx(75)
    assert got[("probe", "core_W", "all")].value == pytest.approx(50)
    assert got[("probe", "core_Ws", "all")].value == pytest.approx(100 * (2 / 3 + 1) / 2)
    assert got[("probe", "W_call", "all")].value == pytest.approx(75)
    # RCS = I * Ws: p0 0, p1 1. Cons = 1 - (I - Ws)^2: p0 1 - 4/9, p1 1.
    assert got[("core", "core_RCS", "all")].value == pytest.approx(50)
    assert got[("core", "core_Cons", "all")].value == pytest.approx(100 * (5 / 9 + 1) / 2)
    assert got[("output", "core_I", "all")].n == 2
    assert got[("core", "core_budget", "implementations")].value == 3
    assert got[("core", "core_budget", "calls")].value == 2
    assert got[("core", "core_budget", "probes")].value == 2


def test_budget_is_capped_seeded_and_keeps_the_original() -> None:
    variants = [f"p:eq{i}" for i in range(1, 9)]
    calls = range(12)
    probes = {
        v: [(f"{v}:c{c}:p{k}", c) for c in calls for k in range(3)] for v in ["p:orig", *variants]
    }
    budget = draw_budget("p", "p:orig", variants, calls, probes, seed=0)
    assert len(budget.implementations) == IMPLEMENTATIONS
    assert budget.implementations[0] == "p:orig"
    assert len(budget.calls) == CALLS
    for v in budget.implementations:
        chosen = budget.probes[v]
        assert len(chosen) == PROBES
        assert all(c in budget.calls for _, c in chosen)
        # Probes come from the best-ranked calls first: here the first two calls drawn.
        assert {c for _, c in chosen} <= set(budget.calls[:2])
    again = draw_budget("p", "p:orig", reversed(variants), reversed(calls), probes, seed=0)
    assert again == budget
    other = draw_budget("p", "p:orig", variants, calls, probes, seed=1)
    assert (other.implementations, other.calls) != (budget.implementations, budget.calls)


def test_distractor_variants_are_not_implementations() -> None:
    bench = make_bench(1, ["orig", "eq1"], calls=1, probes_per_call=0)
    bench.variants.append(variant("p0", "eq2", "distractor"))
    samples = [
        sample("output", "p0:orig", 0, True),
        sample("output", "p0:eq1", 0, True),
        sample("output", "p0:eq2", 0, False),
    ]
    got = rows(samples, bench)
    assert got[("output", "core_I", "all")].value == 100
    assert got[("core", "core_budget", "implementations")].value == 2


def test_budget_does_not_depend_on_the_builds_size() -> None:
    # A build with 9 implementations x 12 calls x 3 probes per call: the metric still asks
    # CoRE's budget, so a model wrong only outside it scores 100.
    bench = make_bench(1, ["orig", *(f"eq{i}" for i in range(1, 9))], calls=12, probes_per_call=3)
    everything = []
    for v in bench.variants:
        for c in range(12):
            everything.append(sample("output", v.id, c, True))
    for p in bench.probes:
        everything.append(sample("probe", p.variant_id, p.call_index, True, p.id))
    got = rows(everything, bench)
    assert got[("core", "core_budget", "implementations")].value == IMPLEMENTATIONS
    assert got[("core", "core_budget", "calls")].value == CALLS
    assert got[("core", "core_budget", "probes")].value == PROBES
    budget = draw_budget(
        "p0",
        "p0:orig",
        [v.id for v in bench.variants],
        range(12),
        {
            v.id: [(p.id, p.call_index) for p in bench.probes if p.variant_id == v.id]
            for v in bench.variants
        },
        seed=0,
    )
    inside = {(v, c) for v in budget.implementations for c in budget.calls}
    flipped = [
        s.model_copy(update={"verdict": "wrong"})
        if s.task == "output" and (s.variant_id, s.call_index) not in inside
        else s
        for s in everything
    ]
    got = rows(flipped, bench)
    assert got[("output", "core_I", "all")].value == 100
    wrong_inside = [
        s.model_copy(update={"verdict": "wrong"})
        if (s.task, s.variant_id, s.call_index) == ("output", *sorted(inside)[0])
        else s
        for s in everything
    ]
    assert rows(wrong_inside, bench)[("output", "core_I", "all")].value == 0


def test_expected_values_at_95_percent_match_a_simulated_model() -> None:
    """A model right on each item with chance 0.95, independently: the summary's core_I and
    core_W agree with `expected_strict` (within the bootstrap interval)."""
    bench = make_bench(300, ["orig", "eq1", "eq2", "eq3", "eq4"], calls=8, probes_per_call=1)
    rng = random.Random(7)
    samples = [
        sample("output", v.id, c, rng.random() < 0.95) for v in bench.variants for c in range(8)
    ] + [
        sample("probe", p.variant_id, p.call_index, rng.random() < 0.95, p.id) for p in bench.probes
    ]
    got = rows(samples, bench)
    expected = expected_strict(0.95, [(5, 8, 4)] * 300)
    assert expected["core_I"] == pytest.approx(100 * 0.95**40)  # 12.85
    assert expected["core_W"] == pytest.approx(100 * 0.95**20)  # 35.85
    for task, metric in (
        ("output", "core_I"),
        ("output", "core_Is"),
        ("output", "I_call"),
        ("probe", "core_W"),
        ("probe", "core_Ws"),
    ):
        row = got[(task, metric, "all")]
        assert row.ci_low is not None and row.ci_high is not None
        assert row.ci_low <= expected[metric] <= row.ci_high, (metric, row, expected[metric])

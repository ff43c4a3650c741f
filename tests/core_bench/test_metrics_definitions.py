"""Each metric's definition, checked on hand-made samples with known answers."""

from __future__ import annotations

from pathlib import Path

import pytest
from records import located, manifest, sample

from core_bench.benchmark import Benchmark
from core_bench.metrics import parse_steps, position_bucket, summarize
from core_bench.schemas import (
    Anchor,
    Dimension,
    MetricRow,
    Probe,
    ProbeFeatures,
    ProbeKind,
    Problem,
    Sample,
    Variant,
)

CHAINS = {"orig": [], "eq1": ["rename_short", "for_to_while"], "eq2": ["rename_short"], "mut": []}
KINDS = {"orig": "original", "eq1": "equivalent", "eq2": "equivalent", "mut": "mutant"}
FAMILIES = {"orig": None, "eq1": "rewrite", "eq2": "rename", "mut": "mutant"}
SINGLE = {"orig": False, "eq1": False, "eq2": True, "mut": False}
"""eq1 is composed (renamed, then for -> while); eq2 is a single renaming."""


def probe(
    pid: str, variant: str, call: int, kind: ProbeKind, dims: list[Dimension], step: int
) -> Probe:
    return Probe(
        id=f"{variant}:{pid}",
        **located(variant, call),  # type: ignore[arg-type]
        kind=kind,
        dimensions=dims,
        question="?",
        anchor=Anchor(line=1, occurrence=1),
        answer="1",
        answer_type="int",
        features=ProbeFeatures(step_index=step),
        anchored=False,
    )


def benchmark() -> Benchmark:
    problems = [
        Problem(id=p, source="test", code="", entry="f", calls=["f(1)", "f(2)"], outputs=["1", "2"])
        for p in ("p1", "p2")
    ]
    variants = [
        Variant(
            id=f"{p}:{v}",
            problem_id=p,
            kind=KINDS[v],  # type: ignore[arg-type]
            code="",
            chain=CHAINS[v],
            family=FAMILIES[v],  # type: ignore[arg-type]
            single=SINGLE[v],
            jaccard=1.0,
            cc=1,
            verified_calls=2,
        )
        for p in ("p1", "p2")
        for v in KINDS
    ]
    probes = [
        probe("a", f"{p}:{v}", call, "state_after", ["State", "Arithmetic"], 3)
        for p in ("p1", "p2")
        for v in ("orig", "eq1")
        for call in (0, 1)
    ] + [
        probe("b", f"{p}:{v}", call, "branch", ["Logic"], 60)
        for p in ("p1", "p2")
        for v in ("orig", "eq1")
        for call in (0, 1)
    ]
    return Benchmark(Path("."), manifest(), problems, variants, probes)


def rows_of(samples: list[Sample], **kwargs: object) -> dict[tuple[str, str, str], MetricRow]:
    rows = summarize(samples, benchmark(), "m", **kwargs)  # type: ignore[arg-type]
    assert all(r.model == "m" and r.strategy == "direct" for r in rows)
    return {(r.task, r.metric, r.group): r for r in rows}


# p1: every output right, one of the two probes of each (variant, call) wrong.
# p2: one output wrong (eq1, call 0), every probe right.
OUTPUTS = {("p1", v, c): True for v in ("orig", "eq1", "eq2") for c in (0, 1)} | {
    ("p2", v, c): (v, c) != ("eq1", 0) for v in ("orig", "eq1", "eq2") for c in (0, 1)
}


def core_samples() -> list[Sample]:
    samples = [sample("output", f"{p}:{v}", c, ok) for (p, v, c), ok in OUTPUTS.items()]
    for p in ("p1", "p2"):
        for v in ("orig", "eq1"):
            for c in (0, 1):
                samples.append(sample("probe", f"{p}:{v}", c, True, probe_id=f"{p}:{v}:a"))
                samples.append(sample("probe", f"{p}:{v}", c, p == "p2", probe_id=f"{p}:{v}:b"))
    return samples


def test_robustness_gap_overall_per_single_transform_and_per_family() -> None:
    rows = rows_of(core_samples())
    # p2's pairs: eq1 c0 is the one discordant pair (original right, variant wrong).
    # "all" holds composed variants only (eq1: 4 pairs).
    assert rows[("output", "robustness_gap", "all")].value == pytest.approx(100 / 4)
    assert rows[("output", "mcnemar_p", "all")].value == 1.0
    assert rows[("output", "mcnemar_p", "all")].n == 4
    # A transform's row holds its single-transform variants only: renaming's own row is 0,
    # and for_to_while, seen only composed with renaming, has no row (it would be confounded).
    assert rows[("output", "robustness_gap", "rename_short")].value == 0
    assert rows[("output", "mcnemar_p", "rename_short")].n == 4
    assert ("output", "robustness_gap", "for_to_while") not in rows
    # Families are axes of their own.
    assert rows[("output", "robustness_gap", "family:rewrite")].value == pytest.approx(100 / 4)
    assert rows[("output", "robustness_gap", "family:rename")].value == 0


def test_distractors_stay_out_of_the_overall_gap() -> None:
    bench = benchmark()
    bench.variants[:] = [
        v.model_copy(update={"family": "distractor"}) if v.id == "p2:eq1" else v
        for v in bench.variants
    ]
    found = {(r.task, r.metric, r.group): r for r in summarize(core_samples(), bench, "m")}
    assert found[("output", "robustness_gap", "all")].value == 0  # p1's eq1 only
    assert found[("output", "robustness_gap", "all")].n == 1
    assert found[("output", "robustness_gap", "family:distractor")].value == pytest.approx(50)


def test_coherence_table_and_superficial_rate() -> None:
    rows = rows_of(core_samples())
    # Units (variant, call) with probes: 8; p1's four have output right, probes wrong;
    # p2's have probes right, output wrong on one.
    cells = {
        g: rows[("output", "coherence", g)].value
        for g in (
            "output_right/probes_right",
            "output_right/probes_wrong",
            "output_wrong/probes_right",
            "output_wrong/probes_wrong",
        )
    }
    assert cells == pytest.approx(
        {
            "output_right/probes_right": 37.5,
            "output_right/probes_wrong": 50.0,
            "output_wrong/probes_right": 12.5,
            "output_wrong/probes_wrong": 0.0,
        }
    )
    assert sum(cells.values()) == pytest.approx(100)
    assert rows[("output", "superficial_rate", "any_probe_wrong")].value == pytest.approx(400 / 7)
    assert rows[("output", "superficial_rate", "any_probe_wrong")].n == 7
    # One wrong probe of two is not a majority.
    assert rows[("output", "superficial_rate", "majority_probes_wrong")].value == 0


def test_probe_accuracy_by_kind_dimension_and_position() -> None:
    rows = rows_of(core_samples())
    assert rows[("probe", "accuracy_by_kind", "state_after")].value == 100
    assert rows[("probe", "accuracy_by_kind", "branch")].value == pytest.approx(50)
    assert rows[("probe", "accuracy_by_dimension", "Logic")].value == pytest.approx(50)
    assert rows[("probe", "accuracy_by_dimension", "Arithmetic")].value == 100
    assert rows[("probe", "accuracy_by_position", "0-4")].n == 8
    assert rows[("probe", "accuracy_by_position", "50+")].value == pytest.approx(50)


def test_position_buckets() -> None:
    assert [position_bucket(i) for i in (0, 4, 5, 9, 10, 49, 50, 999)] == [
        "0-4",
        "0-4",
        "5-9",
        "5-9",
        "10-19",
        "20-49",
        "50+",
        "50+",
    ]


def test_pass_at_k_with_several_samples() -> None:
    samples = [sample("output", "p1:orig", 0, i < 2, index=i) for i in range(5)]
    samples += [sample("output", "p1:orig", 1, False, index=i) for i in range(5)]
    rows = rows_of(samples)
    assert rows[("output", "pass@1", "original")].value == pytest.approx(20)
    assert rows[("output", "pass@5", "original")].value == pytest.approx(50)
    assert ("output", "pass@10", "original") not in rows


def test_mutant_sensitivity_and_stale_answers() -> None:
    # The mutant changes call 0's output (1 -> 7) but not call 1's.
    outputs = {("p1:mut", 0): "7", ("p1:mut", 1): "2"}
    samples = [
        sample("output", "p1:mut", 0, True, answer="7"),
        sample("output", "p1:mut", 0, False, answer="1", index=1),
        sample("output", "p1:mut", 0, False, answer="5", index=2),
        sample("output", "p1:mut", 1, True, answer="2"),
    ]
    rows = rows_of(samples, mutant_outputs=outputs)
    assert rows[("output", "mutant_sensitivity", "all")].value == pytest.approx(100 / 3)
    assert rows[("output", "mutant_stale", "all")].value == pytest.approx(100 / 3)
    assert rows[("output", "mutant_sensitivity", "all")].n == 3
    assert not any(m.startswith("mutant") for _, m, _ in rows_of(samples))


def test_incremental_consistency_needs_every_stage() -> None:
    # Output, state and path only: IC would be vacuous, so there is no row.
    assert ("core", "IC", "all") not in rows_of(core_samples())
    bench = benchmark()
    bench.probes.extend(
        probe("c", f"{p}:{v}", call, "coverage", ["Logic"], 1)
        for p in ("p1", "p2")
        for v in ("orig", "eq1")
        for call in (0, 1)
    )
    coverage = [
        sample("probe", f"{p}:{v}", c, True, probe_id=f"{p}:{v}:c")
        for p in ("p1", "p2")
        for v in ("orig", "eq1")
        for c in (0, 1)
    ]
    found = {(r.task, r.metric, r.group): r for r in summarize(core_samples() + coverage, bench)}
    # p1's units: coverage and state right, path wrong, output right (inconsistent: 0); p2's:
    # coverage, state and path right, the output right (1) or, on eq1's call 0, wrong (0.5).
    assert found[("core", "IC", "all")].value == pytest.approx(100 * 3.5 / 8)
    assert found[("core", "IC", "all")].n == 8
    assert found[("core", "IC_consistent", "all")].value == pytest.approx(50)
    assert found[("core", "IC_all_wrong", "all")].value == 0
    assert found[("core", "IC_consistent_any_right", "all")].value == pytest.approx(50)
    assert found[("core", "IC_consistent_any_right", "all")].n == 8


def staged(sequences: dict[tuple[str, str, int], str]) -> list[Sample]:
    """Samples of units (problem, variant, call) whose coverage, state, path and output
    answers are right ("1") or wrong ("0") as the four characters say."""
    samples = []
    for (p, v, c), bits in sequences.items():
        cov, state, path, out = (bit == "1" for bit in bits)
        samples += [
            sample("probe", f"{p}:{v}", c, cov, probe_id=f"{p}:{v}:c"),
            sample("probe", f"{p}:{v}", c, state, probe_id=f"{p}:{v}:a"),
            sample("probe", f"{p}:{v}", c, path, probe_id=f"{p}:{v}:b"),
            sample("output", f"{p}:{v}", c, out),
        ]
    return samples


def staged_benchmark() -> Benchmark:
    bench = benchmark()  # probes a: state_after (state), b: branch (path)
    bench.probes.extend(
        probe("c", f"{p}:{v}", call, "coverage", ["Logic"], 1)
        for p in ("p1", "p2")
        for v in ("orig", "eq1")
        for call in (0, 1)
    )
    return bench


def ic_rows(sequences: dict[tuple[str, str, int], str]) -> dict[str, MetricRow]:
    rows = summarize(staged(sequences), staged_benchmark(), "m")
    return {r.metric: r for r in rows if r.task == "core" and r.metric.startswith("IC")}


def test_ic_is_reval_score_with_its_vacuous_share_beside_it() -> None:
    found = ic_rows(
        {
            ("p1", "orig", 0): "1111",  # all right: 1
            ("p1", "orig", 1): "0000",  # all wrong: consistent, scores 0
            ("p1", "eq1", 0): "0101",  # right after wrong: inconsistent, 0
            ("p1", "eq1", 1): "1100",  # REval's example: 1/2^2
            ("p2", "orig", 0): "0000",
            ("p2", "orig", 1): "1000",  # coverage alone: 1/2^3
            ("p2", "eq1", 0): "1110",  # all but the output: 1/2
            ("p2", "eq1", 1): "0000",
        }
    )
    assert found["IC"].value == pytest.approx(100 * (1 + 0.25 + 0.125 + 0.5) / 8)
    assert found["IC_consistent"].value == pytest.approx(100 * 7 / 8)
    assert found["IC_all_wrong"].value == pytest.approx(100 * 3 / 8)
    # Five units have a right answer; one of them (p1 eq1 call 0) turns right after a wrong.
    assert found["IC_consistent_any_right"].value == pytest.approx(100 * 4 / 5)
    assert [found[m].n for m in ("IC", "IC_consistent", "IC_all_wrong")] == [8, 8, 8]
    assert found["IC_consistent_any_right"].n == 5
    for row in found.values():
        assert row.ci_low is not None and row.ci_high is not None
        assert row.ci_low <= row.value <= row.ci_high


def test_a_model_wrong_on_every_answer_scores_no_ic() -> None:
    units = [(p, v, c) for p in ("p1", "p2") for v in ("orig", "eq1") for c in (0, 1)]
    found = ic_rows(dict.fromkeys(units, "0000"))
    assert found["IC"].value == 0
    # Consistent only vacuously, as the share beside it says.
    assert found["IC_consistent"].value == 100
    assert found["IC_all_wrong"].value == 100
    assert "IC_consistent_any_right" not in found


def test_a_model_right_on_every_answer_scores_100() -> None:
    units = [(p, v, c) for p in ("p1", "p2") for v in ("orig", "eq1") for c in (0, 1)]
    found = ic_rows(dict.fromkeys(units, "1111"))
    assert {m: r.value for m, r in found.items()} == {
        "IC": 100,
        "IC_consistent": 100,
        "IC_all_wrong": 0,
        "IC_consistent_any_right": 100,
    }


def test_right_after_wrong_is_inconsistent_at_every_stage() -> None:
    units = [(p, v, c) for p in ("p1", "p2") for v in ("orig", "eq1") for c in (0, 1)]
    for bits in ("0001", "0010", "0100", "1011", "1101", "0111"):
        found = ic_rows(dict.fromkeys(units, bits))
        assert found["IC"].value == 0, bits
        assert found["IC_consistent"].value == 0, bits
        assert found["IC_all_wrong"].value == 0, bits
        assert found["IC_consistent_any_right"].value == 0, bits


def test_a_model_wrong_everywhere_gets_no_vacuous_ic() -> None:
    # Issue 14: one probe per unit and every answer wrong gave IC = 100 [100, 100].
    wrong = [
        s.model_copy(update={"verdict": "wrong"})
        for s in core_samples()
        if s.task == "output" or (s.probe_id or "").endswith(":a")
    ]
    assert ("core", "IC", "all") not in rows_of(wrong)


REAL = """[Step 1] Line 2: kept = [] | locals: {words: ['a, b', 'c'], kept: []}
[Step 2] helper Line 7: x = 1 (Iter 1: w='a, b') | locals: {x: 1}
[Return] 3"""


def test_parse_steps_reads_locals_with_commas_in_values() -> None:
    assert parse_steps(REAL) == [
        [("", 2, "words", "['a, b', 'c']"), ("", 2, "kept", "[]")],
        [("helper", 7, "x", "1")],
    ]
    assert parse_steps("no steps here") == []


def test_trace_faithfulness() -> None:
    wrong = REAL.replace("{x: 1}", "{x: 2}")
    samples = [
        sample("output", "p1:orig", 0, True).model_copy(
            update={"strategy": "trace", "response": f"[TRACE]\n{REAL}\n[/TRACE]"}
        ),
        sample("output", "p1:orig", 1, True).model_copy(
            update={"strategy": "trace", "response": f"[TRACE]\n{wrong}\n[/TRACE]"}
        ),
    ]
    traces = {("p1:orig", 0): REAL, ("p1:orig", 1): REAL}
    rows = {
        (r.metric, r.group): r
        for r in summarize(samples, benchmark(), "m", traces=traces)
        if r.task == "trace"
    }
    assert rows[("trace_precision", "all")].value == pytest.approx(500 / 6)
    assert rows[("trace_recall", "all")].value == pytest.approx(500 / 6)
    assert rows[("trace_faithful", "all")].value == pytest.approx(50)
    assert rows[("trace_first_divergence", "all")].value == 2
    assert rows[("trace_first_divergence", "all")].n == 1

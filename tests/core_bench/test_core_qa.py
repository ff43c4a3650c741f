"""CoRE's data: implementations of one task as variants of one problem, questions kept on
their implementation, all of them in probes.jsonl, asked by a run and graded as written."""

from __future__ import annotations

import json
import os
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from core_bench.benchmark import load_benchmark
from core_bench.build import BuildOptions, build_benchmark
from core_bench.datasets import load_dataset
from core_bench.datasets._core_qa import _without_typing_annotations
from core_bench.grading import grade_response
from core_bench.runs import RunConfig, run

CORE_QA = os.environ.get("CORE_BENCH_CORE_QA")
needs_core_qa = pytest.mark.skipif(not CORE_QA, reason="CORE_BENCH_CORE_QA is not set")
SMALL = dict(variants=1, mutants=0, calls=4, probes=1)


def write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text(json.dumps(rows))
    return path


def row(id_: str, code: str, input_: str, output: str, question: str = "q") -> dict:
    """A CoRE QA row whose ground truth is its output."""
    return {
        "id": id_,
        "source_code": code,
        "input": input_,
        "output": output,
        "question": question,
        "ground_truth": output,
        "answer_type": "integer",
        "target_line_number": 3,
        "target_step_index": 4,
        "complexity_type": "State Accumulation",
        "meta_data": {"func_name": "total"},
    }


LOOP = "def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n"
BUILTIN = "def total(xs):\n    return sum(xs)\n"
WRONG = "def total(xs):\n    return sum(xs) + (len(xs) > 3)\n"
CONSUMING = "def total(xs):\n    s = 0\n    while xs:\n        s += xs.pop()\n    return s\n"
RECURSIVE = "def total(xs):\n    if not xs:\n        return 0\n    return xs[0] + total(xs[1:])\n"


def test_a_task_is_one_problem_with_its_first_implementation_as_original(tmp_path: Path) -> None:
    rows = [
        row("T/1_4", LOOP, "[1, 2]", "3", "What is s after line 4 runs twice?"),
        row("T/1_0", BUILTIN, "[5]", "5", "What does line 2 return?"),
        row("T/1_7", LOOP, "[5]", "5", "What is s after line 4 runs once?"),
        row("T/2_1", BUILTIN, "[]", "0"),
    ]
    loaded = load_dataset(f"core-qa={write(tmp_path / 'qa.json', rows)}")
    assert [r.problem.id for r in loaded.rows] == ["core-qa/T/1", "core-qa/T/2"]
    first = loaded.rows[0].problem
    assert first.code == LOOP and first.entry == "total" and loaded.rows[0].line == 1
    assert first.calls == ["total([1, 2])", "total([5])"] and first.outputs == ["3", "5"]
    [other] = loaded.implementations["core-qa/T/1"]
    assert (other.variant_id, other.code) == ("core-qa/T/1:re1", BUILTIN)
    assert other.origin == "core-qa:T/1_0"
    assert other.trusted and other.line == 2
    assert loaded.implementations["core-qa/T/2"] == []
    where = [(p.variant_id, p.call_index) for p in loaded.probes]
    assert where == [
        ("core-qa/T/1:original", 0),
        ("core-qa/T/1:re1", 1),
        ("core-qa/T/1:original", 1),
        ("core-qa/T/2:original", 0),
    ]


def test_rows_that_cannot_share_the_calls_are_skipped_with_a_reason(tmp_path: Path) -> None:
    other_name = row("T/1_2", BUILTIN.replace("total", "add"), "[1]", "1")
    other_name["meta_data"] = {"func_name": "add"}
    rows = [
        row("T/1_1", LOOP, "[1]", "1"),
        other_name,
        row("T/1_3", BUILTIN, "[1]", "2"),
    ]
    loaded = load_dataset(f"core-qa={write(tmp_path / 'qa.json', rows)}")
    reasons = {s.id: s.reason for s in loaded.skipped}
    assert "called as add" in reasons["T/1_2"] and "total" in reasons["T/1_2"]
    assert "states output 2" in reasons["T/1_3"]
    assert [p.id.split(":")[1] for p in loaded.probes] == ["T/1_1"]


def test_implementations_are_verified_and_generated_calls_they_disagree_on_dropped(
    tmp_path: Path,
) -> None:
    rows = [
        row("T/1_1", LOOP, "[1, 2]", "3", "q1"),
        row("T/1_2", RECURSIVE, "[4]", "4", "q2"),
        row("T/1_3", WRONG, "[1, 2, 3, 4]", "10", "q3"),
        row("T/1_4", BUILTIN, "[7, 1]", "8", "q4"),
        row("T/1_5", CONSUMING, "[2, 2]", "4", "q5"),
    ]
    out = tmp_path / "bench"
    options = BuildOptions(dataset=f"core-qa={write(tmp_path / 'qa.json', rows)}", **SMALL)
    result = build_benchmark(options, out, processes=1)
    bench = load_benchmark(out)
    counts = result.manifest.counts
    # WRONG agrees on the dataset's calls except its own ([1, 2, 3, 4] gives 11): left out.
    assert counts["reimplementations.core-qa.checked"] == 4
    # CONSUMING returns the same values but empties its argument: kept, and counted.
    assert counts["reimplementations.core-qa.kept"] == 3
    assert counts["reimplementations.core-qa.argument_state_differs"] >= 4
    assert counts["reimplementations.core-qa.rejected.not_equivalent"] == 1
    [left_out] = [s for s in result.manifest.skipped if s.id == "T/1_3"]
    assert "core-qa/T/1:re2 left out" in left_out.reason
    assert "total([1, 2, 3, 4])" in left_out.reason
    assert counts["probes.imported"] == 4 and counts["probes.imported.dropped"] == 1
    variants = {v.id: v for v in bench.variants}
    kept = (
        ("core-qa/T/1:re1", RECURSIVE),
        ("core-qa/T/1:re3", BUILTIN),
        ("core-qa/T/1:re4", CONSUMING),
    )
    for vid, code in kept:
        variant = variants[vid]
        assert variant.code == code and variant.kind == "equivalent"
        assert variant.family == "reimplementation" and variant.single
        assert variant.chain == ["reimplementation"] and variant.origin is not None
        assert variant.outputs == bench.problems[0].outputs
    imported = {p.question: p.variant_id for p in bench.probes if p.kind == "imported"}
    assert imported == {
        "q1": "core-qa/T/1:original",
        "q2": "core-qa/T/1:re1",
        "q4": "core-qa/T/1:re3",
        "q5": "core-qa/T/1:re4",
    }
    assert any(p.variant_id == "core-qa/T/1:re1" and p.kind != "imported" for p in bench.probes)


@pytest.fixture(scope="module")
def core_bench_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("core-qa")
    build_benchmark(BuildOptions(dataset=f"core-qa={CORE_QA}", **SMALL), out)
    return out


@needs_core_qa
@pytest.mark.slow
def test_core_qa_build_groups_implementations_and_keeps_every_question(
    core_bench_dir: Path,
) -> None:
    out = core_bench_dir
    bench = load_benchmark(out)
    rows = json.loads(Path(str(CORE_QA)).read_text())
    questions = [r for r in rows if isinstance(r.get("question"), str)]
    tasks = {r["id"].rsplit("_", 1)[0] for r in rows}
    print("\ncore-qa build counts:", bench.manifest.counts)
    assert len(bench.problems) == len(tasks) == 60
    imported = [p for p in bench.probes if p.kind == "imported"]
    assert len(imported) == len(questions) == 242
    variants = {v.id: v for v in bench.variants}
    problems = {p.id: p for p in bench.problems}
    for probe in imported:
        asked = rows[int(probe.id.rsplit(":", 1)[1])]
        variant = variants[probe.variant_id]
        assert variant.code == _without_typing_annotations(asked["source_code"])
        call = problems[probe.problem_id].calls[probe.call_index]
        assert call.endswith(f"({asked['input']})")
    codes: dict[str, set[str]] = defaultdict(set)
    for r in rows:
        codes[r["id"].rsplit("_", 1)[0]].add(_without_typing_annotations(r["source_code"]))
    reimplementations = Counter(
        v.problem_id for v in bench.variants if v.family == "reimplementation"
    )
    for task, seen in codes.items():
        assert reimplementations[f"core-qa/{task}"] == len(seen) - 1
    without = [
        p.id
        for p in bench.problems
        if not any(v.problem_id == p.id and v.kind == "equivalent" for v in bench.variants)
    ]
    assert len(without) <= sum(len(seen) == 1 for seen in codes.values())


@needs_core_qa
@pytest.mark.slow
def test_a_run_asks_and_grades_every_imported_question(
    core_bench_dir: Path, tmp_path: Path
) -> None:
    out = core_bench_dir
    ids = {p.id for p in load_benchmark(out).probes if p.kind == "imported"}
    result = run(
        RunConfig(model="ref:oracle", bench=out, out=tmp_path / "run", tasks=("probe",)),
        progress=False,
    )
    imported = [s for s in result.samples if s.probe_id in ids]
    assert len(imported) == 242
    verdicts = Counter(s.verdict for s in imported)
    assert verdicts == {"correct": 242}, verdicts


@pytest.mark.parametrize(
    "response, expected, verdict",
    [
        ("[ANSWER]\n'f'\n[/ANSWER]", "f", "correct"),
        ("[ANSWER]\nf\n[/ANSWER]", "f", "correct"),
        ("[ANSWER]\n'g'\n[/ANSWER]", "f", "wrong"),
        ("[ANSWER]\ni=0, j=1, k=3\n[/ANSWER]", "i=0, j=1, k=3", "correct"),
        ("[ANSWER]\ni=0, j=2, k=3\n[/ANSWER]", "i=0, j=1, k=3", "wrong"),
        ("[THOUGHT]\nthe else branch\n[/THOUGHT]\n[ANSWER]\n`else`\n[/ANSWER]", "else", "correct"),
        ("[ANSWER]\n'3'\n[/ANSWER]", "3", "wrong"),  # a literal expected stays typed
        ("[ANSWER]\ninf\n[/ANSWER]", "inf", "correct"),
    ],
)
def test_questions_expecting_free_text_are_graded_as_written(
    response: str, expected: str, verdict: str
) -> None:
    assert grade_response(response, task="probe", expected=expected)[1] == verdict

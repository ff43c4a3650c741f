"""One reader of JSON Lines records (`schemas.read_records`): every file it reads names the
file, the line, the field and the problem of a bad line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core_bench.benchmark import read_jsonl
from core_bench.runs import read_graded
from core_bench.schemas import Problem, read_records

GOOD = Problem(
    id="p1",
    source="bundled",
    code="def f(x):\n    return x",
    entry="f",
    calls=["f(1)"],
    outputs=["1"],
)


def test_records_are_read_back_and_blank_lines_skipped(tmp_path: Path) -> None:
    path = tmp_path / "problems.jsonl"
    path.write_text(
        GOOD.model_dump_json()
        + "\n\n"
        + GOOD.model_copy(update={"id": "p2"}).model_dump_json()
        + "\n"
    )
    assert [p.id for p in read_records(path, Problem)] == ["p1", "p2"]


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ('{"id": "p2"}', r"not a valid problem \(source: Field required\)"),
        ("{not json", r"not a valid problem \(the line: Invalid JSON"),
    ],
)
def test_a_bad_line_names_file_line_field_and_problem(
    tmp_path: Path, line: str, problem: str
) -> None:
    path = tmp_path / "problems.jsonl"
    path.write_text(GOOD.model_dump_json() + "\n" + line + "\n")
    with pytest.raises(ValueError, match=rf"problems\.jsonl:2: {problem}"):
        read_jsonl(path, Problem)


def test_samples_name_the_bad_line_alike(tmp_path: Path) -> None:
    path = tmp_path / "samples.jsonl"
    path.write_text("\n[1]\n")
    with pytest.raises(ValueError, match=r"samples\.jsonl:2: not a valid sample \(the line: "):
        list(read_graded(path))


@pytest.mark.parametrize(
    "field, value", [("task", "outputs"), ("verdict", "great"), ("strategy", "guess")]
)
def test_a_sample_with_an_unknown_label_is_named(tmp_path: Path, field: str, value: str) -> None:
    good = {
        "task_id": "direct/output/p:original:c0",
        "task": "output",
        "strategy": "direct",
        "problem_id": "p",
        "variant_id": "p:original",
        "call_index": 0,
        "sample_index": 0,
        "prompt_hash": "0" * 16,
        "response": "[ANSWER]1[/ANSWER]",
        "answer": "1",
        "verdict": "correct",
    }
    path = tmp_path / "samples.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps({**good, field: value}) + "\n")
    with pytest.raises(ValueError, match=rf"samples\.jsonl:2: not a valid sample \({field}: "):
        list(read_graded(path))

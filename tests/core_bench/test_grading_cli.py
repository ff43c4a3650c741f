"""`core-bench cruxeval-score`: the scored file, the printed figures, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_testing import refused

from core_bench.cli import main

ROWS = [
    {"code": "def f(x):\n    return x + 1", "input": "1", "output": "2", "id": "sample_0"},
    {"code": "def f(s):\n    return s[::-1]", "input": "'ab'", "output": "'ba'", "id": "sample_1"},
    {"code": "def f(a, b):\n    return a * b", "input": "3, 4", "output": "12", "id": "sample_2"},
]


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    path = tmp_path / "cruxeval.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in ROWS), encoding="utf-8")
    return path


def _write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_scores_output_generations_into_the_official_format(
    tmp_path: Path, dataset: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gens = {
        "sample_0": ["2", "3", "f(1)"],  # right, wrong, echo (left out)
        "sample_1": ["'b' + 'a'"],  # an expression: right
        "sample_2": ["11", "13"],  # none right: [False, False]
    }
    generations = _write(tmp_path / "gen.json", gens)
    out = tmp_path / "scored.json"
    status = main(
        [
            "cruxeval-score",
            str(generations),
            "--mode",
            "output",
            "--dataset",
            str(dataset),
            "--out",
            str(out),
            "--workers",
            "1",
        ]
    )
    assert status == 0
    scored = json.loads(out.read_text(encoding="utf-8"))
    assert scored["raw_generations"] == gens
    assert scored["raw_scored_generations"] == {
        "sample_0": [True, False],
        "sample_1": [True],
        "sample_2": [False, False],
    }
    assert scored["pass_at_1"] == pytest.approx((0.5 + 1 + 0) / 3 * 100)
    # The official estimator: n - c < k gives 1.0, so with fewer than 5 generations pass@5 is
    # 1.0 even for a sample with none right.
    assert scored["pass_at_5"] == 100.0
    assert capsys.readouterr().out.strip() == "pass@1: 50.0 pass@5: 100.0"


def test_input_mode_reads_the_dataset_from_the_environment(
    tmp_path: Path,
    dataset: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("CORE_BENCH_CRUXEVAL", str(dataset))
    gens = {"sample_0": ["f(1)"], "sample_1": ["f('ab')", "'ab'"], "sample_2": ["f(4, 3)"]}
    generations = _write(tmp_path / "gen.json", gens)
    assert main(["cruxeval-score", str(generations), "--mode", "input", "--workers", "1"]) == 0
    assert capsys.readouterr().out.strip() == "pass@1: 100.0 pass@5: 100.0"


@pytest.mark.parametrize(
    ("content", "mode", "message"),
    [
        (None, "output", "no such file"),
        ("{not json", "output", "not JSON (line 1"),
        ("[1, 2]", "output", "expected a JSON object"),
        ('{"sample_0": ["2"]}', "output", "no 'sample_1'"),
        ('{"sample_0": ["2"], "sample_1": "x", "sample_2": []}', "output", "list of strings"),
        ('{"sample_0": []}', "both", "--mode must be 'input' or 'output', got 'both'"),
    ],
)
def test_bad_input_gives_one_line_and_status_2(
    content: str | None,
    mode: str,
    message: str,
    tmp_path: Path,
    dataset: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "gen.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    argv = ["cruxeval-score", str(path), "--mode", mode, "--dataset", str(dataset)]
    assert message in refused(argv, capsys)


def test_a_dataset_row_that_does_not_load_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps(ROWS[0]) + "\n{oops\n", encoding="utf-8")
    generations = _write(tmp_path / "gen.json", {"sample_0": ["2"]})
    status = main(
        ["cruxeval-score", str(generations), "--mode", "output", "--dataset", str(broken)]
    )
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "broken.jsonl:2" in err

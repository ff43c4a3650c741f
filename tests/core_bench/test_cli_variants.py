"""`core-bench variants`: verified variants with diffs, JSON output, errors with status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core_bench.cli import main
from tracer import trace

CODE = """\
def f(nums, k):
    total = 0
    for i in range(len(nums)):
        if nums[i] % k == 0:
            total += nums[i]
    return total
"""


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "f.py"
    path.write_text(CODE)
    return path


def test_json_variants_are_equivalent_and_described(
    source: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["variants", str(source), "--call", "f([3, 4, 6, 9], 3)", "--call", "f([], 2)"]
    assert main([*args, "-k", "3", "--mutants", "1", "--json"]) == 0
    variants = json.loads(capsys.readouterr().out)
    kinds = [v["kind"] for v in variants]
    assert kinds.count("equivalent") == 3 and kinds.count("mutant") == 1
    for v in variants:
        assert {"code", "chain", "kind", "jaccard", "cc", "verified_calls"} <= set(v)
        assert v["verified_calls"] >= 2 and v["chain"]
        assert 0.0 <= v["jaccard"] < 1.0 or v["kind"] == "mutant"
    equivalents = [v for v in variants if v["kind"] == "equivalent"]
    assert {trace(v["code"], "f([3, 4, 6, 9, 12], 3)").result for v in equivalents} == {"30"}


def test_text_output_shows_a_diff_per_variant(
    source: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["variants", str(source), "--call", "f([3, 4, 6, 9], 3)", "-k", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("--- original") == 2 and "+++ equivalent 2" in out
    assert "# equivalent 1: " in out and "verified on" in out


@pytest.mark.parametrize(
    ("call", "message"),
    [("f(", "call does not parse"), ("f([1], 0)", "the original does not run: ZeroDivisionError")],
)
def test_errors_are_one_line_with_status_2(
    source: Path, call: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["variants", str(source), "--call", call]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err

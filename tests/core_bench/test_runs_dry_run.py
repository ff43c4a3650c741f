"""`core-bench run --dry-run` and `--suite` on the command line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from shared_builds import small_benchmark

from core_bench.benchmark import load_benchmark
from core_bench.cli import main
from core_bench.runs import estimate_tokens, make_tasks, render


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return Path(small_benchmark(tmp_path_factory.getbasetemp()))


def test_dry_run_counts_requests_and_tokens_and_sends_nothing(
    bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["run", "--model", "openai:never-called", "--base-url", "http://127.0.0.1:9/v1"]
    flags = ["--bench", str(bench), "--suite", "full", "--strategies", "direct,cot"]
    flags += ["--samples", "3", "--max-tokens", "100", "--out", str(tmp_path / "run")]
    assert main([*argv, *flags, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert not (tmp_path / "run").exists()  # nothing written, nothing sent (port 9 is closed)
    tasks = make_tasks(load_benchmark(bench), strategies=("direct", "cot"))
    total = next(line for line in out.splitlines() if line.startswith("total"))
    numbers = [int(x.replace(",", "")) for x in re.findall(r"[\d,]+", total)]
    assert numbers[0] == len(tasks)  # tasks
    assert numbers[1] == 3 * len(tasks)  # requests: x3 samples
    expected_prompt = 3 * sum(
        estimate_tokens(m["content"]) + 4 for t in tasks for m in render(t).messages
    )
    assert numbers[2] == expected_prompt
    assert numbers[3] == 3 * len(tasks) * 100  # the --max-tokens bound
    for kind in ("output", "input", "probe"):
        assert any(line.startswith(kind) for line in out.splitlines())


def test_a_suite_is_recorded_and_quick_is_smaller(
    bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["run", "--model", "ref:oracle", "--bench", str(bench), "--quiet"]
    assert main([*argv, "--suite", "quick", "--out", str(tmp_path / "quick")]) == 0
    closing = capsys.readouterr().out
    assert "  verdicts: correct " in closing  # the closing lines: verdicts, headline, report
    assert re.search(r"output pass@1 +direct +100\.0 \[100\.0, 100\.0\]  n=\d+", closing)
    assert f"report: {tmp_path / 'quick' / 'report.md'}" in closing
    assert main([*argv, "--out", str(tmp_path / "full")]) == 0
    quick = json.loads((tmp_path / "quick" / "manifest.json").read_text())
    full = json.loads((tmp_path / "full" / "manifest.json").read_text())
    assert quick["config"]["suite"] == "quick" and full["config"]["suite"] == "full"
    assert 0 < quick["counts"]["tasks"] < full["counts"]["tasks"]
    assert quick["counts"]["tasks"] <= 500


def test_a_real_model_defaults_to_standard_unless_limited(
    bench: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["run", "--model", "openai:m", "--base-url", "http://127.0.0.1:9/v1"]
    assert main([*argv, "--bench", str(bench), "--dry-run"]) == 0
    assert "suite standard" in capsys.readouterr().out
    assert main([*argv, "--bench", str(bench), "--dry-run", "--limit", "2"]) == 0
    assert "suite full" in capsys.readouterr().out


def test_report_baselines_run_on_the_runs_suite(bench: Path, tmp_path: Path) -> None:
    from core_bench.report import write_report

    argv = ["run", "--model", "ref:superficial", "--bench", str(bench), "--quiet"]
    assert main([*argv, "--suite", "quick", "--out", str(tmp_path / "run")]) == 0
    write_report([tmp_path / "run"], tmp_path / "report", plots=False, baselines=True)
    manifests = [
        json.loads((d / "manifest.json").read_text())
        for d in sorted((tmp_path / "report" / "baselines").iterdir())
    ]
    assert {m["model"] for m in manifests} == {"ref:oracle", "ref:blind"}
    run_tasks = json.loads((tmp_path / "run" / "manifest.json").read_text())["counts"]["tasks"]
    for manifest in manifests:
        assert manifest["config"]["suite"] == "quick"
        assert manifest["counts"]["tasks"] == run_tasks

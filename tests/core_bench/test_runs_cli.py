"""`core-bench run` on the command line: flags, errors, defaults, the bundled benchmark."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from shared_builds import small_benchmark

import core_bench.runs._bundled as bundled
from core_bench.benchmark import load_benchmark
from core_bench.build import BuildOptions
from core_bench.cli import main
from core_bench.datasets import load_dataset
from core_bench.fake_openai import FakeOpenAI, answers_for, tasks_of
from core_bench.runs import AGENTS


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return Path(small_benchmark(tmp_path_factory.getbasetemp()))


def status_of(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as stop:
        return int(stop.code or 0)


@pytest.mark.parametrize(
    "flags, expected",
    [
        (["--model", "gpt-4"], "expected openai:<name> or ref:<agent>"),
        (["--model", "ref:genius"], ", ".join(AGENTS)),
        (["--model", "ref:oracle", "--tasks", "output,bogus"], "output, input, probe"),
        (["--model", "ref:oracle", "--strategies", "fast"], "direct, cot, trace"),
        (["--model", "ref:oracle", "--limit", "0"], "expected a positive whole number"),
        (["--model", "ref:oracle", "--samples", "x"], "expected a positive whole number"),
        (["--model", "ref:oracle", "--temperature", "-1"], "expected a number >= 0"),
        (["--model", "ref:oracle", "--api", "rpc"], "invalid choice"),
        (["--model", "ref:oracle", "--top-p", "2"], "--top-p: expected a number in (0, 1]"),
        (["--model", "ref:oracle", "--system-prompt", "@/no/such/file"], "cannot read"),
        (["--model", "ref:oracle", "--bench", "/no/such/dir"], "not a benchmark directory"),
        ([], "--model"),
    ],
)
def test_bad_flags_give_one_line_naming_what_was_expected(
    flags: list[str], expected: str, capsys: pytest.CaptureFixture[str], bench: Path
) -> None:
    if "--bench" not in flags and flags:
        flags = [*flags, "--bench", str(bench)]
    assert status_of(["run", *flags]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith("core-bench run: error:") and expected in err


def test_openai_without_a_key_for_openai_itself_is_a_usage_error(
    bench: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    assert status_of(["run", "--model", "openai:gpt-4o-mini", "--bench", str(bench)]) == 2
    assert "OPENAI_API_KEY" in capsys.readouterr().err


def test_reference_agent_run_prints_accuracy_and_writes_the_run_directory(
    bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "oracle"
    argv = [
        "run",
        "--model",
        "ref:oracle",
        "--bench",
        str(bench),
        "--out",
        str(out),
        "--limit",
        "1",
    ]
    assert main([*argv, "--quiet"]) == 0
    printed = capsys.readouterr().out
    samples = len((out / "samples.jsonl").read_text().splitlines())
    assert samples > 0 and f"ref:oracle: {samples} samples" in printed
    assert f"verdicts: correct {samples:,}\n" in printed
    assert re.search(r"output pass@1 +direct +100\.0 ", printed)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["run"]["model"] == "ref:oracle" and summary["run"]["status"] == "complete"
    assert summary["metrics"] and {"model", "strategy", "task", "metric"} <= set(
        summary["metrics"][0]
    )
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["benchmark"]["sha256"] and manifest["package_versions"]["python"]
    assert manifest["config"]["limit"] == 1 and manifest["counts"]["failed"] == 0


def test_default_out_is_stable_so_the_same_command_resumes(
    bench: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    argv = ["run", "--model", "ref:echo", "--bench", str(bench), "--limit", "1", "--quiet"]
    assert main(argv) == 0
    capsys.readouterr()
    assert main(argv) == 0
    runs = list((tmp_path / "runs").iterdir())
    assert len(runs) == 1 and runs[0].name.startswith("ref-echo-")
    assert " 0 requested" in capsys.readouterr().out
    assert main([*argv, "--seed", "3"]) == 0
    assert len(list((tmp_path / "runs").iterdir())) == 2


def test_several_models_get_one_directory_each(bench: Path, tmp_path: Path) -> None:
    argv = ["run", "--model", "ref:oracle", "--model", "ref:superficial", "--bench", str(bench)]
    assert main([*argv, "--out", str(tmp_path), "--limit", "1", "--quiet"]) == 0
    names = sorted(p.name.rsplit("-", 1)[0] for p in tmp_path.iterdir())
    assert names == ["ref-oracle", "ref-superficial"]


def test_system_prompt_from_a_file(bench: Path, tmp_path: Path) -> None:
    (tmp_path / "system.txt").write_text("You are exact.\n")
    tasks = tasks_of(load_benchmark(bench), limit=1)
    with FakeOpenAI(answers_for(tasks)) as server:
        argv = ["run", "--model", "openai:m", "--base-url", server.url, "--bench", str(bench)]
        flags = ["--limit", "1", "--system-prompt", f"@{tmp_path / 'system.txt'}", "--quiet"]
        assert main([*argv, *flags, "--out", str(tmp_path / "out")]) == 0
    assert server.bodies[0]["messages"][0] == {"role": "system", "content": "You are exact."}


def test_endpoint_and_key_from_the_environment(
    bench: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tasks = tasks_of(load_benchmark(bench), limit=1)
    with FakeOpenAI(answers_for(tasks)) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env")
        argv = ["run", "--model", "openai:m", "--bench", str(bench), "--limit", "1", "--quiet"]
        assert main([*argv, "--out", str(tmp_path)]) == 0
    assert set(server.keys) == {"Bearer sk-from-env"}
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["base_urls"] == [server.url]
    assert "sk-from-env" not in json.dumps(manifest)


def test_failed_requests_exit_1_and_say_how_to_retry(
    bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with FakeOpenAI(fault_rate=1.0, fault_kinds=("400",)) as server:
        argv = ["run", "--model", "openai:m", "--base-url", server.url, "--bench", str(bench)]
        assert main([*argv, "--limit", "1", "--quiet", "--out", str(tmp_path)]) == 1
    assert "run the same command again" in capsys.readouterr().err
    assert json.loads((tmp_path / "manifest.json").read_text())["status"] == "incomplete"


def test_without_bench_the_bundled_benchmark_is_built_once_into_the_cache(
    bench: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CORE_BENCH_CACHE", str(tmp_path / "cache"))
    builds: list[Path] = []

    def fake_build(options: BuildOptions, out: Path) -> None:
        assert options == BuildOptions()  # the defaults
        builds.append(out)
        shutil.copytree(bench, out, dirs_exist_ok=True)  # a full bundled build takes minutes

    monkeypatch.setattr(bundled, "build_benchmark", fake_build)
    argv = ["run", "--model", "ref:oracle", "--limit", "1", "--quiet"]
    assert main([*argv, "--out", str(tmp_path / "a")]) == 0
    assert main([*argv, "--out", str(tmp_path / "b")]) == 0
    fingerprint = BuildOptions().fingerprint(load_dataset("bundled").info.sha256)
    assert builds == [tmp_path / "cache" / "benchmarks" / fingerprint]
    manifest = json.loads((tmp_path / "b" / "manifest.json").read_text())
    assert manifest["benchmark"]["path"] == str(builds[0])

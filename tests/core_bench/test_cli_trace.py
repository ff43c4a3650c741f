"""`core-bench trace`: formats, standard input, and one-line errors with status 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_testing import refused

from core_bench.cli import main
from tracer import Trace

EXAMPLE = Path(__file__).resolve().parents[2] / "data" / "examples" / "update_arr.py"
CALL = "update_arr([1, 5, 9], 2)"


@pytest.mark.parametrize("extra", [[], ["--in-process"]])
def test_core_format_shows_the_papers_states(
    extra: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["trace", str(EXAMPLE), "--call", CALL, "--format", "core", *extra]) == 0
    out = capsys.readouterr().out
    assert "(Iter 2: i=1) | locals: {arr: [1, 1, 9], factor: 2, i: 1}" in out
    assert out.rstrip().endswith("[Return] [1, 1, 9]")


def test_json_format_round_trips(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["trace", str(EXAMPLE), "--call", CALL, "--format", "json"]) == 0
    t = Trace.from_json(json.loads(capsys.readouterr().out))
    assert t.result == "[1, 1, 9]" and t.steps[0].event == "call"


def test_cwm_and_text_formats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["trace", str(EXAMPLE), "--call", CALL, "--format", "cwm"]) == 0
    frames = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert frames[0]["event"] == "call" and frames[-1]["value"] == "[1, 1, 9]"
    assert main(["trace", str(EXAMPLE), "--call", CALL]) == 0
    assert "branch=True" in capsys.readouterr().out


def test_reads_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("def f(x):\n    return x * 2\n"))
    assert main(["trace", "-", "--call", "f(21)", "--format", "core"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("[Return] 42")


def test_max_steps_truncates(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "loop.py"
    source.write_text("def f():\n    while True:\n        pass\n")
    assert (
        main(["trace", str(source), "--call", "f()", "--max-steps", "50", "--format", "json"]) == 0
    )
    t = Trace.from_json(json.loads(capsys.readouterr().out))
    assert t.truncated and len(t.steps) == 50


def test_a_missing_file_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "code.py"
    assert "no such file" in refused(["trace", str(missing), "--call", "f(1)"], capsys)


@pytest.mark.parametrize(
    ("source", "call", "message"),
    [
        ("def f(x):\n    return x +\n", "f(1)", "line 2"),
        ("def f(x):\n    return x\n", "f(", "call does not parse"),
        ("def f(x):\n    return x\n", "g(1)", "names nothing"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    source: str, call: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "code.py"
    path.write_text(source)
    assert message in refused(["trace", str(path), "--call", call], capsys)


def test_console_script_is_installed() -> None:
    exe = Path(sys.executable).parent / "core-bench"
    done = subprocess.run(
        [str(exe), "trace", str(EXAMPLE), "--call", CALL, "--format", "core"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "[Return] [1, 1, 9]" in done.stdout

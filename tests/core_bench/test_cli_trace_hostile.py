"""`core-bench trace` on hostile code: escapes control characters, honours --timeout in-process."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from sandbox_modes import HANG_GUARD

from core_bench.cli import main
from core_bench.commands.trace_cmd import escape_controls

HOSTILE = (
    "def f(x):\n"
    "    class A:\n"
    "        def __repr__(self):\n"
    "            return '\\x1b[2J\\x1b]0;pwned\\x07\\u202e\\x85'\n"
    "    a = A()\n"
    "    return '\\x1b[31m' + x\n"
)


@pytest.mark.parametrize("fmt", ["text", "core", "cwm", "json"])
@pytest.mark.parametrize("extra", [[], ["--in-process"]])
def test_control_characters_are_escaped(
    fmt: str, extra: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "hostile.py"
    source.write_text(HOSTILE)
    assert main(["trace", str(source), "--call", "f('a')", "--format", fmt, *extra]) == 0
    out = capsys.readouterr().out
    assert not any(c in out for c in "\x1b\x07\u202e\x85")
    assert "\\u001b" in out or "\\\\u001b" in out
    if fmt == "json":
        assert json.loads(out)["result"] == repr("\x1b[31ma")
    if fmt == "cwm":
        assert all(json.loads(line) for line in out.splitlines())


def test_errors_are_escaped_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "raises.py"
    source.write_text("raise ValueError('\\x1b[2J')\ndef f():\n    pass\n")
    assert main(["trace", str(source), "--call", "f()"]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\\u001b" in err


def test_escape_keeps_newlines_and_text() -> None:
    assert escape_controls("a\nb\tc\u2028é") == "a\nb\\u0009c\\u2028é"


@HANG_GUARD
def test_in_process_tracing_honours_the_timeout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "loop.py"
    source.write_text(
        "def f():\n    while True:\n        try:\n            pass\n"
        "        except BaseException:\n            pass\n"
    )
    argv = ["trace", str(source), "--call", "f()", "--in-process", "--timeout", "0.5"]
    assert main([*argv, "--max-steps", "100000000"]) == 2
    assert "did not finish within --timeout 0.5 s" in capsys.readouterr().err


def test_a_repeated_timeout_tick_does_not_interrupt_code_outside_the_traced_code() -> None:
    # Found under load: a repeat of the alarm (every 0.1 s) fired while the first interruption
    # was still unwinding through the tracer and Python's own error handling. Here the first
    # interruption is caught by code that is not traced code, which then runs on for 0.6 s.
    from core_bench.commands.trace_cmd import _deadline, _TimedOut

    interruptions = 0
    with _deadline(0.05) as fired:
        deadline = time.monotonic() + 5
        while not fired[0] and time.monotonic() < deadline:
            try:
                time.sleep(0.01)
            except _TimedOut:
                interruptions += 1
        quiet_until = time.monotonic() + 0.6
        while time.monotonic() < quiet_until:
            try:
                time.sleep(0.01)
            except _TimedOut:
                interruptions += 1
    assert fired[0] and interruptions == 1

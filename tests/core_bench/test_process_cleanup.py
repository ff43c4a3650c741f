"""A command killed with SIGKILL leaves no process behind: its build processes and sandbox
workers (under bubblewrap or not) die with it. So does a build ended by SIGTERM (exit 143).
(A run ended by SIGINT or SIGTERM: test_cli_signals.)"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from processes import alive, assert_all_gone, descendants
from sandbox_modes import HANG_GUARD
from shared_builds import small_benchmark

pytestmark = HANG_GUARD

CLI = [sys.executable, "-c", "from core_bench.cli import main; raise SystemExit(main())"]


def _kill_when_busy(
    argv: list[str],
    cwd: Path,
    wanted: int,
    command: list[str] = CLI,
    signum: int = signal.SIGKILL,
    ended: list[int] | None = None,
) -> dict[int, str]:
    """Start the command, wait until it has `wanted` descendants, send it `signum`; returns
    every descendant seen, and appends the command's exit status to `ended`."""
    process = subprocess.Popen(
        [*command, *argv], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    seen: dict[int, str] = {}
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and process.poll() is None:
            seen.update(descendants(process.pid))
            if len(alive(seen)) >= wanted:
                break
            time.sleep(0.05)
        assert process.poll() is None, "the command ended before it could be killed"
        assert len(alive(seen)) >= wanted, f"only {len(seen)} descendants appeared"
        seen.update(descendants(process.pid))
    finally:
        process.send_signal(signum)
        status = process.wait()
    if ended is not None:
        ended.append(status)
    return seen


def test_a_killed_build_leaves_no_process(tmp_path: Path) -> None:
    argv = ["build", "--dataset", "bundled", "--limit", "12", "--out", str(tmp_path / "b")]
    # the build processes and, below them, their sandbox workers
    seen = _kill_when_busy(argv, tmp_path, wanted=4)
    assert_all_gone(seen)


def test_a_build_ended_by_sigterm_exits_143_and_leaves_no_process(tmp_path: Path) -> None:
    argv = ["build", "--dataset", "bundled", "--limit", "12", "--out", str(tmp_path / "b")]
    ended: list[int] = []
    seen = _kill_when_busy(argv, tmp_path, wanted=4, signum=signal.SIGTERM, ended=ended)
    assert ended == [143]  # it exited (the handler ran), not killed by the signal (-15)
    assert_all_gone(seen)


def test_a_killed_run_leaves_no_process(tmp_path: Path) -> None:
    bench = small_benchmark(tmp_path / "bench")
    argv = [
        "run", "--model", "ref:oracle", "--bench", str(bench), "--out", str(tmp_path / "r"),
        "--strategies", "direct,trace", "--quiet",
    ]  # fmt: skip
    seen = _kill_when_busy(argv, tmp_path, wanted=2)
    assert_all_gone(seen)


def test_killed_variant_generation_leaves_no_process(tmp_path: Path) -> None:
    # generate_variants_many spreads problems over spawned processes (the CRUXEval-wide tests
    # use it): two of them outlived a pytest stopped in the middle of one.
    program = (
        "from transforms._generate import Problem, generate_variants_many\n"
        "code = 'def f(xs):\\n    out = []\\n    for x in xs:\\n        out.append(x * 2)\\n'"
        " '    return out\\n'\n"
        "problems = [Problem(code, (f'f({list(range(i))})',)) for i in range(40)]\n"
        "generate_variants_many(problems, processes=2, chunk_size=1)\n"
    )
    seen = _kill_when_busy([], tmp_path, wanted=4, command=[sys.executable, "-c", program])
    assert_all_gone(seen)

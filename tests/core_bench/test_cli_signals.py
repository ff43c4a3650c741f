"""`core-bench` stopped by a signal, as a separate process: Ctrl-C (SIGINT) and SIGTERM (what
`kill`, `timeout`, batch schedulers and `docker stop` send) end a run the same way, with one
line, exit status 130 or 143, an `interrupted` manifest with counts, no sandbox worker left
behind, and a rerun that resumes. An inherited ignored SIGINT (a background job) stays
ignored; SIGTERM still ends such a run.

Each signal is sent at an observable point: the fake server holds every answer after the
first few, so the run is waiting on requests in flight when the signal is sent, however
loaded the machine.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from processes import assert_all_gone, descendants, process_groups
from sandbox_modes import HANG_GUARD
from shared_builds import small_benchmark

from core_bench.cli import main
from core_bench.fake_openai import DEFAULT_ANSWER, FakeOpenAI

pytestmark = HANG_GUARD

AT_A_TERMINAL = (
    "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "from core_bench.cli import main; sys.exit(main())"
)
"""`core-bench` as a terminal starts it: Ctrl-C raises KeyboardInterrupt. A child inherits an
ignored SIGINT (pytest started as a background job of a script: `pytest ... &`), and Python
then leaves it ignored: the run went on to its end with status 0 (issue 12's lost Ctrl-C)."""

AS_INSTALLED = "from core_bench.cli import main; import sys; sys.exit(main())"
"""What the `core-bench` script runs, signals as inherited."""

HANG_GUARD_S = 600.0


class Gate:
    """Answers for the fake server: the first `open_for` prompts at once, every later one
    held until `let_through` lets it or `release` lets all (or the hang guard)."""

    def __init__(self, open_for: int) -> None:
        self.open_for = open_for
        self.asked = 0
        self.held = 0
        self._released = False
        self._changed = threading.Condition()

    def __call__(self, prompt: str) -> str:
        with self._changed:
            self.asked += 1
            number = self.asked
            self.held += 1
            self._changed.wait_for(
                lambda: self._released or number <= self.open_for, timeout=HANG_GUARD_S
            )
            self.held -= 1
        return DEFAULT_ANSWER

    def let_through(self, more: int) -> None:
        """Answer `more` further prompts, the held ones first."""
        with self._changed:
            self.open_for += more
            self._changed.notify_all()

    def release(self) -> None:
        with self._changed:
            self._released = True
            self._changed.notify_all()


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return Path(small_benchmark(tmp_path_factory.getbasetemp()))


@pytest.fixture
def gate() -> Gate:
    return Gate(open_for=4)


@pytest.fixture
def server(gate: Gate) -> Iterator[FakeOpenAI]:
    with FakeOpenAI(answers=gate) as fake:
        yield fake
        gate.release()  # before the server's threads are joined


def run_argv(server: FakeOpenAI, bench: Path, out: Path) -> list[str]:
    """One problem's input tasks (graded in the sandbox: the run has sandbox workers), two
    requests at a time."""
    return [
        "run", "--model", "openai:m", "--base-url", server.url, "--bench", str(bench),
        "--out", str(out), "--tasks", "input", "--limit", "1", "--concurrency", "2", "--quiet",
    ]  # fmt: skip


def start(program: str, argv: list[str], *, sigint_ignored: bool = False) -> subprocess.Popen[str]:
    """`python -c program argv`; with `sigint_ignored`, through a shell that ignores SIGINT
    first, as a script's `cmd &` does (`exec` keeps the ignored SIGINT and the pid)."""
    env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
    command = [sys.executable, "-c", program, *argv]
    if sigint_ignored:
        command = ["sh", "-c", 'trap "" INT; exec "$0" "$@"', *command]
    return subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )


def wait_for(child: subprocess.Popen[str], ready: Callable[[], bool], what: str) -> None:
    """Poll until `ready()`; the child ending first fails the test (with its stderr)."""
    hang_guard = time.monotonic() + HANG_GUARD_S
    while not ready():
        if child.poll() is not None:
            _, err = child.communicate()
            pytest.fail(f"the run ended (status {child.returncode}) before {what}: {err}")
        assert time.monotonic() < hang_guard, f"not {what} in {HANG_GUARD_S:g} s"
        time.sleep(0.05)


def held_with_workers(
    child: subprocess.Popen[str], gate: Gate, held: int
) -> Callable[[], dict[int, str]]:
    """Wait until `held` requests are held by the server and the run's sandbox workers are
    up; returns a function that gives every process seen below the run since."""
    seen: dict[int, str] = {}

    def ready() -> bool:
        seen.update(descendants(child.pid))
        return gate.held >= held and bool(seen)

    wait_for(child, ready, f"{held} requests were held and the sandbox workers were up")

    def so_far() -> dict[int, str]:
        seen.update(descendants(child.pid))
        return seen

    return so_far


def stopped(child: subprocess.Popen[str], signum: int) -> str:
    """Send `signum`; returns the child's stderr once it has ended."""
    child.send_signal(signum)
    try:
        _, err = child.communicate(timeout=HANG_GUARD_S)  # a hang guard only
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return err


def read_manifest(out: Path) -> dict[str, object]:
    manifest: dict[str, object] = json.loads((out / "manifest.json").read_text())
    return manifest


def assert_resumes(argv: list[str], out: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same command again finishes the run, with every sample made before from the
    cache (nothing computed before the stop is lost)."""
    samples = out / "samples.jsonl"
    kept = samples.read_text(encoding="utf-8").splitlines() if samples.exists() else []
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert main(argv) == 0
    manifest = read_manifest(out)
    assert manifest["status"] == "complete"
    counts = manifest["counts"]
    assert isinstance(counts, dict) and counts["cached"] >= len(kept)
    assert set(kept) <= set(samples.read_text(encoding="utf-8").splitlines())


@pytest.mark.parametrize(
    ("signum", "status", "word"),
    [
        pytest.param(signal.SIGINT, 130, "interrupted", id="SIGINT"),
        pytest.param(signal.SIGTERM, 143, "terminated", id="SIGTERM"),
    ],
)
def test_a_signal_ends_a_run_with_an_interrupted_manifest_no_worker_left_and_it_resumes(
    signum: int,
    status: int,
    word: str,
    bench: Path,
    gate: Gate,
    server: FakeOpenAI,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = tmp_path / "run"
    argv = run_argv(server, bench, out)
    child = start(AT_A_TERMINAL, argv)
    seen = held_with_workers(child, gate, held=2)
    groups = process_groups(seen())  # the workers start their own sessions
    err = stopped(child, signum)
    assert child.returncode == status, err
    assert err.strip().splitlines()[-1] == f"core-bench run: {word}", err
    assert "Traceback" not in err, err
    manifest = read_manifest(out)
    assert manifest["status"] == "interrupted" and manifest["finished_at"], manifest
    counts = manifest["counts"]
    assert isinstance(counts, dict) and counts["tasks"] > 0 and counts["requested"] >= 4
    assert_all_gone(seen(), groups)
    gate.release()
    assert_resumes(argv, out, monkeypatch)


def test_a_background_run_ignores_ctrl_c_and_sigterm_ends_it(
    bench: Path, gate: Gate, server: FakeOpenAI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    argv = run_argv(server, bench, out)
    child = start(AS_INSTALLED, argv, sigint_ignored=True)  # a background job of a script
    seen = held_with_workers(child, gate, held=2)
    child.send_signal(signal.SIGINT)
    gate.let_through(4)  # the 2 held requests are answered, then 2 more, then 2 held again
    wait_for(child, lambda: gate.asked >= 10, "the run asked more requests after the SIGINT")
    groups = process_groups(seen())
    err = stopped(child, signal.SIGTERM)
    assert child.returncode == 143, err
    assert err.strip().splitlines()[-1] == "core-bench run: terminated", err
    manifest = read_manifest(out)
    assert manifest["status"] == "interrupted"
    counts = manifest["counts"]
    assert isinstance(counts, dict) and counts["requested"] >= 10
    assert_all_gone(seen(), groups)
    gate.release()
    assert_resumes(argv, out, monkeypatch)


INTERRUPTED_IMPORT = (
    """
import importlib.abc, signal, sys

class StopOnImport(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "core_bench.commands":
            sys.meta_path.remove(self)
            signal.raise_signal(signal.{signal})
        return None

signal.signal(signal.SIGINT, signal.default_int_handler)
sys.meta_path.insert(0, StopOnImport())
"""
    + AS_INSTALLED
)
"""`core-bench` (as installed) sent a signal while it imports the commands (about a second
of imports; before, at the import of `core_bench.cli`, before any handler was set)."""


@pytest.mark.parametrize(
    ("name", "status", "word"),
    [
        pytest.param("SIGINT", 130, "interrupted", id="SIGINT"),
        pytest.param("SIGTERM", 143, "terminated", id="SIGTERM"),
    ],
)
def test_a_signal_during_the_start_up_imports_ends_with_one_line(
    name: str, status: int, word: str, tmp_path: Path
) -> None:
    program = INTERRUPTED_IMPORT.replace("{signal}", name)
    done = subprocess.run(
        [sys.executable, "-c", program, "run", "--model", "ref:oracle", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_S,  # a hang guard only
    )
    assert done.returncode == status, done.stderr
    assert done.stderr == f"core-bench: {word}\n"
    assert not (tmp_path / "manifest.json").exists()

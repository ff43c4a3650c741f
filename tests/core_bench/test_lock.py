"""One writer per output directory: a second build, run or regrade into a directory another
process is writing is refused with the holder's pid; a killed holder leaves no stale lock."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from core_bench._lock import exclusive
from core_bench.benchmark import Benchmark
from core_bench.build import BuildOptions, build_benchmark
from core_bench.errors import UsageError
from core_bench.runs import RunConfig, regrade, run
from tracer import SandboxPool

HOLDER = """
import sys
from pathlib import Path
from core_bench._lock import exclusive
with exclusive(Path(sys.argv[1]), "build"):
    print("held", flush=True)
    sys.stdin.readline()
"""

SMALL = BuildOptions(limit=1, variants=1, mutants=0, calls=2, probes=1)


@contextmanager
def held_elsewhere(directory: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holds `directory`'s lock until the block ends."""
    with subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(directory)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as holder:
        assert holder.stdout is not None and holder.stdin is not None
        try:
            assert holder.stdout.readline() == "held\n"
            yield holder
        finally:
            if holder.poll() is None:
                holder.stdin.write("\n")
                holder.stdin.flush()
            holder.wait(timeout=60)


def test_a_second_build_into_a_directory_being_built_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "bench"
    with held_elsewhere(out) as holder:
        with pytest.raises(
            UsageError, match=rf"another build is writing there \(pid {holder.pid}\)"
        ):
            build_benchmark(SMALL, out)
        assert not (out / "manifest.json").exists()
    build_benchmark(SMALL, out)
    assert (out / "manifest.json").is_file()


def test_a_run_or_regrade_into_a_run_directory_being_written_is_refused(
    bench: Benchmark, pool: SandboxPool, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    config = RunConfig(model="ref:oracle", bench=bench.root, out=out, tasks=("output",), limit=1)
    run(config, benchmark=bench, pool=pool, progress=False)
    with held_elsewhere(out):
        with pytest.raises(UsageError, match=r"another .* is writing there"):
            run(config, benchmark=bench, pool=pool, progress=False)
        with pytest.raises(UsageError, match=r"another .* is writing there"):
            regrade(out, pool=pool)
    assert regrade(out, pool=pool).samples  # the lock went with its holder


def test_a_killed_holder_leaves_no_stale_lock(tmp_path: Path) -> None:
    with held_elsewhere(tmp_path) as holder:
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait(timeout=60)
        with exclusive(tmp_path, "build"):
            assert (tmp_path / ".lock").read_text() == f"{os.getpid()}\n"


def test_waiting_takes_the_lock_when_the_holder_ends(tmp_path: Path) -> None:
    taken = threading.Event()

    def wait_for_it() -> None:
        with exclusive(tmp_path, "build", wait=True):
            taken.set()

    with held_elsewhere(tmp_path):
        waiter = threading.Thread(target=wait_for_it)
        waiter.start()
        waiter.join(0.5)
        assert not taken.is_set()  # the holder still holds it
    waiter.join(timeout=60)
    assert taken.is_set()


def test_a_process_that_holds_a_directory_may_take_it_again(tmp_path: Path) -> None:
    with exclusive(tmp_path, "build"), exclusive(tmp_path, "build"):
        pass
    with exclusive(tmp_path, "build"):  # released by the outer block
        pass

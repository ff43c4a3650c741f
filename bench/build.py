"""Building a whole benchmark: wall time, stages and peak memory.

Default: all 800 CRUXEval problems with 4 variants, 2 mutants, 8 calls and 6 probes per
(variant, call) (targets: under 3 minutes and under 1 GiB peak memory on 2 cores). The
reference run in the same process is the bare validation of the dataset (every call run once
in the sandbox), so the ratio says what variants, traces and probes cost on top of executing
the dataset. Run: `python bench/build.py --dataset PATH [--limit N]`.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path

# bench/ holds a script named tracer.py, which would shadow the `tracer` package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core_bench.build import build_benchmark
from core_bench.commands import build_cmd
from core_bench.datasets import load_dataset, validate_problems
from core_bench.errors import UsageError
from tracer import SandboxPool


def peak_mib() -> tuple[float, float]:
    """Peak resident memory of this process and of the largest child (workers), in MiB."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return own, children


class TreeCpu:
    """CPU seconds of this process and every process below it (build processes, sandbox
    workers), sampled from /proc: `RUSAGE_CHILDREN` misses workers that are killed rather
    than reaped (a sandbox worker under bubblewrap, a build process's workers). A process that
    ends between two samples loses at most its last `interval` of CPU time. `sampling` is the
    CPU time the sampling itself took (in this process's time: subtract it)."""

    def __init__(self, interval: float = 0.25) -> None:
        self.interval = interval
        self.seen: dict[tuple[int, int], float] = {}
        self.waited: dict[tuple[int, int], float] = {}
        """Seconds each process's live threads spent runnable but waiting for a CPU
        (/proc schedstat): on a loaded machine, the time other work took from the build."""
        self.sampling = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._tick = os.sysconf("SC_CLK_TCK")

    def __enter__(self) -> TreeCpu:
        self._sample()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._sample()
        self._stop.set()
        self._thread.join()

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            start = time.thread_time()
            self._sample()
            self.sampling += time.thread_time() - start

    def _sample(self) -> None:
        parents: dict[int, int] = {}
        times: dict[int, tuple[int, float]] = {}
        waits: dict[int, float] = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rpartition(")")[2].split()
            except OSError:
                continue
            pid = int(entry)
            parents[pid] = int(fields[1])
            times[pid] = (int(fields[19]), (int(fields[11]) + int(fields[12])) / self._tick)
            waits[pid] = _run_queue_seconds(pid)
        me = os.getpid()
        for pid, (start, cpu) in times.items():
            ancestor = parents.get(pid)
            while ancestor is not None and ancestor not in (me, 0, 1):
                ancestor = parents.get(ancestor)
            if ancestor == me:
                self.seen[(pid, start)] = max(cpu, self.seen.get((pid, start), 0.0))
                self.waited[(pid, start)] = max(waits[pid], self.waited.get((pid, start), 0.0))

    def children_seconds(self) -> float:
        """CPU seconds of the processes below this one, as last seen."""
        return sum(self.seen.values())

    def children_waited(self) -> float:
        """Run-queue seconds of the processes below this one, as last seen."""
        return sum(self.waited.values())


def _run_queue_seconds(pid: int) -> float:
    """Seconds the live threads of `pid` spent runnable but not running (0 when unknown)."""
    total = 0
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/schedstat") as handle:
                total += int(handle.read().split()[1])
    except (OSError, IndexError, ValueError):
        return 0.0
    return total / 1e9


def processes_of(given: int | None) -> int:
    """The build processes `build_benchmark` uses for `--processes`."""
    return given if given is not None else (os.cpu_count() or 1)


def cpu_self() -> float:
    """CPU seconds (user + system) of this process so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    # What is built is what `core-bench build` with the same flags builds.
    build_cmd.add_build_flags(parser)
    parser.set_defaults(dataset=os.environ.get("CORE_BENCH_CRUXEVAL") or "bundled")
    parser.add_argument("--processes", type=int, default=None, help="default: one per CPU")
    args = parser.parse_args()
    try:
        options = build_cmd.build_options(args)
    except UsageError as exc:
        parser.error(str(exc))
    with SandboxPool() as pool:
        rows = load_dataset(args.dataset).rows[: args.limit]
        start = time.perf_counter()
        validate_problems(rows, pool)
        reference = time.perf_counter() - start
        with tempfile.TemporaryDirectory() as out, TreeCpu() as tree:
            start, own_cpu = time.perf_counter(), cpu_self()
            before, waited = tree.children_seconds(), tree.children_waited()
            result = build_benchmark(
                options, Path(out), pool=pool, processes=args.processes, author_cache=args.cache
            )
            total = time.perf_counter() - start
            own_cpu = cpu_self() - own_cpu - tree.sampling
            size = sum(f.stat().st_size for f in Path(out).iterdir()) / 2**20
    own, workers = peak_mib()
    counts = result.manifest.counts
    print(f"dataset {args.dataset}: {counts['problems']} problems, {pool.workers} workers")
    print(
        f"  variants {counts.get('variants', 0)}, probes {counts.get('probes', 0)} "
        f"({counts.get('probes.anchored', 0)} anchored), files {size:.1f} MiB"
    )
    print(f"reference: validating the dataset        {reference:8.2f} s")
    print(f"build                                    {total:8.2f} s   {total / reference:6.1f}x")
    below = tree.children_seconds() - before
    print(
        f"  cpu: {own_cpu + below:.1f} s (this process {own_cpu:.1f} s, build processes and "
        f"sandbox workers {below:.1f} s)"
    )
    # Load-independent: time the build's processes were neither running nor waiting for a CPU
    # (blocked on one another, a serial stage, a tail). Threads that ended are not counted.
    lanes = result.stage_seconds.get("problems", total)
    queued = tree.children_waited() - waited
    print(
        f"  lanes: {processes_of(args.processes)} x {lanes:.1f} s of the problems stage; "
        f"not runnable {max(0.0, total * processes_of(args.processes) - below - queued):.1f} s "
        f"(run-queue wait {queued:.1f} s: load from elsewhere)"
    )
    for stage, seconds in result.stage_seconds.items():
        print(f"  stage {stage:<12}                     {seconds:8.2f} s   {seconds / total:6.1%}")
    busy = sum(result.problem_seconds.values()) or 1.0
    print("  per-problem work (thread-seconds, overlapping):")
    for stage, seconds in result.problem_seconds.items():
        print(f"    {stage:<10} {seconds:9.1f} s   {seconds / busy:6.1%}")
    print(f"peak memory: parent {own:.0f} MiB, largest worker {workers:.0f} MiB")


if __name__ == "__main__":
    main()

"""Peak memory of `core-bench run --model ref:oracle` over a whole benchmark.

    .venv/bin/python bench/run_memory.py [--bench DIR] [--suite full]

Each measurement runs in a fresh process (peak RSS, `ru_maxrss`, is per process):

- reference: the same process only reading the benchmark (`load_benchmark`), the floor any
  run pays;
- run: the command `core-bench run --model ref:oracle --bench B --out D --quiet` (through
  `core_bench.cli.main`, so everything the command does counts: the run, its summary, and the
  report with its plots and its baseline runs) into a fresh run directory, then the same
  command again, which replays every answer from the run's cache.

It prints the peaks in MB and the run's ratio to the reference, against the target of 400 MB
for the full bundled benchmark. Without --bench, the bundled benchmark is built (once, into the
cache) with the default options.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import multiprocessing
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # before project imports: bench/tracer.py would shadow tracer

from core_bench.benchmark import load_benchmark  # noqa: E402
from core_bench.cli import main  # noqa: E402
from core_bench.runs import ensure_bundled_benchmark  # noqa: E402

TARGET_MB = 400


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _load_only(bench: str, queue: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    load_benchmark(Path(bench))
    queue.put((_peak_mb(), 0, 0.0))


def _run(bench: str, out: str, suite: str, queue: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    started = time.perf_counter()
    argv = ["run", "--model", "ref:oracle", "--bench", bench, "--out", out, "--quiet"]
    with contextlib.redirect_stdout(io.StringIO()):  # the closing summary: not measured here
        status = main([*argv, "--suite", suite])
    if status != 0:
        raise SystemExit(f"core-bench {' '.join(argv)} exited with {status}")
    counts = json.loads((Path(out) / "manifest.json").read_text(encoding="utf-8"))["counts"]
    queue.put((_peak_mb(), counts["samples"], time.perf_counter() - started))


def _measure(target: object, *args: str) -> tuple[float, int, float]:
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    process = context.Process(target=target, args=(*args, queue))
    process.start()
    found = queue.get()
    process.join()
    return found  # type: ignore[no-any-return]


def measure() -> int:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bench", type=Path)
    parser.add_argument("--suite", default="full", choices=("quick", "standard", "full"))
    args = parser.parse_args()
    bench = str(args.bench or ensure_bundled_benchmark())
    reference, _, _ = _measure(_load_only, bench)
    with tempfile.TemporaryDirectory(prefix="core-bench-memory-") as tmp:
        fresh, samples, seconds = _measure(_run, bench, f"{tmp}/run", args.suite)
        replay, _, replay_s = _measure(_run, bench, f"{tmp}/run", args.suite)
    print(f"benchmark {bench} (suite {args.suite}): {samples:,} samples")
    print(f"reference (load the benchmark only): {reference:8.0f} MB")
    print(
        f"run, fresh:                          {fresh:8.0f} MB  x{fresh / reference:.2f} of the "
        f"reference, {seconds:.1f} s; target {TARGET_MB} MB: "
        + ("met" if fresh <= TARGET_MB else "MISSED")
    )
    print(
        f"run, replay from the cache:          {replay:8.0f} MB  x{replay / reference:.2f} of the "
        f"reference, {replay_s:.1f} s; target {TARGET_MB} MB: "
        + ("met" if replay <= TARGET_MB else "MISSED")
    )
    return 0


if __name__ == "__main__":
    sys.exit(measure())

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
import time
from pathlib import Path

# bench/ holds a script named tracer.py, which would shadow the `tracer` package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core_bench.build import BuildOptions, build_benchmark
from core_bench.datasets import load_dataset, validate_problems
from tracer import SandboxPool


def peak_mib() -> tuple[float, float]:
    """Peak resident memory of this process and of the largest child (workers), in MiB."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return own, children


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dataset", default=os.environ.get("CORE_BENCH_CRUXEVAL") or "bundled")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--variants", type=int, default=4)
    parser.add_argument("--mutants", type=int, default=2)
    parser.add_argument("--calls", type=int, default=8)
    parser.add_argument("--probes", type=int, default=6)
    parser.add_argument("--processes", type=int, default=None, help="default: one per CPU")
    args = parser.parse_args()
    options = BuildOptions(
        dataset=args.dataset,
        variants=args.variants,
        mutants=args.mutants,
        calls=args.calls,
        probes=args.probes,
        limit=args.limit,
    )
    with SandboxPool() as pool:
        rows = load_dataset(args.dataset).rows[: args.limit]
        start = time.perf_counter()
        validate_problems(rows, pool)
        reference = time.perf_counter() - start
        with tempfile.TemporaryDirectory() as out:
            start = time.perf_counter()
            result = build_benchmark(options, Path(out), pool=pool, processes=args.processes)
            total = time.perf_counter() - start
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
    for stage, seconds in result.stage_seconds.items():
        print(f"  stage {stage:<12}                     {seconds:8.2f} s   {seconds / total:6.1%}")
    busy = sum(result.problem_seconds.values()) or 1.0
    print("  per-problem work (thread-seconds, overlapping):")
    for stage, seconds in result.problem_seconds.items():
        print(f"    {stage:<10} {seconds:9.1f} s   {seconds / busy:6.1%}")
    print(f"peak memory: parent {own:.0f} MiB, largest worker {workers:.0f} MiB")


if __name__ == "__main__":
    main()

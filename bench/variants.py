"""Generating and verifying variants for every CRUXEval problem: time, and where it goes.

For each of the 800 problems this generates `--k` verified equivalent variants and `--mutants`
mutants with `generate_variants_many` (the problem's call plus generated calls, every
candidate run on every call), and prints:

- the wall-clock time and problems per second (target: all 800 in under 2 minutes on 2 cores),
  and the CPU time of the generation processes (which, unlike wall time, does not depend on
  what else the machine is doing);
- the share of the generation time spent in execution (sandbox) versus building candidates
  (LibCST, metrics), summed over the worker processes;
- a reference run in the same process, to compare machines: LibCST-parsing and printing every
  original once, and running every original on its call once in the sandbox; the generation
  time is printed as a ratio to it;
- quality figures: the share of problems with `--k` composed equivalents, singles and
  variants per family, the mean Jaccard of kept variants to their originals, mutants found,
  and rejected candidates by reason;
- the shared analysis: applying every equivalent transform to every original with one parse
  and analysis per code (as generation does) against a fresh parse and analysis per
  application, in this process, as a ratio.

Usage: .venv/bin/python bench/variants.py [--data PATH] [--limit N] [--processes N] [--k 4]
       [--singles 4] [--mutants 2] [--seed 0] [--distractors]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import libcst as cst

from tracer import SandboxPool
from transforms import _analysis, _base, all_transforms, apply_transform
from transforms._generate import GenerationReport, Problem, generate_variants_many

DEFAULT_DATA = Path(__file__).resolve().parent.parent.parent / "shared/data/cruxeval/cruxeval.jsonl"


def load(path: Path, limit: int | None) -> list[Problem]:
    problems: list[Problem] = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                row = json.loads(line)
                problems.append(Problem(row["code"], (f"f({row['input']})",)))
    return problems[:limit] if limit else problems


def reference_run(problems: list[Problem], workers: int) -> float:
    """Seconds to parse and print every original with LibCST and run it once, sandboxed."""
    start = time.perf_counter()
    for problem in problems:
        assert cst.parse_module(problem.code).code == problem.code
    with SandboxPool(workers=workers) as pool:
        pool.map([(p.code, list(p.calls)) for p in problems])
    return time.perf_counter() - start


def shared_analysis(problems: list[Problem], limit: int = 200) -> tuple[float, float, int]:
    """CPU seconds of this process to apply every equivalent transform to the first `limit`
    originals with the shared analysis, and with a fresh parse and analysis per application
    (CPU time, unlike wall time, does not depend on what else the machine runs); how many
    applied."""
    codes = [p.code for p in problems[:limit]]
    transforms = all_transforms("equivalent")

    def apply_all(fresh: bool) -> tuple[float, int]:
        applied = 0
        _base._ANALYSED.clear()
        _analysis._SHARED_INFOS.clear()
        start = time.process_time()
        for code in codes:
            for transform in transforms:
                if fresh:
                    _base._ANALYSED.clear()
                    _analysis._SHARED_INFOS.clear()
                applied += apply_transform(transform, code, seed=0) is not None
        return time.process_time() - start, applied

    shared_s, applied = apply_all(fresh=False)
    fresh_s, again = apply_all(fresh=True)
    assert applied == again
    return shared_s, fresh_s, applied


def summarize(reports: list[GenerationReport], k: int) -> None:
    n = len(reports)
    equivalents = [
        [v for v in r.variants if v.kind == "equivalent" and not v.single] for r in reports
    ]
    full = sum(len(e) >= k for e in equivalents)
    kept = [v for e in equivalents for v in e]
    mean_j = sum(v.jaccard for v in kept) / len(kept) if kept else float("nan")
    mutants = sum(v.kind == "mutant" for r in reports for v in r.variants)
    with_mutant = sum(any(v.kind == "mutant" for v in r.variants) for r in reports)
    rejected: Counter[str] = Counter()
    for r in reports:
        rejected.update(r.rejected)
    short: Counter[str] = Counter()
    for r, e in zip(reports, equivalents, strict=True):
        if len(e) < k:
            short.update(r.rejected or Counter({"too few candidates": 1}))
    calls = sum(len(r.calls) for r in reports) / n
    singles = sum(v.single for r in reports for v in r.variants)
    families = Counter(v.family for r in reports for v in r.variants)
    print(f"  problems with {k} composed          {full}/{n} ({100 * full / n:.1f}%)")
    print(f"  single-transform variants         {singles}")
    print(f"  variants per family               {dict(families.most_common())}")
    print(f"  equivalent variants kept          {len(kept)} (mean Jaccard {mean_j:.3f})")
    print(f"  mutants kept                      {mutants} ({with_mutant} problems have one)")
    print(f"  verification calls per problem    {calls:.1f}")
    print(f"  candidates verified               {sum(r.candidates for r in reports)}")
    print(f"  candidates rejected, by reason    {dict(rejected.most_common())}")
    print(f"  ... in problems short of {k}        {dict(short.most_common())}")


def _cpu_seconds(before: os.times_result, after: os.times_result) -> float:
    """CPU time of this process and of the generation processes (unlike wall time, it does not
    depend on how busy the machine is). Sandbox workers run under bubblewrap or are killed,
    so their CPU time does not reach this process's accounts."""
    fields = ("user", "system", "children_user", "children_system")
    return sum(getattr(after, f) - getattr(before, f) for f in fields)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = os.environ.get("CORE_BENCH_CRUXEVAL") or str(DEFAULT_DATA)
    parser.add_argument("--data", type=Path, default=Path(default), help="cruxeval.jsonl")
    parser.add_argument("--limit", type=int, default=None, help="only the first N problems")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--k", type=int, default=4)
    parser.add_argument("--singles", type=int, default=4)
    parser.add_argument("--mutants", type=int, default=2)
    parser.add_argument("--distractors", action="store_true")
    parser.add_argument("--extra-calls", type=int, default=8, help="generated verification calls")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    problems = load(args.data, args.limit)
    print(f"{len(problems)} problems from {args.data}, {args.processes} processes")
    reference = reference_run(problems, args.processes)

    done = [0]

    def progress(count: int) -> None:
        if sys.stderr.isatty():
            print(f"\r  {count}/{len(problems)}", end="", file=sys.stderr, flush=True)
        done[0] = count

    start = time.perf_counter()
    cpu_before = os.times()
    reports = generate_variants_many(
        problems,
        processes=args.processes,
        progress=progress,
        k=args.k,
        mutants=args.mutants,
        singles=args.singles,
        distractors=args.distractors,
        extra_calls=args.extra_calls,
        seed=args.seed,
    )
    wall = time.perf_counter() - start
    cpu = _cpu_seconds(cpu_before, os.times())
    if sys.stderr.isatty():
        print(file=sys.stderr)

    transform_s = sum(r.transform_s for r in reports)
    execute_s = sum(r.execute_s for r in reports)
    busy = transform_s + execute_s
    rate = len(problems) / wall
    print("time")
    print(f"  generation (wall)                 {wall:8.1f} s  ({rate:.1f} problems/s)")
    print(f"  CPU of the generation processes   {cpu:8.1f} s  (sandbox workers not included)")
    print(f"  reference run (parse + run once)  {reference:8.1f} s  -> {wall / reference:.0f}x")
    print(f"  LibCST and metrics (summed)       {transform_s:8.1f} s  ({transform_s / busy:.0%})")
    print(f"  execution in the sandbox (summed) {execute_s:8.1f} s  ({execute_s / busy:.0%})")
    target = 120.0 * len(problems) / 800
    verdict = "met" if wall < target else "missed"
    print(f"  target {target:.0f} s for {len(problems)} problems: {verdict}")
    print("quality")
    summarize(reports, args.k)
    shared_s, fresh_s, applied = shared_analysis(problems)
    print("shared analysis (every equivalent transform on up to 200 originals, CPU seconds)")
    print(f"  one analysis per code             {shared_s:8.1f} s  ({applied} applied)")
    print(f"  fresh analysis per application    {fresh_s:8.1f} s  -> {fresh_s / shared_s:.2f}x")


if __name__ == "__main__":
    main()

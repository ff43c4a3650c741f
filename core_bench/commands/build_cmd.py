"""`core-bench build`: turn a dataset of functions into a benchmark directory."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from core_bench.build import BuildOptions, build_benchmark
from core_bench.commands._args import number
from core_bench.errors import UsageError
from core_bench.schemas import SkippedRow

_COUNT = number(int, 0, "a whole number >= 0")


def register(subparsers: Any) -> None:
    """Add the `build` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "build",
        help="build a benchmark: problems, verified variants and trace-grounded probes",
        description=(
            "Build a benchmark directory (problems.jsonl, variants.jsonl, probes.jsonl, "
            "manifest.json) from a dataset. A killed build started again resumes."
        ),
    )
    parser.add_argument(
        "--dataset",
        default="bundled",
        help="'bundled' (default), 'cruxeval', 'core-qa=PATH', or a path or URL of "
        "CRUXEval-format JSON Lines",
    )
    parser.add_argument("--out", type=Path, default=Path("benchmark"), help="output directory")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--variants", type=_COUNT, default=4, help="equivalent variants per problem"
    )
    parser.add_argument(
        "--singles",
        type=_COUNT,
        default=4,
        help="single-transform variants per problem, besides the composed ones (default 4)",
    )
    parser.add_argument(
        "--distractors",
        action="store_true",
        help="also use the distractor family (dead code, constant unfolding, misleading "
        "comments); off by default",
    )
    parser.add_argument("--mutants", type=_COUNT, default=2, help="mutants per problem")
    parser.add_argument(
        "--crash-mutants",
        action="store_true",
        help="keep mutants that differ on the shipped calls only by raising",
    )
    parser.add_argument("--probes", type=_COUNT, default=6, help="probes per (variant, call)")
    parser.add_argument("--calls", type=_COUNT, default=8, help="calls per problem")
    parser.add_argument("--limit", type=_COUNT, default=None, help="first N problems only")
    parser.add_argument(
        "--timeout", type=float, default=5.0, help="seconds per sandboxed call (default 5)"
    )
    parser.set_defaults(handler=run)


def _report(row: SkippedRow) -> None:
    where = ":".join(str(x) for x in (row.file, row.line) if x is not None)
    print(f"skipped {where} {row.id or ''}: {row.reason}".replace("  ", " "), file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    """Build, print the counts, exit 0."""
    if args.timeout <= 0:
        raise UsageError(f"--timeout must be positive, got {args.timeout}")
    options = BuildOptions(
        dataset=args.dataset,
        seed=args.seed,
        variants=args.variants,
        mutants=args.mutants,
        singles=args.singles,
        distractors=args.distractors,
        crash_mutants=args.crash_mutants,
        probes=args.probes,
        calls=args.calls,
        limit=args.limit,
        timeout_s=args.timeout,
    )
    result = build_benchmark(options, args.out, on_skip=_report)
    counts = result.manifest.counts
    print(f"built {args.out}")
    for key, value in counts.items():
        print(f"  {key:<40} {value}")
    stages = ", ".join(f"{k} {v:.1f}s" for k, v in result.stage_seconds.items())
    print(f"  time: {stages}")
    return 0

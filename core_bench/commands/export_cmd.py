"""`core-bench export BENCH --format inspect|hf`: a benchmark for inspect_ai or Hugging Face."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from core_bench.benchmark import load_benchmark
from core_bench.commands._args import add_suite_flags, add_task_flags
from core_bench.errors import UsageError
from core_bench.export import write_hf, write_inspect
from core_bench.suites import select_suite


def register(subparsers: Any) -> None:
    """Add the `export` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "export",
        help="write a benchmark as an inspect_ai task or a Hugging Face dataset folder",
        description=(
            "inspect: samples.jsonl (the prompts core-bench run sends) and core_bench_task.py "
            "(scored by core-bench's grader) for `inspect eval`. hf: problems, variants and "
            "probes as JSON Lines with a dataset card, for `datasets.load_dataset`."
        ),
    )
    parser.add_argument("bench", type=Path, metavar="BENCH", help="a benchmark directory")
    parser.add_argument("--format", choices=("inspect", "hf"), required=True)
    parser.add_argument("--out", type=Path, required=True, metavar="DIR")
    add_suite_flags(parser, default="full", help="export a sized suite (default full)")
    add_task_flags(parser, prefix="inspect: ")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    """Write the export and print where it is."""
    try:
        benchmark = load_benchmark(args.bench)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    chosen = select_suite(benchmark, args.suite, seed=args.suite_seed).benchmark
    if args.format == "hf":
        written = write_hf(chosen, args.out)
    else:
        written = write_inspect(chosen, args.out, kinds=args.tasks, strategies=args.strategies)
    print(written)
    return 0

"""`core-bench grade RUN`: grade a run again from its stored responses, without the model.

Every response in the run's cache.sqlite is graded afresh by the current grader (so a fixed
grader or a new `--float-tolerance` applies to old runs), samples.jsonl is rewritten with the
new verdicts, and summary.json with the metrics of `core_bench.metrics`, computed as `run`
computes them (`core_bench.runs.summary_rows`: the same responses give a byte-identical
summary.json). Samples whose request has no stored response (failed requests) are kept as they were.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from core_bench.commands._args import NON_NEGATIVE
from core_bench.commands._isolation import add_isolation_flag, check_isolation
from core_bench.commands._report import add_report_flags, write_run_report
from core_bench.runs import GradeResult, regrade


def register(subparsers: Any) -> None:
    """Add the `grade` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "grade",
        help="grade a run again from its stored responses (no model is asked)",
        description=(
            "Grade every stored response of a run directory again with the current grader, "
            "then rewrite its samples.jsonl and summary.json (with every metric). The model is "
            "never asked; samples of failed requests are kept as they were."
        ),
    )
    parser.add_argument("run", type=Path, metavar="RUN", help="the run directory")
    parser.add_argument(
        "--bench", type=Path, help="the benchmark directory, if it moved since the run"
    )
    parser.add_argument(
        "--float-tolerance",
        type=NON_NEGATIVE,
        help="tolerance of float comparisons (default: the run's)",
    )
    add_isolation_flag(parser)
    add_report_flags(parser)
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    """Regrade the run, write its report and print what changed; exit 1 when the report
    could not be written."""
    check_isolation(args)
    result = regrade(args.run, bench=args.bench, float_tolerance=args.float_tolerance)
    reported = write_run_report("grade", args.run, args)
    print(
        f"{args.run}: {result.regraded} samples graded again ({result.changed} changed), "
        f"{result.kept} kept; {len(result.metrics)} metric rows -> {args.run / 'summary.json'}"
    )
    return 0 if reported else 1


__all__ = ["GradeResult", "register", "regrade"]

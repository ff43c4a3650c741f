"""The report written after `core-bench run` and `core-bench grade`, and their report flags.

A run's results (samples.jsonl, summary.json) are complete before its report is drawn; a report
that cannot be written is an error of the command (exit status 1, the exception named), not of
the run, and `core-bench report RUN` draws it again.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import core_bench.report as report


def add_report_flags(parser: argparse.ArgumentParser) -> None:
    """Add --no-report, --no-plots and --no-baselines (the report written after the command)."""
    parser.add_argument(
        "--no-report",
        dest="report",
        action="store_false",
        help="write no report (report.md, report.html, summary.csv); `core-bench report` can later",
    )
    add_drawing_flags(parser)


def add_drawing_flags(parser: argparse.ArgumentParser) -> None:
    """Add --no-plots and --no-baselines (what a report draws and runs)."""
    parser.add_argument(
        "--no-plots",
        dest="plots",
        action="store_false",
        default=None,
        help="write the report's tables only, no plots",
    )
    parser.add_argument(
        "--no-baselines",
        dest="baselines",
        action="store_false",
        default=None,
        help="do not run the reference agents (floor, ceiling) for the report",
    )


def write_run_report(command: str, run_dir: Path, args: argparse.Namespace) -> bool:
    """Write the report of `run_dir` into it, as the report flags in `args` ask.

    Returns:
        False when the report could not be written (the error is printed, naming the
        exception; the run directory's results stay as they are), else True.
    """
    if not args.report:
        return True
    try:
        report.write_report([run_dir], run_dir, plots=args.plots, baselines=args.baselines)
    except Exception as exc:  # any failure of drawing: the results are safe, say so and go on
        print(
            f"core-bench {command}: error: report of {run_dir} not written: "
            f"{type(exc).__name__}: {exc} (the results are complete; "
            f"`core-bench report {run_dir}` tries again)",
            file=sys.stderr,
        )
        return False
    return True


__all__ = ["add_drawing_flags", "add_report_flags", "write_run_report"]

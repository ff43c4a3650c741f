"""`core-bench report RUN [RUN ...]`: tables, plots and a CSV of runs, side by side."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from core_bench.commands._report import add_drawing_flags
from core_bench.errors import UsageError


def register(subparsers: Any) -> None:
    """Add the `report` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "report",
        help="write report.md, report.html, summary.csv and plots of one or more runs",
        description=(
            "Read run directories written by `core-bench run` and write report.md, report.html "
            "(the same content), summary.csv (every metric row of every run) and plots/*.png, "
            "with the runs side by side. A plot whose data the runs lack is skipped with a note."
        ),
    )
    parser.add_argument("runs", nargs="+", type=Path, metavar="RUN", help="a run directory")
    parser.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="where to write the report (default: the run directory for one run, ./report "
        "for several)",
    )
    add_drawing_flags(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Write the report and print the path of report.md."""
    from core_bench.report import write_report

    runs: list[Path] = args.runs
    out: Path = args.out or (runs[0] if len(runs) == 1 else Path("report"))
    try:
        report = write_report(runs, out, plots=args.plots, baselines=args.baselines)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    print(report)
    return 0

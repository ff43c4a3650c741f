"""`core-bench view`: a static HTML browser of runs, problem by problem."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from core_bench.commands._args import number
from core_bench.errors import UsageError
from core_bench.view import serve, write_viewer


def register(subparsers: Any) -> None:
    """Add the `view` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "view",
        help="write (and optionally serve) an HTML browser of runs, problem by problem",
        description=(
            "Write a static HTML browser of one or more run directories: problems with "
            "filters, each variant beside the original, every answer, verdict and response, "
            "and the model's trace beside the real one. It opens from file:// with no network."
        ),
    )
    parser.add_argument("runs", nargs="+", type=Path, metavar="RUN", help="run directories")
    parser.add_argument(
        "--out", type=Path, default=Path("view"), help="output directory (default ./view)"
    )
    parser.add_argument(
        "--no-traces",
        action="store_true",
        help="do not trace again the calls asked with the trace strategy",
    )
    parser.add_argument(
        "--serve", action="store_true", help="serve the viewer on 127.0.0.1 after writing it"
    )
    parser.add_argument(
        "--port",
        type=number(int, 0, "a port number"),
        default=8765,
        help="port of --serve (default 8765; 0 picks a free one)",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    """Write the viewer, print where it is, and serve it when asked."""
    try:
        page = write_viewer(args.runs, args.out, real_traces=not args.no_traces)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    print(f"viewer: {page} (open it in a browser)")
    if args.serve:
        serve(args.out, port=args.port)
    return 0

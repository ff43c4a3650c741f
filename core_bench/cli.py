"""The `core-bench` command line: one subcommand per job."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from core_bench import __version__
from core_bench.commands import (
    build_cmd,
    cruxeval_cmd,
    export_cmd,
    grade_cmd,
    prompt_cmd,
    report_cmd,
    run_cmd,
    schema_cmd,
    trace_cmd,
    variants_cmd,
    view_cmd,
)
from core_bench.errors import UsageError

_COMMANDS = (
    build_cmd,
    run_cmd,
    prompt_cmd,
    grade_cmd,
    trace_cmd,
    variants_cmd,
    schema_cmd,
    cruxeval_cmd,
    report_cmd,
    view_cmd,
    export_cmd,
)


def build_parser() -> argparse.ArgumentParser:
    """The parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="core-bench",
        description="Measure whether language models really reason about code execution.",
    )
    parser.add_argument("--version", action="version", version=f"core-bench {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in _COMMANDS:
        command.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad usage or input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.handler(args)
    except UsageError as exc:
        print(f"core-bench {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"core-bench {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())

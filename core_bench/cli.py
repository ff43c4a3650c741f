"""The `core-bench` command line: one subcommand per job."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from types import ModuleType

from core_bench import __version__

# The commands (and what they import: a second or more of it) are imported by `main`, where
# a Ctrl-C or SIGTERM during the imports ends the command with one line, not a traceback.


def _commands() -> tuple[ModuleType, ...]:
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

    return (
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
    for command in _commands():
        command.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad usage or input, 130 after
    Ctrl-C, 143 after SIGTERM: both stop a command the same way)."""
    command = "core-bench"
    try:
        from core_bench.stopping import sigterm_stops

        with sigterm_stops():
            args = build_parser().parse_args(argv)
            command = f"core-bench {args.command}"
            return _handle(args, command)
    except KeyboardInterrupt as stop:  # also during the imports, before any handler was set
        from core_bench.stopping import INTERRUPTED, TERMINATED, Terminated

        terminated = isinstance(stop, Terminated)
        print(f"{command}: {'terminated' if terminated else 'interrupted'}", file=sys.stderr)
        return TERMINATED if terminated else INTERRUPTED


def _handle(args: argparse.Namespace, command: str) -> int:
    from core_bench.errors import UsageError

    try:
        status: int = args.handler(args)
    except UsageError as exc:
        print(f"{command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())

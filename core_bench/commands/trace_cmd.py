"""`core-bench trace FILE --call 'f(...)'`: print the execution trace of one call."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from core_bench.errors import UsageError
from tracer import Trace, TraceError, run_call, trace

FORMATS = ("text", "json", "core", "cwm")


def register(subparsers: Any) -> None:
    """Add the `trace` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "trace",
        help="print the execution trace of one call",
        description="Trace one call of a Python function and print every intermediate state.",
    )
    parser.add_argument("file", help="Python source file defining the function, or - for stdin")
    parser.add_argument("--call", required=True, help="call expression, e.g. 'f([1, 2], 3)'")
    parser.add_argument("--format", choices=FORMATS, default="text", help="output format")
    parser.add_argument(
        "--max-steps", type=int, default=10_000, help="stop after this many steps (default 10000)"
    )
    parser.add_argument(
        "--timeout", type=float, default=10.0, help="wall-clock seconds for the call (default 10)"
    )
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="trace in this process instead of a sandboxed worker (only for code you trust)",
    )
    parser.set_defaults(handler=run)


def read_source(name: str) -> str:
    """The text of FILE, or of standard input for "-"; UsageError when it cannot be read."""
    if name == "-":
        return sys.stdin.read()
    path = Path(name)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(f"{name}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{name}: cannot read: {exc}") from None


def run(args: argparse.Namespace) -> int:
    """Trace the call and print it; exit status 1 when the sandbox stopped the call."""
    if args.max_steps < 1:
        raise UsageError(f"--max-steps must be a positive integer, got {args.max_steps}")
    code = read_source(args.file)
    result = _trace(code, args)
    if args.format == "json":
        print(json.dumps(result.to_json(), ensure_ascii=False, indent=1))
    else:
        print(result.render(args.format))
    return 0


def _trace(code: str, args: argparse.Namespace) -> Trace:
    where = "<stdin>" if args.file == "-" else args.file
    if args.in_process:
        try:
            return trace(code, args.call, max_steps=args.max_steps)
        except TraceError as exc:
            raise UsageError(f"{where}: {exc}") from None
    outcome = run_call(
        code, args.call, timeout_s=args.timeout, trace=True, max_steps=args.max_steps
    )
    if outcome.trace is None:
        raise UsageError(f"{where}: {outcome.exception or outcome.status} {outcome.detail}".strip())
    return outcome.trace

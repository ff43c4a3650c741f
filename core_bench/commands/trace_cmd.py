"""`core-bench trace FILE --call 'f(...)'`: print the execution trace of one call."""

from __future__ import annotations

import argparse
import json
import signal
import sys
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from core_bench.errors import UsageError
from tracer import TRACED_FILENAMES, Trace, TraceError, run_call, trace

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
    if not args.timeout > 0:
        raise UsageError(f"--timeout must be a positive number of seconds, got {args.timeout}")
    code = read_source(args.file)
    result = _trace(code, args)
    if args.format == "json":
        print(escape_controls(json.dumps(result.to_json(), ensure_ascii=False, indent=1)))
    else:
        print(escape_controls(result.render(args.format)))
    return 0


def escape_controls(text: str) -> str:
    """`text` with every control, format and separator character but the newline written as
    an escape (`\\u001b`, `\\u202e`): traced code chooses its reprs and exception messages,
    and they must not drive the terminal they are printed on."""
    out = []
    for char in text:
        if char == "\n" or unicodedata.category(char) not in _ESCAPED:
            out.append(char)
        else:
            code = ord(char)
            # \\u form: valid inside the JSON formats' strings, and plain to read elsewhere
            out.append(f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    return "".join(out)


_ESCAPED = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})


class _TimedOut(BaseException):
    """Raised in the traced code when --timeout runs out (in-process tracing)."""


@contextmanager
def _deadline(seconds: float) -> Iterator[list[bool]]:
    """Interrupt the code run inside after `seconds` (and again every 0.1 s, should the traced
    code catch the first interruption); the yielded flag says whether it ran out."""
    fired = [False]

    def interrupt(signum: int, frame: Any) -> None:
        # A repeat lands wherever Python is at that tick: raising it while the tracer (or
        # Python itself) is still unwinding the first would break that unwinding, so repeats
        # only interrupt the traced code.
        if fired[0] and (frame is None or frame.f_code.co_filename not in TRACED_FILENAMES):
            return
        fired[0] = True
        raise _TimedOut

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.1)
    try:
        yield fired
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _trace(code: str, args: argparse.Namespace) -> Trace:
    where = "<stdin>" if args.file == "-" else args.file
    if args.in_process:
        timed_out = f"{where}: the call did not finish within --timeout {args.timeout:g} s"
        try:
            with _deadline(args.timeout) as fired:
                traced = trace(code, args.call, max_steps=args.max_steps)
        except _TimedOut:
            raise UsageError(timed_out) from None
        except TraceError as exc:
            raise UsageError(escape_controls(f"{where}: {exc}")) from None
        if fired[0]:
            raise UsageError(timed_out)
        return traced
    outcome = run_call(
        code, args.call, timeout_s=args.timeout, trace=True, max_steps=args.max_steps
    )
    if outcome.trace is None:
        problem = f"{where}: {outcome.exception or outcome.status} {outcome.detail}".strip()
        raise UsageError(escape_controls(problem))
    return outcome.trace

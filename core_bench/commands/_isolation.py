"""`--isolation`: whether a command may run model text without bubblewrap."""

from __future__ import annotations

import argparse

from core_bench.errors import UsageError
from tracer import default_isolation

CHOICES = ("auto", "strict")


def add_isolation_flag(parser: argparse.ArgumentParser) -> None:
    """Add `--isolation auto|strict` to a command that runs model text."""
    parser.add_argument(
        "--isolation",
        choices=CHOICES,
        default="auto",
        help=(
            "'auto' (default): sandbox in bubblewrap when it works, else in plain processes "
            "with a warning; 'strict': refuse to run model text without bubblewrap"
        ),
    )


def check_isolation(args: argparse.Namespace) -> str:
    """The isolation the command's sandbox gets; UsageError when `--isolation strict` asks
    for more than this machine gives."""
    level, why = default_isolation()
    if getattr(args, "isolation", "auto") == "strict" and level != "bwrap":
        raise UsageError(
            f"--isolation strict: bubblewrap is not usable here ({why}); model text would run "
            "without namespaces. Install bubblewrap (and allow user namespaces), or drop "
            "--isolation strict."
        )
    return level

"""Flag parsers shared by the subcommands: each names what it expected when it refuses."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def number(kind: type[int] | type[float], low: float, what: str) -> Callable[[str], int | float]:
    """An argparse `type=` that reads an int or float of at least `low`."""

    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value

    return parse

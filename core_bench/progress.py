"""Progress bars: shown on a terminal (counts, rate, failures), silent in a pipe or a log."""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any

from tqdm import tqdm


class Progress:
    """A bar on stderr when it is a terminal; otherwise it prints nothing.

    Usage:
        with Progress("build", total=len(items)) as bar:
            bar.advance()
            bar.note(failed=3)
    """

    def __init__(self, label: str, *, total: int | None, unit: str = "it") -> None:
        self._bar: Any = tqdm(
            total=total,
            desc=label,
            unit=unit,
            disable=not sys.stderr.isatty(),
            file=sys.stderr,
            dynamic_ncols=True,
            smoothing=0.1,
        )

    def advance(self, n: int = 1) -> None:
        """Count `n` more items done."""
        self._bar.update(n)

    def note(self, **fields: object) -> None:
        """Show extra counters beside the bar, e.g. failures."""
        self._bar.set_postfix(fields, refresh=False)

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._bar.close()

"""A check shared by the CLI tests: bad input is refused with one line and status 2."""

from __future__ import annotations

import pytest

from core_bench.cli import main


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run `core-bench argv`, which must refuse it: status 2 and a single line on stderr,
    `core-bench <command>: error: ...`. Returns that line."""
    status = main(argv)
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.count("\n") == 1 and err.startswith(f"core-bench {argv[0]}: error: "), err
    return err

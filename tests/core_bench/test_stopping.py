"""`core_bench.stopping`: SIGTERM as the command line handles it, in plain and asyncio code."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterator

import pytest

from core_bench.stopping import Terminated, on_sigterm, run_stoppable, sigterm_stops


@pytest.fixture
def default_sigterm() -> Iterator[None]:
    previous = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    yield
    signal.signal(signal.SIGTERM, previous)


def test_sigterm_raises_terminated_within_the_block_and_the_handler_is_put_back(
    default_sigterm: None,
) -> None:
    with pytest.raises(Terminated), sigterm_stops():
        assert signal.getsignal(signal.SIGTERM) is on_sigterm
        signal.raise_signal(signal.SIGTERM)
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL


def test_an_inherited_ignored_sigterm_stays_ignored(default_sigterm: None) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    with sigterm_stops():
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
        signal.raise_signal(signal.SIGTERM)  # ignored: nothing happens


def test_an_asyncio_run_is_cancelled_cleans_up_and_then_raises_terminated(
    default_sigterm: None,
) -> None:
    done: list[str] = []

    async def work() -> str:
        try:
            signal.raise_signal(signal.SIGTERM)  # handled at once: the task is cancelled
            done.append("after the signal")
            await asyncio.sleep(600)  # cancelled here (the length is a hang guard only)
            return "finished"
        except asyncio.CancelledError:
            await asyncio.sleep(0)  # cleanup may still await
            done.append("cleaned up")
            raise

    with pytest.raises(Terminated), sigterm_stops():
        run_stoppable(work())
    assert done == ["after the signal", "cleaned up"]
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL


def test_a_second_sigterm_raises_at_once(default_sigterm: None) -> None:
    async def stubborn() -> None:
        try:
            await asyncio.sleep(600)  # hang guard only
        except asyncio.CancelledError:
            signal.raise_signal(signal.SIGTERM)  # a cleanup that takes too long: sent again
            await asyncio.sleep(600)

    async def main() -> None:
        task = asyncio.create_task(stubborn())
        await asyncio.sleep(0)
        signal.raise_signal(signal.SIGTERM)
        await task

    with pytest.raises(Terminated), sigterm_stops():
        run_stoppable(main())


def test_without_the_command_lines_handler_a_run_is_plain_asyncio(
    default_sigterm: None,
) -> None:
    async def answer() -> int:
        await asyncio.sleep(0)
        return 42

    assert run_stoppable(answer()) == 42
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL

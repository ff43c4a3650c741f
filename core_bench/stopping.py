"""SIGTERM stops a command as Ctrl-C does: the same cleanup, then exit status 143.

Batch schedulers, `timeout`, `docker stop` and `kill` send SIGTERM, whose default action
ends the process on the spot: a run's manifest stayed `running`, without its counts, and
nothing was closed. `on_sigterm` (installed by the CLI) raises
`Terminated` instead, a `KeyboardInterrupt`, so every cleanup written for Ctrl-C runs for it
too; `run_stoppable` gives an asyncio run what `asyncio.run` gives Ctrl-C: the main task is
cancelled at its next await and `Terminated` is raised once it has cleaned up.

An inherited ignored SIGTERM stays ignored, as Python leaves an inherited ignored SIGINT.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from collections.abc import Coroutine, Iterator
from types import FrameType
from typing import Any, NoReturn, TypeVar

T = TypeVar("T")

INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT)."""

TERMINATED = 128 + signal.SIGTERM
"""Exit status after SIGTERM (143)."""


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: stop as after Ctrl-C."""


def on_sigterm(signum: int, frame: FrameType | None) -> NoReturn:
    """The SIGTERM handler: raise `Terminated` where the main thread is (as Python's
    `signal.default_int_handler` raises `KeyboardInterrupt` for SIGINT)."""
    raise Terminated


@contextlib.contextmanager
def sigterm_stops() -> Iterator[None]:
    """Within the block, SIGTERM raises `Terminated` in the main thread (`on_sigterm`),
    unless SIGTERM was ignored by whoever started the process; the handler before is put
    back at the end. Does nothing outside the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGTERM)
    if previous == signal.SIG_IGN:
        yield
        return
    signal.signal(signal.SIGTERM, on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_stoppable(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)`, and where `on_sigterm` is SIGTERM's handler, SIGTERM cancels the
    main task (as `asyncio.run` does on Ctrl-C) and `Terminated` is raised after it has
    cleaned up. A second SIGTERM raises `Terminated` at once."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGTERM) is not on_sigterm
    ):
        return asyncio.run(main)
    received: list[int] = []
    try:
        return asyncio.run(_cancelled_by_sigterm(main, received))
    except asyncio.CancelledError:
        if received:
            raise Terminated from None
        raise


async def _cancelled_by_sigterm(main: Coroutine[Any, Any, T], received: list[int]) -> T:
    task = asyncio.current_task()
    loop = asyncio.get_running_loop()
    assert task is not None

    def cancel(signum: int, frame: FrameType | None) -> None:
        received.append(signum)
        if len(received) > 1 or task.done():
            raise Terminated
        task.cancel()
        loop.call_soon_threadsafe(lambda: None)  # wake a loop blocked in select()

    previous = signal.signal(signal.SIGTERM, cancel)
    try:
        return await main
    finally:
        signal.signal(signal.SIGTERM, previous)


__all__ = [
    "INTERRUPTED",
    "TERMINATED",
    "Terminated",
    "on_sigterm",
    "run_stoppable",
    "sigterm_stops",
]

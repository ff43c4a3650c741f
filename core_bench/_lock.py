"""One writer per output directory: a build, a run or a regrade holds `DIR/.lock` while it
writes there.

Two processes writing one benchmark or run directory would interleave their work files,
samples and manifests (the second build's resume would read the first's half-written
files). The lock is `flock` on a file in the directory: the kernel drops it when its holder
ends, however it ends, so a killed writer never leaves a stale lock behind, and a rerun
resumes at once.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from core_bench.errors import UsageError

LOCK_FILE = ".lock"
"""The lock's file name in a locked directory (it holds the writer's pid, for the message)."""


_HELD: set[Path] = set()
"""Directories this process holds: holding one again (a build inside
`ensure_bundled_benchmark`'s wait) is a no-op, not a deadlock."""


@contextlib.contextmanager
def exclusive(directory: Path, what: str, *, wait: bool = False) -> Iterator[None]:
    """Hold `directory`'s lock for the duration (creating the directory).

    Args:
        directory: the output directory.
        what: the writer, for the messages ("build").
        wait: wait for another holder to end (saying so on stderr) instead of refusing.

    Raises:
        UsageError: another process holds the lock (and `wait` is False); it names the
            directory and that process's pid.
    """
    directory.mkdir(parents=True, exist_ok=True)
    key = directory.resolve()
    if key in _HELD:
        yield
        return
    path = directory / LOCK_FILE
    handle = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(handle, 32, 0).decode(errors="replace").strip() or "unknown"
            if not wait:
                raise UsageError(
                    f"{directory}: another {what} is writing there (pid {holder}); wait for "
                    "it to end, or write elsewhere"
                ) from None
            print(f"waiting for another {what} of {directory} (pid {holder})", file=sys.stderr)
            fcntl.flock(handle, fcntl.LOCK_EX)
        os.ftruncate(handle, 0)
        os.pwrite(handle, f"{os.getpid()}\n".encode(), 0)
        _HELD.add(key)
        try:
            yield
        finally:
            _HELD.discard(key)
    finally:
        os.close(handle)  # releases the lock

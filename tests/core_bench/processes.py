"""The processes below a command, and whether any of them outlived it (read from /proc)."""

from __future__ import annotations

import os
import time
from collections.abc import Set


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                found.extend(int(p) for p in handle.read().split())
        except (OSError, ValueError):
            pass
    return found


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state first)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _start_time(pid: int) -> str | None:
    fields = _stat(pid)
    return fields[19] if fields else None


def descendants(pid: int) -> dict[int, str]:
    """pid -> start time of every process below `pid` (the start time tells a reused pid)."""
    out: dict[int, str] = {}
    todo = _children(pid)
    while todo:
        child = todo.pop()
        start = _start_time(child)
        if start is not None:
            out[child] = start
            todo.extend(_children(child))
    return out


def alive(processes: dict[int, str]) -> list[int]:
    """Those of `processes` (from `descendants`) still running (not zombies)."""
    found = []
    for pid, start in processes.items():
        fields = _stat(pid)
        if fields and fields[19] == start and fields[0] != "Z":
            found.append(pid)
    return found


def process_groups(processes: dict[int, str]) -> set[int]:
    """The process groups of those of `processes` still there."""
    return {int(fields[2]) for pid in processes if (fields := _stat(pid))}


def in_groups(groups: Set[int]) -> list[int]:
    """Every running process (not a zombie) of the process groups `groups`."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            fields = _stat(int(name))
            if fields and fields[0] != "Z" and int(fields[2]) in groups:
                found.append(int(name))
    return found


def assert_all_gone(seen: dict[int, str], groups: Set[int] = frozenset()) -> None:
    """Every process of `seen`, and of the process groups `groups`, ends (polled: the kernel
    takes a moment to tear a killed bubblewrap namespace down; 20 s is a hang guard)."""
    deadline = time.monotonic() + 20
    while (alive(seen) or in_groups(groups)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert alive(seen) == [], f"still alive after their parent ended: {alive(seen)}"
    assert in_groups(groups) == [], f"left in the workers' process groups: {in_groups(groups)}"

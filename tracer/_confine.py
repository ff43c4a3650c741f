"""Confining a worker process: dropping root, and the resource limits it runs under.

Runs inside the worker, after its own imports and before any untrusted code. Like the rest of
the sandbox this is containment for buggy or mischievous benchmark code, not a security
boundary against a determined attacker.
"""

from __future__ import annotations

import math
import os
import resource
import stat
import sys
import time
from collections.abc import Callable
from typing import Any

SANDBOX_UID = 65534
"""The unprivileged user (conventionally "nobody") a worker started as root runs as."""

SANDBOX_GID = 65534
"""Its group (conventionally "nogroup")."""

CPU_MARGIN_S = 2.0
"""Seconds of CPU time past the wall timeout before the kernel's SIGXCPU backstop fires."""

_MB = 1024 * 1024
_FD_ROOT = "/proc/self/fd"


def drop_privileges(uid: int, gid: int) -> int:
    """Switch a root process to `uid`/`gid` for good, keeping the interpreter able to import.

    The interpreter may live where the unprivileged user cannot look (pyenv under a 0700
    `/root`, for one). Before switching, every import directory the user could not read is
    opened, and `sys.path` and the `__path__` of loaded packages are pointed at
    `/proc/self/fd/N` instead: a process may always follow its own descriptors, so lazy
    imports (an encoding, `fractions`, `ctypes`) keep working without widening what the user
    can read anywhere else.

    Returns:
        How many import directories were redirected.

    Raises:
        OSError: the switch failed (the worker must not go on as root).
    """
    redirects: dict[str, str] = {}

    def redirect(path: str) -> str:
        for original, replacement in redirects.items():
            if path == original or path.startswith(original + os.sep):
                return replacement + path[len(original) :]
        if not os.path.isdir(path) or _readable_by(path, uid, gid):
            return path
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        redirects[path] = f"{_FD_ROOT}/{fd}"
        return redirects[path]

    new_sys_path = [redirect(entry) if entry else entry for entry in sys.path]
    packages: list[tuple[list[str], list[str]]] = []
    for module in list(sys.modules.values()):
        search = getattr(module, "__path__", None)
        if isinstance(search, list) and all(isinstance(p, str) for p in search):
            packages.append((search, [redirect(p) for p in search]))

    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)
    if os.getuid() != uid or os.geteuid() != uid or os.getegid() != gid:
        raise OSError("could not switch to the sandbox user")

    sys.path[:] = new_sys_path
    for search, replaced in packages:
        search[:] = replaced
    sys.path_importer_cache.clear()
    return len(redirects)


def _readable_by(path: str, uid: int, gid: int) -> bool:
    """Whether `uid`/`gid` (no supplementary groups) may list `path`, reached as written and
    as resolved (both chains of ancestors need search permission)."""
    return _chain_allows(os.path.abspath(path), uid, gid) and _chain_allows(
        os.path.realpath(path), uid, gid
    )


def _chain_allows(path: str, uid: int, gid: int) -> bool:
    current = path
    need = 0o5  # read and search on the directory itself
    while True:
        try:
            st = os.stat(current)
        except OSError:
            return False
        if st.st_uid == uid:
            bits = (st.st_mode >> 6) & 0o7
        elif st.st_gid == gid:
            bits = (st.st_mode >> 3) & 0o7
        else:
            bits = st.st_mode & 0o7
        if not stat.S_ISDIR(st.st_mode) or bits & need != need:
            return False
        parent = os.path.dirname(current)
        if parent == current:
            return True
        current, need = parent, 0o1  # ancestors only need search permission


def set_fixed_limits(
    *, memory_mb: int, file_mb: int, open_files: int, processes: bool = False
) -> None:
    """Limits that hold for the worker's whole life (hard limits cannot be raised again).

    Address space: hard limit `memory_mb` (each call lowers the soft limit to its own
    budget). File size: `file_mb` for every file the worker writes; SIGXFSZ is ignored so an
    oversized write raises `OSError` instead of killing. Open files: `open_files`. Processes:
    none (RLIMIT_NPROC 0 counts threads too; it is not enforced for root, which is why a root
    worker drops privileges first). Core dumps: none. CPU: unlimited until a call sets it.
    With `processes` (a fork server's template) the process limit stays as it is: each
    child sets it to none itself (`no_new_processes`).
    """
    import signal

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_AS, (memory_mb * _MB, memory_mb * _MB))
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_mb * _MB, file_mb * _MB))
    resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))
    if not processes:
        resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))


def no_new_processes() -> None:
    """From now on this process may start no process or thread (see `set_fixed_limits`)."""
    resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))


def bare_fork() -> Callable[[], int] | None:
    """`fork(2)` without the interpreter's own work around it, for a fork server's template.

    `os.fork` takes the import lock, runs every handler registered with `os.register_at_fork`
    (`random` reseeds itself from `os.urandom` in the child) and re-initialises the locks and
    thread states of the threads that did not survive the fork. In a process with one thread
    none of that is needed (no lock is held by another thread, no other thread state exists),
    and a child that skips it copies about 20 fewer pages of the template (60 more where a
    `random` imported before the guard reseeds). The call holds the GIL throughout
    (`ctypes.PyDLL`), so the child's only thread still holds it.

    Returns:
        The function (it raises `OSError` when the fork fails), or None where it is not safe
        or not available: not Linux and CPython, no `ctypes`, more than one thread.
    """
    if not sys.platform.startswith("linux") or sys.implementation.name != "cpython":
        return None
    try:
        import ctypes

        threads = len(os.listdir("/proc/self/task"))
        libc = ctypes.PyDLL(None, use_errno=True)
        fork = libc.fork
    except (ImportError, OSError, AttributeError):
        return None
    if threads != 1:
        return None
    fork.argtypes = []
    fork.restype = ctypes.c_int

    def forked() -> int:
        pid = int(fork())
        if pid < 0:
            errno = ctypes.get_errno()
            raise OSError(errno, os.strerror(errno))
        return pid

    return forked


_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4


_libc: list[Any] = []


def _prctl(option: int, value: int) -> bool:
    try:
        if not _libc:  # loaded once: a fork server's children reuse the template's handle
            import ctypes

            _libc.append(ctypes.CDLL(None, use_errno=True).prctl)
        return bool(_libc[0](option, value, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def die_with_parent(parent_pid: int | None = None) -> bool:
    """Ask the kernel to SIGKILL this process when its parent ends, however it ends.

    When `parent_pid` is given and the parent is already gone (this process was re-parented
    before the request took effect), exit at once.

    Returns:
        Whether the kernel took the request (Linux only).
    """
    import signal

    done = _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if parent_pid is not None and os.getppid() != parent_pid:
        os._exit(1)
    return done


def not_dumpable() -> bool:
    """Make this process non-dumpable: processes of the same user can neither ptrace it nor
    read its memory, environment or descriptors through /proc (and it writes no core)."""
    return _prctl(_PR_SET_DUMPABLE, 0)


class CallLimits:
    """Per-call limits: a soft address-space cap and a CPU-time backstop.

    CPU time is cumulative over the worker's life, so each call's soft CPU limit is the time
    used so far plus the call's timeout plus `CPU_MARGIN_S`; the parent's wall-clock timeout
    normally fires first, and SIGXCPU only catches a worker the parent failed to kill.
    """

    def __init__(self) -> None:
        self.margin_s = CPU_MARGIN_S
        self._as_hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        self._cpu_hard = resource.getrlimit(resource.RLIMIT_CPU)[1]

    def enter(self, *, memory_mb: int, timeout_s: float) -> None:
        """Lower the limits for one call."""
        # The process's CPU time so far, as getrusage counts it, without building its record.
        cpu = math.ceil(time.process_time() + timeout_s + self.margin_s)
        if self._cpu_hard != resource.RLIM_INFINITY:
            cpu = min(cpu, self._cpu_hard)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, self._cpu_hard))
        soft = memory_mb * _MB
        if self._as_hard != resource.RLIM_INFINITY:
            soft = min(soft, self._as_hard)
        resource.setrlimit(resource.RLIMIT_AS, (soft, self._as_hard))

    def leave(self) -> None:
        """Give the worker its full allowance back, so it can build and send the reply."""
        resource.setrlimit(resource.RLIMIT_AS, (self._as_hard, self._as_hard))
        resource.setrlimit(resource.RLIMIT_CPU, (self._cpu_hard, self._cpu_hard))

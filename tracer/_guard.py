"""The reliability guard: destructive `os`, `shutil` and `subprocess` functions, disabled.

In the spirit of OpenAI human-eval's `reliability_guard`, installed in a worker after its own
imports and before any untrusted code runs. Functions that start processes, send signals or
change identity are replaced by stubs that raise `PermissionError`; functions that remove,
rename, truncate, or change the mode or owner of files, and `open` for writing, work only
inside the worker's temporary directory.

This is containment against benchmark code that misbehaves by accident, NOT a security
boundary: `ctypes`, `_io`, or a dozen other routes reach the real system calls. What stops a
determined attacker, as far as anything here does, is the process boundary, the unprivileged
user, the rlimits and bubblewrap.
"""

from __future__ import annotations

import _posixsubprocess
import builtins
import functools
import io
import os
import posix
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

_DISABLED_OS = (
    "system",
    "popen",
    "fork",
    "forkpty",
    "execl",
    "execle",
    "execlp",
    "execlpe",
    "execv",
    "execve",
    "execvp",
    "execvpe",
    "spawnl",
    "spawnle",
    "spawnlp",
    "spawnlpe",
    "spawnv",
    "spawnve",
    "spawnvp",
    "spawnvpe",
    "posix_spawn",
    "posix_spawnp",
    "kill",
    "killpg",
    "pidfd_open",
    "chroot",
    "fchdir",
    "fchmod",
    "fchown",
    "setuid",
    "seteuid",
    "setreuid",
    "setresuid",
    "setgid",
    "setegid",
    "setregid",
    "setresgid",
    "setgroups",
    "initgroups",
    "plock",
)

# name -> ((position, keyword, dir_fd keyword), ...), follows symlinks by default
_FENCED_OS: dict[str, tuple[tuple[tuple[int, str, str | None], ...], bool]] = {
    "remove": (((0, "path", "dir_fd"),), False),
    "unlink": (((0, "path", "dir_fd"),), False),
    "rmdir": (((0, "path", "dir_fd"),), False),
    "removedirs": (((0, "name", None),), False),
    "rename": (((0, "src", "src_dir_fd"), (1, "dst", "dst_dir_fd")), False),
    "renames": (((0, "old", None), (1, "new", None)), False),
    "replace": (((0, "src", "src_dir_fd"), (1, "dst", "dst_dir_fd")), False),
    "link": (((0, "src", "src_dir_fd"), (1, "dst", "dst_dir_fd")), True),
    "symlink": (((1, "dst", "dir_fd"),), False),
    "mkdir": (((0, "path", "dir_fd"),), False),
    "mkfifo": (((0, "path", "dir_fd"),), False),
    "mknod": (((0, "path", "dir_fd"),), False),
    "truncate": (((0, "path", None),), True),
    "chmod": (((0, "path", "dir_fd"),), True),
    "lchmod": (((0, "path", None),), False),
    "chown": (((0, "path", "dir_fd"),), True),
    "lchown": (((0, "path", None),), False),
    "utime": (((0, "path", "dir_fd"),), True),
    "chdir": (((0, "path", None),), True),
}

_FENCED_SHUTIL: dict[str, tuple[tuple[tuple[int, str, str | None], ...], bool]] = {
    "rmtree": (((0, "path", "dir_fd"),), False),
    "move": (((0, "src", None), (1, "dst", None)), False),
    "chown": (((0, "path", None),), True),
}

_DISABLED_SUBPROCESS = (
    "Popen",
    "run",
    "call",
    "check_call",
    "check_output",
    "getoutput",
    "getstatusoutput",
)

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_ALWAYS_WRITABLE = frozenset({os.devnull})


@dataclass(frozen=True, slots=True)
class Private:
    """The real functions the worker keeps for itself after the guard is installed."""

    unlink: Callable[..., None]
    rmdir: Callable[..., None]
    chdir: Callable[..., None]


class Fence:
    """Decides whether a path (or a descriptor) lies inside the sandbox directory."""

    def __init__(self, root: str) -> None:
        self.root = os.path.realpath(root)
        self._prefix = self.root.rstrip(os.sep) + os.sep
        self._realpath = os.path.realpath
        self._readlink = os.readlink

    def allows(self, path: Any, dir_fd: Any = None, follow: bool = True) -> bool:
        """True when `path` (relative to `dir_fd` when given) resolves inside the root.

        With `follow` False the last component is not resolved: removing a symlink that
        points outside is allowed, removing a file through a symlinked directory is not.
        """
        try:
            if isinstance(path, int) and not isinstance(path, bool):
                target = self._readlink(f"/proc/self/fd/{path}")
            else:
                target = os.fsdecode(os.fspath(path))
                if not os.path.isabs(target):
                    base = (
                        self._readlink(f"/proc/self/fd/{dir_fd}")
                        if dir_fd is not None
                        else os.getcwd()
                    )
                    target = os.path.join(base, target)
                head, tail = os.path.split(target)
                if follow or tail in ("", ".", ".."):
                    target = self._realpath(target)
                else:
                    target = os.path.join(self._realpath(head), tail)
        except (OSError, TypeError, ValueError):
            return False
        return target == self.root or target.startswith(self._prefix)

    def allows_write(self, path: Any, dir_fd: Any = None) -> bool:
        """True when a file may be opened for writing at `path`."""
        if isinstance(path, str) and path in _ALWAYS_WRITABLE:
            return True
        return self.allows(path, dir_fd, follow=True)


def install(workdir: str) -> Private:
    """Install the guard in this process, fencing file changes into `workdir`.

    Returns:
        The real functions the worker itself still needs.
    """
    private = Private(unlink=os.unlink, rmdir=os.rmdir, chdir=os.chdir)
    fence = Fence(workdir)
    for module in (os, posix):
        for name in _DISABLED_OS:
            if hasattr(module, name):
                setattr(module, name, _disabled(f"os.{name}"))
        # No process forks after the guard, so a fork handler would never run: registering one
        # does nothing (modules such as `threading` register one when they are imported).
        module.register_at_fork = _ignored  # type: ignore[attr-defined]
        for name, (params, follow) in _FENCED_OS.items():
            real = getattr(module, name, None)
            if real is not None:
                setattr(module, name, _fenced(fence, real, f"os.{name}", params, follow))
        module.open = _fenced_os_open(fence, module.open)  # type: ignore[attr-defined]
    for name, (params, follow) in _FENCED_SHUTIL.items():
        setattr(
            shutil, name, _fenced(fence, getattr(shutil, name), f"shutil.{name}", params, follow)
        )
    setattr(_posixsubprocess, "fork_exec", _disabled("_posixsubprocess.fork_exec"))  # noqa: B010
    # `subprocess` is fenced when it is imported, not imported here: it imports `threading`,
    # whose at-fork handler alone doubles the cost of every child a fork server starts.
    if "subprocess" in sys.modules:
        _disable_subprocess(sys.modules["subprocess"])
    else:
        sys.meta_path.insert(0, _AfterImport("subprocess", _disable_subprocess))
    guarded_open = _fenced_open(fence, builtins.open)
    builtins.open = guarded_open
    io.open = guarded_open
    # The soft limits may not be raised back by the code (it would reach the hard limits).
    sys.modules["resource"] = None  # type: ignore[assignment]
    return private


def _ignored(*args: Any, **kwargs: Any) -> None:
    return None


def _disable_subprocess(module: ModuleType) -> None:
    for name in _DISABLED_SUBPROCESS:
        setattr(module, name, _disabled(f"subprocess.{name}"))


class _AfterImport:
    """A `sys.meta_path` finder that runs `patch` on module `name` once it is imported.

    It finds nothing itself: it asks the finders after it for the module's spec and wraps the
    spec's loader, so the module is imported as usual and patched before anyone can use it.
    """

    def __init__(self, name: str, patch: Callable[[ModuleType], None]) -> None:
        self.name = name
        self.patch = patch

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name != self.name:
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec = find(name, path, target)
            if spec is not None and spec.loader is not None:
                spec.loader = _PatchingLoader(spec.loader, self.patch)
                return spec
        return None


class _PatchingLoader:
    """A loader that executes the module with `loader`, then patches it."""

    def __init__(self, loader: Any, patch: Callable[[ModuleType], None]) -> None:
        self.loader = loader
        self.patch = patch

    def create_module(self, spec: Any) -> ModuleType | None:
        create = getattr(self.loader, "create_module", None)
        return None if create is None else create(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.loader.exec_module(module)
        self.patch(module)


def _disabled(name: str) -> Callable[..., Any]:
    def disabled(*args: Any, **kwargs: Any) -> Any:
        raise PermissionError(f"{name} is disabled in the sandbox")

    disabled.__name__ = disabled.__qualname__ = name.rsplit(".", 1)[-1]
    return disabled


def _fenced(
    fence: Fence,
    real: Callable[..., Any],
    name: str,
    params: tuple[tuple[int, str, str | None], ...],
    follow_default: bool,
) -> Callable[..., Any]:
    @functools.wraps(real)
    def fenced(*args: Any, **kwargs: Any) -> Any:
        follow = bool(kwargs.get("follow_symlinks", follow_default))
        for position, keyword, dir_keyword in params:
            if position < len(args):
                path = args[position]
            elif keyword in kwargs:
                path = kwargs[keyword]
            else:
                continue
            dir_fd = kwargs.get(dir_keyword) if dir_keyword else None
            if not fence.allows(path, dir_fd, follow):
                raise PermissionError(f"{name}: {path!r} is outside the sandbox directory")
        return real(*args, **kwargs)

    return fenced


def _fenced_os_open(fence: Fence, real: Callable[..., int]) -> Callable[..., int]:
    @functools.wraps(real)
    def fenced_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        writes = isinstance(flags, int) and flags & _WRITE_FLAGS
        if writes and not fence.allows_write(path, kwargs.get("dir_fd")):
            raise PermissionError(f"os.open: {path!r} is outside the sandbox directory")
        return real(path, flags, *args, **kwargs)

    return fenced_open


def _fenced_open(fence: Fence, real: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(real)
    def fenced_open(file: Any, mode: Any = "r", *args: Any, **kwargs: Any) -> Any:
        if (
            isinstance(mode, str)
            and not (isinstance(file, int) and not isinstance(file, bool))
            and any(c in mode for c in "wax+")
            and not fence.allows_write(file)
        ):
            raise PermissionError(f"open: {file!r} for writing is outside the sandbox directory")
        return real(file, mode, *args, **kwargs)

    return fenced_open

"""Starting a worker process: its command line, its environment, and bubblewrap when present."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HASH_SEED = "0"
"""PYTHONHASHSEED of every worker: sets of strings iterate in the same order on every run."""

PACKAGE_ROOT = str(Path(__file__).resolve().parent.parent)
"""The directory that holds the `tracer` package; a worker outside bubblewrap imports it from
there."""

SANDBOX_PACKAGE_ROOT = "/run/core-bench"
"""Where a worker inside bubblewrap finds `tracer`: the package directory alone is bound
there read-only, never the checkout or the environment around it."""

_SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")

_BOOT = (
    "import sys, types; sys.path.insert(0, sys.argv[1]); "
    "p = types.ModuleType('tracer'); p.__path__ = [sys.argv[1] + '/tracer']; "
    "sys.modules['tracer'] = p; "
    "from tracer._worker import main; main(sys.argv[2])"
)
"""Imports the worker without the package's `__init__` (the pool, threads, subprocess): a
smaller worker starts faster and, as a fork server's template, forks faster."""


@dataclass(frozen=True, slots=True)
class WorkerSpec:
    """Everything that is the same for every worker of a pool."""

    use_bwrap: bool
    uid: int | None
    gid: int | None
    memory_mb: int
    file_mb: int
    open_files: int
    stdout_limit: int
    hash_seed: str = HASH_SEED
    fork: bool = False
    """A fork server: the process forks a fresh child from itself for every call."""


def worker_env(workdir: str, hash_seed: str = HASH_SEED) -> dict[str, str]:
    """The whole environment of a worker: nothing is inherited from the parent."""
    return {
        "PYTHONHASHSEED": hash_seed,
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONIOENCODING": "utf-8",
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "HOME": workdir,
        "TMPDIR": workdir,
        "OMP_NUM_THREADS": "1",
    }


def worker_command(
    spec: WorkerSpec, *, workdir: str, hidden_root: str, read_fd: int, write_fd: int
) -> list[str]:
    """The argv that starts one worker with `workdir` as its only writable directory.

    Under bubblewrap, `hidden_root` (the pool's directory, which holds the other workers'
    directories) is covered by an empty read-only tmpfs with only `workdir` bound back in.
    """
    config = {
        "read_fd": read_fd,
        "write_fd": write_fd,
        "workdir": workdir,
        "uid": spec.uid,
        "gid": spec.gid,
        "memory_mb": spec.memory_mb,
        "file_mb": spec.file_mb,
        "open_files": spec.open_files,
        "stdout_limit": spec.stdout_limit,
        "fork": spec.fork,
        # Outside bubblewrap the worker checks that its parent is still this process.
        "parent_pid": None if spec.use_bwrap else os.getpid(),
    }
    if not spec.use_bwrap:
        return [sys.executable, "-s", "-B", "-P", "-c", _BOOT, PACKAGE_ROOT, json.dumps(config)]
    python = [interpreter(), "-s", "-B", "-P", "-c", _BOOT, SANDBOX_PACKAGE_ROOT]
    return [*bwrap_prefix(workdir=workdir, hidden_root=hidden_root), *python, json.dumps(config)]


def interpreter() -> str:
    """The real interpreter behind `sys.executable` (a virtual environment's `python` is a
    link to it): inside bubblewrap it runs without the environment, which is not bound."""
    return os.path.realpath(sys.executable)


def _binds() -> list[str]:
    """What a worker needs of the file system, read-only: the system's programs and libraries,
    the interpreter's prefix (its standard library and installed packages) and the `tracer`
    package alone."""
    args: list[str] = []
    for path in _SYSTEM_DIRS:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    prefixes = {os.path.realpath(p) for p in (sys.base_prefix, sys.base_exec_prefix)}
    prefixes.add(os.path.dirname(os.path.dirname(interpreter())))
    for prefix in sorted(prefixes):
        if os.path.isdir(prefix) and not any(
            prefix == d or prefix.startswith(d + "/") for d in _SYSTEM_DIRS
        ):
            args += ["--ro-bind", prefix, prefix]
    package = os.path.join(PACKAGE_ROOT, "tracer")
    args += [*_traversable(SANDBOX_PACKAGE_ROOT), "--dir", SANDBOX_PACKAGE_ROOT]
    args += ["--ro-bind", package, f"{SANDBOX_PACKAGE_ROOT}/tracer"]
    return args


def _traversable(path: str) -> list[str]:
    """Create the ancestors of `path` on the sandbox's root as directories anyone may pass
    through (bubblewrap makes them 0700, which the unprivileged worker user cannot)."""
    args: list[str] = []
    parts = [p for p in path.split("/") if p][:-1]
    for depth in range(1, len(parts) + 1):
        args += ["--perms", "0711", "--dir", "/" + "/".join(parts[:depth])]
    return args


def bwrap_prefix(*, workdir: str, hidden_root: str) -> list[str]:
    """bubblewrap arguments: an empty read-only root with only what a worker needs bound in
    (see `_binds`), its own /dev and /proc, no network, its own PID namespace, and `workdir`
    as its one writable directory. Not bound: the benchmark, the run directory, the home
    directory, the checkout, the pool's other workers (`hidden_root` stays out entirely).

    File descriptors passed to bwrap are inherited by the sandboxed process.
    """
    del hidden_root  # nothing of it is bound, so nothing of it needs covering
    bwrap = shutil.which("bwrap") or "bwrap"
    return [
        bwrap,
        *_binds(),
        "--dev", "/dev",
        "--remount-ro", "/dev",
        "--proc", "/proc",
        *_traversable(workdir),
        "--bind", workdir, workdir,
        "--remount-ro", "/",
        "--unshare-net",
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--chdir", workdir,
        "--",
    ]  # fmt: skip


@functools.lru_cache(maxsize=1)
def probe_bwrap() -> tuple[bool, str]:
    """Whether bubblewrap can start a sandboxed Python here, and if not, why not.

    Runs once per process: bwrap may be installed but unusable (no user namespaces in a
    container, a seccomp profile that forbids mounts).
    """
    if shutil.which("bwrap") is None:
        return False, "bwrap is not on PATH"
    root = tempfile.mkdtemp(prefix="core-bench-probe-")
    try:
        workdir = os.path.join(root, "w")
        os.mkdir(workdir)
        command = [
            *bwrap_prefix(workdir=workdir, hidden_root=root),
            interpreter(),
            "-s",
            "-B",
            "-c",
            "import os; open('probe', 'w').write(str(os.getpid()))",
        ]
        try:
            done = subprocess.run(
                command,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=30,
                env=worker_env(workdir),
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return False, f"bwrap probe failed: {exc}"
        written = os.path.join(workdir, "probe")
        if done.returncode != 0 or not os.path.exists(written):
            message = done.stderr.decode("utf-8", "replace").strip()[-300:]
            return False, f"bwrap probe exited with {done.returncode}: {message}"
        return True, "bwrap works"
    finally:
        shutil.rmtree(root, ignore_errors=True)

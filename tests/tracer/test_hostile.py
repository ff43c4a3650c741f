"""Hostile code in the sandbox: every attempt ends as an outcome, and the pool keeps serving.

Each test runs its code, checks the outcome's status, and then checks that the same pool (one
worker, so the replacement or the reused worker is the one tested) still answers a normal call
correctly. File tampering aims at sentinel files outside the sandbox's temporary directories;
around every test the repository tree is compared, and after the module the virtual
environment and the shared temporary directories are.
"""

from __future__ import annotations

import ast
import json
import os
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from sandbox_modes import HANG_GUARD, MODES

import tracer
from tracer import Outcome, SandboxPool, literal_value
from tracer._codec import CUT_MARK
from tracer._confine import SANDBOX_UID
from tracer._outcome import Outcome as _Outcome

pytestmark = HANG_GUARD

REPO = Path(__file__).resolve().parents[2]
_SKIP_DIRS = {".git", ".venv", ".mypy_cache", ".ruff_cache", ".pytest_cache", "__pycache__"}
SHARED_TMP = ("/tmp", "/var/tmp", "/dev/shm")
PWNED = "SANDBOX_PWNED"


def _tree(root: Path, skip: set[str]) -> dict[str, tuple[int, int, int, int]]:
    """path -> (mtime_ns, size, mode, uid) of every file and directory under `root`."""
    out: dict[str, tuple[int, int, int, int]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in skip]
        for name in [*dirnames, *filenames]:
            path = os.path.join(dirpath, name)
            try:
                st = os.lstat(path)
            except OSError:
                continue
            out[path] = (st.st_mtime_ns, st.st_size, st.st_mode, st.st_uid)
    return out


def _sandbox_owned(paths: tuple[str, ...]) -> set[str]:
    found = set()
    for base in paths:
        try:
            entries = os.listdir(base)
        except OSError:
            continue
        for name in entries:
            try:
                if os.lstat(os.path.join(base, name)).st_uid == SANDBOX_UID:
                    found.add(os.path.join(base, name))
            except OSError:
                pass
    return found


@pytest.fixture(scope="module", autouse=True)
def untouched_environment() -> Iterator[None]:
    """After the whole module: the venv and the shared temporary directories are as before."""
    venv_before = _tree(REPO / ".venv", {"__pycache__"})
    owned_before = _sandbox_owned(SHARED_TMP)
    yield
    assert _tree(REPO / ".venv", {"__pycache__"}) == venv_before
    assert _sandbox_owned(SHARED_TMP) - owned_before == set()


@pytest.fixture(autouse=True)
def untouched_repository() -> Iterator[None]:
    """Around each test: the sandbox created, changed or removed nothing in the repository.

    Run by an ordinary user, the workers run as that user too, so every change in the tree
    counts. Run as root (as here and in CI), the workers run as the sandbox user, who can
    neither change nor remove root's files in root's directories (the sentinel tests check
    exactly that); then what counts is anything new or changed that the sandbox user owns,
    and people editing other files of the tree during the run do not fail the test.
    """
    before = _tree(REPO, _SKIP_DIRS)
    yield
    after = _tree(REPO, _SKIP_DIRS)
    changed = {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}
    if os.geteuid() == 0:
        changed = {p for p in changed if p in after and after[p][3] == SANDBOX_UID}
    assert changed == set()
    assert not (REPO / PWNED).exists()


@pytest.fixture(scope="module", params=MODES)
def pool(request: pytest.FixtureRequest) -> Iterator[SandboxPool]:
    with SandboxPool(workers=1, use_bwrap=request.param) as p:
        yield p


@pytest.fixture
def sentinel(tmp_path: Path) -> Iterator[Path]:
    """A file outside the sandbox, in pytest's own (root-only) temporary directory."""
    path = tmp_path / "sentinel.txt"
    path.write_text("original")
    before = os.stat(path)
    yield path
    after = os.stat(path)
    assert path.read_text() == "original"
    assert (after.st_mtime_ns, after.st_mode, after.st_uid) == (
        before.st_mtime_ns,
        before.st_mode,
        before.st_uid,
    )
    assert sorted(os.listdir(tmp_path)) == ["sentinel.txt"]


@pytest.fixture
def open_sentinel() -> Iterator[Path]:
    """A world-writable file in a world-writable directory outside the sandbox: no permission
    protects it, so only the reliability guard (and bubblewrap's read-only root) do."""
    directory = Path(tempfile.mkdtemp(prefix="core-bench-open-"))
    directory.chmod(0o777)
    path = directory / "sentinel.txt"
    path.write_text("original")
    path.chmod(0o666)
    before = os.stat(path)
    yield path
    after = os.stat(path)
    assert path.read_text() == "original"
    assert (after.st_mtime_ns, stat.S_IMODE(after.st_mode)) == (before.st_mtime_ns, 0o666)
    assert sorted(os.listdir(directory)) == ["sentinel.txt"]
    path.unlink()
    directory.rmdir()


def require_protection_below_the_guard(pool: SandboxPool) -> None:
    """Raw system calls bypass the guard; what stops them is the sandbox user (when the pool
    runs as root) or bubblewrap. Run by an ordinary user without bubblewrap, the workers act
    as that user, so there is nothing below the guard to test."""
    if not pool.use_bwrap and os.geteuid() != 0:
        pytest.skip("no bubblewrap and not root: raw system calls run as the tester's own user")


def assert_serves(pool: SandboxPool) -> None:
    out = pool.run(
        "def f(xs):\n    print(len(xs))\n    return isinstance(xs, list) and sum(xs)",
        "f([20, 1])",
    )
    assert (out.status, out.result, out.stdout) == ("ok", "21", "2\n"), out


def run(pool: SandboxPool, code: str, call: str = "f()", **options: object) -> Outcome:
    out = pool.run(code, call, **options)  # type: ignore[arg-type]
    return out


# -- endless work -----------------------------------------------------------------------------


def test_infinite_loop_times_out(pool: SandboxPool) -> None:
    out = run(pool, "def f():\n    while True:\n        pass", timeout_s=1.0)
    assert out.status == "timeout" and 1.0 <= out.duration_s < 5.0
    assert_serves(pool)


ENDLESS = {
    "sleeping-forever": "import time\ndef f():\n    time.sleep(1000)",
    "loop-at-module-level": "while True:\n    pass\ndef f():\n    pass",
    "loop-in-the-results-repr": (
        "class A:\n"
        "    def __repr__(self):\n"
        "        while True:\n"
        "            pass\n"
        "def f():\n"
        "    return A()"
    ),
    "loop-that-ignores-and-blocks-signals": (
        "import signal\n"
        "def f():\n"
        "    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGXCPU):\n"
        "        signal.signal(s, signal.SIG_IGN)\n"
        "    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGXCPU})\n"
        "    while True:\n"
        "        pass"
    ),
}


@pytest.mark.parametrize("name", sorted(ENDLESS))
def test_endless_work_times_out(pool: SandboxPool, name: str) -> None:
    assert run(pool, ENDLESS[name], timeout_s=1.0).status == "timeout"
    assert_serves(pool)


def test_print_flood_is_bounded(pool: SandboxPool) -> None:
    code = (
        "import os, sys\n"
        "def f():\n"
        "    for i in range(100000):\n"
        "        print(i, 'x' * 30)\n"
        "        sys.stderr.write('err')\n"
        "    os.write(1, b'y' * 5_000_000)\n"
        "    return 'done'"
    )
    out = run(pool, code)
    assert (out.status, out.result) == ("ok", "'done'")
    assert out.stdout.endswith(CUT_MARK) and len(out.stdout) <= 8192 + len(CUT_MARK)
    assert_serves(pool)


def test_endless_print_flood_times_out(pool: SandboxPool) -> None:
    out = run(pool, "def f():\n    while True:\n        print('spam' * 100)", timeout_s=1.0)
    assert out.status == "timeout"
    assert_serves(pool)


# -- memory and recursion ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "def f():\n    return 'a' * 10**11",
        "def f():\n    hoard = []\n    while True:\n        hoard.append(bytearray(1 << 20))",
        "big = bytearray(10**10)\ndef f():\n    pass",
        "def f():\n    return [0] * 10**10",
    ],
    ids=["string", "growing-list", "module-level", "list"],
)
def test_memory_bomb_is_a_memory_outcome(pool: SandboxPool, code: str) -> None:
    out = run(pool, code, memory_mb=128)
    assert out.status == "memory", out
    assert out.exception is not None and "MemoryError" in out.exception
    assert_serves(pool)


def test_recursion_bomb_is_an_exception(pool: SandboxPool) -> None:
    out = run(pool, "def f():\n    return f()")
    assert out.status == "exception"
    assert out.exception is not None and out.exception.startswith("RecursionError")
    assert_serves(pool)


def test_raised_recursion_limit_is_contained_and_reset(pool: SandboxPool) -> None:
    code = "import sys\nsys.setrecursionlimit(10**6)\ndef f(n=0):\n    return f(n + 1)"
    out = run(pool, code, timeout_s=2.0, memory_mb=256)
    assert out.status in {"exception", "memory", "crashed", "timeout"}
    depth = run(pool, "def f(n):\n    return 0 if n == 0 else 1 + f(n - 1)", "f(5000)")
    assert depth.exception is not None and depth.exception.startswith("RecursionError")
    assert_serves(pool)


# -- processes --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "import os\ndef f():\n    while True:\n        os.fork()",
        "import os\ndef f():\n    return os.system('echo pwned')",
        "import subprocess\ndef f():\n    return subprocess.run(['true']).returncode",
        "import os\ndef f():\n    return os.popen('id').read()",
        "import os\ndef f():\n    os.execv('/bin/true', ['true'])",
        "import os\ndef f():\n    return os.posix_spawn('/bin/true', ['true'], {})",
        "import posix\ndef f():\n    return posix.system('echo pwned')",
        "import threading\ndef f():\n    threading.Thread(target=print).start()",
        "import multiprocessing\ndef f():\n    multiprocessing.Process(target=print).start()",
        "import pty\ndef f():\n    return pty.fork()",
    ],
    ids=["fork-bomb", "system", "subprocess", "popen", "exec", "spawn", "posix", "thread",
         "multiprocessing", "pty"],
)  # fmt: skip
def test_new_processes_are_refused(pool: SandboxPool, code: str) -> None:
    out = run(pool, code)
    assert out.status == "exception", out
    assert_serves(pool)


def test_raw_fork_fails_below_the_guard(pool: SandboxPool) -> None:
    # RLIMIT_NPROC=0, enforced because the worker is not root.
    code = (
        "import ctypes\n"
        "def f():\n"
        "    libc = ctypes.CDLL(None, use_errno=True)\n"
        "    pids = {libc.fork() for _ in range(20)}\n"
        "    return sorted(pids), ctypes.get_errno()"
    )
    out = run(pool, code)
    assert (out.status, out.result) == ("ok", "([-1], 11)"), out  # EAGAIN
    assert_serves(pool)


def test_signalling_the_parent_is_refused(pool: SandboxPool) -> None:
    require_protection_below_the_guard(pool)
    out = run(pool, "import os\ndef f():\n    os.kill(os.getppid(), 9)")
    assert out.status == "exception"
    code = (
        "import ctypes, os\n"
        "def f():\n"
        "    libc = ctypes.CDLL(None, use_errno=True)\n"
        f"    return libc.kill({os.getpid()}, 0), ctypes.get_errno()"
    )
    raw = run(pool, code)  # signal 0 only probes: this process must not be reachable
    assert raw.status == "ok" and raw.result is not None
    assert ast.literal_eval(raw.result)[0] == -1
    assert_serves(pool)


# -- exits and crashes ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("import sys\ndef f():\n    sys.exit(3)", "SystemExit: 3"),
        ("import sys\ndef f():\n    sys.exit()", "SystemExit"),
        ("def f():\n    exit()", "SystemExit: None"),
        ("raise SystemExit(4)\ndef f():\n    pass", "SystemExit: 4"),
        ("def f():\n    raise KeyboardInterrupt", "KeyboardInterrupt"),
    ],
    ids=["sys.exit-3", "sys.exit", "exit", "module-level", "keyboard-interrupt"],
)
def test_exiting_by_exception_is_an_exception(pool: SandboxPool, code: str, expected: str) -> None:
    out = run(pool, code)
    assert (out.status, out.exception) == ("exception", expected)
    assert_serves(pool)


@pytest.mark.parametrize(
    ("code", "detail"),
    [
        ("import os\ndef f():\n    os._exit(0)", "code 0"),
        ("import os\ndef f():\n    os._exit(7)", "code 7"),
        ("import os\ndef f():\n    os.abort()", "SIGABRT"),
        ("import ctypes\ndef f():\n    return ctypes.string_at(0)", "SIGSEGV"),
        ("import signal\ndef f():\n    signal.raise_signal(signal.SIGKILL)", "SIGKILL"),
    ],
    ids=["_exit-0", "_exit-7", "abort", "ctypes-segfault", "self-kill"],
)
def test_dying_is_a_crashed_outcome(pool: SandboxPool, code: str, detail: str) -> None:
    out = run(pool, code)
    assert out.status == "crashed", out
    assert detail in out.detail
    assert_serves(pool)


# -- signals ----------------------------------------------------------------------------------


def test_signal_tampering_does_not_outlive_the_call(pool: SandboxPool) -> None:
    arm = (
        "import os, signal\n"
        "def f():\n"
        "    signal.signal(signal.SIGALRM, lambda *a: os._exit(9))\n"
        "    signal.signal(signal.SIGVTALRM, lambda *a: os._exit(9))\n"
        "    signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "    signal.setitimer(signal.ITIMER_VIRTUAL, 0.2)\n"
        "    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGUSR1})\n"
        "    signal.alarm(1)\n"
        "    return 'armed'"
    )
    assert run(pool, arm).result == "'armed'"
    wait = (
        "import signal, time\n"
        "def f():\n"
        "    end = time.time() + 1.3\n"
        "    while time.time() < end:\n"
        "        pass\n"
        "    return signal.getsignal(signal.SIGALRM) is signal.SIG_DFL, "
        "sorted(signal.pthread_sigmask(signal.SIG_BLOCK, []))"
    )
    out = run(pool, wait)
    assert (out.status, out.result) == ("ok", "(True, [])"), out
    assert_serves(pool)


# -- files ------------------------------------------------------------------------------------

FILE_ATTACKS = {
    "remove": "import os\ndef f(p):\n    os.remove(p)",
    "unlink": "import os\ndef f(p):\n    os.unlink(p)",
    "rename": "import os\ndef f(p):\n    os.rename(p, p + '.moved')",
    "replace-into": "import os\ndef f(p):\n    open('x', 'w').write('x')\n    os.replace('x', p)",
    "truncate": "import os\ndef f(p):\n    os.truncate(p, 0)",
    "chmod": "import os\ndef f(p):\n    os.chmod(p, 0o600)",
    "utime": "import os\ndef f(p):\n    os.utime(p, (0, 0))",
    "rmtree": "import os, shutil\ndef f(p):\n    shutil.rmtree(os.path.dirname(p))",
    "move": "import shutil\ndef f(p):\n    shutil.move(p, 'stolen')",
    "open-w": "def f(p):\n    open(p, 'w').write('pwned')",
    "open-a": "def f(p):\n    open(p, 'a').write('pwned')",
    "open-r+": "def f(p):\n    open(p, 'r+').write('pwned')",
    "pathlib": "import pathlib\ndef f(p):\n    pathlib.Path(p).write_text('pwned')",
    "os.open": "import os\ndef f(p):\n    os.write(os.open(p, os.O_WRONLY | os.O_TRUNC), b'pwned')",
    "new-file": "import os\ndef f(p):\n    open(os.path.join(os.path.dirname(p), 'new'), 'x')",
    "symlink": "import os\ndef f(p):\n    os.symlink(p, 'link')\n    open('link', 'w').write('x')",
    "hardlink": "import os\ndef f(p):\n    os.link(p, 'hard')\n    open('hard', 'w').write('x')",
    "dir-fd": (
        "import os\ndef f(p):\n"
        "    d = os.open(os.path.dirname(p), os.O_RDONLY)\n"
        "    os.unlink(os.path.basename(p), dir_fd=d)"
    ),
    "chdir-out": "import os\ndef f(p):\n    os.chdir(os.path.dirname(p))\n    os.remove(p)",
}


@pytest.mark.parametrize("attack", sorted(FILE_ATTACKS))
def test_files_outside_the_sandbox_are_not_changed(
    pool: SandboxPool, attack: str, sentinel: Path, open_sentinel: Path
) -> None:
    for target in (sentinel, open_sentinel):
        out = run(pool, FILE_ATTACKS[attack], f"f({str(target)!r})")
        assert out.status == "exception", (target, out)
        assert out.exception is not None
        assert out.exception.startswith(("PermissionError", "FileNotFoundError")), out
    assert_serves(pool)


@pytest.mark.parametrize(
    "body",
    [
        "libc.unlink(p)",
        "libc.truncate(p, 0)",
        "libc.chmod(p, 0o600)",
        "libc.close(libc.open(p, os.O_WRONLY | os.O_TRUNC))",
        "libc.close(libc.open(os.path.dirname(p) + b'/new', os.O_WRONLY | os.O_CREAT, 0o644))",
    ],
    ids=["unlink", "truncate", "chmod", "open-trunc", "create"],
)
def test_raw_system_calls_cannot_change_protected_files(
    pool: SandboxPool, body: str, sentinel: Path
) -> None:
    # Below the guard: the unprivileged user (and bubblewrap's read-only root) stop these.
    require_protection_below_the_guard(pool)
    code = (
        "import ctypes, os\n"
        "def f(p):\n"
        "    p = p.encode()\n"
        "    libc = ctypes.CDLL(None)\n"
        f"    return {body}"
    )
    out = run(pool, code, f"f({str(sentinel)!r})")
    assert out.status == "ok" and out.result in {"-1", "None"}, out
    repo_target = str(REPO / PWNED)
    out = run(pool, code, f"f({repo_target!r})")
    assert out.status == "ok" and out.result in {"-1", "None"}, out
    assert_serves(pool)


def test_one_gigabyte_write_is_cut_at_the_file_size_limit(pool: SandboxPool) -> None:
    code = (
        "def f():\n"
        "    chunk = b'x' * (1 << 20)\n"
        "    with open('big.bin', 'wb') as out:\n"
        "        for _ in range(1024):\n"
        "            out.write(chunk)\n"
        "    return 'wrote 1 GB'"
    )
    out = run(pool, code, timeout_s=10.0)
    assert out.status == "exception", out
    assert out.exception is not None and "File too large" in out.exception
    listing = run(pool, "import os\ndef f():\n    return os.listdir('.')")
    assert listing.result == "[]"  # and the partial file was cleaned up
    assert_serves(pool)


def test_running_out_of_descriptors_is_contained(pool: SandboxPool) -> None:
    code = "def f():\n    return [open(f'f{i}', 'w') for i in range(1000)]"
    out = run(pool, code)
    assert out.status == "exception"
    assert out.exception is not None and "Too many open files" in out.exception
    assert_serves(pool)


# -- standard streams -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "status", "value"),
    [
        ("def f():\n    return input()", "exception", "EOFError: EOF when reading a line"),
        ("import sys\ndef f():\n    return sys.stdin.read()", "ok", "''"),
        ("import os\ndef f():\n    return os.read(0, 100)", "ok", "b''"),
    ],
    ids=["input", "sys.stdin", "fd-0"],
)
def test_reading_stdin_gets_end_of_file(
    pool: SandboxPool, code: str, status: str, value: str
) -> None:
    out = run(pool, code, timeout_s=2.0)
    assert out.status == status
    assert value in (out.exception, out.result)
    assert_serves(pool)


# -- the interpreter and the worker itself ----------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "import builtins\ndef f():\n    del builtins.len\n    builtins.print = None\n    return 0",
        "def f():\n    __builtins__.clear()\n    return 'gone'",
        "__builtins__.clear()\ndef f():\n    return 'gone'",
        "import builtins\ndef f():\n    builtins.isinstance = lambda *a: False\n    return 'gone'",
    ],
    ids=["del-some", "clear-in-call", "clear-at-module-level", "replace"],
)
def test_deleting_builtins_does_not_outlive_the_call(pool: SandboxPool, code: str) -> None:
    out = run(pool, code)
    assert out.status in {"ok", "exception"}, out
    assert_serves(pool)


@pytest.mark.parametrize("untrusted_text", [False, True], ids=["reused", "fork"])
def test_builtins_changed_by_the_call_are_back_before_its_result_is_read(
    pool: SandboxPool, untrusted_text: bool
) -> None:
    # A worker puts builtins back only when the call changed them (it reads the dict's
    # modification counter): these changes must still be seen and undone before the result
    # is read and the reply written.
    code = (
        "import builtins\n"
        "def f(x):\n"
        "    builtins.repr = lambda v: 'forged'\n"
        "    builtins.isinstance = lambda *a: True\n"
        "    del builtins.len\n"
        "    builtins.__dict__['sorted'] = builtins.__dict__['sorted']\n"
        "    return [x, 'a', (1.5, None)]"
    )
    out = pool.run(code, "f(7)", untrusted=untrusted_text)
    assert (out.status, out.result, out.result_literal) == ("ok", "[7, 'a', (1.5, None)]", True)
    assert out.args_after == ["7"]
    following = pool.run(
        "def f():\n    return repr(len), isinstance(1, str), repr([1])",
        "f()",
        untrusted=untrusted_text,
    )
    assert following.result == "('<built-in function len>', False, '[1]')", following


@pytest.mark.parametrize(
    "code",
    [
        "import sys\ndef f():\n    sys.modules['json'] = None\n    sys.path.clear()\n    return 1",
        "import os\ndef f():\n    os.environ.clear()\n    os.environ['PATH'] = '/'\n    return 1",
        (
            "import sys, io\n"
            "def f():\n"
            "    sys.stdout = io.StringIO()\n"
            "    sys.settrace(lambda *a: None)\n"
            "    return 1"
        ),
        "import sys\ndef f():\n    sys.set_int_max_str_digits(640)\n    return 1",
        # Behind os.environ's back: its mapping changed in place, or the object replaced.
        "import os\ndef f():\n    os.environ._data[b'PYTHONHASHSEED'] = b'9'\n    return 1",
        "import os\ndef f():\n    os.environ = {'PYTHONHASHSEED': '9'}\n    return 1",
        "import sys\ndef f():\n    sys.modules['json'] = type(sys)('json')\n    return 1",
    ],
    ids=[
        "modules",
        "environ",
        "streams-and-trace",
        "int-digits",
        "environ-mapping",
        "environ-object",
        "module-replaced",
    ],
)
def test_interpreter_state_is_restored(pool: SandboxPool, code: str) -> None:
    assert run(pool, code).status == "ok"
    check = (
        "import sys, os, json\n"
        "def f():\n"
        "    return json.dumps([os.environ['PYTHONHASHSEED'], len(str(10**4000)) > 0, "
        "sys.gettrace() is None, os.environ.get('PATH')])"
    )
    expected = '\'["0", true, true, "/usr/local/bin:/usr/bin:/bin"]\''
    # Twice: the second call runs after a call that changed nothing (the unchanged fast path).
    assert run(pool, check).result == expected
    assert run(pool, check).result == expected
    assert_serves(pool)


def test_tampering_with_the_workers_own_modules_ends_as_an_outcome(pool: SandboxPool) -> None:
    code = "import json\ndef f():\n    json.dumps = None\n    return 1"
    out = run(pool, code)
    assert out.status in {"ok", "crashed"}, out
    assert_serves(pool)


def _frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


@pytest.mark.parametrize(
    "payload",
    [
        _frame(b"{oops"),
        b"\xff\xff\xff\xff",
        _frame(b"{}"),
        _frame(b'{"index":0,"status":"ok","result":"\'fake\'","retire":false}'),
    ],
    ids=["not-json", "huge-length", "not-an-outcome", "forged-reply"],
)
def test_writing_to_the_reply_pipe_is_a_crash(pool: SandboxPool, payload: bytes) -> None:
    code = (
        "import json, os, sys\n"
        "def f(payload):\n"
        "    os.write(json.loads(sys.argv[2])['write_fd'], payload)\n"
        "    return 'sent'"
    )
    out = run(pool, code, f"f({payload!r})")
    assert out.status == "crashed", out
    assert "malformed reply" in out.detail
    assert_serves(pool)


def test_closing_the_workers_pipes_is_a_crash(pool: SandboxPool) -> None:
    code = (
        "import json, os, sys\n"
        "def f():\n"
        "    config = json.loads(sys.argv[2])\n"
        "    os.close(config['write_fd'])\n"
        "    os.close(config['read_fd'])\n"
        "    return 'closed'"
    )
    assert run(pool, code).status == "crashed"
    assert_serves(pool)


def test_a_batch_survives_every_kind_of_failure(pool: SandboxPool) -> None:
    code = (
        "import os, ctypes\n"
        "def f(kind):\n"
        "    if kind == 'loop':\n"
        "        while True:\n"
        "            pass\n"
        "    if kind == 'segv':\n"
        "        ctypes.string_at(0)\n"
        "    if kind == 'exit':\n"
        "        os._exit(1)\n"
        "    if kind == 'memory':\n"
        "        return len(bytearray(10**10))\n"
        "    if kind == 'raise':\n"
        "        raise ValueError(kind)\n"
        "    return kind"
    )
    kinds = ["ok", "loop", "ok", "segv", "exit", "memory", "raise", "ok"]
    outs = pool.run_batch(code, [f"f({k!r})" for k in kinds], timeout_s=1.0)
    assert [o.status for o in outs] == [
        "ok", "timeout", "ok", "crashed", "crashed", "memory", "exception", "ok",
    ]  # fmt: skip
    assert_serves(pool)


# -- model text: a fresh process per call, forked from a clean template ---------------------


def untrusted(pool: SandboxPool, code: str, call: str = "f()", **options: object) -> Outcome:
    return pool.run(code, call, untrusted=True, **options)  # type: ignore[arg-type]


def assert_clean(pool: SandboxPool) -> None:
    """The next untrusted call finds the interpreter as the template left it."""
    probe = (
        "import gc, math, os, random, sys\n"
        "def f():\n"
        "    return [math.sqrt(16), 'x'.upper(), 'pwned' in sys.modules, random.random(),\n"
        "            len(gc.callbacks), os.listdir('.'), os.getpriority(os.PRIO_PROCESS, 0)]"
    )
    out = untrusted(pool, probe)
    assert out.status == "ok", out
    ok, value = literal_value(out.result)
    assert ok
    assert value[:3] == [4.0, "X", False]
    assert value[3] == 0.8444218515250481  # random.seed(0) before every call
    assert value[4:6] == [0, []]
    # os.nice(19) in the last call did not stay: workers start at the test's own priority
    assert value[6] == os.getpriority(os.PRIO_PROCESS, 0)


STATE_ATTACKS = {
    "math.sqrt": "import math\ndef f():\n    math.sqrt = lambda v: 42\n    return 1",
    "sys.modules": "import sys, types\ndef f():\n    sys.modules['pwned'] = types.ModuleType('p')",
    "random.seed": "import random\ndef f():\n    random.seed = lambda *a: None\n    random.seed(5)",
    "str.upper-gc": (
        "import gc\n"
        "def f():\n"
        "    gc.get_referents(str.__dict__)[0]['upper'] = lambda self: 'pwned'\n"
        "    return 'x'.upper()"
    ),
    "audit-hook": "import sys\ndef f():\n    sys.addaudithook(lambda *a: None)",
    "gc.callbacks": "import gc\ndef f():\n    gc.callbacks.append(lambda *a: None)",
    "finaliser": (
        "class A:\n    def __del__(self):\n        open('left-behind', 'w').write('x')\n"
        "KEEP = []\ndef f():\n    KEEP.append(A())\n    KEEP.append(KEEP)"
    ),
    "nice": "import os\ndef f():\n    os.nice(19)",
    "file": "def f():\n    open('left-behind', 'w').write('x')",
}


@pytest.mark.parametrize("attack", sorted(STATE_ATTACKS))
def test_nothing_carries_into_the_next_call(pool: SandboxPool, attack: str) -> None:
    out = untrusted(pool, STATE_ATTACKS[attack])
    assert out.status in {"ok", "exception"}, out
    assert_clean(pool)


def test_the_worker_imports_random_after_the_guard() -> None:
    # `random` registers an at-fork reseed when it is imported; imported after the guard (whose
    # `os.register_at_fork` does nothing) it does not run in every child of a fork server.
    program = (
        "import sys, types\n"
        "package = types.ModuleType('tracer')\n"  # as a worker boots
        f"package.__path__ = [{str(Path(tracer.__file__).parent)!r}]\n"
        "sys.modules['tracer'] = package\n"
        "before = 'random' in sys.modules\n"
        "import tracer._worker\n"
        "print(before, 'random' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-s", "-B", "-P", "-c", program],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False"]


def test_the_guard_does_not_import_threading() -> None:
    # `threading` (imported by `subprocess`) registers an at-fork handler that ran in every
    # child of a fork server and copied about a hundred of the template's pages each time; the
    # guard fences `subprocess` when something imports it instead of importing it itself.
    program = (
        "import sys, tempfile, types\n"
        "package = types.ModuleType('tracer')\n"  # as a worker boots: not the pool's __init__
        f"package.__path__ = [{str(Path(tracer.__file__).parent)!r}]\n"
        "sys.modules['tracer'] = package\n"
        "from tracer import _guard\n"
        "_guard.install(tempfile.mkdtemp())\n"
        "assert 'threading' not in sys.modules, 'the guard imported threading'\n"
        "import subprocess\n"
        "try:\n"
        "    subprocess.run(['true'])\n"
        "except PermissionError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "subprocess.run is disabled in the sandbox"


@pytest.mark.parametrize("untrusted_text", [False, True], ids=["reused", "fork"])
def test_modules_that_register_fork_handlers_still_import(
    pool: SandboxPool, untrusted_text: bool
) -> None:
    code = (
        "import os\n"
        "def f():\n"
        "    import logging, queue, threading\n"
        "    os.register_at_fork(after_in_child=print)\n"
        "    return threading.current_thread() is threading.main_thread()"
    )
    assert pool.run(code, "f()", untrusted=untrusted_text).result == "True"


@pytest.mark.parametrize(
    "call",
    [
        "f(",
        "f(1) + 1",
        "g(**{'a': 1})",
        "f(" + "[" * 300 + "]" * 300 + ")",
        "f('\udcff')",
        "f(1, await x)",  # parses, does not compile
        "g(await x)",  # the callee is looked up first
        "f(*[1], **{'a': 2}, b=(yield))",
    ],
    ids=[
        "unclosed",
        "not-a-call",
        "other-function",
        "too-nested",
        "surrogate",
        "await-arg",
        "undefined-then-await",
        "yield-kwarg",
    ],
)
def test_a_call_read_by_the_template_fails_as_in_a_worker(pool: SandboxPool, call: str) -> None:
    # A fork server reads every call before it forks (the children then do not pay for it):
    # what a call that does not read gives must not depend on where it was read.
    code = "def f(*args):\n    return len(args)"
    reused, forked = pool.run(code, call), pool.run(code, call, untrusted=True)
    assert (forked.status, forked.result, forked.exception) == (
        reused.status,
        reused.result,
        reused.exception,
    )


def test_patching_the_reporting_code_cannot_change_a_literal(pool: SandboxPool) -> None:
    # The attack: patch the code that reports the value, in the process that reports
    # it. In a forked child it can only change what that child sends: a literal, re-read here.
    patch = (
        "import sys\n"
        "sys.modules['tracer._call'].BoundCall.invoke = lambda self: None\n"
        "sys.modules['tracer._worker'].literal_text = lambda v, l=0: \"'abc'\"\n"
        "sys.modules['tracer._worker'].snapshot = lambda v, l=0: (\"'abc'\", True)\n"
    )
    code = "def f(x):\n    return x + 1"
    [out] = pool.evaluate(code, [f"f(exec({patch!r}) or 1)"])
    assert (out.status, out.result) == ("ok", "'abc'")  # the child says what it likes...
    assert literal_value(out.result) == (True, "abc")  # ...but only as a literal
    assert untrusted(pool, code, "f(1)").result == "2"  # and the next call is clean
    assert_clean(pool)


_REPLY_FD = (
    "import os, sys\n"
    "def f():\n"
    "    frame = sys._getframe()\n"
    "    while frame is not None and 'write_end' not in frame.f_locals:\n"
    "        frame = frame.f_back\n"
    "    fd = frame.f_locals['write_end']\n"
)
"""The start of model text that finds the worker's end of its reply pipe, `fd`, up the frames."""


def _forge(body: dict[str, object]) -> str:
    """Model text that writes `body` as its own reply and exits."""
    payload = json.dumps(body)
    return _REPLY_FD + (
        f"    data = {payload!r}.encode()\n"
        "    os.write(fd, len(data).to_bytes(4, 'big') + data)\n"
        "    os._exit(0)"
    )


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"status": "ok", "result": "'abc'", "result_literal": True, "duration_s": 10**400},
         "crashed"),
        ({"status": "ok", "result": "1", "duration_s": 1e300}, "crashed"),
        ({"status": "ok", "trace": {"code": "", "call": "", "steps": [{"index": "Infinity"}]}},
         "crashed"),
        ({"status": "bogus"}, "crashed"),
        ({"status": "ok", "result": "'forged'", "result_literal": True, "result_plain": True},
         "ok"),
    ],
    ids=["huge-int-duration", "huge-duration", "infinite-index", "bad-status", "well-formed"],
)  # fmt: skip
def test_a_forged_reply_is_only_that_calls_outcome(
    pool: SandboxPool, body: dict[str, object], status: str
) -> None:
    out = untrusted(pool, _forge(body))
    assert out.status == status, out
    assert untrusted(pool, "def f():\n    return 7").result == "7"
    assert pool.run("def f():\n    return 7", "f()").result == "7"


def test_infinity_in_a_reply_is_malformed(pool: SandboxPool) -> None:
    code = _REPLY_FD + (
        '    data = b\'{"status": "ok", "duration_s": Infinity}\'\n'
        "    os.write(fd, len(data).to_bytes(4, 'big') + data)\n"
        "    os._exit(0)"
    )
    out = untrusted(pool, code)
    assert out.status == "crashed" and "malformed" in out.detail
    assert_clean(pool)


def test_a_64_mb_reply_is_refused_unread(pool: SandboxPool) -> None:
    code = _REPLY_FD + (
        "    os.write(fd, (64 << 20).to_bytes(4, 'big'))\n"
        "    chunk = b'x' * (1 << 20)\n"
        "    for _ in range(64):\n"
        "        os.write(fd, chunk)\n"
        "    os._exit(0)"
    )
    out = untrusted(pool, code, timeout_s=20.0, memory_mb=1024)
    assert out.status == "crashed", out
    assert_clean(pool)


def test_a_big_result_is_a_crash_not_a_parent_failure(pool: SandboxPool) -> None:
    out = untrusted(pool, "def f():\n    return ['x' * 1000] * 20000", memory_mb=1024)
    assert out.status == "ok"  # the repr is cut at its bound
    [evaluated] = pool.evaluate("", ["['x' * 1000] * 20000"], memory_mb=1024)
    assert evaluated.status == "exception"  # over the literal bound: not a literal
    assert_clean(pool)


@pytest.mark.parametrize(
    ("expression", "literal"),
    [
        ("[1, (2, 'a'), {3: {4.5}}, b'x', None, True, 1j, set()]", True),
        ("float('inf')", True),
        ("float('nan')", False),
        ("type('S', (str,), {})('abc')", False),
        ("[type('B', (int,), {})(1)]", False),
        ("type('A', (), {'__repr__': lambda s: \"'abc'\"})()", False),
        ("iter([1])", False),
        ("(lambda l: (l.append(l), l)[1])([])", False),
        ("frozenset({1})", False),
    ],
    ids=["nested", "inf", "nan", "str-subclass", "nested-int-subclass", "repr-forger",
         "iterator", "self-reference", "frozenset"],
)  # fmt: skip
def test_evaluate_returns_only_plain_literals(
    pool: SandboxPool, expression: str, literal: bool
) -> None:
    [out] = pool.evaluate("", [expression])
    if literal:
        assert out.status == "ok" and literal_value(out.result)[0], out
    else:
        assert out.status == "exception" and out.result is None, out


def test_outcome_from_json_refuses_hostile_numbers() -> None:
    for bad in (10**400, float("inf"), float("nan"), -1.0):
        with pytest.raises(ValueError):
            _Outcome.from_json({"status": "ok", "duration_s": bad})
    with pytest.raises(ValueError):
        _Outcome.from_json(
            {"status": "ok", "trace": {"code": "", "call": "", "steps": [{"index": 1e999}]}}
        )


def test_each_forked_call_is_a_new_process(pool: SandboxPool) -> None:
    code = "import os\ndef f():\n    return os.getpid(), os.getppid()"
    forked = [literal_value(untrusted(pool, code).result)[1] for _ in range(5)]
    templates = {parent for _, parent in forked}
    assert len(templates) == 1 and not templates & {pid for pid, _ in forked}
    if not pool.use_bwrap:  # in a PID namespace of its own a pid is soon used again
        assert len({pid for pid, _ in forked}) == 5
    started = "def f():\n    return open('/proc/self/stat').read().rsplit(')', 1)[1].split()[19]"
    reused = {pool.run(started, "f()").result for _ in range(5)}
    assert len(reused) == 1  # one worker served them all (its start time, not its pid)


def test_a_child_that_rewrites_its_compiled_module_leaves_the_next_call_alone(
    pool: SandboxPool,
) -> None:
    # A fork server keeps the code object of a request's code for the next request with the
    # same code: a child that overwrites a constant of it in memory writes to its own copy.
    code = (
        "import ctypes, sys\n"
        "MODULE = sys._getframe(0).f_code\n"
        "SEEN = 'marker'\n"
        "KEEP = []\n"
        "def f():\n"
        "    consts = MODULE.co_consts\n"
        "    i = consts.index('marker')\n"
        "    KEEP.append('pwned')\n"
        "    ctypes.c_void_p.from_address(id(consts) + 24 + 8 * i).value = id(KEEP[0])\n"
        "    return MODULE.co_consts[i]\n"
        "def g():\n"
        "    return SEEN\n"
    )
    assert untrusted(pool, code, "f()").result == "'pwned'"
    assert untrusted(pool, code, "g()").result == "'marker'"
    broken = "def f(:\n    pass"
    first, second = untrusted(pool, broken), untrusted(pool, broken)
    assert first.status == second.status == "exception"
    assert first.exception == second.exception and "line 1" in str(first.exception)


# -- what bubblewrap hides: files, sockets, other processes -----------------------------------

NAMESPACE_ATTACKS = {
    "fileio-tmp": "import _io\ndef f():\n    _io.FileIO('/tmp/core-bench-pwned', 'w').write(b'x')",
    "fileio-var-tmp": "import _io\ndef f():\n    _io.FileIO('/var/tmp/core-bench-pwned', 'w')",
    "dev-shm": "import _io\ndef f():\n    _io.FileIO('/dev/shm/core-bench-pwned', 'w')",
    "sqlite": (
        "import sqlite3\ndef f():\n"
        "    sqlite3.connect('/tmp/core-bench-pwned.db').execute('create table t (x)')"
    ),
    "unix-socket": (
        "import socket\ndef f():\n"
        "    socket.socket(socket.AF_UNIX).bind('/tmp/core-bench-pwned.sock')"
    ),
    "tcp-localhost": (
        "import socket\ndef f():\n    socket.create_connection(('127.0.0.1', 22), timeout=1)"
    ),
    "read-checkout": f"def f():\n    return open({str(REPO / 'README.md')!r}).read(10)",
    "read-home": "import os\ndef f():\n    return os.listdir(os.path.expanduser('~root'))",
}


@pytest.mark.parametrize("attack", sorted(NAMESPACE_ATTACKS))
@pytest.mark.parametrize("untrusted", [False, True], ids=["reused", "forked"])
def test_namespaces_hide_files_sockets_and_the_network(
    pool: SandboxPool, attack: str, untrusted: bool
) -> None:
    if not pool.use_bwrap:
        pytest.skip("needs bubblewrap: without it the warning and --isolation strict apply")
    out = pool.run(NAMESPACE_ATTACKS[attack], "f()", untrusted=untrusted)
    assert out.status == "exception", out
    for base in ("/tmp", "/var/tmp", "/dev/shm"):
        assert not [name for name in os.listdir(base) if name.startswith("core-bench-pwned")]
    assert_serves(pool)


def test_other_processes_are_out_of_sight(pool: SandboxPool) -> None:
    if not pool.use_bwrap:
        pytest.skip("needs bubblewrap's PID namespace (hidepid needs a mount of its own)")
    code = (
        "import os\n"
        "def f():\n"
        "    pids = [p for p in os.listdir('/proc') if p.isdigit()]\n"
        "    env = [open(f'/proc/{p}/environ', 'rb').read() for p in pids\n"
        "           if p != str(os.getpid()) and os.access(f'/proc/{p}/environ', os.R_OK)]\n"
        "    return len(pids), b'SECRET' in b''.join(env)"
    )
    os.environ["CORE_BENCH_TEST_SECRET"] = "SECRET"
    try:
        for untrusted in (False, True):
            out = pool.run(code, "f()", untrusted=untrusted)
            assert out.status == "ok", out
            count, leaked = ast.literal_eval(out.result or "")
            assert count <= 3 and not leaked  # its namespace's init, the template, itself
    finally:
        del os.environ["CORE_BENCH_TEST_SECRET"]


def test_the_environment_holds_no_secret(pool: SandboxPool) -> None:
    os.environ["OPENAI_API_KEY"] = "sk-test-secret"
    try:
        code = "import os\ndef f():\n    return sorted(os.environ)"
        for untrusted in (False, True):
            out = pool.run(code, "f()", untrusted=untrusted)
            assert out.status == "ok" and "OPENAI_API_KEY" not in (out.result or "")
    finally:
        del os.environ["OPENAI_API_KEY"]

"""The sandbox: reused worker processes for dataset code, a fresh forked process per call for
model text, and outcomes for everything either does.

Each worker is a separate Python process started with a fixed `PYTHONHASHSEED`, an empty
environment, no standard input and no standard output, a private temporary working directory,
rlimits (address space, CPU time, file size, open files, no new processes, no core dumps), the
reliability guard, the parent-death signal, and, when it was started as root, an unprivileged
user. Where bubblewrap works, each worker also runs inside it on an empty read-only root with
only what it needs bound in, no network and its own PID namespace. The parent talks to workers
over dedicated pipes in length-prefixed JSON, reads at most `_wire.REPLY_LIMIT` bytes of a
reply, enforces a wall-clock timeout on every call by killing the worker, and replaces dead
workers; any malformed reply is a "crashed" outcome.

Untrusted calls (`untrusted=True`, `evaluate`) go to fork servers instead: a worker that never
runs model text itself and forks a fresh child for every call, so nothing a call does reaches
another one; `evaluate` only ever returns plain literals.

This is a containment layer for benchmark code and model answers that misbehave (loop, eat
memory, delete files, exit, crash, forge their replies), not a security boundary against a
determined attacker.
"""

from __future__ import annotations

import atexit
import contextlib
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any, Literal

from tracer import _wire
from tracer._confine import SANDBOX_GID, SANDBOX_UID, not_dumpable
from tracer._launch import HASH_SEED, WorkerSpec, probe_bwrap, worker_command, worker_env
from tracer._outcome import Outcome, Status
from tracer._packed import reply_outcome

Isolation = Literal["bwrap", "process"]

__all__ = ["Outcome", "SandboxPool", "run_call"]

GRACE_S = 0.1
"""Added to each call's timeout for the round trip through the pipes."""

FORK_SLACK_S = 2.0
"""How much longer than a call's timeout the parent waits for a fork server, which enforces
the timeout on its child itself."""

_STDERR_TAIL = 600


class _Worker:
    """The parent's handle on one worker process (used by one thread at a time)."""

    def __init__(self, spec: WorkerSpec, root: str) -> None:
        self.spec = spec
        self.calls = 0
        self.requests = 0
        self.ready = False
        self.proc: subprocess.Popen[bytes] | None = None
        self.channel: _wire.Channel | None = None
        self.spawn_error = ""
        self._disposed = False
        self._lock = threading.Lock()
        self.workdir = tempfile.mkdtemp(prefix="w", dir=root)
        self.stderr_path = self.workdir + ".stderr"
        if spec.uid is not None and spec.gid is not None:
            os.chown(self.workdir, spec.uid, spec.gid)
        os.chmod(self.workdir, 0o700)
        request_r, request_w = os.pipe()
        reply_r, reply_w = os.pipe()
        err_fd = os.open(self.stderr_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            command = worker_command(
                spec, workdir=self.workdir, hidden_root=root, read_fd=request_r, write_fd=reply_w
            )
            self.proc = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err_fd,
                pass_fds=(request_r, reply_w),
                env=worker_env(self.workdir, spec.hash_seed),
                cwd=self.workdir,
                start_new_session=True,
            )
        except OSError as exc:
            self.spawn_error = f"could not start the worker: {exc}"
            os.close(request_w)
            os.close(reply_r)
        else:
            self.channel = _wire.Channel(reply_r, request_w)
        finally:
            for fd in (request_r, reply_w, err_fd):
                os.close(fd)

    def ensure_ready(self, timeout_s: float) -> str:
        """Wait for the worker's hello; returns "" when ready, else why it is not."""
        if self.ready:
            return ""
        if self.channel is None:
            return self.spawn_error
        try:
            hello = self.channel.receive(time.monotonic() + timeout_s)
        except _wire.Timeout:
            self.kill()
            return f"no hello within {timeout_s:g} s" + self._stderr_note()
        except (EOFError, OSError, _wire.ProtocolError):
            _, detail = self.death()
            return detail
        if not isinstance(hello, dict) or hello.get("ready") is not True:
            self.kill()
            return "the worker sent a malformed hello"
        self.ready = True
        return ""

    def kill(self) -> None:
        """SIGKILL the worker (under bwrap: its PID namespace, then bwrap itself)."""
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return
        children = _children(proc.pid) if self.spec.use_bwrap else []
        if children:
            # Killing the namespace's init tears the whole namespace down before bwrap exits,
            # so nothing of the worker outlives the wait below.
            for child in children:
                with contextlib.suppress(OSError):
                    os.kill(child, signal.SIGKILL)
            try:
                proc.wait(timeout=2.0)
                return
            except subprocess.TimeoutExpired:
                pass
        with contextlib.suppress(OSError):
            proc.kill()

    def death(self) -> tuple[Status, str]:
        """Reap a worker that stopped talking, and say how it ended."""
        proc = self.proc
        if proc is None:
            return "crashed", self.spawn_error
        try:
            code = proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            self.kill()
            code = proc.wait()
            return "crashed", "the worker broke the protocol and was killed" + self._stderr_note()
        signum: int | None = None
        if code < 0:
            signum = -code
        elif self.spec.use_bwrap and code > 128:
            signum = code - 128  # bwrap reports a child killed by signal N as 128 + N
        if signum == signal.SIGXCPU:
            return "timeout", "the worker hit its CPU-time limit (SIGXCPU)"
        if signum is not None:
            return (
                "crashed",
                f"the worker was killed by {_signal_name(signum)}" + self._stderr_note(),
            )
        return "crashed", f"the worker exited with code {code}" + self._stderr_note()

    def _stderr_note(self) -> str:
        try:
            with open(self.stderr_path, "rb") as handle:
                handle.seek(0, os.SEEK_END)
                handle.seek(max(0, handle.tell() - _STDERR_TAIL))
                tail = handle.read().decode("utf-8", "replace").strip()
        except OSError:
            return ""
        lines = [line for line in tail.splitlines() if line.strip()]
        return f" (stderr: {' | '.join(lines[-3:])})" if lines else ""

    def dispose(self) -> None:
        """Kill, reap, close the pipes and remove the directory (once; safe from any thread)."""
        with self._lock:
            if self._disposed:
                return
            self._disposed = True
        self.kill()
        if self.proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=5.0)
        if self.channel is not None:
            self.channel.close()
        shutil.rmtree(self.workdir, ignore_errors=True)
        with contextlib.suppress(OSError):
            os.unlink(self.stderr_path)


_starter: ThreadPoolExecutor | None = None
_starter_pid = 0
_starter_lock = threading.Lock()


class _Lane:
    """Workers of one kind: reused workers (dataset code) or fork servers (model text)."""

    def __init__(self, spec: WorkerSpec, count: int, max_calls: int) -> None:
        self.spec = spec
        self.idle: list[_Worker | None] = [None] * count
        self.max_calls = max_calls


def _start_worker(spec: WorkerSpec, root: str) -> _Worker:
    """Start a worker from one long-lived thread.

    Linux delivers the parent-death signal that `bwrap --die-with-parent` asks for when the
    *thread* that started bwrap exits, so a worker started from a short-lived thread (a `map`
    thread) would be killed with it.
    """
    global _starter, _starter_pid
    with _starter_lock:
        if _starter is None or _starter_pid != os.getpid():
            _starter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="core-bench-start")
            _starter_pid = os.getpid()
        starter = _starter
    return starter.submit(_Worker, spec, root).result()


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(p) for p in handle.read().split()]
    except (OSError, ValueError):
        return []


def _signal_name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


def _shutdown(live: set[_Worker], root: str) -> None:
    """Last-resort cleanup when a pool is collected or the interpreter exits unclosed."""
    for worker in list(live):
        worker.kill()
    shutil.rmtree(root, ignore_errors=True)


_warned = False
_warned_lock = threading.Lock()


def _warn_once(why: str) -> None:
    """Say once per process that sandboxed code runs without bubblewrap, and what that means."""
    global _warned
    with _warned_lock:
        if _warned:
            return
        _warned = True
    sys.stderr.write(
        f"core-bench: warning: bubblewrap is not usable here ({why}); sandboxed code, model "
        "answers included, runs in plain processes (rlimits, the guard, an unprivileged user "
        "when run as root) without namespaces: it can see other processes and reach the "
        "network and files its user may. Install bubblewrap, or pass --isolation strict to "
        "refuse to run model text like this.\n"
    )


def default_isolation() -> tuple[Isolation, str]:
    """The isolation a pool made with the defaults gets here, and why: "bwrap" when
    bubblewrap works, else "process" (see `SandboxPool.isolation`)."""
    works, why = probe_bwrap()
    return ("bwrap" if works else "process"), why


class SandboxPool:
    """A pool of reused, sandboxed worker processes (see the module docstring for the limits).

    Thread-safe: any number of threads may call `run`, `run_batch`, `map` and `evaluate` at
    once; each call waits for a free worker. Dataset code runs in reused workers; model text
    goes through `untrusted=True` or `evaluate`, one fresh forked process per call (as many
    fork servers as workers, started on first use). Every way a call can end comes back as
    an `Outcome`; the pool replaces workers that time out or die and keeps serving. Workers
    start lazily, on first use, and are recycled after `max_calls_per_worker` calls.

    Example:
        >>> with SandboxPool(workers=2) as pool:
        ...     pool.run("def f(x):\\n    return x * 2", "f(21)").result
        '42'

    Args:
        workers: number of worker processes (default: `os.cpu_count()`).
        use_bwrap: run workers inside bubblewrap; None (default) uses it when a probe
            succeeds, True requires it (`RuntimeError` when it does not work), False never.
        max_calls_per_worker: a worker is replaced after this many calls.
        max_memory_mb: hard address-space limit of a worker; a call's `memory_mb` may not
            exceed it.
        max_file_mb: largest file a worker may write (larger writes raise `OSError`).
        max_open_files: descriptors a worker may have open.
        stdout_limit: characters of a call's output that are kept.
        startup_timeout_s: how long a new worker may take to start.
        hash_seed: the workers' `PYTHONHASHSEED`; a second pool with another seed tells
            which results depend on the iteration order of sets and dicts of strings.

    Raises:
        ValueError: an argument is out of range.
        RuntimeError: `use_bwrap=True` and bubblewrap does not work here.
    """

    def __init__(
        self,
        workers: int | None = None,
        *,
        use_bwrap: bool | None = None,
        max_calls_per_worker: int = 1_000,
        max_memory_mb: int = 4_096,
        max_file_mb: int = 64,
        max_open_files: int = 64,
        stdout_limit: int = 8_192,
        startup_timeout_s: float = 30.0,
        hash_seed: int = int(HASH_SEED),
    ) -> None:
        count = workers if workers is not None else (os.cpu_count() or 1)
        if count < 1:
            raise ValueError(f"workers must be at least 1, got {count}")
        if max_calls_per_worker < 1:
            raise ValueError(f"max_calls_per_worker must be at least 1, got {max_calls_per_worker}")
        if max_memory_mb < 64:
            raise ValueError(f"max_memory_mb must be at least 64, got {max_memory_mb}")
        if max_file_mb < 1 or max_open_files < 16 or stdout_limit < 0:
            raise ValueError(
                "expected max_file_mb >= 1, max_open_files >= 16 and stdout_limit >= 0"
            )
        if use_bwrap is None:
            use_bwrap, why = probe_bwrap()
            if not use_bwrap:
                _warn_once(why)
        elif use_bwrap:
            works, why = probe_bwrap()
            if not works:
                raise RuntimeError(f"use_bwrap=True but bubblewrap does not work here: {why}")
        as_root = os.geteuid() == 0
        if not use_bwrap and not as_root:
            # The workers run as this process's user and share its PID namespace: without this
            # they could read its environment (API keys), memory and descriptors in /proc.
            not_dumpable()
        self.workers = count
        """Number of worker processes."""
        self.use_bwrap = use_bwrap
        """Whether workers run inside bubblewrap."""
        self.max_calls_per_worker = max_calls_per_worker
        self.max_memory_mb = max_memory_mb
        self.startup_timeout_s = startup_timeout_s
        self.sandbox_uid = SANDBOX_UID if as_root else None
        """The user workers run as, when the pool runs as root; else None (the pool's user)."""
        spec = WorkerSpec(
            use_bwrap=use_bwrap,
            uid=SANDBOX_UID if as_root else None,
            gid=SANDBOX_GID if as_root else None,
            memory_mb=max_memory_mb,
            file_mb=max_file_mb,
            open_files=max_open_files,
            stdout_limit=stdout_limit,
            hash_seed=str(hash_seed),
        )
        self.isolation: Isolation = "bwrap" if use_bwrap else "process"
        """How workers are isolated: "bwrap" (bubblewrap: own mount, PID and network
        namespaces) or "process" (separate processes, rlimits, the guard and, when run as
        root, an unprivileged user; no namespaces). Runs record it in their manifests."""
        self._root = tempfile.mkdtemp(prefix="core-bench-sandbox-")
        os.chmod(self._root, 0o711)  # the sandbox user must reach its own directory inside
        self._cond = threading.Condition()
        self._reused = _Lane(spec, count, max_calls_per_worker)
        self._forked = _Lane(replace(spec, fork=True), count, 1 << 62)
        self._live: set[_Worker] = set()
        self._closed = False
        self._spawn_problem = ""
        self._finalizer = weakref.finalize(self, _shutdown, self._live, self._root)

    def __enter__(self) -> SandboxPool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def closed(self) -> bool:
        """True once `close` was called."""
        return self._closed

    def run(
        self,
        code: str,
        call: str,
        *,
        timeout_s: float = 5.0,
        memory_mb: int = 512,
        trace: bool = False,
        max_steps: int = 10_000,
        untrusted: bool = False,
    ) -> Outcome:
        """Run one call expression against a module in a worker.

        Args:
            code: source of a module (it is executed in fresh globals for the call).
            call: a call expression such as "f([1, 2], 3)", evaluated in the module's globals.
            timeout_s: wall-clock limit for executing the module and making the call.
            memory_mb: address-space limit of the worker process during the call.
            trace: also record the call's `Trace` (see `tracer.trace`).
            max_steps: step limit of the trace.
            untrusted: run it in a fresh process forked for this call alone (for model
                text: nothing it does reaches another call), not in a reused worker.

        Returns:
            The outcome; never raises for anything the code does.

        Raises:
            ValueError: a limit is out of range.
            RuntimeError: the pool is closed.
        """
        return self.run_batch(
            code,
            [call],
            timeout_s=timeout_s,
            memory_mb=memory_mb,
            trace=trace,
            max_steps=max_steps,
            untrusted=untrusted,
        )[0]

    def run_batch(
        self,
        code: str,
        calls: Sequence[str],
        *,
        timeout_s: float = 5.0,
        memory_mb: int = 512,
        trace: bool = False,
        max_steps: int = 10_000,
        untrusted: bool = False,
    ) -> list[Outcome]:
        """Run many calls against the same code, in one request to one worker.

        The worker compiles the code once and runs each call in fresh module globals (the
        module is executed again per call, so module state never leaks from one call to the
        next), replying after each call; `timeout_s` applies to each call. When a call times
        out or kills its worker, its outcome is recorded and the remaining calls go on in a
        fresh worker. With `untrusted`, every call runs in its own process, forked from a
        clean template (a fork server) and discarded after the call.

        Args:
            code: source of a module (executed afresh for every call).
            calls: call expressions such as "f([1, 2], 3)".
            timeout_s: wall-clock limit of each call.
            memory_mb: address-space limit of the worker during each call.
            trace: also record each call's `Trace`.
            max_steps: step limit of each trace.
            untrusted: one fresh forked process per call (see `run`).

        Returns:
            One outcome per call, in order.

        Raises:
            ValueError: a limit is out of range.
            RuntimeError: the pool is closed.
        """
        lane = self._forked if untrusted else self._reused
        return self._batch(lane, code, calls, timeout_s, memory_mb, trace, max_steps, "call")

    def evaluate(
        self,
        code: str,
        expressions: Sequence[str],
        *,
        timeout_s: float = 5.0,
        memory_mb: int = 512,
    ) -> list[Outcome]:
        """Evaluate untrusted expressions, each in a fresh forked process, as plain literals.

        Each expression is evaluated in the globals of `code` (executed first) in a process
        forked for it alone. Its value comes back only when it is made of exact builtin
        literal types (see `tracer.literal_text`): `result` is then literal text the caller
        reads with `ast.literal_eval` (`literal_value` does), never a repr the value's class
        wrote; any other value is an "exception" outcome. Whatever the process writes, the
        caller gets at most a literal: what writing that literal directly would give.

        Args:
            code: source of a module whose names the expressions may use.
            expressions: Python expressions, e.g. "([1, 2], {'k': 3})".
            timeout_s: wall-clock limit of each evaluation.
            memory_mb: address-space limit of each evaluation.

        Returns:
            One outcome per expression, in order.
        """
        return self._batch(self._forked, code, expressions, timeout_s, memory_mb, False, 1, "eval")

    def map(
        self,
        jobs: Iterable[tuple[str, Sequence[str]]],
        *,
        timeout_s: float = 5.0,
        memory_mb: int = 512,
        trace: bool = False,
        max_steps: int = 10_000,
        untrusted: bool = False,
        evaluate: bool = False,
    ) -> list[list[Outcome]]:
        """Run many `(code, calls)` batches concurrently over all workers.

        Dataset code (neither `untrusted` nor `evaluate`) goes in one request per worker:
        the jobs are cut into one run of consecutive jobs per worker, and the worker runs
        each code's calls in turn, each as `run_batch` would (a call that times out or
        kills the worker is its own outcome; the rest go on in a fresh worker).

        Args:
            jobs: `(code, calls)` pairs, each run as one `run_batch` would run it.
            timeout_s: wall-clock limit of each call.
            memory_mb: address-space limit of the worker during each call.
            trace: also record each call's `Trace`.
            max_steps: step limit of each trace.
            untrusted: one fresh forked process per call (see `run`).
            evaluate: the "calls" are expressions to `evaluate` (implies `untrusted`).

        Returns:
            For each job, in order, the outcomes of its calls (as `run_batch` gives them).
        """
        _check_limits(timeout_s, memory_mb, max_steps, self.max_memory_mb)
        todo = list(jobs)
        if not todo:
            return []
        lane = self._forked if untrusted or evaluate else self._reused
        mode = "eval" if evaluate else "call"
        if lane is self._reused:
            # A worker's share of the jobs goes in one request: the worker runs code after
            # code without waiting for the parent between them.
            shares = _shares(todo, min(self.workers, len(todo)))
            limits = (timeout_s, memory_mb, trace, max_steps, mode)
            if len(shares) == 1:
                return self._jobs(lane, shares[0], *limits)
            with ThreadPoolExecutor(max_workers=len(shares)) as executor:
                running = [executor.submit(self._jobs, lane, share, *limits) for share in shares]
                return [outcomes for future in running for outcomes in future.result()]
        with ThreadPoolExecutor(max_workers=min(self.workers, len(todo))) as executor:
            futures = [
                executor.submit(
                    self._batch, lane, code, calls, timeout_s, memory_mb, trace, max_steps, mode
                )
                for code, calls in todo
            ]
            return [future.result() for future in futures]

    def close(self) -> None:
        """Stop every worker and remove the pool's directories. Calls in flight end as
        "crashed" outcomes; later calls raise `RuntimeError`. Idempotent."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            idle = [w for lane in (self._reused, self._forked) for w in lane.idle if w is not None]
            self._reused.idle.clear()
            self._forked.idle.clear()
            busy = [w for w in self._live if w not in idle]
            self._live.clear()
            self._cond.notify_all()
        for worker in busy:
            worker.kill()  # its thread sees the pipe close and disposes of it
        for worker in idle:
            worker.dispose()
        self._finalizer.detach()
        shutil.rmtree(self._root, ignore_errors=True)

    # -- internals ---------------------------------------------------------------------------

    def _batch(
        self,
        lane: _Lane,
        code: str,
        calls: Sequence[str],
        timeout_s: float,
        memory_mb: int,
        trace: bool,
        max_steps: int,
        mode: str,
    ) -> list[Outcome]:
        return self._jobs(lane, [(code, calls)], timeout_s, memory_mb, trace, max_steps, mode)[0]

    def _jobs(
        self,
        lane: _Lane,
        jobs: Sequence[tuple[str, Sequence[str]]],
        timeout_s: float,
        memory_mb: int,
        trace: bool,
        max_steps: int,
        mode: str,
    ) -> list[list[Outcome]]:
        """Every call of every `(code, calls)` job through one worker, in one request (more
        when the worker retires or dies on the way); the outcomes of each job, in order."""
        _check_limits(timeout_s, memory_mb, max_steps, self.max_memory_mb)
        pending = [(str(code), str(call)) for code, calls in jobs for call in calls]
        options = {
            "timeout_s": float(timeout_s),
            "memory_mb": int(memory_mb),
            "trace": bool(trace),
            "max_steps": int(max_steps),
            "mode": mode,
        }
        outcomes: list[Outcome] = []
        if pending:
            worker = self._acquire(lane)
            try:
                while len(outcomes) < len(pending):
                    worker, done = self._run_part(lane, worker, pending[len(outcomes) :], options)
                    outcomes.extend(done)
            finally:
                self._release(lane, worker)
        grouped: list[list[Outcome]] = []
        for _, calls in jobs:
            grouped.append(outcomes[: len(calls)])
            del outcomes[: len(calls)]
        return grouped

    def _acquire(self, lane: _Lane) -> _Worker | None:
        with self._cond:
            while True:
                if self._closed:
                    raise RuntimeError("the sandbox pool is closed")
                if lane.idle:
                    return lane.idle.pop()
                self._cond.wait()

    def _release(self, lane: _Lane, worker: _Worker | None) -> None:
        if worker is None and not self._closed:
            worker = self._spawn(lane)  # start the replacement now, so it warms up meanwhile
        with self._cond:
            if not self._closed:
                lane.idle.append(worker)
                self._cond.notify_all()
                return
        if worker is not None:
            worker.dispose()

    def _spawn(self, lane: _Lane) -> _Worker | None:
        """A new worker, or None when the pool is closed or the process could not be set up
        (why is in `_spawn_problem`)."""
        with self._cond:
            if self._closed:
                return None
        try:
            worker = _start_worker(lane.spec, self._root)
        except OSError as exc:  # no descriptors or disk space left in the parent
            self._spawn_problem = f"could not set up a worker: {exc}"
            return None
        with self._cond:
            closed = self._closed
            if not closed:
                self._live.add(worker)
        if closed:
            worker.dispose()
            return None
        return worker

    def _discard(self, worker: _Worker) -> None:
        with self._cond:
            self._live.discard(worker)
        worker.dispose()

    def _ready_worker(self, lane: _Lane, worker: _Worker | None) -> tuple[_Worker | None, str]:
        """A started worker, spawning (at most twice) when needed; else why none started."""
        problem = "the pool was closed"
        for _ in range(2):
            if worker is None:
                worker = self._spawn(lane)
                if worker is None:
                    return None, "the pool was closed" if self._closed else self._spawn_problem
            problem = worker.ensure_ready(self.startup_timeout_s)
            if not problem:
                return worker, ""
            self._discard(worker)
            worker = None
        return None, f"the worker failed to start: {problem}"

    def _run_part(
        self,
        lane: _Lane,
        worker: _Worker | None,
        calls: list[tuple[str, str]],
        options: dict[str, Any],
    ) -> tuple[_Worker | None, list[Outcome]]:
        """Send some of `calls` (`(code, call)` pairs) to one worker; returns the worker (None
        when it was retired or died) and at least one outcome.

        A request holds one code, or (to a reused worker) several: `codes`, and `code_of`
        saying which one each call runs against."""
        timeout_s = float(options["timeout_s"])
        for attempt in range(2):
            worker, problem = self._ready_worker(lane, worker)
            if worker is None:
                return None, [Outcome("crashed", detail=problem) for _ in calls]
            room = max(1, lane.max_calls - worker.calls)
            part = calls[:room]
            channel = worker.channel
            assert channel is not None
            worker.requests += 1
            codes = list(dict.fromkeys(code for code, _ in part))
            request = {**options, "calls": [call for _, call in part], "request": worker.requests}
            if len(codes) == 1:
                request["code"] = codes[0]
            else:
                assert not lane.spec.fork, "a fork server takes one code a request"
                number = {code: i for i, code in enumerate(codes)}
                request["codes"] = codes
                request["code_of"] = [number[code] for code, _ in part]
            try:
                channel.send(request, time.monotonic() + timeout_s + GRACE_S)
            except (_wire.Timeout, OSError) as exc:
                # The worker died between requests (nothing of this request ran): replace it.
                self._discard(worker)
                worker = None
                if attempt:
                    detail = f"the worker did not take the request: {exc!r}"
                    return None, [Outcome("crashed", detail=detail)]
                continue
            return self._collect(lane, worker, part, timeout_s, worker.requests)
        raise AssertionError("unreachable")  # pragma: no cover

    def _collect(
        self,
        lane: _Lane,
        worker: _Worker,
        part: list[tuple[str, str]],
        timeout_s: float,
        request_id: int,
    ) -> tuple[_Worker | None, list[Outcome]]:
        channel = worker.channel
        assert channel is not None
        outcomes: list[Outcome] = []
        started = time.monotonic()
        forked = lane.spec.fork
        # A fork server kills its child at the deadline itself; the parent waits a little
        # longer before it gives up on the server.
        slack = GRACE_S + (FORK_SLACK_S if forked else 0.0)
        for index in range(len(part)):
            try:
                reply = channel.receive(started + timeout_s + slack)
                if not isinstance(reply, dict):
                    raise ValueError("a reply is a JSON object")
                # Numbering replies keeps a forged or stale reply from answering another call.
                if reply.get("request") != request_id or reply.get("index") != index:
                    raise ValueError(
                        f"reply numbered {reply.get('request')!r}/{reply.get('index')!r}, "
                        f"expected {request_id}/{index}"
                    )
                code, call = part[index]
                if forked:
                    body = channel.receive_bytes(started + timeout_s + slack, _wire.REPLY_LIMIT + 8)
                    outcome = relayed_outcome(reply, body, worker.spec.use_bwrap, code, call)
                else:
                    outcome = reply_outcome(reply, code, call)
            except _wire.Timeout:
                worker.kill()
                self._discard(worker)
                detail = f"no reply within {timeout_s:g} s; the worker was killed and replaced"
                outcomes.append(Outcome("timeout", detail=detail, duration_s=_since(started)))
                return None, outcomes
            except (EOFError, OSError) as exc:
                status, detail = worker.death() if not self._closed else ("crashed", "")
                if self._closed:
                    detail = "the pool was closed"
                elif not detail:
                    detail = repr(exc)
                self._discard(worker)
                outcomes.append(Outcome(status, detail=detail, duration_s=_since(started)))
                return None, outcomes
            except Exception as exc:  # any malformed reply: the worker is not to be believed
                worker.kill()
                self._discard(worker)
                detail = f"the worker sent a malformed reply: {str(exc)[:300]}"
                outcomes.append(Outcome("crashed", detail=detail, duration_s=_since(started)))
                return None, outcomes
            outcomes.append(outcome)
            worker.calls += 1
            if reply.get("retire") is not False:
                self._discard(worker)
                return None, outcomes
            started = time.monotonic()
        if worker.calls >= lane.max_calls:
            self._discard(worker)
            return None, outcomes
        return worker, outcomes


def relayed_outcome(
    header: dict[str, Any], body: bytes, use_bwrap: bool, code: str = "", call: str = ""
) -> Outcome:
    """The outcome of one call a fork server ran in a child: from the server's header (how
    the child ended) and the child's own bytes (its reply, hostile: any flaw makes the
    outcome "crashed"). `code` and `call` are what was sent: a packed trace leaves them out."""
    duration = header.get("duration_s")
    if isinstance(duration, bool) or not isinstance(duration, int | float):
        duration = 0.0
    duration = min(max(float(duration), 0.0), 1e9)
    ended = header.get("ended")
    signum = header.get("signal")
    exit_code = header.get("code")
    if ended == "timeout":
        return Outcome("timeout", detail="the call did not finish in time; its process was killed",
                       duration_s=duration)  # fmt: skip
    if ended == "oversize":
        detail = f"the call's reply was over {_wire.REPLY_LIMIT} bytes; its process was killed"
        return Outcome("crashed", detail=detail, duration_s=duration)
    if isinstance(signum, int) and not isinstance(signum, bool):
        if signum == signal.SIGXCPU:
            return Outcome("timeout", detail="the call hit its CPU-time limit (SIGXCPU)",
                           duration_s=duration)  # fmt: skip
        detail = f"the call's process was killed by {_signal_name(signum)}"
        return Outcome("crashed", detail=detail, duration_s=duration)
    if ended != "reply":
        detail = f"the call's process exited with code {exit_code!r} without a reply"
        return Outcome("crashed", detail=detail, duration_s=duration)
    try:
        size = int.from_bytes(body[:4], "big")
        if len(body) < 4 or size != len(body) - 4:
            raise ValueError("the reply is not one framed message")
        data = _wire.decode(body[4:])
        if not isinstance(data, dict):
            raise ValueError("a reply is a JSON object")
        return reply_outcome(data, code, call)
    except Exception as exc:
        return Outcome("crashed", detail=f"the call sent a malformed reply: {str(exc)[:300]}",
                       duration_s=duration)  # fmt: skip


def _shares(
    jobs: list[tuple[str, Sequence[str]]], count: int
) -> list[list[tuple[str, Sequence[str]]]]:
    """`jobs` cut into at most `count` runs of consecutive jobs with about as many calls each
    (one per worker); every share holds at least one job."""
    total = sum(len(calls) for _, calls in jobs)
    shares: list[list[tuple[str, Sequence[str]]]] = [[]]
    done = 0
    for job in jobs:
        if shares[-1] and len(shares) < count and done >= total * len(shares) / count:
            shares.append([])
        shares[-1].append(job)
        done += len(job[1])
    return shares


def _since(start: float) -> float:
    return time.monotonic() - start


def _check_limits(timeout_s: float, memory_mb: int, max_steps: int, max_memory_mb: int) -> None:
    if not (isinstance(timeout_s, int | float) and math.isfinite(timeout_s) and timeout_s > 0):
        raise ValueError(f"timeout_s must be a positive number of seconds, got {timeout_s!r}")
    if not 16 <= memory_mb <= max_memory_mb:
        raise ValueError(
            f"memory_mb must be between 16 and the pool's max_memory_mb ({max_memory_mb}), "
            f"got {memory_mb!r}"
        )
    if max_steps < 1:
        raise ValueError(f"max_steps must be at least 1, got {max_steps!r}")


_default_pool: SandboxPool | None = None
_default_pid = 0
_default_lock = threading.Lock()


def _shared_pool() -> SandboxPool:
    """The pool `run_call` uses when given none: created on first use, closed at exit."""
    global _default_pool, _default_pid
    with _default_lock:
        if _default_pool is None or _default_pid != os.getpid() or _default_pool.closed:
            _default_pool = SandboxPool()
            _default_pid = os.getpid()
            atexit.register(_default_pool.close)
        return _default_pool


def run_call(
    code: str,
    call: str,
    *,
    timeout_s: float = 5.0,
    memory_mb: int = 512,
    trace: bool = False,
    max_steps: int = 10_000,
    pool: SandboxPool | None = None,
) -> Outcome:
    """Run `call` against the module `code` in a sandboxed worker process.

    Args:
        code: source of a module that defines what the call names.
        call: a call expression such as "f([1, 2], 3)".
        timeout_s: wall-clock limit; the worker is killed and replaced when it is exceeded.
        memory_mb: address-space limit during the call (a MemoryError gives "memory").
        trace: also record the call's `Trace`, returned in `Outcome.trace`.
        max_steps: step limit of the trace.
        pool: the pool to use; by default a shared pool with one worker per CPU, created on
            first use and closed at interpreter exit.

    Returns:
        The `Outcome`: status "ok", "exception", "timeout", "memory" or "crashed", with the
        result's repr, the exception, the arguments after the call, the captured stdout and,
        with `trace=True`, the trace. Nothing the code does raises here.
    """
    chosen = pool if pool is not None else _shared_pool()
    return chosen.run(
        code, call, timeout_s=timeout_s, memory_mb=memory_mb, trace=trace, max_steps=max_steps
    )

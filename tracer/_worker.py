"""The worker process: runs untrusted calls one at a time and reports each as a JSON reply.

Started with `"fork": true` in its configuration it is a fork server instead (`_ForkServer`):
it runs no call itself and forks a fresh child from itself for each one.

The pool starts it as `python -s -B -P -c <boot> <package root> <config JSON>`. It imports what
it needs, drops root (when started as root), sets its fixed rlimits, installs the reliability
guard, says it is ready, and then serves requests read from its request pipe until the pipe
closes. A request is one piece of code (or several, each call naming its own) and a list of
call expressions; the worker compiles each code once and, for each call, executes the compiled
module in fresh globals, makes the call, and writes one reply before starting the next call, so
the parent applies its timeout per call.

After every call the worker puts back what untrusted code may have changed in the process:
builtins, `sys.stdout`/`sys.stderr`/`sys.stdin`, signal handlers, pending alarms and timers,
the signal mask, the recursion limit, the trace and profile hooks, `sys.path`, loaded modules
replaced in `sys.modules`, the environment, the working directory and its contents. What it
cannot put back (a monkeypatched standard-library function, leaked descriptors, a directory it
cannot empty) makes it ask to be retired, or is left to `max_calls_per_worker` recycling.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # (no stubs; see _getsignal)
import builtins
import contextlib
import gc
import io
import json
import os
import select
import signal
import sys
import time
import traceback
import warnings
from collections.abc import Callable
from types import CodeType
from typing import Any

from tracer import _confine, _guard, _wire
from tracer._call import (
    CALL_FILENAME,
    CompiledCall,
    bind_call,
    compile_call,
    compile_module,
    parse_call,
)
from tracer._codec import (
    CUT_MARK,
    RESULT_REPR_LIMIT,
    exception_text,
    is_plain,
    literal_text,
    snapshot,
)
from tracer._dict_version import version_reader
from tracer._model import Trace, TraceError
from tracer._packed import pack_trace

_trace: Callable[..., Trace] | None
_analyse: Callable[[str], Any] | None
try:
    from tracer._trace import analyse as _analyse
    from tracer._trace import trace as _trace
except Exception as _exc:  # the tracer is optional for the worker: report it per call
    _trace = _analyse = None
    _TRACE_MISSING = exception_text(_exc)
else:
    _TRACE_MISSING = ""

MODULE_NAME = "__core_bench__"
"""`__name__` of the module a call runs against (the same as `tracer.trace` uses)."""

_EXTRA_FDS = 8
"""Descriptors a call may leave open before the worker asks to be retired."""

_MODULES_KEPT = 16
"""Compiled modules a fork server keeps for requests that send the same code again."""

_CALLS_KEPT = 256
"""Calls a reused worker keeps read and compiled: a build runs the same calls against every
candidate variant of a problem, one request each."""

# Module-level aliases, so the worker still works while untrusted code has emptied builtins.
_BaseException = BaseException
_MemoryError = MemoryError
_Exception = Exception
_TraceError = TraceError
_isinstance = isinstance
_perf_counter = time.perf_counter
_open = open
# The C functions behind `signal.getsignal`/`signal.signal`, held here: they skip the enum
# wrapping (62 signals are checked after every call) and a call that replaces the module's
# functions does not change what the worker sees.
_getsignal: Callable[[int], Any] = _signal.getsignal
_setsignal: Callable[[int, Any], Any] = _signal.signal


class _Capture(io.TextIOBase):
    """A text stream that keeps the first `limit` characters written to it and drops the rest."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self._parts: list[str] = []
        self._room = limit
        self.cut = False

    def write(self, text: str) -> int:
        if not _isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if self._room > 0:
            kept = text[: self._room]
            self._parts.append(kept)
            self._room -= len(kept)
            if len(kept) < len(text):
                self.cut = True
        elif text:
            self.cut = True
        return len(text)

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    def text(self) -> str:
        out = "".join(self._parts)
        return out + CUT_MARK if self.cut else out


class _State:
    """A snapshot of everything in the process that untrusted code may change."""

    def __init__(self, workdir: str, private: _guard.Private) -> None:
        self.workdir = workdir
        self.private = private
        self.builtins_dict = builtins.__dict__
        self.builtins_saved = dict(builtins.__dict__)
        self.builtins_version = version_reader(self.builtins_dict)
        self.builtins_seen = self.builtins_version() if self.builtins_version else -1
        self.stdin, self.stdout, self.stderr = sys.stdin, sys.stdout, sys.stderr
        self.excepthook, self.displayhook = sys.excepthook, sys.displayhook
        self.unraisablehook = sys.unraisablehook
        self.recursion_limit = sys.getrecursionlimit()
        self.int_digits = sys.get_int_max_str_digits()
        self.path = list(sys.path)
        self.meta_path = list(sys.meta_path)
        self.path_hooks = list(sys.path_hooks)
        self.modules_dict = sys.modules
        self.modules = dict(sys.modules)
        self.modules_version = version_reader(self.modules_dict)
        self.modules_seen = self.modules_version() if self.modules_version else -1
        self.environ_object = os.environ
        self.environ = dict(os.environ)
        # The mapping behind os.environ: unchanged (the same object, the same version), the
        # environment is as it was and is not read back entry by entry.
        data = vars(os.environ).get("_data")
        self.environ_data: dict[Any, Any] | None = data if type(data) is dict else None
        self.environ_version = version_reader(data) if type(data) is dict else None
        self.environ_seen = self.environ_version() if self.environ_version else -1
        self.warning_filters = list(warnings.filters)
        self.handlers: dict[int, Any] = {}
        for signum in signal.valid_signals():
            try:
                handler = _getsignal(signum)
            except (OSError, ValueError):
                continue
            if handler is not None:
                self.handlers[signum] = handler
        self.mask = signal.pthread_sigmask(signal.SIG_BLOCK, [])
        self.fd_count = _count_fds()

    def restore_builtins(self) -> None:
        """Put builtins back when they changed; uses only dict methods, so it works when they
        were emptied. Unchanged, they are not touched (see `tracer._dict_version`)."""
        version = self.builtins_version
        if version is not None and version() == self.builtins_seen:
            return
        current = self.builtins_dict
        current.clear()
        current.update(self.builtins_saved)
        if version is not None:
            self.builtins_seen = version()

    def restore_modules(self) -> None:
        """Put back the modules the call replaced in `sys.modules` (not those it added);
        `sys.modules` unchanged since the last call is not walked."""
        modules = sys.modules
        version = self.modules_version
        unchanged = modules is self.modules_dict and version is not None
        if unchanged and version is not None and version() == self.modules_seen:
            return
        for name, module in self.modules.items():
            if modules.get(name) is not module:
                modules[name] = module
        if modules is self.modules_dict and version is not None:
            self.modules_seen = version()

    def restore_environ(self) -> None:
        """Put `os.environ` back, the object and then its contents; an environment whose
        mapping did not change since the last call is not read back."""
        os.environ = self.environ_object  # noqa: B003 (the object is put back, then its contents)
        version, data = self.environ_version, self.environ_data
        same_data = version is not None and vars(os.environ).get("_data") is data
        if same_data and version is not None and version() == self.environ_seen:
            return
        if dict(os.environ) != self.environ:
            os.environ.clear()
            os.environ.update(self.environ)
        if same_data and version is not None:
            self.environ_seen = version()

    def clean_directory(self) -> bool:
        """Empty the working directory; False when that failed (the worker should retire)."""
        try:
            if os.listdir(self.workdir):
                _empty_directory(self.workdir, self.private)
                return not os.listdir(self.workdir)
        except OSError:
            return False
        return True

    def restore(self) -> bool:
        """Undo what the last call changed. Returns False when the worker should retire."""
        self.restore_builtins()
        sys.settrace(None)
        sys.setprofile(None)
        if self.stdin.closed:  # exit() closes sys.stdin on its way out
            self.stdin = _open(os.devnull, encoding="utf-8")
        sys.stdin, sys.stdout, sys.stderr = self.stdin, self.stdout, self.stderr
        sys.excepthook, sys.displayhook = self.excepthook, self.displayhook
        sys.unraisablehook = self.unraisablehook
        sys.setrecursionlimit(self.recursion_limit)
        sys.set_int_max_str_digits(self.int_digits)
        signal.alarm(0)
        for timer in (signal.ITIMER_REAL, signal.ITIMER_VIRTUAL, signal.ITIMER_PROF):
            signal.setitimer(timer, 0)
        for signum, handler in self.handlers.items():
            if _getsignal(signum) is not handler:
                with contextlib.suppress(OSError, ValueError, TypeError):
                    _setsignal(signum, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, self.mask)
        if sys.path != self.path:
            sys.path[:] = self.path
        if sys.meta_path != self.meta_path:
            sys.meta_path[:] = self.meta_path
        if sys.path_hooks != self.path_hooks:
            sys.path_hooks[:] = self.path_hooks
            sys.path_importer_cache.clear()
        self.restore_modules()
        self.restore_environ()
        filters: list[Any] = warnings.filters  # type: ignore[assignment]
        if filters != self.warning_filters:
            filters[:] = self.warning_filters
        os.umask(0o077)
        healthy = True
        try:
            self.private.chdir(self.workdir)
            if os.listdir(self.workdir):
                _empty_directory(self.workdir, self.private)
                healthy = not os.listdir(self.workdir)
        except OSError:
            healthy = False
        if _count_fds() > self.fd_count + _EXTRA_FDS:
            healthy = False
        return healthy


def _count_fds() -> int:
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return 0


def _empty_directory(path: str, private: _guard.Private) -> None:
    """Remove everything inside `path` (not following symlinks), ignoring what cannot go."""
    try:
        entries = list(os.scandir(path))
    except OSError:
        return
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):
                _empty_directory(entry.path, private)
                private.rmdir(entry.path)
            else:
                private.unlink(entry.path)
        except OSError:
            pass


class _Done(Exception):
    """Ends an "eval" request early, through the same clean-up as a call."""


class _NotLiteral(Exception):
    """An evaluated value that is not a plain literal."""


Parsed = CompiledCall | CodeType | TraceError
"""A call read and compiled before it runs, or the error reading it raised."""


def parse_request_call(call: str, mode: str, under_limits: bool = False) -> Parsed | None:
    """Read and compile a call's text (this runs nothing): the code, or the `TraceError`
    saying why it does not read.

    Outside a call's limits (a fork server reading ahead), a failure of any other kind gives
    None: the call then reads the text again itself, under its limits, and reports that
    failure as a worker does. Under them (`under_limits`), such a failure is raised.
    """
    try:
        return _parse_expression(call) if mode == "eval" else compile_call(parse_call(call))
    except TraceError as exc:
        return exc.with_traceback(None)
    except Exception:  # a surrogate the parser cannot encode, no memory or stack left, ...
        if under_limits:
            raise
        return None


def _parse_expression(text: str) -> CodeType:
    try:
        return compile(text.strip(), CALL_FILENAME, "eval", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        raise TraceError(f"expression does not parse: {exc}") from None


class _Worker:
    """The request loop and the running of one call."""

    def __init__(self, config: dict[str, Any], private: _guard.Private) -> None:
        self.fork: _ForkServer | None = None
        self.read_fd = int(config["read_fd"])
        self.write_fd = int(config["write_fd"])
        self.stdout_limit = int(config["stdout_limit"])
        self.limits = _confine.CallLimits()
        self.state = _State(config["workdir"], private)
        # Imported only now, after the guard: on import `random` registers an at-fork handler
        # (a reseed from os.urandom) that would run in every child of a fork server, which
        # seeds it anyway; the guard's `os.register_at_fork` drops it. Unless something
        # imported it first (a `.pth` file of the interpreter's site-packages may).
        self.random_reseeded_at_fork = "random" in sys.modules
        import random

        self.random = random
        self.seed_each_call = True
        """False in a fork server whose children inherit its seeded state as it is."""
        self.calls_read: dict[tuple[str, str], Parsed] = {}

    def read_call(self, call: str, mode: str) -> Parsed:
        """`call` read and compiled under the running call's limits (`parse_request_call`),
        or as an earlier request's call read it (reading runs nothing, so the result depends
        on the text alone; code objects are immutable)."""
        key = (mode, call)
        parsed = self.calls_read.get(key)
        if parsed is None:
            parsed = parse_request_call(call, mode, under_limits=True)
            assert parsed is not None  # under limits, a failure is raised instead
            if len(self.calls_read) >= _CALLS_KEPT:
                del self.calls_read[next(iter(self.calls_read))]
            self.calls_read[key] = parsed
        return parsed

    def send(self, message: dict[str, Any]) -> None:
        _wire.write_all(self.write_fd, self.reply_bytes(message))

    def reply_bytes(self, message: dict[str, Any]) -> bytes:
        """The framed reply; one that cannot be encoded or is over the parent's limit is
        replaced by a "crashed" reply saying so."""
        try:
            data = _wire.encode(message)
            if len(data) > _wire.REPLY_LIMIT:
                raise ValueError(f"the reply is over {_wire.REPLY_LIMIT} bytes")
        except (ValueError, TypeError, MemoryError) as exc:
            data = _wire.encode(
                {
                    "request": message.get("request"),
                    "index": message.get("index"),
                    "status": "crashed",
                    "detail": f"the reply could not be encoded: {exception_text(exc)}",
                    "duration_s": message.get("duration_s", 0.0),
                    "retire": True,
                }
            )
        return data

    def serve(self) -> None:
        while True:
            try:
                request = _wire.read_message(self.read_fd)
            except (EOFError, OSError, _wire.ProtocolError):
                return
            if not self.handle(request):
                return

    def handle(self, request: dict[str, Any]) -> bool:
        """Run every call of one request; False when the worker retires."""
        request_id = request["request"]
        calls = [str(c) for c in request["calls"]]
        # One code, or several with the one each call runs against (a reused worker only).
        if "codes" in request:
            codes = [str(c) for c in request["codes"]]
            code_of = [int(i) for i in request["code_of"]]
        else:
            codes = [str(request["code"])]
            code_of = [0] * len(calls)
        timeout_s = float(request["timeout_s"])
        memory_mb = int(request["memory_mb"])
        traced = bool(request.get("trace", False))
        max_steps = int(request.get("max_steps", 10_000))
        mode = str(request.get("mode", "call"))
        if self.fork is not None:
            return self.fork.handle(self, request_id, codes[0], calls, mode, request)
        # Each code's, filled by its first call, under its limits; `analysed` for traced calls.
        compiled: list[list[CodeType | TraceError]] = [[] for _ in codes]
        analysed: list[list[Any]] = [[] for _ in codes]
        for index, call in enumerate(calls):
            which = code_of[index]
            reply = self.run_one(
                codes[which],
                call,
                compiled[which],
                traced,
                max_steps,
                timeout_s,
                memory_mb,
                mode,
                None,
                analysed[which],
            )
            reply["request"] = request_id
            reply["index"] = index
            healthy = self.state.restore()
            reply["retire"] = not healthy
            self.send(reply)
            if not healthy:
                return False
        return True

    def run_one(
        self,
        code: str,
        call: str,
        compiled: list[CodeType | TraceError],
        traced: bool,
        max_steps: int,
        timeout_s: float,
        memory_mb: int,
        mode: str = "call",
        parsed: Parsed | None = None,
        analysed: list[Any] | None = None,
    ) -> dict[str, Any]:
        """Run one call (mode "call") or evaluate one expression (mode "eval": the value comes
        back only as `literal_text`, never as a repr the value's class could write).

        `parsed` is the call already read by `parse_request_call`, when it was. `analysed`
        keeps the code's `Analysis` for the request's next traced calls (filled by the first,
        under its limits, as `compiled` is)."""
        if self.seed_each_call:
            self.random.seed(0)
        capture = _Capture(self.stdout_limit)
        sink = _Capture(0)
        state = self.state
        phase = "module"
        error: BaseException | None = None
        result: tuple[str, bool] | None = None
        plain = False
        args_after: list[str] = []
        trace_json: dict[str, Any] | None = None
        truncated = False
        start = _perf_counter()
        self.limits.enter(memory_mb=memory_mb, timeout_s=timeout_s)
        sys.stdout, sys.stderr = capture, sink
        try:
            if traced:
                phase = "trace"
                if _trace is None:
                    raise ImportError(f"the tracer is not available: {_TRACE_MISSING}")
                if analysed is None:
                    outcome = _trace(code, call, max_steps=max_steps)
                else:
                    if not analysed and _analyse is not None:
                        analysed.append(_analyse(code))
                    analysis = analysed[0] if analysed else None
                    # After the module's analysis, as `trace` reads them: a module that
                    # does not parse is the error to report before a call that does not.
                    read = self.read_call(call, "call")
                    if isinstance(read, TraceError):
                        raise read
                    assert isinstance(read, CompiledCall)
                    outcome = _trace(
                        code, call, max_steps=max_steps, analysis=analysis, compiled_call=read
                    )
                state.restore_builtins()
                trace_json = pack_trace(outcome)  # the parent knows the code and the call
                truncated = outcome.truncated
            else:
                if not compiled:
                    try:
                        compiled.append(compile_module(code))
                    except _TraceError as exc:
                        compiled.append(exc)
                module = compiled[0]
                if isinstance(module, TraceError):  # builtins are intact before the module runs
                    raise module
                if parsed is None:
                    parsed = self.read_call(call, mode)
                if isinstance(parsed, TraceError):
                    raise parsed
                expression = parsed if isinstance(parsed, CodeType) else None
                node = parsed if isinstance(parsed, CompiledCall) else None
                namespace: dict[str, Any] = {
                    "__name__": MODULE_NAME,
                    "__builtins__": state.builtins_dict,
                }
                exec(module, namespace)
                if expression is not None:
                    phase = "call"
                    value = eval(expression, namespace)
                    state.restore_builtins()
                    phase = "result"
                    text = literal_text(value)
                    state.restore_builtins()
                    if text is None:
                        raise _NotLiteral(
                            f"the value is not a plain literal ({type(value).__name__})"
                        )
                    result = (text, True)
                    plain = True
                    phase = "done"
                    raise _Done
                assert node is not None
                phase = "args"
                bound = bind_call(node, namespace)
                phase = "call"
                value = bound.invoke()
                state.restore_builtins()  # the call may have emptied them; snapshot needs them
                phase = "result"
                result = snapshot(value, RESULT_REPR_LIMIT)
                plain = is_plain(value)
                state.restore_builtins()
                args_after = bound.arguments_after()
                phase = "done"
        except _Done:
            pass
        except _BaseException as exc:
            # Without its traceback the exception no longer pins the call's frames (and the
            # memory a memory bomb built in them).
            error = exc.with_traceback(None)
        finally:
            self.limits.leave()  # first: the steps below may need memory
            state.restore_builtins()
            sys.stdout, sys.stderr = state.stdout, state.stderr
        duration = _perf_counter() - start
        reply: dict[str, Any] = {
            "status": "ok",
            "result": None,
            "result_literal": False,
            "result_plain": False,
            "exception": None,
            "args_after": args_after,
            "trace": trace_json,
            "stdout": capture.text(),
            "detail": "",
            "duration_s": duration,
        }
        if error is not None:
            # trace() reports a failing module as a TraceError whose context is the real error.
            memory = _isinstance(error, _MemoryError) or (
                _isinstance(error, _TraceError) and _isinstance(error.__context__, _MemoryError)
            )
            reply["status"] = "memory" if memory else "exception"
            reply["exception"] = self.describe(error, phase)
        elif trace_json is not None:
            reply["result"] = trace_json.get("result")
            reply["result_literal"] = reply["result"] is not None and not trace_json.get(
                "result_opaque"
            )
            reply["exception"] = trace_json.get("exception")
            reply["args_after"] = trace_json.get("args_after", [])
            if reply["exception"] is not None:
                memory = str(reply["exception"]).startswith("MemoryError")
                reply["status"] = "memory" if memory else "exception"
            if truncated:
                reply["detail"] = f"trace truncated at max_steps={max_steps}"
        elif result is not None:
            reply["result"], reply["result_literal"] = result
            reply["result_plain"] = plain
        return reply

    def describe(self, error: BaseException, phase: str) -> str:
        """The exception text, worded as `tracer.trace` words failures before the call."""
        try:
            text = exception_text(error)
        except _BaseException:  # a hostile __str__ that raises something exotic
            text = type(error).__name__
        finally:
            self.state.restore_builtins()
        if _isinstance(error, _TraceError) or not _isinstance(error, _Exception):
            return text
        if phase == "module":
            return exception_text(TraceError(f"executing the module failed: {text}"))
        if phase == "args":
            return exception_text(TraceError(f"evaluating the call's arguments failed: {text}"))
        return text


class _ForkServer:
    """Serves untrusted calls from a clean template: one forked child per call.

    This process (the template) never runs untrusted code itself. For each call it forks a
    child, which closes the template's pipes, dies with the template, may start no process,
    runs the call under the call's limits, writes its reply on a pipe of its own and exits.
    The template reads at most `_wire.REPLY_LIMIT` bytes of it (without decoding them), kills
    the child at the deadline, reaps it, empties the working directory, and relays the
    child's bytes with a header saying how the child ended. Nothing a child does reaches the
    next call: each one starts from the template's memory as it was before any call.

    A child costs mostly the template's pages it writes to, each copied on its first write,
    and the template pays the same for its own writes while a child lives: both do as little
    as they can between fork and exit (`_confine.bare_fork`, code read before the fork, the
    encoder made once, builtins left alone unless the call changed them).
    """

    def __init__(self, fork: Callable[[], int], pidfd_open: Callable[[int], int]) -> None:
        self._fork = fork
        self._pidfd_open = pidfd_open
        self._poller = select.poll()  # one for every call: each registers its two descriptors
        self._modules: dict[str, CodeType | TraceError] = {}
        self._pid = os.getpid()

    def handle(
        self,
        worker: _Worker,
        request_id: Any,
        code: str,
        calls: list[str],
        mode: str,
        request: dict[str, Any],
    ) -> bool:
        timeout_s = float(request["timeout_s"])
        memory_mb = int(request["memory_mb"])
        traced = bool(request.get("trace", False))
        max_steps = int(request.get("max_steps", 10_000))
        # Compiled here (compiling runs nothing), so every child starts with the code object
        # instead of compiling it again.
        compiled = [] if traced else self.module(code)
        # Read here too, all before the first fork: what a child does not do itself it does
        # not pay for in copied pages (a fork copies each page either process writes to).
        parsed = [None if traced else parse_request_call(call, mode) for call in calls]
        for index, call in enumerate(calls):
            header, body, pid = self.one(
                worker,
                code,
                call,
                mode,
                traced,
                max_steps,
                timeout_s,
                memory_mb,
                compiled,
                parsed[index],
            )
            last = index == len(calls) - 1
            header.update(request=request_id, index=index, relay=True, retire=False)
            if last:  # the parent may send the next request at once: clean up first
                self.reap(pid)
                pid = 0
                header["retire"] = not worker.state.clean_directory()
            # One write for the header and the child's bytes.
            framed = _wire.encode(header) + len(body).to_bytes(4, "big") + body
            _wire.write_all(worker.write_fd, framed)
            if not last:
                self.reap(pid)
                if not worker.state.clean_directory():
                    return False  # the parent learns it from the next reply's absence
        return True

    def one(
        self,
        worker: _Worker,
        code: str,
        call: str,
        mode: str,
        traced: bool,
        max_steps: int,
        timeout_s: float,
        memory_mb: int,
        compiled: list[CodeType | TraceError],
        parsed: Parsed | None,
    ) -> tuple[dict[str, Any], bytes, int]:
        """Run one call in a forked child: `(header, the child's bytes, its pid)`.

        The child is killed as soon as its reply is complete (what it does after that is no
        part of the call) and the caller reaps it after relaying the reply, so its exit is
        not on the way of the reply.
        """
        read_end, write_end = os.pipe()
        started = _perf_counter()
        pid = self._fork()
        if pid == 0:  # the child
            status = 1
            try:
                os.close(read_end)
                os.close(worker.read_fd)
                os.close(worker.write_fd)
                _confine.die_with_parent(self._pid)
                _confine.no_new_processes()
                worker.limits.margin_s = 0.0  # CPU time is limited to the timeout itself
                reply = worker.run_one(
                    code, call, compiled, traced, max_steps, timeout_s, memory_mb, mode, parsed
                )
                _wire.write_all(write_end, worker.reply_bytes(reply))
                status = 0
            finally:
                os._exit(status)
        os.close(write_end)
        pidfd = self._pidfd_open(pid)
        deadline = time.monotonic() + timeout_s + 0.05
        poller = self._poller
        poller.register(read_end, select.POLLIN)
        poller.register(pidfd, select.POLLIN)
        body = bytearray()
        ended = ""
        exited = False
        try:
            while not ended:
                left = int((deadline - time.monotonic()) * 1000) + 1
                events = poller.poll(left) if left > 0 else []
                if not events:
                    ended = "timeout"
                    break
                for fd, _ in events:
                    if fd == pidfd:
                        exited = True
                        poller.unregister(pidfd)
                        os.set_blocking(read_end, False)  # drain what it wrote, then stop
                        continue
                    try:
                        chunk = os.read(read_end, _wire.READ_CHUNK)
                    except BlockingIOError:
                        chunk = b""
                    if not chunk:
                        ended = "exit"
                        break
                    body += chunk
                    if len(body) >= 4:
                        size = int.from_bytes(body[:4], "big")
                        if size > _wire.REPLY_LIMIT:
                            ended = "oversize"
                        elif len(body) >= 4 + size:
                            del body[4 + size :]
                            ended = "reply"
                if exited and not ended:
                    ended = "exit"
        finally:
            # try/except rather than contextlib.suppress: this runs for every call, and each
            # object the template touches after a fork is a page it copies.
            try:  # noqa: SIM105 (see above)
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)
            except OSError:
                pass
            poller.unregister(read_end)
            if not exited:
                poller.unregister(pidfd)
            os.close(read_end)
            os.close(pidfd)
        header: dict[str, Any] = {"ended": ended, "duration_s": _perf_counter() - started}
        if ended != "reply":
            wait_status = self.reap(pid)
            pid = 0
            if os.WIFSIGNALED(wait_status):
                header["signal"] = os.WTERMSIG(wait_status)
            else:
                header["code"] = os.WEXITSTATUS(wait_status)
            body = bytearray()
        return header, bytes(body), pid

    def module(self, code: str) -> list[CodeType | TraceError]:
        """`code` compiled (or the error compiling it raised), or nothing when compiling it
        exhausted the stack or memory (each child then fails under its own limits).

        The last few requests' code is kept, so a request with the same code (one call per
        request, for one) compiles nothing. Children only ever see the template's copy: a
        child's interpreter specialising the code as it runs writes to its own pages.
        """
        known = self._modules.get(code)
        if known is not None:
            return [known]
        try:
            compiled: CodeType | TraceError = compile_module(code)
        except TraceError as exc:
            compiled = exc.with_traceback(None)
        except (RecursionError, MemoryError):
            return []
        if len(self._modules) >= _MODULES_KEPT:
            del self._modules[next(iter(self._modules))]
        self._modules[code] = compiled
        return [compiled]

    @staticmethod
    def reap(pid: int) -> int:
        """Wait for a child (already killed, or ended) and return its wait status."""
        return os.waitpid(pid, 0)[1] if pid else 0


def main(config_json: str) -> None:
    """Entry point of a worker process (see the module docstring)."""
    config = json.loads(config_json)
    workdir = str(config["workdir"])
    _confine.die_with_parent(config.get("parent_pid"))
    _confine.not_dumpable()
    os.chdir(workdir)
    os.umask(0o077)
    redirected = 0
    uid = config.get("uid")
    if uid is not None and os.geteuid() == 0:
        redirected = _confine.drop_privileges(int(uid), int(config["gid"]))
    forking = bool(config.get("fork", False))
    _confine.set_fixed_limits(
        memory_mb=int(config["memory_mb"]),
        file_mb=int(config["file_mb"]),
        open_files=int(config["open_files"]),
        processes=forking,
    )
    # The template keeps the real functions it forks and waits with; the guard disables them.
    bare_fork = _confine.bare_fork() if forking else None
    real_fork, real_pidfd_open = bare_fork or os.fork, os.pidfd_open
    # Its own descriptor, so code that closes sys.stdin leaves fd 0 (/dev/null) in place.
    sys.stdin = _open(os.devnull, encoding="utf-8")
    private = _guard.install(workdir)
    worker = _Worker(config, private)
    if forking:
        worker.fork = _ForkServer(real_fork, real_pidfd_open)
        if bare_fork is not None or not worker.random_reseeded_at_fork:
            # The template never draws from `random`, and no at-fork handler reseeds it:
            # every child starts from this state, as a reused worker's call starts from its
            # own `random.seed(0)`.
            worker.random.seed(0)
            worker.seed_each_call = False
        gc.collect()
        gc.freeze()  # children then share the template's pages instead of copying them
    worker.send(
        {
            "ready": True,
            "pid": os.getpid(),
            "uid": os.getuid(),
            "gid": os.getgid(),
            "hash_randomization": sys.flags.hash_randomization,
            "redirected_import_dirs": redirected,
            "trace_available": _trace is not None,
            "fork": forking,
        }
    )
    # os._exit: skip atexit handlers and finalisers the untrusted code may have left behind.
    try:
        worker.serve()
    except BaseException:
        traceback.print_exc()  # to the diagnostics file the parent reads when a worker dies
        os._exit(1)
    os._exit(0)

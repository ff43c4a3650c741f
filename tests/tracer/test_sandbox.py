"""The sandbox pool on well-behaved code: results, exceptions, batches, limits, isolation.

Hostile code is in test_hostile.py. Every test that needs a pool runs with and without
bubblewrap; the bubblewrap runs are skipped, with the reason, where bwrap does not work.
"""

from __future__ import annotations

import ast
import json
import os
import socket
import threading
import time
from collections.abc import Iterator

import pytest
from sandbox_modes import HANG_GUARD, MODES, needs_bwrap

from tracer import Outcome, SandboxPool, run_call
from tracer._codec import CUT_MARK

pytestmark = HANG_GUARD

DOUBLE = "def f(x):\n    return x * 2\n"


@pytest.fixture(scope="module", params=MODES)
def pool(request: pytest.FixtureRequest) -> Iterator[SandboxPool]:
    with SandboxPool(workers=2, use_bwrap=request.param) as p:
        yield p


def test_returns_the_repr_of_the_result(pool: SandboxPool) -> None:
    out = pool.run(DOUBLE, "f(21)")
    assert (out.status, out.result, out.result_literal) == ("ok", "42", True)
    assert out.exception is None and out.trace is None and out.duration_s > 0


def test_marks_results_that_are_not_literals(pool: SandboxPool) -> None:
    out = pool.run("class A:\n    pass\ndef f():\n    return A()", "f()")
    assert (out.status, out.result, out.result_literal) == ("ok", "<A object>", False)


def test_a_raising_call_is_an_exception_outcome(pool: SandboxPool) -> None:
    out = pool.run("def f(x):\n    return 1 / x", "f(0)")
    assert (out.status, out.exception, out.result) == (
        "exception",
        "ZeroDivisionError: division by zero",
        None,
    )


def test_code_that_does_not_parse_gives_the_trace_error(pool: SandboxPool) -> None:
    out = pool.run("def f(:\n    pass", "f()")
    assert out.status == "exception"
    assert out.exception is not None
    assert out.exception.startswith("TraceError: code does not parse (line 1)")


@pytest.mark.parametrize(
    ("code", "call", "expected"),
    [
        (DOUBLE, "f(", "TraceError: call does not parse"),
        (DOUBLE, "g(1)", "TraceError: the call names nothing defined in the code"),
        ("x = 1 / 0\ndef f():\n    pass", "f()", "TraceError: executing the module failed: "),
        (DOUBLE, "f(undefined)", "TraceError: evaluating the call's arguments failed: NameError"),
    ],
)
def test_failures_before_the_call_are_worded_as_the_tracer_words_them(
    pool: SandboxPool, code: str, call: str, expected: str
) -> None:
    out = pool.run(code, call)
    assert out.status == "exception"
    assert out.exception is not None and out.exception.startswith(expected)


def test_args_after_show_in_place_mutation(pool: SandboxPool) -> None:
    code = "def f(xs, d, key=None):\n    xs.append(3)\n    d['k'] = key\n    return None"
    out = pool.run(code, "f([1, 2], {}, key='v')")
    assert (out.status, out.result) == ("ok", "None")
    assert out.args_after == ["[1, 2, 3]", "{'k': 'v'}", "key='v'"]


def test_stdout_is_captured_and_bounded(pool: SandboxPool) -> None:
    out = pool.run("def f():\n    print('hello')\n    return 1", "f()")
    assert out.stdout == "hello\n"
    flood = pool.run("def f():\n    for i in range(10000):\n        print(i)\n", "f()")
    assert flood.status == "ok"
    assert flood.stdout.endswith(CUT_MARK)
    assert len(flood.stdout) <= 8192 + len(CUT_MARK)
    assert flood.stdout.startswith("0\n1\n2\n")


def test_each_call_gets_fresh_module_globals(pool: SandboxPool) -> None:
    code = "seen = []\ndef f(x):\n    seen.append(x)\n    return list(seen)"
    batch = pool.run_batch(code, ["f(1)", "f(2)", "f(3)"])
    assert [o.result for o in batch] == ["[1]", "[2]", "[3]"]
    assert [pool.run(code, "f(4)").result for _ in range(3)] == ["[4]"] * 3


def test_the_call_may_name_module_level_values(pool: SandboxPool) -> None:
    out = pool.run("DATA = [3, 1, 2]\ndef f(xs):\n    return sorted(xs)", "f(DATA)")
    assert out.result == "[1, 2, 3]"


def test_run_batch_keeps_order_and_continues_after_a_timeout(pool: SandboxPool) -> None:
    code = "def f(n):\n    while n < 0:\n        pass\n    return n"
    outs = pool.run_batch(code, ["f(1)", "f(-1)", "f(3)", "f(4)"], timeout_s=1.0)
    assert [o.status for o in outs] == ["ok", "timeout", "ok", "ok"]
    assert [o.result for o in outs] == ["1", None, "3", "4"]
    assert outs[1].duration_s >= 1.0


def test_run_batch_continues_after_the_worker_dies(pool: SandboxPool) -> None:
    code = "import os\ndef f(n):\n    if n == 2:\n        os._exit(5)\n    return n"
    outs = pool.run_batch(code, ["f(1)", "f(2)", "f(3)"])
    assert [o.status for o in outs] == ["ok", "crashed", "ok"]
    assert "code 5" in outs[1].detail


def test_run_batch_of_nothing(pool: SandboxPool) -> None:
    assert pool.run_batch(DOUBLE, []) == []


def test_map_runs_jobs_concurrently_in_order(pool: SandboxPool) -> None:
    jobs = [(f"def f(x):\n    return x + {k}", [f"f({i})" for i in range(5)]) for k in range(6)]
    results = pool.map(jobs)
    assert [[o.result for o in outs] for outs in results] == [
        [str(i + k) for i in range(5)] for k in range(6)
    ]
    assert pool.map([]) == []


def test_pool_is_thread_safe(pool: SandboxPool) -> None:
    errors: list[str] = []

    def client(k: int) -> None:
        for i in range(20):
            out = pool.run("def f(a, b):\n    return a * b", f"f({k}, {i})")
            if out.result != str(k * i):
                errors.append(f"{k}*{i}: {out}")

    threads = [threading.Thread(target=client, args=(k,)) for k in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_hash_seed_is_fixed_across_pools(pool: SandboxPool) -> None:
    code = (
        "import sys\n"
        "def f():\n"
        "    return repr({'apple', 'kiwi', 'fig', 'plum', 'pear'}), sys.flags.hash_randomization"
    )
    first = pool.run(code, "f()")
    with SandboxPool(workers=1, use_bwrap=False) as other:
        second = other.run(code, "f()")
    assert first.status == second.status == "ok"
    assert first.result == second.result
    assert first.result is not None and first.result.endswith(", 0)")


def test_workers_run_in_a_private_temporary_directory(pool: SandboxPool) -> None:
    code = (
        "import os\n"
        "def f(name):\n"
        "    before = sorted(os.listdir('.'))\n"
        "    open(name, 'w').write('x')\n"
        "    os.mkdir('sub')\n"
        "    open('sub/inner', 'w').write('y')\n"
        "    return before, os.getcwd() == os.environ['TMPDIR'] == os.environ['HOME']"
    )
    outs = pool.run_batch(code, ["f('a')", "f('b')"])
    assert [o.result for o in outs] == ["([], True)", "([], True)"]
    cwd = pool.run("import os\ndef f():\n    return os.getcwd()", "f()").result
    assert cwd is not None and "core-bench-sandbox-" in cwd


@pytest.mark.skipif(os.geteuid() != 0, reason="privileges are only dropped when run as root")
def test_root_workers_drop_to_the_sandbox_user(pool: SandboxPool) -> None:
    code = "import os\ndef f():\n    return os.getuid(), os.geteuid(), os.getgid(), os.getgroups()"
    out = pool.run(code, "f()")
    assert out.result == "(65534, 65534, 65534, [])"
    assert pool.sandbox_uid == 65534


def test_lazy_imports_work_after_dropping_privileges(pool: SandboxPool) -> None:
    # CRUXEval sample_621: the codec is imported on first use, after the worker dropped root.
    code = (
        "def f(text, encoding):\n"
        "    try:\n"
        "        return text.encode(encoding)\n"
        "    except LookupError:\n"
        "        return str(LookupError)"
    )
    assert pool.run(code, "f('13:45:56', 'shift_jis')").result == "b'13:45:56'"
    out = pool.run(
        "import fractions, decimal\ndef f():\n    return str(fractions.Fraction(2, 6))", "f()"
    )
    assert out.result == "'1/3'"


def test_random_is_seeded_the_same_for_every_call(pool: SandboxPool) -> None:
    code = "import random\ndef f():\n    return [random.randint(0, 10**6) for _ in range(3)]"
    outs = pool.run_batch(code, ["f()"] * 3)
    assert len({o.result for o in outs}) == 1


def test_memory_limit_is_per_call(pool: SandboxPool) -> None:
    code = "def f(mb):\n    return len(bytearray(mb * 1024 * 1024))"
    assert pool.run(code, "f(200)", memory_mb=128).status == "memory"
    assert pool.run(code, "f(200)", memory_mb=512).result == str(200 * 1024 * 1024)
    traced = pool.run(code, "f(200)", memory_mb=128, trace=True)
    assert traced.status == "memory"
    module_level = pool.run("big = bytearray(10**10)\ndef f():\n    pass", "f()", trace=True)
    assert module_level.status == "memory"


@pytest.mark.parametrize("untrusted", [False, True], ids=["reused", "fork"])
def test_long_results_are_cut_and_marked(pool: SandboxPool, untrusted: bool) -> None:
    # The reply (over 100 KB) takes several reads of the pipe, in the fork server and here.
    out = pool.run("def f():\n    return 'x' * 1_000_000", "f()", untrusted=untrusted)
    assert out.status == "ok" and not out.result_literal
    assert out.result is not None and out.result.endswith(CUT_MARK)
    assert len(out.result) < 200_000


def test_workers_are_recycled() -> None:
    with SandboxPool(workers=1, use_bwrap=False, max_calls_per_worker=3) as pool:
        outs = pool.run_batch("import os\ndef f():\n    return os.getcwd()", ["f()"] * 7)
    assert [o.status for o in outs] == ["ok"] * 7
    dirs = [o.result for o in outs]
    assert dirs[0] == dirs[1] == dirs[2] != dirs[3]
    assert dirs[3] == dirs[4] == dirs[5] != dirs[6]


def test_trace_is_returned_when_asked(pool: SandboxPool) -> None:
    code = "def f(n):\n    total = 0\n    for i in range(n):\n        total += i\n    return total"
    out = pool.run(code, "f(3)", trace=True)
    assert (out.status, out.result, out.result_literal) == ("ok", "3", True)
    assert out.trace is not None
    assert out.trace.result == "3"
    assert out.trace.steps[0].event == "call"
    assert out.trace.steps[-1].event == "return"
    raising = pool.run("def f():\n    raise KeyError('k')", "f()", trace=True)
    assert raising.status == "exception"
    assert raising.exception == "KeyError: 'k'"
    assert raising.trace is not None and raising.trace.exception == "KeyError: 'k'"


def test_trace_step_limit_is_reported(pool: SandboxPool) -> None:
    code = "def f():\n    n = 0\n    while True:\n        n += 1"
    out = pool.run(code, "f()", trace=True, max_steps=50)
    assert out.trace is not None and out.trace.truncated
    assert "max_steps=50" in out.detail


def test_outcome_round_trips_through_json(pool: SandboxPool) -> None:
    out = pool.run(
        "def f(xs):\n    xs.pop()\n    print('p')\n    return xs", "f([1, 2])", trace=True
    )
    data = json.loads(json.dumps(out.to_json()))
    assert Outcome.from_json(data) == out
    plain = Outcome("timeout", detail="slow", duration_s=1.5)
    assert Outcome.from_json(plain.to_json()) == plain


@pytest.mark.parametrize(
    "data",
    [
        {"status": "fine"},
        {"status": "ok", "result": 3},
        {"status": "ok", "args_after": [1]},
        {"status": "ok", "duration_s": "1"},
        {"status": "ok", "trace": {"steps": 1}},
        [],
    ],
)
def test_outcome_from_json_rejects_malformed_data(data: object) -> None:
    with pytest.raises(ValueError):
        Outcome.from_json(data)  # type: ignore[arg-type]


def test_run_call_uses_a_shared_pool() -> None:
    out = run_call(DOUBLE, "f(4)")
    assert (out.status, out.result) == ("ok", "8")
    with SandboxPool(workers=1, use_bwrap=False) as mine:
        assert run_call(DOUBLE, "f(5)", pool=mine).result == "10"


def test_limits_are_checked(pool: SandboxPool) -> None:
    with pytest.raises(ValueError, match="timeout_s"):
        pool.run(DOUBLE, "f(1)", timeout_s=0)
    with pytest.raises(ValueError, match="memory_mb"):
        pool.run(DOUBLE, "f(1)", memory_mb=pool.max_memory_mb + 1)
    with pytest.raises(ValueError, match="workers"):
        SandboxPool(workers=0)


def test_a_closed_pool_refuses_work() -> None:
    p = SandboxPool(workers=1, use_bwrap=False)
    assert p.run(DOUBLE, "f(1)").result == "2"
    root = p._root
    p.close()
    p.close()
    assert p.closed and not os.path.exists(root)
    with pytest.raises(RuntimeError, match="closed"):
        p.run(DOUBLE, "f(1)")


def test_closing_a_pool_ends_calls_in_flight_as_outcomes() -> None:
    p = SandboxPool(workers=1, use_bwrap=False)
    code = "import time\ndef f(n):\n    time.sleep(n)\n    return n"
    results: list[list[Outcome]] = []
    client = threading.Thread(
        target=lambda: results.append(p.run_batch(code, ["f(0)", "f(30)", "f(0)"], timeout_s=60))
    )
    client.start()
    deadline = time.monotonic() + 20
    while not any(w.calls for w in list(p._live)) and time.monotonic() < deadline:
        time.sleep(0.01)
    p.close()
    client.join(timeout=20)
    assert not client.is_alive()
    assert [o.status for o in results[0]] == ["ok", "crashed", "crashed"]
    assert all("closed" in o.detail for o in results[0][1:])


def test_a_worker_that_cannot_start_gives_crashed_outcomes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("tracer._sandbox.worker_command", lambda *a, **k: ["/nonexistent/python"])
    with SandboxPool(workers=1, use_bwrap=False) as p:
        outs = p.run_batch(DOUBLE, ["f(1)", "f(2)"])
    assert [o.status for o in outs] == ["crashed", "crashed"]
    assert "failed to start" in outs[0].detail


def test_a_worker_that_cannot_be_set_up_gives_crashed_outcomes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_descriptors(*args: object) -> None:
        raise OSError(24, "Too many open files")

    monkeypatch.setattr("tracer._sandbox._start_worker", no_descriptors)
    with SandboxPool(workers=1, use_bwrap=False) as p:
        out = p.run(DOUBLE, "f(1)")
    assert out.status == "crashed"
    assert "Too many open files" in out.detail


def test_use_bwrap_true_requires_a_working_bwrap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tracer._sandbox.probe_bwrap", lambda: (False, "no bwrap here"))
    with pytest.raises(RuntimeError, match="no bwrap here"):
        SandboxPool(workers=1, use_bwrap=True)
    with SandboxPool(workers=1) as auto:
        assert auto.use_bwrap is False


def run_once(code: str, call: str, *, use_bwrap: bool) -> Outcome:
    """`call` on `code` in a pool of its own, of one worker."""
    with SandboxPool(workers=1, use_bwrap=use_bwrap) as pool:
        return pool.run(code, call)


@needs_bwrap
def test_bwrap_workers_have_no_network() -> None:
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    code = (
        "import socket\n"
        "def f(port):\n"
        "    socket.create_connection(('127.0.0.1', port), timeout=1).close()\n"
        "    return 'connected'"
    )
    try:
        out = run_once(code, f"f({port})", use_bwrap=True)
        reference = run_once(code, f"f({port})", use_bwrap=False)
    finally:
        server.close()
    assert out.status == "exception" and out.exception is not None
    assert out.exception.startswith(("ConnectionRefusedError", "OSError"))
    assert reference.result == "'connected'"  # the same code reaches the host without bwrap


@needs_bwrap
def test_bwrap_root_is_read_only_even_below_the_guard(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    import tempfile

    # A world-writable directory outside the sandbox: only the read-only mount protects it
    # from a raw system call that the guard never sees.
    open_dir = tempfile.mkdtemp(prefix="core-bench-open-")
    os.chmod(open_dir, 0o777)
    target = os.path.join(open_dir, "created")
    code = (
        "import ctypes, os\n"
        "def f(path):\n"
        "    libc = ctypes.CDLL(None, use_errno=True)\n"
        "    fd = libc.open(path.encode(), os.O_WRONLY | os.O_CREAT, 0o644)\n"
        "    return fd, ctypes.get_errno()"
    )
    try:
        out = run_once(code, f"f({target!r})", use_bwrap=True)
        assert out.status == "ok" and out.result is not None
        fd, err = ast.literal_eval(out.result)
        # The directory is not even there (nothing of /tmp is bound but the worker's own
        # directory); the root above is read-only.
        assert fd == -1 and err in {2, 13, 30}  # ENOENT, EACCES, EROFS
        assert not os.path.exists(target)
    finally:
        for name in os.listdir(open_dir):
            os.unlink(os.path.join(open_dir, name))
        os.rmdir(open_dir)


def test_hash_seed_changes_set_order_only_through_the_pool_option() -> None:
    code = "def f(words):\n    return list(set(words))"
    call = "f(['ant', 'bee', 'cat', 'dog', 'eel', 'fox', 'gnu', 'hen'])"
    orders = set()
    for seed in (0, 1, 2, 3):
        with SandboxPool(workers=1, hash_seed=seed) as pool:
            first = pool.run(code, call).result
            assert pool.run(code, call).result == first  # the same seed gives the same order
            orders.add(first)
    assert len(orders) > 1

"""`SandboxPool.map` sends the codes a worker runs in one request: each call's outcome is the one
a request of its own code gives, and a call that kills its worker or times out in the middle
ends as its own outcome while the calls after it go on."""

from __future__ import annotations

import pytest
from outcome_fields import comparable

from tracer import SandboxPool

JOBS = [
    ("def f(xs):\n    xs.append(1)\n    return sum(xs)", ["f([1, 2])", "f([])", "f(None)"]),
    ("def f(xs):\n    return sorted(set(xs))", ["f([3, 1, 3])", "f('ba')"]),
    ("import random\ndef f(n):\n    return random.random() * n", ["f(1)", "f(2)"]),
    ("def f(:\n    pass", ["f(1)"]),
    ("def f(xs):\n    print(xs)\n    return xs[5]", ["f([1])", "f(list(range(9)))"]),
]


@pytest.mark.parametrize("traced", [False, True], ids=["plain", "traced"])
@pytest.mark.parametrize("workers", [1, 2])
def test_map_gives_what_one_request_per_code_gives(traced: bool, workers: int) -> None:
    with SandboxPool(workers=workers) as pool:
        many = pool.map(JOBS, trace=traced)
        one_by_one = [pool.run_batch(code, calls, trace=traced) for code, calls in JOBS]
    assert [list(map(comparable, o)) for o in many] == [
        list(map(comparable, o)) for o in one_by_one
    ]
    assert [len(o) for o in many] == [len(calls) for _, calls in JOBS]


def test_one_request_carries_every_code_of_a_map() -> None:
    with SandboxPool(workers=1) as pool:
        pool.run("def f():\n    return 1", "f()")
        (worker,) = [w for w in pool._reused.idle if w is not None]
        before = worker.requests
        pool.map(JOBS[:3])
        assert worker.requests == before + 1


@pytest.mark.parametrize(
    ("ending", "status"),
    [
        ("os._exit(3)", "crashed"),
        ("signal.raise_signal(signal.SIGKILL)", "crashed"),
        ("while True:\n            pass", "timeout"),
    ],
    ids=["exit", "sigkill", "loop"],
)
def test_a_call_that_ends_its_worker_mid_request_is_its_own_outcome(
    ending: str, status: str
) -> None:
    bad = f"import os, signal\ndef f(x):\n    if x == 2:\n        {ending}\n    return x * 10"
    jobs = [
        (JOBS[0][0], ["f([5])"]),
        (bad, ["f(1)", "f(2)", "f(3)"]),
        (JOBS[1][0], ["f([2, 2])", "f('ab')"]),
    ]
    with SandboxPool(workers=1) as pool:
        first, middle, last = pool.map(jobs, timeout_s=1.0)
        after = pool.run("def f():\n    return 'still serving'", "f()")
    assert [o.result for o in first] == ["6"]
    assert [o.status for o in middle] == ["ok", status, "ok"]
    assert (middle[0].result, middle[2].result) == ("10", "30")
    assert [o.result for o in last] == ["[2]", "['a', 'b']"]
    assert after.result == "'still serving'"


def test_a_map_over_a_worker_about_to_retire_goes_on_in_the_next() -> None:
    with SandboxPool(workers=1, max_calls_per_worker=3) as pool:
        many = pool.map(JOBS)
        one_by_one = [pool.run_batch(code, calls) for code, calls in JOBS]
    assert [list(map(comparable, o)) for o in many] == [
        list(map(comparable, o)) for o in one_by_one
    ]

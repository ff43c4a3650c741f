"""Throughput of `run_call` on trivial calls, against starting a process per call.

CRUXEval's official scorer starts fresh processes for every generation it checks (a
`multiprocessing.Manager` server plus a forked `multiprocessing.Process`, after human-eval);
simpler harnesses start a fresh interpreter per call. The sandbox pool reuses its workers.
This script measures, in one run on this machine:

- `SandboxPool.run`, one call per request, from as many client threads as there are workers;
- `SandboxPool.run_batch` (through `SandboxPool.map`), many calls of the same code per request;
- a fresh interpreter per call (`subprocess.run([python, "-c", program])`);
- CRUXEval's scheme: Manager + forked Process per call;

and prints calls per second and the ratios. The target is at least 1,000 calls/s on 2 cores,
for the reused workers and for the fork-per-call path.

Calls per second fall with the machine's load (a forked child waits for a core twice per call),
so the script also measures the CPU time a call costs in all processes together (this one,
the workers and the forked children: `getrusage` and `/proc`, in a pool without bubblewrap)
and prints what that cost allows on this machine's cores when they are idle: `cores / CPU
seconds per call`. Beside it, the minor page faults per call: most of a forked call's are
pages of its template that it writes to, and so copies.

Usage: .venv/bin/python bench/sandbox.py [--calls 2000] [--baseline-calls 200] [--workers N]
       [--no-bwrap]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from official_scorer import check_correctness

from tracer._sandbox import SandboxPool

CODE = "def f(x):\n    return x + 1\n"


def timed(label: str, calls: int, action: Callable[[], int]) -> float:
    start = time.perf_counter()
    good = action()
    elapsed = time.perf_counter() - start
    rate = calls / elapsed
    print(f"  {label:<44} {calls:>6} calls {elapsed:8.2f} s {rate:10.0f} calls/s")
    if good != calls:
        print(f"  !! only {good} of {calls} calls gave the right answer")
    return rate


def bench_pool_run(pool: SandboxPool, calls: int, untrusted: bool = False) -> int:
    def one(i: int) -> bool:
        return pool.run(CODE, f"f({i})", untrusted=untrusted).result == str(i + 1)

    with ThreadPoolExecutor(max_workers=pool.workers) as clients:
        return sum(clients.map(one, range(calls)))


def bench_pool_batch(pool: SandboxPool, calls: int, batch: int, untrusted: bool = False) -> int:
    jobs = [
        (CODE, [f"f({i})" for i in range(start, min(start + batch, calls))])
        for start in range(0, calls, batch)
    ]
    good = 0
    for job, outcomes in zip(jobs, pool.map(jobs, untrusted=untrusted), strict=True):
        good += sum(
            o.result == str(int(c[2:-1]) + 1) for c, o in zip(job[1], outcomes, strict=True)
        )
    return good


def tree_usage() -> tuple[float, int]:
    """CPU seconds and minor page faults so far, of this process and all its descendants.

    Live descendants are read from `/proc` (their own figures plus those of the children
    they reaped: a fork server reaps every child it forks); reaped ones from `getrusage`.
    A forked child's minor faults are mostly pages of its template it writes to and so copies.
    """
    own = resource.getrusage(resource.RUSAGE_SELF)
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = own.ru_utime + own.ru_stime + reaped.ru_utime + reaped.ru_stime
    faults = own.ru_minflt + reaped.ru_minflt
    parents: dict[int, int] = {}
    usage: dict[int, tuple[float, int]] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        parents[int(entry)] = int(fields[1])
        spent = sum(int(f) for f in fields[11:15]) / tick
        usage[int(entry)] = (spent, int(fields[7]) + int(fields[8]))
    me = os.getpid()
    for pid, (spent, minflt) in usage.items():
        ancestor = parents.get(pid)
        while ancestor not in (None, 0, 1, me):
            ancestor = parents.get(ancestor)
        if ancestor == me:
            total += spent
            faults += minflt
    return total, faults


def usage_per_call(
    pool: SandboxPool, calls: int, batch: int, untrusted: bool
) -> tuple[float, float]:
    """CPU seconds and minor page faults per call in all processes, the pool's workers and
    their children included."""
    cpu, faults = tree_usage()
    bench_pool_batch(pool, calls, batch, untrusted=untrusted)
    cpu_after, faults_after = tree_usage()
    return (cpu_after - cpu) / calls, (faults_after - faults) / calls


def bench_subprocess(calls: int, workers: int) -> int:
    def one(i: int) -> bool:
        program = f"{CODE}\nassert f({i}) == {i + 1}"
        done = subprocess.run(
            [sys.executable, "-c", program], capture_output=True, timeout=10, check=False
        )
        return done.returncode == 0

    with ThreadPoolExecutor(max_workers=workers) as clients:
        return sum(clients.map(one, range(calls)))


def bench_cruxeval(calls: int, workers: int) -> int:
    def one(i: int) -> bool:
        return check_correctness(f"{CODE}\nassert f({i}) == {i + 1}")

    with ThreadPoolExecutor(max_workers=workers) as clients:
        return sum(clients.map(one, range(calls)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=2000, help="calls through the pool")
    parser.add_argument("--baseline-calls", type=int, default=200, help="calls per baseline")
    parser.add_argument("--batch", type=int, default=50, help="calls per run_batch request")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--no-bwrap", action="store_true", help="do not use bubblewrap")
    args = parser.parse_args()

    multiprocessing.set_start_method("fork")  # what CRUXEval gets on Linux with Python 3.11
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {args.workers} workers")
    with SandboxPool(workers=args.workers, use_bwrap=False if args.no_bwrap else None) as pool:
        print(f"sandbox pool: bubblewrap {'on' if pool.use_bwrap else 'off'}")
        start = time.perf_counter()
        pool.map([(CODE, ["f(0)"]) for _ in range(args.workers)])  # start every worker
        pool.map([(CODE, ["f(0)"]) for _ in range(args.workers)], untrusted=True)
        startup = time.perf_counter() - start
        print(f"  {'worker start-up (all workers, in parallel)':<44} {startup:8.2f} s")
        run_rate = timed(
            "SandboxPool.run (one call per request)",
            args.calls,
            lambda: bench_pool_run(pool, args.calls),
        )
        batch_rate = timed(
            f"SandboxPool.map/run_batch ({args.batch} per request)",
            args.calls,
            lambda: bench_pool_batch(pool, args.calls, args.batch),
        )
        forked_rate = timed(
            "untrusted: fresh fork per call (one/request)",
            args.calls,
            lambda: bench_pool_run(pool, args.calls, untrusted=True),
        )
        forked_batch = timed(
            f"untrusted: fresh fork per call ({args.batch}/request)",
            args.calls,
            lambda: bench_pool_batch(pool, args.calls, args.batch, untrusted=True),
        )
    # Measured without bubblewrap: a worker's time reaches this process only through the
    # processes that reap it, and bubblewrap's own processes lose some of it on their way out.
    print(f"CPU per call, all processes, no bubblewrap ({args.batch} calls per request):")
    cores = os.cpu_count() or 1
    projected: dict[str, float] = {}
    with SandboxPool(workers=args.workers, use_bwrap=False) as plain:
        plain.map([(CODE, ["f(0)"]) for _ in range(args.workers)])
        plain.map([(CODE, ["f(0)"]) for _ in range(args.workers)], untrusted=True)
        for label, untrusted in (("reused workers", False), ("fork per call", True)):
            cost, faults = usage_per_call(plain, args.calls, args.batch, untrusted)
            projected[label] = cores / cost
            print(
                f"  {label:<44} {cost * 1000:8.3f} ms {faults:6.0f} page faults "
                f"{projected[label]:10.0f} calls/s on {cores} idle cores"
            )
    print("process per call:")
    fresh_rate = timed(
        "fresh interpreter per call (subprocess)",
        args.baseline_calls,
        lambda: bench_subprocess(args.baseline_calls, args.workers),
    )
    crux_rate = timed(
        "CRUXEval scheme (Manager + forked Process)",
        args.baseline_calls,
        lambda: bench_cruxeval(args.baseline_calls, args.workers),
    )
    print("ratios:")
    print(f"  run       / fresh interpreter   {run_rate / fresh_rate:8.1f}x")
    print(f"  run       / CRUXEval scheme     {run_rate / crux_rate:8.1f}x")
    print(f"  run_batch / fresh interpreter   {batch_rate / fresh_rate:8.1f}x")
    print(f"  run_batch / CRUXEval scheme     {batch_rate / crux_rate:8.1f}x")
    print(f"  fork per call / fresh interpreter   {forked_batch / fresh_rate:8.1f}x")
    print(f"  fork per call / CRUXEval scheme     {forked_batch / crux_rate:8.1f}x")
    print(f"  fork per call / reused run_batch    {forked_batch / batch_rate:8.2f}x")
    target = 1000
    for label, rate in (
        ("SandboxPool.run (reused)", run_rate),
        ("fork per call (batched)", forked_batch),
        ("fork per call (one/request)", forked_rate),
    ):
        verdict = "meets" if rate >= target else "misses"
        print(f"  {label} {verdict} the {target} calls/s target ({rate:.0f} calls/s)")
    for label, rate in projected.items():
        verdict = "would meet" if rate >= target else "would miss"
        print(f"  {label}, CPU-bound on idle cores, {verdict} it ({rate:.0f} calls/s)")


if __name__ == "__main__":
    main()

"""Tracer overhead: bare execution vs our tracer vs a naive recorder vs pysnooper.

Prints times and ratios measured in this one process (machines here are noisy, so only the
ratios within one run mean anything). Times are the CPU time of this process by default, which
other processes on a shared machine barely disturb; `--clock wall` measures elapsed time.
Run: `python bench/tracer.py [--cruxeval PATH] [--clock cpu|wall]`.
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Run as `python bench/tracer.py`, this script's own name would shadow the `tracer` package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tracer import trace
from tracer._call import CODE_FILENAME

LOOP = """\
def f(n):
    counts = {{}}
    total = 0
    for i in range(n):
        key = i % {keys}
        counts[key] = counts.get(key, 0) + i
        total += key
    return total, len(counts)
"""
LOOP_CALL = "f(10000)"


def load(code: str) -> Callable[..., Any]:
    namespace: dict[str, Any] = {}
    exec(compile(code, CODE_FILENAME, "exec"), namespace)
    return namespace["f"]  # type: ignore[no-any-return]


CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}
clock = CLOCKS["cpu"]


def best_of(repeats: int, run: Callable[[], object]) -> float:
    times = []
    for _ in range(repeats):
        start = clock()
        run()
        times.append(clock() - start)
    return min(times)


def naive_recorder(func: Callable[..., Any], *args: Any) -> list[dict[str, Any]]:
    """What a first tracer looks like: deep-copy f_locals at every line of the traced file."""
    states: list[dict[str, Any]] = []

    def local(frame: Any, event: str, arg: Any) -> Any:
        current = frame.f_locals  # a write-through proxy from 3.13, which deepcopy refuses
        states.append(copy.deepcopy(current if type(current) is dict else dict(current)))
        return local

    def global_(frame: Any, event: str, arg: Any) -> Any:
        return local if frame.f_code.co_filename == CODE_FILENAME else None

    sys.settrace(global_)
    try:
        func(*args)
    finally:
        sys.settrace(None)
    return states


def pysnooper_run(code: str) -> int:
    import pysnooper

    lines: list[str] = []
    namespace: dict[str, Any] = {}
    exec(compile(code, "<bench>", "exec"), namespace)
    snooped = pysnooper.snoop(output=lines.append, color=False)(namespace["f"])
    snooped(10000)
    return len(lines)


def loop_bench(repeats: int, keys: int) -> None:
    code = LOOP.format(keys=keys)
    func = load(code)
    bare = best_of(repeats, lambda: func(10000))
    ours = best_of(repeats, lambda: trace(code, LOOP_CALL, max_steps=1_000_000))
    naive = best_of(repeats, lambda: naive_recorder(func, 10000))
    snoop = best_of(repeats, lambda: pysnooper_run(code))
    steps = len(trace(code, LOOP_CALL, max_steps=1_000_000).steps)
    print(f"10,000-iteration loop updating a dict of {keys} keys ({steps} steps recorded)")
    print(f"  bare execution      {bare * 1e3:9.2f} ms   1.0x")
    for name, t in (("our tracer", ours), ("naive deepcopy", naive), ("pysnooper", snoop)):
        print(f"  {name:<19} {t * 1e3:9.2f} ms   {t / bare:7.1f}x bare")
    print(f"  our tracer vs pysnooper: {snoop / ours:.1f}x faster")
    print(f"  our tracer vs naive recorder: {naive / ours:.1f}x faster")


def cruxeval_bench(path: Path) -> None:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line]
    calls = [(r["code"], f"f({r['input']})") for r in rows]

    def bare() -> None:
        sink = io.StringIO()
        for code, call in calls:
            namespace: dict[str, Any] = {}
            exec(compile(code, CODE_FILENAME, "exec"), namespace)
            old, sys.stdout = sys.stdout, sink
            try:
                eval(call, namespace)
            finally:
                sys.stdout = old

    def ours() -> int:
        return sum(len(trace(code, call).steps) for code, call in calls)

    t_bare = best_of(3, bare)
    t_ours = best_of(3, ours)
    print(f"all {len(calls)} CRUXEval calls in-process ({ours()} steps)")
    print(f"  compile + run bare  {t_bare * 1e3:9.1f} ms")
    print(f"  our tracer          {t_ours * 1e3:9.1f} ms   {t_ours / t_bare:.1f}x bare")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cruxeval", default=os.environ.get("CORE_BENCH_CRUXEVAL"))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--keys", type=int, nargs="+", default=[10, 50], help="dict sizes for the loop benchmark"
    )
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    args = parser.parse_args()
    global clock
    clock = CLOCKS[args.clock]
    print(f"python {sys.version.split()[0]}, {args.clock} time")
    for keys in args.keys:
        loop_bench(args.repeats, keys)
    if args.cruxeval:
        cruxeval_bench(Path(args.cruxeval))
    else:
        print("CRUXEval part skipped: pass --cruxeval PATH or set CORE_BENCH_CRUXEVAL")


if __name__ == "__main__":
    main()

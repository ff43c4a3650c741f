"""The build does not trace the original again on the calls it generated: generating them
traced them (in a pool of the same hash seed, with the same limits), and a trace depends only on
the code and the call, so those traces are the ones its probes are read from."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from core_bench.build import BuildOptions
from core_bench.build._problem import _traces
from core_bench.datasets import load_dataset
from tracer import SandboxPool
from transforms import generate_call_outcomes


def _recording(pool: SandboxPool, traced: Counter[tuple[str, str]]) -> Callable[..., Any]:
    """Count the traced runs of `pool.map` by (code, call); returns the plain `map`."""
    run_map: Callable[..., Any] = pool.map

    def map_(jobs: list[tuple[str, list[str]]], **options: Any) -> Any:
        jobs = list(jobs)
        if options.get("trace"):
            traced.update((code, call) for code, calls in jobs for call in calls)
        return run_map(jobs, **options)

    pool.map = map_  # type: ignore[method-assign]
    return run_map


def test_generated_calls_are_not_traced_again_and_their_traces_are_the_same() -> None:
    options = BuildOptions()
    problem = load_dataset("bundled").rows[1].problem
    variant = problem.code + "\n# another code\n"
    traced: Counter[tuple[str, str]] = Counter()
    with SandboxPool(workers=1) as pool:
        generated = generate_call_outcomes(
            problem.code,
            problem.calls,
            n=3,
            seed=1,
            pool=pool,
            timeout_s=options.timeout_s,
            max_steps=options.max_steps,
        )
        known = dict(generated)
        calls = [*problem.calls, *known]
        plain_map = _recording(pool, traced)
        reused = _traces([problem.code, variant], calls, options, pool, known)
        fresh = plain_map([(problem.code, calls)], trace=True, timeout_s=options.timeout_s)
    assert len(known) == 3
    assert traced == Counter({(problem.code, c): 1 for c in problem.calls}) + Counter(
        {(variant, c): 1 for c in calls}
    )
    for call, trace in zip(calls, reused[0], strict=True):
        if call in known:
            assert trace is known[call].trace
    again = [outcome.trace for outcome in fresh[0]]
    assert all(t is not None for t in again)
    assert [t.to_json() for t in reused[0] if t] == [t.to_json() for t in again if t]

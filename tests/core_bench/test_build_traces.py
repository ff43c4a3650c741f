"""The build does not trace the original again on its own calls or the calls it generated,
nor a mutant on the calls it was verified on: building, generating and verifying traced them
(in a pool of the same hash seed, finished within the step limit), and a trace depends only on
the code and the call, so those traces are the ones its probes are read from."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

import core_bench.build._problem as build_module
from core_bench.build import BuildOptions
from core_bench.build._finished import finish
from core_bench.build._problem import _traces, build_problem, traced_output
from core_bench.datasets import load_dataset
from core_bench.schemas import Problem
from tracer import SandboxPool
from transforms import generate_call_outcomes, generate_variants


def _recording(
    pool: SandboxPool, traced: Counter[tuple[str, str]], *, untraced_too: bool = False
) -> Callable[..., Any]:
    """Count the traced runs of `pool.map` (all runs with `untraced_too`) by (code, call);
    returns the plain `map`."""
    run_map: Callable[..., Any] = pool.map

    def map_(jobs: list[tuple[str, list[str]]], **options: Any) -> Any:
        jobs = list(jobs)
        if untraced_too or options.get("trace"):
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
        reused = _traces([problem.code, variant], calls, options, pool, [known])
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


def test_mutants_are_not_traced_again_and_their_traces_are_the_same() -> None:
    options = BuildOptions()
    problem = load_dataset("bundled").rows[5].problem
    traced: Counter[tuple[str, str]] = Counter()
    with SandboxPool(workers=1) as pool:
        known = dict(generate_call_outcomes(problem.code, problem.calls, n=4, pool=pool))
        calls = [*problem.calls, *known]
        variants = generate_variants(
            problem.code,
            calls,
            k=1,
            mutants=2,
            pool=pool,
            known_outcomes=known,
            singles=0,
            extra_calls=0,
        )
        mutants = [v for v in variants if v.kind == "mutant"]
        codes = [problem.code, *(v.code for v in variants)]
        plain_map = _recording(pool, traced)
        reused = _traces(codes, calls, options, pool, [known, *(v.traced for v in variants)])
        fresh = plain_map([(code, calls) for code in codes], trace=True, max_steps=10_000)
    assert len(mutants) == 2 and all(set(m.traced) == set(calls) for m in mutants)
    assert not any((m.code, call) in traced for m in mutants for call in calls)
    assert all(
        traced[(v.code, call)] == 1 for v in variants if v.kind != "mutant" for call in calls
    )
    for trace, again in zip(reused, fresh, strict=True):
        assert [t.to_json() if t else None for t in trace] == [
            o.trace.to_json() if o.trace else None for o in again
        ]


def test_the_originals_own_calls_run_once_in_a_build_and_their_traces_are_the_same() -> None:
    # They ran three times: traced for the mutants' reference and for the probes, untraced
    # for the equivalent variants' reference (800 traced runs more on CRUXEval).
    options = BuildOptions(variants=2, mutants=2)
    problem = load_dataset("bundled").rows[5].problem
    runs: Counter[tuple[str, str]] = Counter()
    with SandboxPool(workers=1) as pool:
        plain_map = _recording(pool, runs, untraced_too=True)
        built = build_problem(problem, options, pool)
        fresh = plain_map(
            [(problem.code, list(problem.calls))],
            trace=True,
            timeout_s=options.timeout_s,
            max_steps=options.max_steps,
        )
    kinds = Counter(v.kind for v in built.variants)
    assert kinds["mutant"] == 2 and kinds["equivalent"] >= 1, kinds  # both references made
    assert {call: runs[(problem.code, call)] for call in problem.calls} == dict.fromkeys(
        problem.calls, 1
    )
    original = built.variants[0]
    assert original.kind == "original"
    assert original.outputs[: len(problem.calls)] == [traced_output(o.trace) for o in fresh[0]]


def test_a_build_that_reuses_the_originals_own_traces_writes_what_one_that_reruns_them_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Differential: the build as it was (the original's own calls not among the known
    # outcomes, so run again for each reference and for the probes) gives the same records.
    options = BuildOptions(variants=2, mutants=2)
    problems = [row.problem for row in load_dataset("bundled").rows[:4]]
    extend = build_module._extend_calls

    def without_own(problem: Problem, *args: Any) -> Any:
        calls, outputs, verification, known = extend(problem, *args)
        return (
            calls,
            outputs,
            verification,
            {c: o for c, o in known.items() if c not in problem.calls},
        )

    with SandboxPool(workers=1) as pool:
        now = [finish(build_problem(p, options, pool)).texts for p in problems]
        monkeypatch.setattr(build_module, "_extend_calls", without_own)
        before = [finish(build_problem(p, options, pool)).texts for p in problems]
    assert now == before

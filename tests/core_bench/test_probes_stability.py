"""Hash-seed stability: calls and probes whose answers depend on set or dict order are dropped."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from core_bench.build import BuildOptions
from core_bench.build._hash_stable import ALT_HASH_SEED, HASH_UNSTABLE
from core_bench.build._problem import build_problem
from core_bench.probes import probe_holds
from core_bench.schemas import Problem
from tracer import SandboxPool

ROOT = Path(__file__).resolve().parents[2]
OPTIONS = BuildOptions(variants=1, mutants=0, calls=5, probes=40, verify_calls=0)


@pytest.fixture(scope="module")
def pools() -> Iterator[tuple[SandboxPool, SandboxPool]]:
    with SandboxPool(workers=1) as main, SandboxPool(workers=1, hash_seed=ALT_HASH_SEED) as alt:
        yield main, alt


def bundled(problem_id: str) -> Problem:
    for line in (ROOT / "data" / "bundled.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row["id"] == problem_id:
            return Problem(
                id=row["id"],
                source="bundled",
                entry="f",
                code=row["code"],
                calls=row["calls"],
                outputs=row["outputs"],
            )
    raise AssertionError(problem_id)


def test_probes_on_set_order_are_dropped_with_their_anchored_copies(
    pools: tuple[SandboxPool, SandboxPool],
) -> None:
    main, alt = pools
    problem = bundled("cb-074")  # `for w in set(s.lower().split())`
    without = build_problem(problem, OPTIONS, main)
    kept = build_problem(problem, OPTIONS, main, hash_pool=alt)
    assert kept.failure is None and kept.dropped["probes.hash_unstable"] > 0
    assert kept.dropped["calls.hash_unstable"] == 0  # sorted output: every call is stable
    dropped = {p.id for p in without.probes} - {p.id for p in kept.probes}
    assert len(dropped) >= kept.dropped["probes.hash_unstable"]
    # values of the set loop's variable (alone or in a full trace) were asked, and are not any more
    assert [
        p
        for p in without.probes
        if p.id in dropped and (p.anchor.variable == "w" or p.kind == "full_trace")
    ]
    # every kept probe holds under the second seed; no counterpart lost its original
    codes = {v.id: v.code for v in kept.variants}
    outcomes = alt.map(
        [(code, kept.problem.calls) for code in codes.values()], trace=True, max_steps=10_000
    )
    traces = dict(zip(codes, outcomes, strict=True))
    for probe in kept.probes:
        trace = traces[probe.variant_id][probe.call_index].trace
        assert trace is not None and probe_holds(probe, codes[probe.variant_id], trace)
    ids = {p.id for p in kept.probes}
    assert all(p.anchor_of in ids for p in kept.probes if p.anchor_of)


def test_calls_whose_output_depends_on_set_order_are_dropped(
    pools: tuple[SandboxPool, SandboxPool],
) -> None:
    main, alt = pools
    code = "def f(s):\n    return list(set(s.split()))\n"
    call = "f('ant bee cat dog eel fox gnu hen')"
    output = main.run(code, call).result
    assert output is not None and alt.run(code, call).result != output
    problem = Problem(id="p", source="t", entry="f", code=code, calls=[call], outputs=[output])
    options = BuildOptions(variants=1, mutants=0, calls=1, probes=4, verify_calls=0)
    built = build_problem(problem, options, main, hash_pool=alt)
    assert built.failure == HASH_UNSTABLE and built.dropped["calls.hash_unstable"] == 1
    stable = Problem(
        id="q", source="t", entry="f", code=code, calls=["f('ant')"], outputs=["['ant']"]
    )
    assert build_problem(stable, options, main, hash_pool=alt).dropped["calls.hash_unstable"] == 0

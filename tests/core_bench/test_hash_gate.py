"""The hash-seed gate: only code (with its calls) that can observe the hash seed is run under a
second one; the rest skips the second pool, and the check would have dropped nothing there."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from shared_builds import cruxeval_build_options

from core_bench.benchmark import load_benchmark
from core_bench.build import BuildOptions, traced_output
from core_bench.build._hash_gate import hash_order_reasons, observes_hash_order
from core_bench.build._hash_stable import ALT_HASH_SEED
from core_bench.build._problem import build_problem
from core_bench.datasets import load_dataset
from core_bench.probes import CallContext, probe_holds
from core_bench.schemas import Probe, Problem
from tracer import SandboxPool

CRUXEVAL = os.environ.get("CORE_BENCH_CRUXEVAL")
OPTIONS = BuildOptions(variants=1, mutants=0, singles=0, calls=4, probes=40, verify_calls=0)


@pytest.fixture(scope="module")
def pools() -> Iterator[tuple[SandboxPool, SandboxPool]]:
    with SandboxPool(workers=1) as main, SandboxPool(workers=1, hash_seed=ALT_HASH_SEED) as alt:
        yield main, alt


def problem(code: str, call: str, main: SandboxPool) -> Problem:
    output = main.run(code, call).result
    assert output is not None
    return Problem(id="p", source="t", entry="f", code=code, calls=[call], outputs=[output])


SET_LOOP = """\
def f(s):
    n = 0
    for w in set(s.split()):
        n = n + len(w)
    return n
"""
SORTED_SET = """\
def f(s):
    words = sorted(set(s.split()))
    return words
"""
PLAIN = """\
def f(s):
    words = []
    for w in s.split():
        if w not in words:
            words.append(w)
    return words
"""
WORDS = "f('ant bee cat dog eel fox gnu hen')"


def test_iterating_a_set_of_strings_is_checked_and_its_probes_dropped(
    pools: tuple[SandboxPool, SandboxPool],
) -> None:
    main, alt = pools
    call = "f('a bb ccc dddd eeeee ffffff ggggggg')"
    built = build_problem(problem(SET_LOOP, call, main), OPTIONS, main, hash_pool=alt)
    assert built.counts["hash_check.problems_checked"] == 1
    assert built.counts["hash_check.variants_checked"] == len(built.variants)
    # the sum is the same in any order, the values of `w` and `n` inside the loop are not
    assert built.dropped["calls.hash_unstable"] == 0
    assert built.dropped["probes.hash_unstable"] > 0
    plain = build_problem(problem(SET_LOOP, call, main), OPTIONS, main)
    dropped = [p for p in plain.probes if p not in built.probes]
    # ... nor is what a helper returns that holds the set's order (`list(set(...))` of an
    # extracted helper, asked as call_return)
    assert dropped and all(
        p.kind in ("full_trace", "call_return") or p.anchor.variable in ("w", "n") for p in dropped
    )


def test_sorted_set_is_checked_and_kept(pools: tuple[SandboxPool, SandboxPool]) -> None:
    main, alt = pools
    sorted_set = problem(SORTED_SET, WORDS, main)
    built = build_problem(sorted_set, OPTIONS, main, hash_pool=alt)
    plain = build_problem(sorted_set, OPTIONS, main)
    assert built.failure is None and built.dropped["calls.hash_unstable"] == 0
    assert built.counts["hash_check.problems_checked"] == 1
    original = [p for p in plain.probes if p.variant_id == "p:original"]
    assert original and all(p in built.probes for p in original)


def test_plain_list_code_skips_the_second_pool(pools: tuple[SandboxPool, SandboxPool]) -> None:
    main, alt = pools
    plain = problem(PLAIN, WORDS, main)
    checked = build_problem(plain, OPTIONS, main, hash_pool=alt)
    assert checked.counts["hash_check.problems_skipped"] == 1
    assert checked.counts["hash_check.variants_skipped"] == len(checked.variants)
    assert checked.counts["hash_check.variants_checked"] == 0
    # a closed pool raises when asked to run anything: the build does not ask it
    closed = SandboxPool(workers=1, hash_seed=ALT_HASH_SEED)
    closed.close()
    skipped = build_problem(plain, OPTIONS, main, hash_pool=closed)
    assert skipped.failure is None and skipped.probes == checked.probes
    assert skipped.dropped == {"calls.hash_unstable": 0, "probes.hash_unstable": 0}


def test_the_closed_pool_is_asked_for_code_that_can_observe_the_seed(
    pools: tuple[SandboxPool, SandboxPool],
) -> None:
    main, _ = pools
    closed = SandboxPool(workers=1, hash_seed=ALT_HASH_SEED)
    closed.close()
    with pytest.raises(RuntimeError, match="closed"):
        build_problem(problem(SORTED_SET, WORDS, main), OPTIONS, main, hash_pool=closed)


@pytest.mark.parametrize(
    "code",
    [
        "def f(s):\n    return len(set(s))\n",
        "def f(s):\n    return {c for c in s}\n",
        "def f(a, b):\n    return {a, b} == {b, a}\n",
        "def f(xs):\n    return list(map(frozenset, xs))\n",
        "def f(s):\n    return hash(s) % 5\n",
        "def f(s):\n    return s.__hash__() % 5\n",
        "def f(d, e):\n    return list(d.keys() - e.keys())\n",
        "def f(d):\n    k = d.keys()\n    return list(k | {'x'})\n",
        "def f(d):\n    return d.items()\n",
        "def f(s):\n    return eval(s)\n",
        "def f(o, n):\n    return getattr(o, n)\n",
        "def f():\n    return vars()\n",
        "def f():\n    return type('A', (), {})\n",
        "def f(xs):\n    import random\n    random.shuffle(xs)\n    return xs\n",
        "def f(s:\n",
    ],
)
def test_code_that_can_observe_the_seed_is_ruled_in(code: str) -> None:
    assert observes_hash_order(code, ["f('a')"]), code


@pytest.mark.parametrize(
    "code",
    [
        PLAIN,
        "def f(d):\n    return [k for k in d.keys()]\n",
        "def f(d):\n    for k, v in d.items():\n        d[k] = v + 1\n    return d\n",
        "def f(d):\n    return sorted(d.items(), key=lambda kv: kv[1])\n",
        "def f(d, k):\n    return k in d.keys() and len(d.values()) > 1\n",
        "def f(x):\n    return type(x) is int\n",
        "def f(s):\n    return dict.fromkeys(s)\n",
    ],
)
def test_code_that_cannot_observe_the_seed_is_ruled_out(code: str) -> None:
    assert hash_order_reasons(code, ["f({'a': 1})"]) == []


def test_a_call_with_a_set_literal_is_ruled_in_on_plain_code() -> None:
    # plain code iterates whatever it is given: a set argument reaches it through the call
    assert not observes_hash_order(PLAIN.replace(".split()", ""), ["f(['ant', 'bee'])"])
    assert hash_order_reasons(PLAIN.replace(".split()", ""), ["f({'ant', 'bee'})"]) == [
        "call \"f({'ant', 'bee'})\": a set display"
    ]
    assert observes_hash_order(PLAIN, ["f(frozenset('ab'))"])
    assert observes_hash_order(PLAIN, ["f("])


@pytest.mark.slow
@pytest.mark.skipif(not CRUXEVAL, reason="CORE_BENCH_CRUXEVAL is not set")
def test_the_full_check_drops_nothing_on_the_cruxeval_variants_the_gate_skips(
    build_once: Callable[[BuildOptions], Path],
) -> None:
    """The differential check of the gate: every (variant, call) of the CRUXEval build that the
    gate let skip the second seed is traced under it now, as the full check would, and its
    output and every probe on it must hold (the check would have dropped nothing)."""
    options = cruxeval_build_options(str(CRUXEVAL))
    bench = load_benchmark(build_once(options))
    counts = bench.manifest.counts
    calls = {p.id: p.calls for p in bench.problems}
    skipped = [v for v in bench.variants if not observes_hash_order(v.code, calls[v.problem_id])]
    print(
        f"\nhash gate on {counts['problems']} CRUXEval problems: "
        f"{counts.get('hash_check.problems_skipped', 0)} skipped, "
        f"{counts.get('hash_check.problems_checked', 0)} checked; variants "
        f"{counts.get('hash_check.variants_skipped', 0)} skipped, "
        f"{counts.get('hash_check.variants_checked', 0)} checked"
    )
    assert (
        counts["hash_check.problems_skipped"] + counts.get("hash_check.problems_checked", 0)
        == (counts["problems"])
    )
    assert len(skipped) == counts["hash_check.variants_skipped"] > 0.95 * len(bench.variants)
    probes: dict[str, list[Probe]] = {}
    for probe in bench.probes:
        probes.setdefault(probe.variant_id, []).append(probe)
    limits = {"timeout_s": options.timeout_s, "trace": True, "max_steps": options.max_steps}
    failed: list[str] = []
    with SandboxPool(workers=2, hash_seed=ALT_HASH_SEED) as alt:
        traced = alt.map([(v.code, calls[v.problem_id]) for v in skipped], **limits)
        for variant, outcomes in zip(skipped, traced, strict=True):
            for index, outcome in enumerate(outcomes):
                if outcome.status in ("timeout", "crashed"):  # the machine's load, not the seed
                    outcome = alt.run_batch(
                        variant.code, [calls[variant.problem_id][index]], **limits
                    )[0]
                trace = outcome.trace
                if traced_output(trace) != variant.outputs[index]:
                    failed.append(f"{variant.id} call {index}: {traced_output(trace)}")
                    continue
                assert trace is not None
                context = CallContext(variant.code, trace) if not trace.truncated else None
                for probe in probes.get(variant.id, []):
                    if probe.call_index == index and not probe_holds(
                        probe, variant.code, trace, context=context
                    ):
                        failed.append(f"{probe.id}: {probe.question}")
    assert failed == []


def test_the_cached_gate_gives_the_reasons_verdict_on_every_bundled_problem() -> None:
    """Differential: `observes_hash_order` (per code and per call, cached, stopping at the
    first) against the reference `bool(hash_order_reasons(...))`, on the bundled problems,
    each with its own calls and with calls that hold a set or do not parse."""
    rows = load_dataset("bundled").rows
    extra = ["f({1, 2})", "f(", "f(x.__class__)", "f([1, 2])"]
    seen = {True: 0, False: 0}
    for row in rows:
        code, calls = row.problem.code, row.problem.calls
        for given in (calls, [*calls, *extra], extra[3:], []):
            expected = bool(hash_order_reasons(code, given))
            assert observes_hash_order(code, given) == expected, (row.problem.id, given)
            seen[expected] += 1
    assert observes_hash_order("def f(:\n", []) == bool(hash_order_reasons("def f(:\n"))
    assert seen[True] and seen[False]

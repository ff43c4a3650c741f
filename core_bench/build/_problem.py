"""Building one problem: its calls, verified variants, traces and probes."""

from __future__ import annotations

import ast
import time
from dataclasses import dataclass, field

from core_bench.build._options import BuildOptions
from core_bench.probes import anchor_probes, mark_anchored, probes_for_call
from core_bench.schemas import Probe, Problem, Variant
from tracer import Outcome, SandboxPool, Trace
from transforms import cyclomatic_complexity, generate_calls, generate_variants


@dataclass(slots=True)
class ProblemBuild:
    """Everything a build writes for one problem, or why the problem was left out."""

    problem: Problem
    variants: list[Variant] = field(default_factory=list)
    probes: list[Probe] = field(default_factory=list)
    failure: str | None = None
    seconds: dict[str, float] = field(default_factory=dict)


def variant_id(problem_id: str, kind: str, number: int) -> str:
    """Ids of a problem's variants: "<pid>:original", "<pid>:eq1".., "<pid>:mut1".."""
    if kind == "original":
        return f"{problem_id}:original"
    return f"{problem_id}:{'eq' if kind == 'equivalent' else 'mut'}{number}"


def _extend_calls(
    problem: Problem, options: BuildOptions, seed: int, pool: SandboxPool
) -> tuple[list[str], list[str]]:
    """The problem's calls plus generated ones that return a literal, with their outputs."""
    wanted = max(0, options.calls - len(problem.calls))
    calls = list(problem.calls)
    if wanted:
        calls = generate_calls(
            problem.code,
            problem.calls,
            n=wanted,
            seed=seed,
            pool=pool,
            max_raising=0,
            timeout_s=options.timeout_s,
            max_steps=options.max_steps,
        )
    outcomes = pool.run_batch(
        problem.code, calls[len(problem.calls) :], timeout_s=options.timeout_s
    )
    outputs = list(problem.outputs)
    kept = list(problem.calls)
    for call, outcome in zip(calls[len(problem.calls) :], outcomes, strict=True):
        if outcome.status == "ok" and outcome.result is not None and outcome.result_literal:
            kept.append(call)
            outputs.append(outcome.result)
    return kept, outputs


def _traces(
    codes: list[str], calls: list[str], options: BuildOptions, pool: SandboxPool
) -> list[list[Trace | None]]:
    results: list[list[Outcome]] = pool.map(
        [(code, calls) for code in codes],
        timeout_s=options.timeout_s,
        trace=True,
        max_steps=options.max_steps,
    )
    return [[outcome.trace for outcome in outcomes] for outcomes in results]


def traced_output(trace: Trace | None) -> str:
    """What `Variant.outputs` holds for one call: the repr of the result, "!ExceptionType" when
    the call raised, "!Truncated" when the step limit cut it, "!NoTrace" when it could not be
    traced (timeout, crash)."""
    if trace is None:
        return "!NoTrace"
    if trace.truncated:
        return "!Truncated"
    if trace.exception is not None:
        return "!" + trace.exception.partition(":")[0].strip()
    return trace.result if trace.result is not None else "!NoTrace"


def literal_output(stored: str) -> str | None:
    """A stored output (`Variant.outputs`) as an answer a model can give, or None when the
    call raised, was cut, or returned a value with no literal repr."""
    if stored.startswith("!"):
        return None
    try:
        ast.literal_eval(stored)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return stored


def build_problem(problem: Problem, options: BuildOptions, pool: SandboxPool) -> ProblemBuild:
    """Extend the calls, generate and verify variants, trace every (variant, call), pick probes.

    Probes: on the original, `options.probes` per call; on an equivalent variant, first the
    original's probes asked again where the variant's trace allows (anchored), then its own
    probes up to the same count; on a mutant, its own probes only.
    """
    seed = options.problem_seed(problem.id)
    seconds: dict[str, float] = {}
    mark = time.perf_counter()
    calls, outputs = _extend_calls(problem, options, seed, pool)
    problem = problem.model_copy(update={"calls": calls, "outputs": outputs})
    seconds["calls"] = time.perf_counter() - mark
    mark = time.perf_counter()
    generated = generate_variants(
        problem.code,
        calls,
        k=options.variants,
        seed=seed,
        mutants=options.mutants,
        pool=pool,
        extra_calls=options.verify_calls,
    )
    counters = {"equivalent": 0, "mutant": 0}
    variants = [
        Variant(
            id=variant_id(problem.id, "original", 0),
            problem_id=problem.id,
            kind="original",
            code=problem.code,
            chain=[],
            jaccard=1.0,
            cc=cyclomatic_complexity(problem.code),
            verified_calls=len(calls),
        )
    ]
    for item in generated:
        counters[item.kind] += 1
        variants.append(
            Variant(
                id=variant_id(problem.id, item.kind, counters[item.kind]),
                problem_id=problem.id,
                kind=item.kind,
                code=item.code,
                chain=list(item.chain),
                jaccard=round(item.jaccard, 4),
                cc=item.cc,
                verified_calls=item.verified_calls,
                renames=dict(sorted(item.provenance.renames.items())),
                line_map={k: list(v) for k, v in sorted(item.provenance.line_map.items())},
            )
        )
    seconds["variants"] = time.perf_counter() - mark
    mark = time.perf_counter()
    traces = _traces([v.code for v in variants], calls, options, pool)
    variants = [
        v.model_copy(update={"outputs": [traced_output(t) for t in ts]})
        for v, ts in zip(variants, traces, strict=True)
    ]
    seconds["traces"] = time.perf_counter() - mark
    mark = time.perf_counter()
    probes = _probes(problem, variants, traces, options, seed)
    seconds["probes"] = time.perf_counter() - mark
    return ProblemBuild(problem, variants, probes, seconds=seconds)


def _probes(
    problem: Problem,
    variants: list[Variant],
    traces: list[list[Trace | None]],
    options: BuildOptions,
    seed: int,
) -> list[Probe]:
    """Probes of every (variant, call), in variant order, then call order."""
    original, original_traces = variants[0], traces[0]
    count = options.probes
    chosen: list[list[list[Probe]]] = []
    original_probes: list[list[Probe]] = [
        []
        if trace is None
        else probes_for_call(
            problem.id, original.id, original.code, index, trace, count=count, seed=seed
        )
        for index, trace in enumerate(original_traces)
    ]
    counterparts: list[Probe] = []
    for variant, variant_traces in zip(variants[1:], traces[1:], strict=True):
        per_call: list[list[Probe]] = []
        for index, trace in enumerate(variant_traces):
            if trace is None:
                per_call.append([])
                continue
            reference = original_traces[index]
            anchored: list[Probe] = []
            if variant.kind == "equivalent" and reference is not None and original_probes[index]:
                anchored = anchor_probes(
                    original_probes[index],
                    reference,
                    variant.id,
                    variant.code,
                    trace,
                    variant.renames,
                    variant.line_map,
                    original_code=original.code,
                )[:count]
            own = probes_for_call(
                problem.id, variant.id, variant.code, index, trace, count=count, seed=seed
            )
            taken = {(p.kind, p.anchor) for p in anchored}
            fresh = [p for p in own if (p.kind, p.anchor) not in taken]
            per_call.append(anchored + fresh[: max(0, count - len(anchored))])
            counterparts.extend(anchored)
        chosen.append(per_call)
    flat_original = mark_anchored([p for probes in original_probes for p in probes], counterparts)
    return flat_original + [p for per_call in chosen for probes in per_call for p in probes]

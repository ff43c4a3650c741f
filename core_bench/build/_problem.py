"""Building one problem: its calls, verified variants, traces and probes."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from core_bench.build._hash_gate import observes_hash_order
from core_bench.build._hash_stable import HASH_UNSTABLE, stable_calls, stable_probes
from core_bench.build._options import BuildOptions
from core_bench.build._reimplement import ProblemExtras, check_reimplementations
from core_bench.probes import CallContext, anchor_probes, mark_anchored, probes_for_call
from core_bench.schemas import Probe, Problem, SkippedRow, Variant
from tracer import Outcome, SandboxPool, Trace
from transforms import cyclomatic_complexity, generate_call_outcomes, generate_variants


@dataclass(slots=True)
class ProblemBuild:
    """Everything a build writes for one problem, or why the problem was left out."""

    problem: Problem
    variants: list[Variant] = field(default_factory=list)
    probes: list[Probe] = field(default_factory=list)
    failure: str | None = None
    seconds: dict[str, float] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)
    """Tallies for the manifest beyond what the records show (reimplementations checked,
    kept and rejected by reason)."""
    skipped: list[SkippedRow] = field(default_factory=list)
    """Parts of the problem's data left out (an implementation that is not equivalent)."""
    dropped: dict[str, int] = field(default_factory=dict)
    """Calls and probes left out because their answers change with the hash seed."""


def variant_id(problem_id: str, kind: str, number: int) -> str:
    """Ids of a problem's variants: "<pid>:original", "<pid>:eq1".., "<pid>:mut1".."""
    if kind == "original":
        return f"{problem_id}:original"
    return f"{problem_id}:{'eq' if kind == 'equivalent' else 'mut'}{number}"


def _extend_calls(
    problem: Problem, options: BuildOptions, seed: int, pool: SandboxPool
) -> tuple[list[str], list[str], list[str], dict[str, Outcome]]:
    """The problem's calls plus generated ones that return a literal, with their outputs, and
    the verification calls (those, plus generated calls used only to verify variants), and the
    original's traced outcome on each of its own calls and each generated call.

    Calls are generated once for both uses, and each call is run on the original once: its
    traced outcome gives the output a shipped call needs, the reference that variants and
    mutants are verified against, and the trace the original's probes are read from.
    """
    wanted = max(0, options.calls - len(problem.calls))
    kept = list(problem.calls)
    outputs = list(problem.outputs)
    extra: list[str] = []
    own = list(dict.fromkeys(problem.calls))
    traced = pool.map(
        [(problem.code, own)],
        timeout_s=options.timeout_s,
        trace=True,
        max_steps=options.max_steps,
    )[0]
    known: dict[str, Outcome] = dict(zip(own, traced, strict=True))
    if wanted + options.verify_calls:
        generated = generate_call_outcomes(
            problem.code,
            problem.calls,
            n=wanted + options.verify_calls,
            seed=seed,
            pool=pool,
            max_raising=options.verify_calls,
            timeout_s=options.timeout_s,
            max_steps=options.max_steps,
        )
        for call, outcome in generated:
            known[call] = outcome
            shippable = outcome.status == "ok" and outcome.result is not None
            if shippable and outcome.result_literal and len(kept) < options.calls:
                kept.append(call)
                outputs.append(outcome.result or "")
            else:
                extra.append(call)
    return kept, outputs, kept + extra, known


def _finished_runs(outcomes: Mapping[str, Outcome]) -> dict[str, Outcome]:
    """The outcomes whose traced run returned or raised within the step limit: the verifier
    compares variants with their results, and runs a call cut short again, untraced."""
    return {
        call: outcome
        for call, outcome in outcomes.items()
        if outcome.status in ("ok", "exception")
        and outcome.trace is not None
        and not outcome.trace.truncated
    }


def _traces(
    codes: list[str],
    calls: list[str],
    options: BuildOptions,
    pool: SandboxPool,
    known: Sequence[Mapping[str, Outcome]] = (),
) -> list[list[Trace | None]]:
    """The trace of every call of every code (None where the call could not be traced).

    `known[i]` holds outcomes of `codes[i]` traced already, in a pool of the same hash seed,
    that finished within the step limit (the original's generated calls, a mutant's
    verification calls): those calls are not traced again (a worker runs every call afresh,
    `random` seeded, so a finished trace depends only on the code and the call).
    """
    known = list(known) + [{}] * (len(codes) - len(known))
    wanted = [[call for call in calls if call not in known[i]] for i in range(len(codes))]
    results: list[list[Outcome]] = pool.map(
        list(zip(codes, wanted, strict=True)),
        timeout_s=options.timeout_s,
        trace=True,
        max_steps=options.max_steps,
    )
    out: list[list[Trace | None]] = []
    for i, outcomes in enumerate(results):
        fresh = dict(zip(wanted[i], outcomes, strict=True))
        out.append([(fresh[c] if c in fresh else known[i][c]).trace for c in calls])
    return out


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


def build_problem(
    problem: Problem,
    options: BuildOptions,
    pool: SandboxPool,
    extras: ProblemExtras | None = None,
    hash_pool: SandboxPool | None = None,
) -> ProblemBuild:
    """Extend the calls, generate and verify variants, trace every (variant, call), pick probes.

    `extras` adds other implementations, verified and kept as "reimplementation" variants
    (generated calls they disagree on are dropped first), and imported probes (see
    `core_bench.build._reimplement`).

    Probes: on the original, `options.probes` per call; on an equivalent variant, first the
    original's probes asked again where the variant's trace allows (anchored), then its own
    probes up to the same count; on a mutant, its own probes only. With `hash_pool` (workers
    under another hash seed), calls and probes whose answers change with the seed are dropped
    (`_hash_stable`) and counted in `dropped`.
    """
    seed = options.problem_seed(problem.id)
    seconds: dict[str, float] = {}
    mark = time.perf_counter()
    calls, outputs, verification, known = _extend_calls(problem, options, seed, pool)
    dropped: dict[str, int] = {}
    if hash_pool is not None:
        dropped["calls.hash_unstable"] = 0
        if observes_hash_order(problem.code, calls):  # else the second seed gives the same
            calls, outputs, dropped["calls.hash_unstable"] = stable_calls(
                problem, calls, outputs, hash_pool, options.timeout_s
            )
        if not calls:
            return ProblemBuild(problem, failure=HASH_UNSTABLE, dropped=dropped)
    checked = None
    if extras is not None:
        checked = check_reimplementations(problem, calls, outputs, extras, options, pool, seed)
        disagreed = set(calls) - set(checked.calls)
        calls, outputs = checked.calls, checked.outputs
        verification = [call for call in verification if call not in disagreed]
    problem = problem.model_copy(update={"calls": calls, "outputs": outputs})
    seconds["calls"] = time.perf_counter() - mark
    mark = time.perf_counter()
    generated = generate_variants(
        problem.code,
        verification,
        k=options.variants,
        seed=seed,
        mutants=options.mutants,
        pool=pool,
        extra_calls=0,
        singles=options.singles,
        distractors=options.distractors,
        crash_mutants=options.crash_mutants,
        shipped=calls,
        known_outcomes=_finished_runs(known),
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
                family=item.family,
                single=item.single,
                renames=dict(sorted(item.provenance.renames.items())),
                line_map={k: list(v) for k, v in sorted(item.provenance.line_map.items())},
            )
        )
    seconds["variants"] = time.perf_counter() - mark
    mark = time.perf_counter()
    traced = [known] + [item.traced for item in generated]  # not traced again
    traces = _traces([v.code for v in variants], calls, options, pool, traced)
    seconds["traces"] = time.perf_counter() - mark
    if checked is not None:  # traced where `check_reimplementations` ran them
        variants, traces = variants + checked.variants, traces + checked.traces
    variants = [
        v.model_copy(update={"outputs": [traced_output(t) for t in ts]})
        for v, ts in zip(variants, traces, strict=True)
    ]
    mark = time.perf_counter()
    probes = _probes(problem, variants, traces, options, seed)
    counts: Counter[str] = Counter() if checked is None else checked.counts
    if hash_pool is not None:
        probes, dropped["probes.hash_unstable"] = _hash_checked(
            probes, variants, calls, options, hash_pool, counts
        )
    seconds["probes"] = time.perf_counter() - mark
    if checked is None:
        return ProblemBuild(
            problem, variants, probes, seconds=seconds, counts=counts, dropped=dropped
        )
    return ProblemBuild(
        problem,
        variants,
        probes + checked.probes,
        seconds=seconds,
        counts=counts,
        skipped=checked.skipped,
        dropped=dropped,
    )


def _hash_checked(
    probes: list[Probe],
    variants: list[Variant],
    calls: list[str],
    options: BuildOptions,
    hash_pool: SandboxPool,
    counts: Counter[str],
) -> tuple[list[Probe], int]:
    """The probes that hold under the second hash seed, and how many were dropped.

    Only the variants whose code (with the calls) can observe the seed (`_hash_gate`) are
    traced again; `counts` gets how many variants and problems were checked and skipped.
    """
    observed = [observes_hash_order(v.code, calls) for v in variants]
    counts["hash_check.variants_checked"] += sum(observed)
    counts["hash_check.variants_skipped"] += len(observed) - sum(observed)
    counts["hash_check.problems_checked" if any(observed) else "hash_check.problems_skipped"] += 1
    if not any(observed):
        return probes, 0
    wanted = [v.code for v, seen in zip(variants, observed, strict=True) if seen]
    traced = iter(_traces(wanted, calls, options, hash_pool))
    alt_traces = [next(traced) if seen else None for seen in observed]
    return stable_probes(probes, variants, alt_traces)


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
    # Each call's trace is indexed once, though selection and anchoring both read it.
    original_contexts = [
        None if trace is None else CallContext(original.code, trace) for trace in original_traces
    ]
    original_probes: list[list[Probe]] = [
        []
        if trace is None
        else probes_for_call(
            problem.id,
            original.id,
            original.code,
            index,
            trace,
            count=count,
            seed=seed,
            context=original_contexts[index],
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
            context = CallContext(variant.code, trace)
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
                    original_context=original_contexts[index],
                    variant_context=context,
                )[:count]
            # selection itself draws the free places: cutting a longer list would keep the
            # earliest steps (it is in step order), which favours easy, guessable probes
            own = probes_for_call(
                problem.id,
                variant.id,
                variant.code,
                index,
                trace,
                count=max(0, count - len(anchored)),
                seed=seed,
                context=context,
            )
            taken = {(p.kind, p.anchor) for p in anchored}
            fresh = [p for p in own if (p.kind, p.anchor) not in taken]
            per_call.append(anchored + fresh)
            counterparts.extend(anchored)
        chosen.append(per_call)
    flat_original = mark_anchored([p for probes in original_probes for p in probes], counterparts)
    return flat_original + [p for per_call in chosen for probes in per_call for p in probes]

"""Reimplementations as variants: other implementations of a problem, verified, traced, kept.

An implementation comes from CoRE's data (dataset code, "trusted") or from a model through
`--authors` (model text). Each is kept as an equivalent variant of family "reimplementation"
only when differential execution (`transforms.verify_equivalent`) shows it behaves like the
original on every call of the problem. Model text must also pass CoRE's filters and more
calls: cyclomatic complexity at least `MIN_CC`, token Jaccard at most `MAX_JACCARD` against
the original and every reimplementation kept before it, and equivalence on at least
`FRESH_CALLS` fresh generated calls besides the problem's own. Model text runs only in a
sandbox pool of its own, started for that one candidate and closed after it, so a worker that
ran it never runs anything else (the original runs first in that pool, before any model text);
a kept one is traced one call per fresh forked process (`untrusted=True`).

Questions imported with the data (CoRE's) stay on the variant of the implementation they were
asked of; those of an implementation that is not kept are dropped and counted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from core_bench.build._options import BuildOptions
from core_bench.datasets import Implementation, LoadedDataset
from core_bench.schemas import Probe, Problem, SkippedRow, Variant
from tracer import SandboxPool, Trace
from transforms import cyclomatic_complexity, generate_calls, jaccard, verify_equivalent

MIN_CC = 3
"""CoRE's floor on a model-written implementation's cyclomatic complexity."""

MAX_JACCARD = 0.7
"""CoRE's ceiling on token Jaccard similarity between a model-written implementation and
each implementation kept before it (the original included)."""

FRESH_CALLS = 16
"""Fresh generated calls a model-written implementation is verified on, besides the problem's."""

CHAIN = "reimplementation"
"""The chain of a reimplementation variant: one factor, applied alone."""


@dataclass(frozen=True, slots=True)
class ProblemExtras:
    """What a dataset or the authors add to one problem besides its own code.

    Attributes:
        implementations: other implementations to verify and keep as variants, in order.
        probes: imported questions (kind "imported"), each on the original or on the variant
            of one of `implementations`, with `call_index` into the problem's calls.
    """

    implementations: tuple[Implementation, ...] = ()
    probes: tuple[Probe, ...] = ()


@dataclass(slots=True)
class Checked:
    """What `check_reimplementations` decided for one problem.

    Attributes:
        calls: the problem's calls from here on: the dataset's, then the generated ones on
            which every kept dataset implementation agrees with the original.
        outputs: their outputs, in the same order.
        variants: the kept reimplementations, as variants.
        traces: their traces, one per call of `calls`.
        probes: the imported probes of the original and of kept reimplementations.
        counts: tallies for the manifest (checked, kept and rejected per source, dropped
            calls and questions).
        skipped: an entry per dataset implementation left out, with the reason.
    """

    calls: list[str]
    outputs: list[str]
    variants: list[Variant] = field(default_factory=list)
    traces: list[list[Trace | None]] = field(default_factory=list)
    probes: list[Probe] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    skipped: list[SkippedRow] = field(default_factory=list)


def source_of(implementation: Implementation) -> str:
    """The key its counts go under: "reimplementations.core-qa", "authors.openai:<model>"."""
    if implementation.trusted:
        return "reimplementations." + implementation.origin.split(":", 1)[0]
    return "authors." + implementation.origin


def traced_outputs(traces: Sequence[Trace | None]) -> list[str]:
    """The result repr per call as traced ("!ExceptionType" for a raised exception)."""
    outputs = []
    for trace in traces:
        if trace is None:
            outputs.append("!NoTrace")
        elif trace.exception is not None:
            outputs.append("!" + trace.exception.split(":", 1)[0].strip())
        else:
            outputs.append(trace.result or "None")
    return outputs


def check_reimplementations(
    problem: Problem,
    calls: list[str],
    outputs: list[str],
    extras: ProblemExtras,
    options: BuildOptions,
    pool: SandboxPool,
    seed: int,
) -> Checked:
    """Verify each implementation of `extras` against the problem's original.

    A dataset implementation must agree with the original on every call of the dataset;
    a generated call on which it does not (an input outside the task's domain, where
    independent solutions may differ) is dropped from the problem, so that every kept
    implementation is equivalent on every call the benchmark ships. Model text must agree on
    every call, plus fresh ones, and pass CoRE's filters (module docstring). Dataset
    implementations are checked first, so model text is held to the final calls.

    Args:
        problem: the problem as the dataset gave it (`problem.calls` are the dataset's).
        calls: its calls so far: the dataset's, then generated ones.
        outputs: their outputs.
        extras: the implementations and imported probes of this problem.
        options: the build's options (timeouts, step limits).
        pool: the build's sandbox pool (runs the original and dataset code, never model text).
        seed: the problem's seed (fresh calls for model text derive from it).
    """
    checked = Checked(list(calls), list(outputs))
    own = len(problem.calls)
    trusted = [i for i in extras.implementations if i.trusted]
    authored = [i for i in extras.implementations if not i.trusted]
    kept: list[Implementation] = []
    for implementation in trusted:
        checked.counts[f"{source_of(implementation)}.checked"] += 1
        reason = _agree_on_dataset_calls(problem, implementation, checked, own, options, pool)
        if reason is not None:
            _reject(checked, implementation, implementation.variant_id, reason)
            continue
        checked.counts[f"{source_of(implementation)}.kept"] += 1
        kept.append(implementation)
    numbers = [_number(i.variant_id) for i in trusted]
    next_number = max(numbers, default=0) + 1
    siblings = [problem.code, *(i.code for i in kept)]
    for implementation in kept:
        # Verified on a superset of the final calls, on each of which the original returns.
        traces = _trace(implementation.code, checked.calls, options, pool)
        verified = len(checked.calls)
        _keep(checked, problem, implementation, implementation.variant_id, verified, traces)
    fresh: list[str] | None = None
    for implementation in authored:
        checked.counts[f"{source_of(implementation)}.checked"] += 1
        if fresh is None:
            fresh = _fresh_calls(problem.code, checked.calls, options, pool, seed)
        variant_id = f"{problem.id}:re{next_number}"
        reason, verified, traces = _check_authored(
            problem.code, checked.calls, implementation, siblings, fresh, options
        )
        if reason is not None:
            _reject(checked, implementation, variant_id, reason)
            continue
        next_number += 1
        checked.counts[f"{source_of(implementation)}.kept"] += 1
        siblings.append(implementation.code)
        _keep(checked, problem, implementation, variant_id, verified, traces)
    kept_ids = {f"{problem.id}:original", *(v.id for v in checked.variants)}
    for probe in extras.probes:
        if probe.variant_id in kept_ids and probe.call_index < own:
            checked.probes.append(probe)
        else:
            checked.counts["probes.imported.dropped"] += 1
    return checked


def _number(variant_id: str) -> int:
    tail = variant_id.rsplit(":re", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def _reject(
    checked: Checked, implementation: Implementation, variant_id: str, reason: tuple[str, str]
) -> None:
    checked.counts[f"{source_of(implementation)}.rejected.{reason[0]}"] += 1
    if implementation.trusted:
        checked.skipped.append(
            SkippedRow(
                file=implementation.file or implementation.origin,
                line=implementation.line,
                id=implementation.origin.split(":", 1)[-1],
                reason=f"implementation {variant_id} left out: {reason[1]}",
            )
        )


def _keep(
    checked: Checked,
    problem: Problem,
    implementation: Implementation,
    variant_id: str,
    verified: int,
    traces: list[Trace | None],
) -> None:
    checked.variants.append(
        Variant(
            id=variant_id,
            problem_id=problem.id,
            kind="equivalent",
            code=implementation.code,
            chain=[CHAIN],
            jaccard=round(jaccard(problem.code, implementation.code), 4),
            cc=cyclomatic_complexity(implementation.code),
            verified_calls=verified,
            family="reimplementation",
            single=True,
            outputs=traced_outputs(traces),
            origin=implementation.origin,
        )
    )
    checked.traces.append(traces)


def _agree_on_dataset_calls(
    problem: Problem,
    implementation: Implementation,
    checked: Checked,
    own: int,
    options: BuildOptions,
    pool: SandboxPool,
) -> tuple[str, str] | None:
    """Verify on the current calls; a generated call that differs is dropped and the check
    repeated; a dataset call that differs rejects the implementation.

    A call on which only the final state of the arguments differs (the same value returned,
    the arguments consumed another way) does not: no task of the benchmark observes argument
    state, and independent solutions of one task may well mutate their inputs differently.
    Such calls are counted (`<source>.argument_state_differs`).
    """
    compared = list(checked.calls)
    while True:
        result = verify_equivalent(
            problem.code,
            implementation.code,
            compared,
            pool=pool,
            timeout_s=options.timeout_s,
            max_steps=options.max_steps,
        )
        if result.kept or (result.reason == "no comparable calls" and not compared):
            return None
        call = result.differing_call
        if call is not None and result.reason == "differs: argument state":
            # The return value was compared first and agreed.
            compared.remove(call)
            checked.counts[f"{source_of(implementation)}.argument_state_differs"] += 1
            if not compared:
                return None
            continue
        if call is None or call not in checked.calls[own:]:
            return _not_equivalent(result.reason, call, result.detail)
        compared.remove(call)
        index = checked.calls.index(call, own)
        del checked.calls[index], checked.outputs[index]
        checked.counts["calls.dropped_by_reimplementations"] += 1


def _check_authored(
    original: str,
    calls: list[str],
    implementation: Implementation,
    siblings: list[str],
    fresh: list[str],
    options: BuildOptions,
) -> tuple[tuple[str, str] | None, int, list[Trace | None]]:
    """CoRE's filters, then verification on `calls` and `fresh`, in a pool of its own."""
    code = implementation.code
    cc = cyclomatic_complexity(code)
    if cc < MIN_CC:
        return ("cc_below_min", f"cyclomatic complexity {cc} < {MIN_CC}"), 0, []
    closest = max(jaccard(sibling, code) for sibling in siblings)
    if closest > MAX_JACCARD:
        why = f"token Jaccard {closest:.2f} > {MAX_JACCARD} against a kept implementation"
        return ("too_similar", why), 0, []
    if len(fresh) < FRESH_CALLS:
        why = f"only {len(fresh)} fresh calls could be generated (at least {FRESH_CALLS})"
        return ("too_few_fresh_calls", why), 0, []
    # A pool of its own: its worker runs the original first, then this model text, then
    # nothing else.
    with SandboxPool(workers=1) as own:
        result = verify_equivalent(
            original,
            code,
            [*calls, *fresh],
            pool=own,
            timeout_s=options.timeout_s,
            max_steps=options.max_steps,
        )
        if not result.kept:
            return _not_equivalent(result.reason, result.differing_call, result.detail), 0, []
        # Traced one call per fresh forked process (the sandbox's lane for model text).
        return None, result.calls, _trace(code, calls, options, own, untrusted=True)


def _not_equivalent(reason: str, call: str | None, detail: str | None) -> tuple[str, str]:
    key = "does_not_compile" if reason == "does not compile" else "not_equivalent"
    where = f" on {call}" if call else ""
    return key, f"{reason}{where}" + (f" ({detail})" if detail else "")


def _fresh_calls(
    original: str, calls: list[str], options: BuildOptions, pool: SandboxPool, seed: int
) -> list[str]:
    """Calls generated afresh (another seed than the shipped calls'), run on the original
    only, so model text is verified on inputs its author did not see."""
    made = generate_calls(
        original,
        calls,
        n=FRESH_CALLS,
        seed=seed ^ 0x5EED,
        pool=pool,
        timeout_s=options.timeout_s,
        max_steps=options.max_steps,
    )
    shipped = set(calls)
    return [c for c in made[len(calls) :] if c not in shipped]


def _trace(
    code: str,
    calls: list[str],
    options: BuildOptions,
    pool: SandboxPool,
    *,
    untrusted: bool = False,
) -> list[Trace | None]:
    outcomes = pool.run_batch(
        code,
        calls,
        timeout_s=options.timeout_s,
        trace=True,
        max_steps=options.max_steps,
        untrusted=untrusted,
    )
    return [outcome.trace for outcome in outcomes]


def extras_of(loaded: LoadedDataset) -> dict[str, ProblemExtras]:
    """Per problem id, the other implementations and imported probes a dataset gave."""
    probes: dict[str, list[Probe]] = {}
    for probe in loaded.probes:
        probes.setdefault(probe.problem_id, []).append(probe)
    ids = set(loaded.implementations) | set(probes)
    return {
        pid: ProblemExtras(tuple(loaded.implementations.get(pid, ())), tuple(probes.get(pid, ())))
        for pid in sorted(ids)
    }


def with_authored(
    extras: dict[str, ProblemExtras], authored: dict[str, list[Implementation]]
) -> dict[str, ProblemExtras]:
    """`extras` with the authors' candidates added after each problem's own implementations."""
    merged = dict(extras)
    for problem_id, candidates in authored.items():
        base = merged.get(problem_id, ProblemExtras())
        merged[problem_id] = ProblemExtras((*base.implementations, *candidates), base.probes)
    return merged

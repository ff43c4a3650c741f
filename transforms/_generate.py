"""Variant generation: chains of transforms, verified against the original by execution.

`generate_variants` builds candidate variants by applying chains of transforms, runs every
candidate on every verification call (the problem's calls plus calls from `generate_calls`),
keeps the equivalent ones, and picks the `k` most diverse of them.

Equivalence on one call (`compare_outcomes`), against the original's outcome:

- The original returned: the variant returns too, with an equal value, and leaves every
  argument in an equal state (in-place mutation is part of behaviour), and prints the same
  standard output.
- The original raised: the variant raises an exception of the same type (messages may differ:
  they often quote values a transform renames), with equal argument states and output.
- The original did not finish (timeout, memory, crash): the call says nothing and is skipped;
  it is not counted in `verified_calls`.

"Equal value" is decided on reprs: identical reprs are equal; otherwise both reprs must read
back with `ast.literal_eval` and the values must be equal with the same type at every level
(so ``1`` and ``1.0`` and ``True`` differ, lists and tuples differ, dicts compare in order
since their order is observable) except that sets (and frozensets) ignore order, because a set's
iteration order is not part of its value. Comparing only `==` of values would accept
``True`` for ``1``; comparing only reprs would reject a set built in another order.

Mutants are kept only when they finish on every call and differ from the original on at least
one; those that differ on the problem's own calls are preferred, as those are the calls a
model is asked about.

Everything is deterministic from `seed`: the same code, calls and seed give the same variants,
byte for byte.
"""

from __future__ import annotations

import ast
import itertools
import multiprocessing
import os
import random
import re
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal

from tracer import Outcome, SandboxPool
from transforms._base import (
    Provenance,
    Transform,
    TransformResult,
    all_transforms,
    apply_transform,
    compose_provenance,
)
from transforms._inputs import generate_calls
from transforms._metrics import cyclomatic_complexity, tokens

__all__ = [
    "GenerationReport",
    "Problem",
    "Variant",
    "VerificationResult",
    "compare_outcomes",
    "generate_variants",
    "generate_variants_many",
    "generate_variants_report",
    "same_repr",
    "verify_equivalent",
]

VariantKind = Literal["equivalent", "mutant"]

_FINISHED = frozenset({"ok", "exception"})
_KWARG = re.compile(r"^([A-Za-z_]\w*)=(.*)$", re.DOTALL)
_SHARED_TRANSFORM_PENALTY = 0.1
_MUTUAL_WEIGHT = 0.5
_MUTANT_STEP_FACTOR = 3
# Structural transforms found applicable beyond what one chain holds, to rank by impact.
_SPARE_APPLICABLE = 5
_MUTANT_STEP_SLACK = 100


@dataclass(slots=True)
class Variant:
    """A verified variant of a problem's code.

    Attributes:
        code: The variant's source.
        kind: "equivalent" (same behaviour on every call) or "mutant" (differs on some call).
        chain: Names of the transforms applied, in order.
        jaccard: Token 1-gram Jaccard similarity to the original.
        cc: Cyclomatic complexity of the variant (see `transforms._metrics`).
        verified_calls: How many calls were compared with the original.
        provenance: Renames and line map from the original to this variant.
        differing_calls: For a mutant, the calls on which it differs; empty for equivalents.
    """

    code: str
    kind: VariantKind
    chain: list[str]
    jaccard: float
    cc: int
    verified_calls: int
    provenance: Provenance
    differing_calls: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class VerificationResult:
    """Whether a candidate behaves like the original on every call, and if not, where not.

    Attributes:
        kept: True when the candidate is equivalent on every compared call.
        reason: "equivalent", or why not: "does not compile", "differs: return value",
            "differs: exception", "differs: argument state", "differs: stdout",
            "differs: status" (one finished, the other did not, or one raised and the other
            returned), "no comparable calls".
        calls: How many calls were compared (calls where the original did not finish are not).
        differing_call: The first call that showed a difference, or None.
        detail: What differed on that call, e.g. "original returned 3, variant returned 4".
    """

    kept: bool
    reason: str
    calls: int
    differing_call: str | None = None
    detail: str | None = None


@dataclass(slots=True)
class GenerationReport:
    """Variants plus what it took to get them (for benchmarks and data-quality reports).

    Attributes:
        variants: The selected variants, equivalents first, then mutants.
        calls: The verification calls (the problem's calls first).
        candidates: How many distinct candidates were verified.
        verified: How many candidates were verified equivalent.
        rejected: Rejected equivalent candidates by `VerificationResult.reason`, plus
            "does not compile" and "transform error: <name>" counts from building.
        transform_s: Seconds spent building candidates (LibCST) and measuring them.
        execute_s: Seconds spent waiting for the sandbox.
    """

    variants: list[Variant]
    calls: list[str]
    candidates: int = 0
    verified: int = 0
    rejected: Counter[str] = field(default_factory=Counter)
    transform_s: float = 0.0
    execute_s: float = 0.0


@dataclass(slots=True)
class _Candidate:
    code: str
    kind: VariantKind
    chain: list[str]
    provenance: Provenance
    token_set: frozenset[str]
    jaccard: float


@dataclass(slots=True)
class _Limits:
    timeout_s: float
    memory_mb: int
    max_steps: int


# ---------------------------------------------------------------------------------------------
# Comparing outcomes


def _exception_type(text: str | None) -> str:
    return (text or "").split(":", 1)[0].strip()


def _strict_equal(a: Any, b: Any) -> bool:
    """Equality with the same type at every level; sets ignore order, dicts do not."""
    return _canonical(a) == _canonical(b)


def _canonical(value: Any) -> Any:
    """A comparable form of a literal value that keeps types and dict order, not set order."""
    t = type(value)
    if t in (list, tuple):
        return (t.__name__, tuple(_canonical(v) for v in value))
    if t is dict:
        return ("dict", tuple((_canonical(k), _canonical(v)) for k, v in value.items()))
    if t in (set, frozenset):
        return (t.__name__, tuple(sorted((_canonical(v) for v in value), key=repr)))
    if t is float and value != value:  # NaN: same behaviour when both are NaN
        return ("float", "nan")
    return (t.__name__, value)


def same_repr(a: str | None, b: str | None) -> bool:
    """Whether two reprs show equal values (the rule is in the module docstring).

    Args:
        a: One repr (or None).
        b: The other.

    Returns:
        True when the reprs are identical or both read back as strictly equal literals.
    """
    if a == b:
        return True
    if a is None or b is None:
        return False
    try:
        value_a = ast.literal_eval(a)
        value_b = ast.literal_eval(b)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return _strict_equal(value_a, value_b)


def _same_argument(a: str, b: str) -> bool:
    if a == b:
        return True
    match_a, match_b = _KWARG.match(a), _KWARG.match(b)
    if match_a and match_b:
        return match_a[1] == match_b[1] and same_repr(match_a[2], match_b[2])
    return same_repr(a, b)


def compare_outcomes(original: Outcome, variant: Outcome) -> tuple[str, str] | None:
    """The difference between two outcomes of the same call, or None when they agree.

    Args:
        original: The original's outcome; it must have finished ("ok" or "exception").
        variant: The candidate's outcome.

    Returns:
        None when equivalent on this call, else (reason, detail), with reason one of the
        `VerificationResult.reason` values.
    """
    if original.status != variant.status:
        what = variant.exception if variant.status == "exception" else variant.status
        return "differs: status", f"original: {original.status}, variant: {what}"
    if original.status == "ok" and not same_repr(original.result, variant.result):
        return "differs: return value", (
            f"original returned {original.result}, variant returned {variant.result}"
        )
    if original.status == "exception":
        expected, got = _exception_type(original.exception), _exception_type(variant.exception)
        if expected != got:
            return "differs: exception", f"original raised {expected}, variant raised {got}"
    before, after = list(original.args_after or []), list(variant.args_after or [])
    if len(before) != len(after) or not all(map(_same_argument, before, after)):
        return "differs: argument state", f"original left {before}, variant left {after}"
    if (original.stdout or "") != (variant.stdout or ""):
        return "differs: stdout", f"original printed {original.stdout!r}, variant printed " + (
            f"{variant.stdout!r}"
        )
    return None


def _verdict(
    reference: Sequence[Outcome], outcomes: Sequence[Outcome], calls: Sequence[str]
) -> tuple[VerificationResult, list[str]]:
    """Compare on every call: the verdict and every call that differs."""
    compared = 0
    first: tuple[str, str, str] | None = None
    differing: list[str] = []
    for call, ref, out in zip(calls, reference, outcomes, strict=True):
        if ref.status not in _FINISHED:
            continue
        compared += 1
        difference = compare_outcomes(ref, out)
        if difference is not None:
            differing.append(call)
            if first is None:
                first = (difference[0], call, difference[1])
    if first is not None:
        reason, call, detail = first
        return VerificationResult(False, reason, compared, call, detail), differing
    if compared == 0:
        return VerificationResult(False, "no comparable calls", 0), differing
    return VerificationResult(True, "equivalent", compared), differing


def _compiles(code: str) -> bool:
    try:
        compile(code, "<variant>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


def verify_equivalent(
    original: str,
    variant: str,
    calls: Sequence[str],
    *,
    pool: SandboxPool | None = None,
    timeout_s: float = 2.0,
    memory_mb: int = 512,
    max_steps: int = 10_000,
) -> VerificationResult:
    """Check by execution that `variant` behaves like `original` on every call.

    Args:
        original: The original code.
        variant: The candidate code.
        calls: Call expressions to compare on, e.g. ``["f([1, 2])"]``.
        pool: The sandbox pool to run in; a temporary one is made when None.
        timeout_s: Wall-clock limit per call.
        memory_mb: Memory limit of the worker.
        max_steps: Passed to the sandbox; verification runs untraced, where only
            `timeout_s` bounds a call.

    Returns:
        The verdict, naming the first differing call when there is one.
    """
    if not _compiles(variant):
        return VerificationResult(False, "does not compile", 0)
    if pool is None:
        with SandboxPool(workers=1) as own:
            return verify_equivalent(
                original,
                variant,
                calls,
                pool=own,
                timeout_s=timeout_s,
                memory_mb=memory_mb,
                max_steps=max_steps,
            )
    limits = _Limits(timeout_s, memory_mb, max_steps)
    reference, outcomes = _run_many(pool, [original, variant], list(calls), limits)
    return _verdict(reference, outcomes, list(calls))[0]


def _run_many(
    pool: SandboxPool,
    codes: Sequence[str],
    calls: list[str],
    limits: _Limits,
    *,
    trace: bool = False,
) -> list[list[Outcome]]:
    """Every code on every call, one batch per code, batches run concurrently.

    A batch with a "crashed" outcome is run once more: a crash is far more likely trouble of
    the worker than of the code (transforms do not add `os._exit`), and keeping it would make
    the result depend on luck.
    """
    if not codes:
        return []

    def run(selected: Sequence[str]) -> list[list[Outcome]]:
        return pool.map(
            [(code, calls) for code in selected],
            timeout_s=limits.timeout_s,
            memory_mb=limits.memory_mb,
            trace=trace,
            max_steps=limits.max_steps,
        )

    outcomes = run(codes)
    retry = [i for i, batch in enumerate(outcomes) if any(o.status == "crashed" for o in batch)]
    if retry:
        for i, batch in zip(retry, run([codes[i] for i in retry]), strict=True):
            outcomes[i] = batch
    return outcomes


# ---------------------------------------------------------------------------------------------
# Building candidates


def _is_rename(transform: type[Transform]) -> bool:
    return "rename" in transform.name


class _Builder:
    """Builds distinct, compiling candidates for one problem.

    Applying a transform costs milliseconds of LibCST work (parsing, metadata), so results
    are memoised by (input code, transform, salt): chains that share a prefix share its work,
    and a transform's seed is derived from exactly that key, which keeps memoised and fresh
    results identical (determinism does not depend on what was computed before).
    """

    def __init__(self, code: str, seed: int, rejected: Counter[str]) -> None:
        self.code = code
        self.seed = seed
        self.rejected = rejected
        self.original_tokens = frozenset(tokens(code))
        self.seen: set[tuple[str, ...]] = {tuple(tokens(code))}
        self._memo: dict[tuple[str, str, int], TransformResult | None] = {}
        self._classes = {t.name: t for t in all_transforms()}

    def apply(self, code: str, name: str, salt: int) -> TransformResult | None:
        """One transform applied to `code`; None when it declines, fails or changes nothing."""
        key = (code, name, salt)
        if key not in self._memo:
            step_seed = zlib.crc32(f"{self.seed}:{salt}:{name}:{code}".encode())
            try:
                result = apply_transform(self._classes[name], code, seed=step_seed)
            except Exception:  # a transform bug must not stop the whole build
                self.rejected[f"transform error: {name}"] += 1
                result = None
            self._memo[key] = result if result is None or result.code != code else None
        return self._memo[key]

    def run_chain(
        self, chain: Sequence[str], salt: int
    ) -> tuple[str, list[str], Provenance] | None:
        """Apply a chain; steps that do not apply are left out of the resulting chain."""
        current = self.code
        applied: list[str] = []
        provenance: Provenance | None = None
        for name in chain:
            result = self.apply(current, name, salt)
            if result is None:
                continue
            current = result.code
            applied.append(name)
            provenance = (
                result.provenance
                if provenance is None
                else compose_provenance(provenance, result.provenance)
            )
        if provenance is None:
            return None
        return current, applied, provenance

    def build(
        self, chains: Sequence[Sequence[str]], kind: VariantKind, salt: int
    ) -> list[_Candidate]:
        """Candidates from chains, skipping those that change nothing, repeat an earlier
        candidate's tokens, or do not compile."""
        out: list[_Candidate] = []
        for chain in chains:
            built = self.run_chain(chain, salt)
            if built is None:
                continue
            key = tuple(tokens(built[0]))
            if key in self.seen:
                continue
            self.seen.add(key)
            if not _compiles(built[0]):
                self.rejected["does not compile"] += 1
                continue
            code, chain, provenance = built
            token_set = frozenset(key)
            similarity = _set_jaccard(self.original_tokens, token_set)
            out.append(_Candidate(code, kind, chain, provenance, token_set, similarity))
        return out


def _equivalent_chains(
    builder: _Builder, rng: random.Random, salt: int, max_chain: int, count: int
) -> list[list[str]]:
    """The chains of one round: up to `count` chains, structural transforms first and a
    renaming last, so that names a structural transform introduces are renamed too and every
    chain gets the renaming's drop in Jaccard.

    Which transforms apply is found lazily: structural transforms are tried on the original in
    a shuffled order until `_SPARE_APPLICABLE` more than a chain can hold apply (trying all of
    them on every problem would cost LibCST time for little gain). The applicable ones are
    ranked by how much they change the surface alone (lowest Jaccard first), which is what
    brings the mean Jaccard of the chains down. Chains then take every ordering of
    `max_chain - 1` of them, best-ranked first and interleaved so that consecutive chains start
    with different transforms, each followed by the next renaming of a shuffled order; when
    those run out, shorter heads follow, down to renamings alone.
    """
    equivalent = all_transforms("equivalent")
    renames = [t.name for t in equivalent if _is_rename(t)]
    structural = [t.name for t in equivalent if not _is_rename(t)]
    rng.shuffle(renames)
    rng.shuffle(structural)
    wanted = max_chain - 1 if renames else max_chain
    found: list[tuple[float, int, str]] = []
    for i, name in enumerate(structural):
        if len(found) >= wanted + _SPARE_APPLICABLE:
            break
        result = builder.apply(builder.code, name, salt)
        if result is not None:
            similarity = _set_jaccard(builder.original_tokens, frozenset(tokens(result.code)))
            found.append((similarity, i, name))
    applicable = [name for _, _, name in sorted(found)]
    chains: list[list[str]] = []
    for i, head in enumerate(_heads(applicable, wanted, len(renames))):
        if len(chains) >= count:
            break
        chain = [*head, renames[i % len(renames)]] if renames else list(head)
        if chain and chain not in chains:
            chains.append(chain)
    return chains


def _heads(applicable: Sequence[str], longest: int, renames: int) -> Iterator[tuple[str, ...]]:
    """Orderings of the applicable transforms, longest first, consecutive ones starting
    differently; the empty head once per renaming at the end."""
    for size in range(min(longest, len(applicable)), 0, -1):
        by_first: dict[str, list[tuple[str, ...]]] = {}
        for perm in itertools.permutations(applicable, size):
            by_first.setdefault(perm[0], []).append(perm)
        for group in itertools.zip_longest(*by_first.values()):
            yield from (perm for perm in group if perm is not None)
    for _ in range(max(renames, 1)):
        yield ()


def _set_jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    union = a | b
    return len(a & b) / len(union) if union else 1.0


def _select_diverse(candidates: Sequence[_Candidate], k: int) -> list[_Candidate]:
    """Greedy: each pick minimises Jaccard to the original plus the highest Jaccard to a pick
    already made, plus a small penalty for reusing transforms already picked (so the selected
    variants spread over transforms, which per-transform analyses need)."""
    remaining = list(candidates)
    selected: list[_Candidate] = []
    used: set[str] = set()
    while remaining and len(selected) < k:

        def score(c: _Candidate) -> float:
            nearest = max((_set_jaccard(c.token_set, s.token_set) for s in selected), default=0)
            reuse = sum(name in used for name in c.chain) / len(c.chain)
            return c.jaccard + _MUTUAL_WEIGHT * nearest + _SHARED_TRANSFORM_PENALTY * reuse

        best = min(remaining, key=score)  # min keeps the first of equal scores: deterministic
        remaining.remove(best)
        selected.append(best)
        used.update(best.chain)
    return selected


def _to_variant(c: _Candidate, verified: int, differing: Sequence[str] = ()) -> Variant:
    return Variant(
        code=c.code,
        kind=c.kind,
        chain=list(c.chain),
        jaccard=c.jaccard,
        cc=cyclomatic_complexity(c.code),
        verified_calls=verified,
        provenance=c.provenance,
        differing_calls=list(differing),
    )


# ---------------------------------------------------------------------------------------------
# The entry points


def generate_variants(
    code: str,
    calls: Sequence[str],
    *,
    k: int = 4,
    seed: int = 0,
    mutants: int = 0,
    pool: SandboxPool | None = None,
    extra_calls: int = 8,
    max_chain: int = 3,
) -> list[Variant]:
    """Up to `k` verified equivalent variants of `code` (and up to `mutants` mutants).

    See `generate_variants_report`, which this calls, for the arguments and the procedure.

    Returns:
        Equivalent variants (most diverse first), then mutants.
    """
    report = generate_variants_report(
        code,
        calls,
        k=k,
        seed=seed,
        mutants=mutants,
        pool=pool,
        extra_calls=extra_calls,
        max_chain=max_chain,
    )
    return report.variants


def generate_variants_report(
    code: str,
    calls: Sequence[str],
    *,
    k: int = 4,
    seed: int = 0,
    mutants: int = 0,
    pool: SandboxPool | None = None,
    extra_calls: int = 8,
    max_chain: int = 3,
    candidates: int = 5,
    rounds: int = 2,
    timeout_s: float = 2.0,
    memory_mb: int = 512,
    max_steps: int = 10_000,
) -> GenerationReport:
    """Generate, verify and select variants, and report what it took.

    Procedure: (1) extend `calls` with `extra_calls` generated calls (`generate_calls`) and
    run the original on all of them once; (2) build `candidates` candidates from chains of
    equivalent transforms (`_equivalent_chains`: structural transforms that apply, then a
    renaming; distinct first transforms where possible; lengths up to `max_chain`); (3) run
    every candidate on every call (one sandbox batch per candidate, batches concurrently over
    the pool's workers) and keep those equivalent on every call; (4) while fewer than `k`
    are equivalent, repeat (2)-(3) with fresh seeds, for up to `rounds` rounds; (5) greedily
    pick the `k` most diverse (`_select_diverse`); (6) if `mutants`, try mutant transforms on
    the original a few at a time, run them traced under a step budget (so a mutant that loops
    stops deterministically rather than at a timeout) and keep up to `mutants` that finish on
    every call and differ on some.

    Args:
        code: The original code.
        calls: The problem's calls, e.g. ``["f([1, 2], 3)"]``.
        k: How many equivalent variants to return (fewer when fewer verify).
        seed: Random seed; the same inputs and seed give byte-identical variants.
        mutants: How many mutants to return (0 for none).
        pool: The sandbox pool; a temporary one is made when None.
        extra_calls: How many generated calls to add to `calls` for verification.
        max_chain: Longest transform chain.
        candidates: Candidates built in each round (at least `k`; more gives more diverse
            variants at the cost of LibCST time).
        rounds: Rounds of candidate building.
        timeout_s: Wall-clock limit per call.
        memory_mb: Memory limit of a worker.
        max_steps: Step limit per traced call (generated calls, mutants).

    Returns:
        The variants and the generation statistics.
    """
    if pool is None:
        with SandboxPool(workers=2) as own:
            return generate_variants_report(
                code,
                calls,
                k=k,
                seed=seed,
                mutants=mutants,
                pool=own,
                extra_calls=extra_calls,
                max_chain=max_chain,
                candidates=candidates,
                rounds=rounds,
                timeout_s=timeout_s,
                memory_mb=memory_mb,
                max_steps=max_steps,
            )
    limits = _Limits(timeout_s, memory_mb, max_steps)
    clock = time.perf_counter()
    verification_calls = generate_calls(
        code,
        calls,
        n=extra_calls,
        seed=seed,
        pool=pool,
        timeout_s=timeout_s,
        memory_mb=memory_mb,
        max_steps=max_steps,
    )
    (reference,) = _run_many(pool, [code], verification_calls, limits)
    report = GenerationReport(variants=[], calls=verification_calls)
    report.execute_s += time.perf_counter() - clock

    builder = _Builder(code, seed, report.rejected)
    plan = _Plan(k, max_chain, rounds, max(k, candidates))
    chosen = _equivalents(builder, reference, report, limits, pool, plan)
    clock = time.perf_counter()
    report.variants = [_to_variant(c, n) for c, n in chosen]
    report.transform_s += time.perf_counter() - clock
    if mutants > 0:
        report.variants.extend(_mutants(builder, report, limits, pool, mutants, calls))
    return report


@dataclass(frozen=True, slots=True)
class _Plan:
    k: int
    max_chain: int
    rounds: int
    per_round: int


def _equivalents(
    builder: _Builder,
    reference: Sequence[Outcome],
    report: GenerationReport,
    limits: _Limits,
    pool: SandboxPool,
    plan: _Plan,
) -> list[tuple[_Candidate, int]]:
    verified: list[tuple[_Candidate, int]] = []
    for salt in range(plan.rounds):
        if len(verified) >= plan.k:
            break
        clock = time.perf_counter()
        rng = random.Random(f"core-bench-chains:{builder.seed}:{salt}:{builder.code}")
        chains = _equivalent_chains(builder, rng, salt, plan.max_chain, plan.per_round)
        candidates = builder.build(chains, "equivalent", salt)
        report.transform_s += time.perf_counter() - clock
        clock = time.perf_counter()
        outcomes = _run_many(pool, [c.code for c in candidates], report.calls, limits)
        report.execute_s += time.perf_counter() - clock
        report.candidates += len(candidates)
        for candidate, result in zip(candidates, outcomes, strict=True):
            verdict = _verdict(reference, result, report.calls)[0]
            if verdict.kept:
                verified.append((candidate, verdict.calls))
            else:
                report.rejected[verdict.reason] += 1
    report.verified = len(verified)
    clock = time.perf_counter()
    calls_of = {id(c): n for c, n in verified}
    chosen = _select_diverse([c for c, _ in verified], plan.k)
    report.transform_s += time.perf_counter() - clock
    return [(c, calls_of[id(c)]) for c in chosen]


def _mutants(
    builder: _Builder,
    report: GenerationReport,
    limits: _Limits,
    pool: SandboxPool,
    wanted: int,
    own_calls: Sequence[str],
) -> list[Variant]:
    """Mutants that finish on every call and differ on some, tried in a seeded order a few at
    a time until `wanted` are found; within a group, those that differ on the problem's own
    calls come first."""
    names = [t.name for t in all_transforms("mutant")]
    random.Random(f"core-bench-mutants:{builder.seed}:{builder.code}").shuffle(names)
    clock = time.perf_counter()
    (reference,) = _run_many(pool, [builder.code], report.calls, limits, trace=True)
    report.execute_s += time.perf_counter() - clock
    # A mutant that loops is stopped at a step budget relative to the original's longest
    # call, not at `max_steps`: tracing thousands of steps of a runaway loop is what would
    # cost time, and a mutant that runs far longer than its original is a poor control anyway.
    longest = max((len(o.trace.steps) for o in reference if o.trace is not None), default=0)
    budget = min(limits.max_steps, _MUTANT_STEP_FACTOR * longest + _MUTANT_STEP_SLACK)
    mutant_limits = _Limits(limits.timeout_s, limits.memory_mb, budget)
    own = set(own_calls)
    out: list[Variant] = []
    start = 0
    while len(out) < wanted and start < len(names):
        group = names[start : start + wanted - len(out) + 1]
        start += len(group)
        clock = time.perf_counter()
        candidates = builder.build([[name] for name in group], "mutant", 0)
        report.transform_s += time.perf_counter() - clock
        clock = time.perf_counter()
        codes = [c.code for c in candidates]
        outcomes = _run_many(pool, codes, report.calls, mutant_limits, trace=True)
        report.execute_s += time.perf_counter() - clock
        ranked: list[tuple[bool, int, Variant]] = []
        for i, (candidate, result) in enumerate(zip(candidates, outcomes, strict=True)):
            if not all(_finished(o) for o in result):
                continue
            verdict, differing = _verdict(reference, result, report.calls)
            if verdict.kept or not differing:
                continue
            shows_on_own = any(call in own for call in differing)
            variant = _to_variant(candidate, verdict.calls, differing)
            ranked.append((not shows_on_own, i, variant))
        ranked.sort(key=lambda r: (r[0], r[1]))
        out.extend(variant for _, _, variant in ranked[: wanted - len(out)])
    return out


def _finished(outcome: Outcome) -> bool:
    """Whether a (traced) call ran to its end: returned or raised within the step limit."""
    if outcome.status not in _FINISHED:
        return False
    return outcome.trace is None or not outcome.trace.truncated


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem to generate variants for: its code and its calls."""

    code: str
    calls: tuple[str, ...]


def generate_variants_many(
    problems: Sequence[Problem],
    *,
    processes: int | None = None,
    workers_per_process: int = 1,
    chunk_size: int | None = None,
    progress: Callable[[int], None] | None = None,
    **options: Any,
) -> list[GenerationReport]:
    """`generate_variants_report` for many problems, spread over processes.

    Building candidates is CPU-bound Python (LibCST), so one process cannot use more than one
    core however many sandbox workers it has; this runs chunks of problems in separate
    processes, each with its own sandbox pool. Results do not depend on the number of
    processes or the chunking: every problem is generated from its own code, calls and seed.

    Args:
        problems: The problems, in order.
        processes: Worker processes (default: the number of CPUs); 1 runs in this process.
        workers_per_process: Sandbox workers per process.
        chunk_size: Problems per task (default: enough for about four tasks per process).
        progress: Called in this process with the number of problems finished so far.
        **options: Keyword arguments of `generate_variants_report` (not `pool`).

    Returns:
        One report per problem, in order.
    """
    count = processes or os.cpu_count() or 1
    if chunk_size is None:
        chunk_size = max(1, -(-len(problems) // (count * 4)))
    chunks = [list(problems[i : i + chunk_size]) for i in range(0, len(problems), chunk_size)]
    reports: list[GenerationReport] = []
    if count == 1 or len(chunks) <= 1:
        for chunk in chunks:
            reports.extend(_generate_chunk(chunk, workers_per_process, options))
            if progress is not None:
                progress(len(reports))
        return reports
    context = multiprocessing.get_context("spawn")  # the caller may hold threads and pools
    with ProcessPoolExecutor(max_workers=count, mp_context=context) as executor:
        futures = [
            executor.submit(_generate_chunk, chunk, workers_per_process, options)
            for chunk in chunks
        ]
        for future in futures:
            reports.extend(future.result())
            if progress is not None:
                progress(len(reports))
    return reports


def _generate_chunk(
    chunk: Sequence[Problem], workers: int, options: dict[str, Any]
) -> list[GenerationReport]:
    with SandboxPool(workers=workers) as pool:
        return [
            generate_variants_report(problem.code, list(problem.calls), pool=pool, **options)
            for problem in chunk
        ]

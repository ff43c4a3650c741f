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

"Equal value" is decided on reprs by `tracer.same_value` at strictness "strict": identical
reprs are equal; otherwise both must read back as literals equal with the same type at every
level (so ``1`` and ``1.0`` and ``True`` differ, lists and tuples differ, dicts compare in order
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

import multiprocessing
import os
import random
import re
import time
import zlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal

from tracer import Outcome, SandboxPool, die_with_parent, same_value
from transforms._artifacts import ArtifactBaseline
from transforms._base import (
    Family,
    LazyResult,
    Provenance,
    all_transforms,
    apply_transform_lazily,
    compose_provenance,
)
from transforms._inputs import generate_call_outcomes
from transforms._metrics import cyclomatic_complexity, normalized_tokens, tokens

__all__ = [
    "GenerationReport",
    "Problem",
    "Variant",
    "VerificationResult",
    "compare_outcomes",
    "generate_variants",
    "generate_variants_many",
    "generate_variants_report",
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
# A single whose identifier-normalised Jaccard to the original is at least this changes
# almost no token (helper extraction, naming a returned value, reordering): such singles
# come after those that change the code, when slots remain.
_SURFACE_SIMILARITY = 0.97
# A composed chain grows by a transform applicable to its result (often one that applies only
# after an earlier step: a loop that a comprehension became, a `while` loop's counter) when
# that lowers the identifier-normalised Jaccard to the original by at least this much.
_GROWTH_MARGIN = 0.01
# What a transform leaves that another can rewrite next (measured on CRUXEval: the pairs
# where the second applies only after the first and lowers the normalised Jaccard further).
# Growing a chain tries only these: trying every transform on every intermediate would cost
# several times the whole generation. Round trips are left out even where they lower the
# Jaccard: `list(s)` made a comprehension, then a loop, copies a list by hand.
_FOLLOW_UPS: dict[str, tuple[str, ...]] = {
    # A `while` loop's counter increment, its exits (not its body: a helper would take and
    # return the loop's index).
    "for_to_while": ("augassign_expand", "early_return_to_else"),
    # A comprehension written as a loop: the loop's own rewrites.
    "comprehension_to_loop": ("for_to_while", "idiom_join_loop", "idiom_append_augassign"),
    "idiom_join_loop": ("idiom_iterate_by_index", "for_to_while", "augassign_expand"),
    "idiom_replace_split_join": ("idiom_join_loop",),
    "loop_to_comprehension": ("idiom_map_filter", "inline_returned_variable"),
    "idiom_list_method_slice": ("idiom_reverse_slice",),
    # An early exit or a branch: its `else` form, its swapped form (not a guard's `else`:
    # `continue` then `else:` is no one's style).
    "guard_clause": ("de_morgan",),
    "early_return_to_else": ("if_else_swap",),
    "if_else_swap": ("guard_clause",),
    "ternary_to_if": ("if_else_swap",),
    "idiom_return_branch": ("early_return_to_else", "guard_clause"),
    "if_to_ternary": ("name_returned_value",),
    # A helper's body: a returned conditional or value of its own.
    "extract_helper_expr": ("idiom_return_branch", "name_returned_value"),
}
# Steps a chain never takes after another, wherever they come from (a follow-up of any step,
# a strong transform, a head): what the pair writes is no one's style. A guard clause wrapped
# back into an `else` (`if not xs: return xs` / `else: ...`: the guard is there to save the
# `else`); `True if x else False` (a returned test made a branch, then a ternary). A loop-body
# helper of the `while` loop that `for_to_while` writes needs no entry: `extract_loop_body`
# never extracts a body that rebinds its loop's test variables.
_NOT_AFTER: dict[str, frozenset[str]] = {
    "early_return_to_else": frozenset({"guard_clause"}),
    "if_to_ternary": frozenset({"idiom_return_branch"}),
}
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
        differing_calls: For a mutant, the shipped calls that separate it from the original
            (on which both return and the values differ; any difference under
            `crash_mutants`); empty for equivalents.
        family: The family of the variant (`Transform.family` of its first non-rename
            transform; "rename" for renamings alone).
        single: True when the variant is one transform applied alone (a factor of the
            factorial design), False for a composed chain.
        traced: For a mutant, its traced outcome on each verification call, every one
            finished within the step limit (so a caller needs not trace it again); empty for
            equivalents, which are verified untraced.
    """

    code: str
    kind: VariantKind
    chain: list[str]
    jaccard: float
    cc: int
    verified_calls: int
    provenance: Provenance
    differing_calls: list[str] = field(default_factory=list)
    family: Family = "rewrite"
    single: bool = False
    traced: dict[str, Outcome] = field(default_factory=dict, compare=False, repr=False)


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
    results: list[LazyResult]  # one per transform of `chain`: the provenance, when kept
    token_set: frozenset[str]
    jaccard: float
    family: Family = "rewrite"
    single: bool = False
    renamed: bool = False
    structure: frozenset[str] = frozenset()  # identifier-normalised tokens
    structural_jaccard: float = 1.0  # of `structure` against the original's
    steps: int = 0  # structural (non-rename) transforms applied
    shape: tuple[str, ...] = ()  # identifier-normalised token sequence (`_Builder.shape`)


@dataclass(slots=True)
class _Limits:
    timeout_s: float
    memory_mb: int
    max_steps: int


# ---------------------------------------------------------------------------------------------
# Comparing outcomes


def _exception_type(text: str | None) -> str:
    return (text or "").split(":", 1)[0].strip()


def _same_argument(a: str, b: str) -> bool:
    if a == b:
        return True
    match_a, match_b = _KWARG.match(a), _KWARG.match(b)
    if match_a and match_b:
        return match_a[1] == match_b[1] and same_value(match_a[2], match_b[2], strictness="strict")
    return same_value(a, b, strictness="strict")


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
    if original.status == "ok" and not same_value(
        original.result, variant.result, strictness="strict"
    ):
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


class _Builder:
    """Builds distinct, compiling candidates for one problem.

    Applying a transform costs milliseconds of LibCST work (parsing, metadata), so results
    are memoised by (input code, transform, salt): chains that share a prefix share its work,
    and a transform's seed is derived from exactly that key, which keeps memoised and fresh
    results identical (determinism does not depend on what was computed before).
    """

    def __init__(
        self, code: str, seed: int, rejected: Counter[str], calls: Sequence[str] = ()
    ) -> None:
        self.code = code
        self.calls = tuple(calls)  # for transforms that read them (`uses_calls`)
        self.seed = seed
        self.rejected = rejected
        self.original_tokens = frozenset(tokens(code))
        self._structures: dict[str, frozenset[str]] = {}
        self._shapes: dict[str, tuple[str, ...]] = {}
        self.original_structure = self.structure(code)
        self.seen: set[tuple[str, ...]] = {tuple(tokens(code))}
        self._memo: dict[tuple[str, str, int], LazyResult | None] = {}
        self._classes = {t.name: t for t in all_transforms()}
        self._artifacts = ArtifactBaseline(code)

    def structure(self, code: str) -> frozenset[str]:
        """The identifier-normalised token set of `code` (worked out once per code: ranking
        and building both ask for it)."""
        found = self._structures.get(code)
        if found is None:
            found = self._structures[code] = frozenset(self.shape(code))
        return found

    def shape(self, code: str) -> tuple[str, ...]:
        """The identifier-normalised tokens of `code`, in order (worked out once per code:
        growing chains compares them, ranking their sets)."""
        found = self._shapes.get(code)
        if found is None:
            found = self._shapes[code] = tuple(normalized_tokens(code))
        return found

    def family_of(self, chain: Sequence[str]) -> Family:
        """The family of a chain: that of its first non-rename transform."""
        families = [self._classes[name].family for name in chain]
        return next((f for f in families if f != "rename"), "rename")

    def apply(self, code: str, name: str, salt: int) -> LazyResult | None:
        """One transform applied to `code`; None when it declines, fails or changes nothing.
        The result's provenance is worked out only for the candidates that are kept."""
        key = (code, name, salt)
        if key not in self._memo:
            step_seed = zlib.crc32(f"{self.seed}:{salt}:{name}:{code}".encode())
            cls = self._classes[name]
            options = {"calls": self.calls} if cls.uses_calls else {}
            try:
                result = apply_transform_lazily(cls, code, seed=step_seed, **options)
            except Exception:  # a transform bug must not stop the whole build
                self.rejected[f"transform error: {name}"] += 1
                result = None
            self._memo[key] = result if result is None or result.code != code else None
        return self._memo[key]

    def run_chain(
        self, chain: Sequence[str], salt: int
    ) -> tuple[str, list[str], list[LazyResult]] | None:
        """Apply a chain; steps that do not apply are left out of the resulting chain."""
        current = self.code
        applied: list[str] = []
        results: list[LazyResult] = []
        for name in chain:
            result = self.apply(current, name, salt)
            if result is None:
                continue
            current = result.code
            applied.append(name)
            results.append(result)
        if not results:
            return None
        return current, applied, results

    def build(
        self,
        chains: Sequence[Sequence[str]],
        kind: VariantKind,
        salt: int,
        *,
        single: bool = False,
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
            # A chain's code is its last step's result, which compiled when it was applied
            # (`apply_transform_lazily` drops results that do not): not compiled again.
            if built[0] is not built[2][-1].code and not _compiles(built[0]):
                self.rejected["does not compile"] += 1
                continue
            distractor = any(self._classes[name].family == "distractor" for name in built[1])
            if not distractor and self._artifacts.new_in(built[0]):
                # A chain can leave what no single step does (a helper that a later idiom
                # shrinks to one operation): such a variant is not kept; nor a mutant that
                # reads as machine-made (`[c for c in s]` left by dropping `c.upper()`).
                self.rejected["machine artifact"] += 1
                continue
            code, chain, results = built
            token_set = frozenset(key)
            similarity = _set_jaccard(self.original_tokens, token_set)
            structure = self.structure(code)
            renames = sum(self._classes[name].family == "rename" for name in chain)
            out.append(
                _Candidate(
                    code,
                    kind,
                    chain,
                    results,
                    token_set,
                    similarity,
                    family=self.family_of(chain),
                    single=single and len(chain) == 1,
                    renamed=renames > 0,
                    structure=structure,
                    structural_jaccard=_set_jaccard(self.original_structure, structure),
                    steps=len(chain) - renames,
                    shape=self.shape(code),
                )
            )
        return out


@dataclass(frozen=True, slots=True)
class _Round:
    """The chains of one round: single transforms, then composed chains."""

    singles: list[list[str]]
    composed: list[list[str]]


def _structural_families(distractors: bool) -> tuple[Family, ...]:
    return ("rewrite", "idiom", "distractor") if distractors else ("rewrite", "idiom")


def _applicable(builder: _Builder, names: Sequence[str], salt: int, wanted: int) -> list[str]:
    """The first `wanted` of `names` (in order) that apply to the original."""
    found: list[str] = []
    for name in names:
        if len(found) >= wanted:
            break
        if builder.apply(builder.code, name, salt) is not None:
            found.append(name)
    return found


def _equivalent_chains(builder: _Builder, rng: random.Random, salt: int, plan: _Plan) -> _Round:
    """The chains of one round.

    Singles (the factorial design's factors): up to `plan.singles` transforms that apply to the
    original, each alone, one slot going to a renaming when there are two or more, the rest to
    structural transforms: all but one to those that change the structure most, the last to
    one of the others in a seeded random order (so every applicable transform keeps a chance
    of a single, and per-transform figures cover every transform), those which leave the
    identifier-normalised tokens almost as they were (`_SURFACE_SIMILARITY`: helper
    extraction, naming a returned value, reordering) after those that change them
    (`_pick_singles`).

    Composed chains: which structural transforms apply is found lazily (tried in a shuffled
    order until `_SPARE_APPLICABLE` more than a chain holds apply, and the idioms until one
    applies), ranked by how much they change the structure alone (lowest identifier-normalised
    Jaccard first); each chain starts with one of them (a different one per chain), followed
    by an idiom rewrite where one applies (`_composed_chains`). Each head is offered twice: as
    is, and with a renaming inserted at a random position (never always last), so renaming
    stays a factor of its own: `_select_diverse` takes at most `plan.renamed` renamed chains.
    Every chain then loses the steps that undo an earlier one and grows, step by step, by the
    first of the strongest transforms, then of the follow-ups, that lowers the Jaccard by
    `_GROWTH_MARGIN`, up to `plan.max_chain` structural steps (`_grown`).
    """
    structural = [
        t.name
        for t in all_transforms("equivalent", families=_structural_families(plan.distractors))
    ]
    renames = [t.name for t in all_transforms("equivalent", families=("rename",))]
    rng.shuffle(renames)
    rng.shuffle(structural)
    rename_slot = 1 if renames and plan.singles >= 2 else 0
    structural_singles = plan.singles - rename_slot
    wanted = max(plan.max_chain + _SPARE_APPLICABLE, structural_singles)
    applicable = _applicable(builder, structural, salt, wanted)
    changed = {name: _structural_similarity(builder, name, salt) for name in applicable}
    singles = [[name] for name in _pick_singles(applicable, changed, structural_singles)]
    if rename_slot:
        # The first style that applies (a style declines where its names would make a line
        # too long; another then takes the slot).
        singles += [[name] for name in _applicable(builder, renames, salt, 1)]
    pool = applicable[: plan.max_chain + _SPARE_APPLICABLE]
    idioms = {name for name in structural if builder.family_of([name]) == "idiom"}
    if not idioms & set(pool):
        pool += _applicable(
            builder, [n for n in structural if n in idioms and n not in pool], salt, 1
        )
    ranked = [(_structural_similarity(builder, name, salt), i, name) for i, name in enumerate(pool)]
    order = [name for _, _, name in sorted(ranked)]
    composed = _composed_chains(order, renames, rng, plan, idioms & set(order))
    spare = order[: plan.max_chain + 1]  # growth tries the strongest first, then follow-ups
    grown = [_grown(builder, chain, salt, plan.max_chain, spare) for chain in composed]
    # A head that did not grow (one idiom, no renaming) is a single's form, not a composition.
    grown = [chain for chain in grown if len(chain) >= 2]
    return _Round(singles, [list(chain) for chain in dict.fromkeys(map(tuple, grown))])


def _grown(
    builder: _Builder, chain: Sequence[str], salt: int, longest: int, spare: Sequence[str] = ()
) -> list[str]:
    """`chain`'s steps that apply and undo no earlier step, followed by steps of `spare` or
    follow-ups of its steps (`_FOLLOW_UPS`) that apply to its result, up to `longest`
    structural steps; never a step after one it must not follow (`_NOT_AFTER`).

    A step undoes an earlier one when the identifier-normalised tokens return to those of an
    earlier point of the chain (a guard clause turned back into an `else`): such a chain would
    name rewrites its code does not show. The next step is, each time, the first of `spare`
    (ranked by how much each changes the original alone), then of the follow-ups, that lowers
    the identifier-normalised Jaccard to the original by at least `_GROWTH_MARGIN`; a step
    that changes less (a helper, a named return value) would only lengthen the chain. The
    first, not the best: trying every one at every step costs a sixth more transform
    applications for 0.003 of composed Jaccard (CRUXEval, first 100 problems). A chain of a
    problem where few transforms apply to the original thus reaches those that apply only
    after its steps, as a person's rewrite would go on from its own result.
    """
    code = builder.code
    seen = {builder.shape(code)}
    out: list[str] = []
    for name in chain:
        if _must_not_follow(name, out):
            continue
        result = builder.apply(code, name, salt)
        if result is None:
            continue
        shape = builder.shape(result.code)
        if shape in seen and builder.family_of([name]) != "rename":
            continue
        seen.add(shape)
        code = result.code
        out.append(name)
    steps = sum(builder.family_of([name]) != "rename" for name in out)
    current = _set_jaccard(builder.original_structure, builder.structure(code))
    while out and steps < longest:
        found: tuple[float, str, str] | None = None
        names = dict.fromkeys([*spare, *(n for step in out for n in _FOLLOW_UPS.get(step, ()))])
        for name in names:
            if name in out or _must_not_follow(name, out):
                continue
            result = builder.apply(code, name, salt)
            if result is None:
                continue
            similarity = _set_jaccard(builder.original_structure, builder.structure(result.code))
            if similarity <= current - _GROWTH_MARGIN:
                found = (similarity, name, result.code)
                break
        if found is None:
            break
        current, name, code = found
        out.append(name)
        steps += 1
    return out or list(chain)


def _must_not_follow(name: str, steps: Sequence[str]) -> bool:
    """Whether a chain of `steps` must not take `name` next (`_NOT_AFTER`)."""
    return not _NOT_AFTER.get(name, frozenset()).isdisjoint(steps)


def _pick_singles(applicable: Sequence[str], changed: dict[str, float], slots: int) -> list[str]:
    """The structural singles of a problem: all but one of the `slots` go to the transforms
    that change the structure most (lowest identifier-normalised Jaccard `changed`), the last
    to the first of the others in `applicable`'s (seeded random) order, so every applicable
    transform keeps a chance of a single of its own; transforms that leave the tokens almost
    as they were (`_SURFACE_SIMILARITY`) come last either way."""
    if slots <= 0:
        return []
    by_change = sorted(applicable, key=lambda name: changed[name])  # stable: ties keep order
    most = by_change[: slots - 1]
    rest = [name for name in applicable if name not in most]
    rest.sort(key=lambda name: changed[name] >= _SURFACE_SIMILARITY)
    return most + rest[:1]


def _structural_similarity(builder: _Builder, name: str, salt: int) -> float:
    """Identifier-normalised Jaccard of the original and the transform applied to it."""
    result = builder.apply(builder.code, name, salt)
    assert result is not None
    return _set_jaccard(builder.original_structure, builder.structure(result.code))


def _composed_chains(
    order: Sequence[str],
    renames: Sequence[str],
    rng: random.Random,
    plan: _Plan,
    idioms: set[str] | frozenset[str] = frozenset(),
) -> list[list[str]]:
    """Up to `plan.per_round` chain heads: each ranked structural transform in turn as the
    start, followed by the first applicable idiom when the start is not one (`_grown` then
    adds steps that lower the Jaccard), every other one with a renaming inserted at a
    random place; when heads run short (few transforms apply), the other form of each head,
    then one structural transform with each renaming style.

    Heads are short on purpose: fixed orderings of the four highest-ranked transforms made
    every chain of a problem the same rewrites in another order, padded with steps that change
    almost nothing (a helper, a named return value); growing stops when no step changes the
    structure by `_GROWTH_MARGIN`."""
    first_idiom = [name for name in order if name in idioms][:1]
    heads = [[name, *(first_idiom if name not in idioms else [])] for name in order]
    heads = [head[: max(1, plan.max_chain)] for head in heads[: plan.per_round]]

    def renamed(head: list[str], n: int) -> list[str]:
        chain = list(head)
        chain.insert(rng.randrange(len(chain) + 1), renames[n % len(renames)])
        return chain

    if not renames:
        return heads
    first = [renamed(h, n) if n % 2 else h for n, h in enumerate(heads)]
    spare = [h if n % 2 else renamed(h, n) for n, h in enumerate(heads)]
    alone = [renamed([order[0]], n) for n in range(len(renames))] if order else []
    chains: list[list[str]] = []
    for chain in [*first, *spare, *alone]:
        if len(chains) >= plan.per_round:
            break
        if chain not in chains:
            chains.append(chain)
    return chains


def _set_jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    union = a | b
    return len(a & b) / len(union) if union else 1.0


def _select_diverse(
    candidates: Sequence[_Candidate],
    k: int,
    renamed: int | None = None,
    taken: set[tuple[str, ...]] | frozenset[tuple[str, ...]] = frozenset(),
) -> list[_Candidate]:
    """Greedy: each pick minimises the identifier-normalised Jaccard to the original plus the
    highest such Jaccard to a pick already made, plus a small penalty for reusing transforms
    already picked (so the selected variants spread over transforms, which per-transform
    analyses need). Structure, not naming, is what is compared: on raw tokens a renaming
    alone makes a chain look different, and renamed chains of one small rewrite would win.
    A candidate whose identifier-normalised tokens (`shape`) no pick and no single (`taken`)
    has comes first: the same rewrites under another renaming are one structure, kept only
    when nothing else is left. Then candidates with three or more structural rewrites are
    preferred, then two or more. Beyond
    `renamed` picks that contain a renaming (None: no limit), unrenamed candidates are
    preferred, so renaming stays a factor of its own rather than the choice of every pick; the
    others still fill the `k` when nothing else is left. The last pick is of family "idiom"
    when none before it is and one verified, so a problem an idiom applies to keeps a variant
    of that family whichever chains change the tokens most."""
    remaining = list(candidates)
    selected: list[_Candidate] = []
    used: set[str] = set()
    shapes = set(taken)
    while remaining and len(selected) < k:
        # Preferences, in order: a structure no variant has yet (`taken`: the singles'), more
        # structural rewrites, no renaming beyond `renamed`.
        fresh = [c for c in remaining if c.shape not in shapes] or remaining
        pool = next(p for least in (3, 2, 0) if (p := [c for c in fresh if c.steps >= least]))
        if renamed is not None and sum(c.renamed for c in selected) >= renamed:
            pool = [c for c in pool if not c.renamed] or pool
        if len(selected) == k - 1 and all(c.family != "idiom" for c in selected):
            idioms = [c for c in remaining if c.family == "idiom"]
            pool = [c for c in pool if c.family == "idiom"] or idioms or pool

        def score(c: _Candidate) -> float:
            nearest = max((_set_jaccard(c.structure, s.structure) for s in selected), default=0)
            reuse = sum(name in used for name in c.chain) / len(c.chain)
            return (
                c.structural_jaccard + _MUTUAL_WEIGHT * nearest + _SHARED_TRANSFORM_PENALTY * reuse
            )

        best = min(pool, key=score)  # min keeps the first of equal scores: deterministic
        remaining.remove(best)
        selected.append(best)
        used.update(best.chain)
        shapes.add(best.shape)
    return selected


def _provenance(results: Sequence[LazyResult]) -> Provenance:
    """The provenance of a chain: its steps' provenances composed in order."""
    provenance = results[0].provenance()
    for result in results[1:]:
        provenance = compose_provenance(provenance, result.provenance())
    return provenance


def _to_variant(c: _Candidate, verified: int, differing: Sequence[str] = ()) -> Variant:
    return Variant(
        family=c.family,
        single=c.single,
        code=c.code,
        kind=c.kind,
        chain=list(c.chain),
        jaccard=c.jaccard,
        cc=cyclomatic_complexity(c.code),
        verified_calls=verified,
        provenance=_provenance(c.results),
        differing_calls=list(differing),
    )


# ---------------------------------------------------------------------------------------------
# The entry points


def generate_variants(code: str, calls: Sequence[str], **options: Any) -> list[Variant]:
    """Up to `k` verified composed variants of `code`, up to `singles` single-transform
    variants, and up to `mutants` mutants.

    See `generate_variants_report`, which this calls, for the procedure and the arguments
    (`options` are its keyword arguments).

    Returns:
        Composed equivalent variants (most diverse first), then singles, then mutants.
    """
    return generate_variants_report(code, calls, **options).variants


def generate_variants_report(
    code: str,
    calls: Sequence[str],
    *,
    k: int = 4,
    seed: int = 0,
    mutants: int = 0,
    pool: SandboxPool | None = None,
    extra_calls: int = 8,
    max_chain: int = 4,
    candidates: int = 5,
    rounds: int = 2,
    timeout_s: float = 2.0,
    memory_mb: int = 512,
    max_steps: int = 10_000,
    singles: int = 0,
    distractors: bool = False,
    crash_mutants: bool = False,
    shipped: Sequence[str] | None = None,
    renamed_share: float = 0.5,
    known_outcomes: Mapping[str, Outcome] | None = None,
) -> GenerationReport:
    """Generate, verify and select variants, and report what it took.

    Procedure: (1) extend `calls` with `extra_calls` generated calls (`generate_calls`) and
    run the original on all of them once; (2) build candidates (`_equivalent_chains`): up to
    `singles` single transforms (one renaming among them) and composed chains of structural
    transforms, with or without a renaming at a random position, grown by what their steps make
    applicable (`_grown`); (3) run every candidate on
    every call (one sandbox batch per candidate, batches concurrently over the pool's workers)
    and keep those equivalent on every call; (4) while fewer than `k` composed variants are
    equivalent, repeat (2)-(3) with fresh seeds, for up to `rounds` rounds; (5) greedily pick
    the `k` most diverse composed variants (`_select_diverse`, at most `renamed_share` of them
    renamed); (6) if `mutants`, try mutant transforms on the original a few at a time, run them
    traced under a step budget (so a mutant that loops stops deterministically rather than at
    a timeout) and keep up to `mutants` that finish on every call and return another value
    than the original's on some shipped call, both returning (`crash_mutants`: any difference
    on a shipped call).

    Structural transforms are those of family "rewrite" and "idiom", plus "distractor" with
    `distractors` (dead code, constant unfolding, misleading comments: off by default).

    Args:
        code: The original code.
        calls: The problem's calls, e.g. ``["f([1, 2], 3)"]``.
        k: How many composed equivalent variants to return (fewer when fewer verify).
        seed: Random seed; the same inputs and seed give byte-identical variants.
        mutants: How many mutants to return (0 for none).
        pool: The sandbox pool; a temporary one is made when None.
        extra_calls: How many generated calls to add to `calls` for verification.
        max_chain: Longest chain of structural transforms (a renaming may come on top).
        candidates: Composed candidates built in each round (at least `k`).
        rounds: Rounds of candidate building.
        timeout_s: Wall-clock limit per call.
        memory_mb: Memory limit of a worker.
        max_steps: Step limit per traced call (generated calls, mutants).
        singles: How many single-transform variants to add (the factorial design).
        distractors: Also use the "distractor" family.
        crash_mutants: Keep mutants that differ on a shipped call only by raising.
        shipped: The calls a benchmark ships (a mutant must be told apart on one of them);
            default: `calls`.
        renamed_share: The share of the `k` composed variants that contain a renaming
            when enough others verify.
        known_outcomes: The original's outcomes on calls already run (e.g. by
            `generate_call_outcomes`), which are then not run again.

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
                singles=singles,
                distractors=distractors,
                crash_mutants=crash_mutants,
                shipped=shipped,
                renamed_share=renamed_share,
                known_outcomes=known_outcomes,
            )
    limits = _Limits(timeout_s, memory_mb, max_steps)
    clock = time.perf_counter()
    verification_calls = list(calls)
    known = dict(known_outcomes or {})
    if extra_calls > 0:
        generated = generate_call_outcomes(
            code,
            calls,
            n=extra_calls,
            seed=seed,
            pool=pool,
            timeout_s=timeout_s,
            memory_mb=memory_mb,
            max_steps=max_steps,
        )
        verification_calls += [call for call, _ in generated]
        known.update(generated)
    reference = _reference(pool, code, verification_calls, known, limits, trace=False)
    report = GenerationReport(variants=[], calls=verification_calls)
    report.execute_s += time.perf_counter() - clock

    builder = _Builder(code, seed, report.rejected, verification_calls)
    plan = _Plan(
        k=k,
        max_chain=max_chain,
        rounds=rounds,
        per_round=max(k, candidates),
        singles=singles,
        distractors=distractors,
        renamed=int(k * renamed_share + 0.5),
    )
    chosen = _equivalents(builder, reference, report, limits, pool, plan)
    clock = time.perf_counter()
    report.variants = [_to_variant(c, n) for c, n in chosen]
    report.transform_s += time.perf_counter() - clock
    if mutants > 0:
        rule = _MutantRule(list(calls if shipped is None else shipped), crash_mutants)
        report.variants.extend(_mutants(builder, report, limits, pool, mutants, rule, known))
    return report


def _reference(
    pool: SandboxPool,
    code: str,
    calls: list[str],
    known: Mapping[str, Outcome],
    limits: _Limits,
    *,
    trace: bool,
) -> list[Outcome]:
    """The original's outcome (traced with `trace`) on every call, in order; a call listed
    twice runs once. A call whose outcome is `known` (generated calls, already run once on the
    original) is not run again when that outcome serves (`_reusable`)."""
    reused = {
        call: o
        for call in calls
        if (o := known.get(call)) is not None and _reusable(o, limits, trace)
    }
    missing = list(dict.fromkeys(call for call in calls if call not in reused))
    ran: dict[str, Outcome] = {}
    if missing:
        (outcomes,) = _run_many(pool, [code], missing, limits, trace=trace)
        ran = dict(zip(missing, outcomes, strict=True))
    return [reused[call] if call in reused else ran[call] for call in calls]


def _reusable(outcome: Outcome, limits: _Limits, trace: bool) -> bool:
    """Whether a known outcome of the original serves as its reference outcome. Untraced: one
    that returned (a raising call is run again: a traced run reports the arguments' state
    after an exception, an untraced one does not, and variants run untraced). Traced: one
    traced that finished within fewer steps than `limits.max_steps` (each call runs in fresh
    globals, so a second run would trace the same steps)."""
    if not trace:
        return outcome.status == "ok"
    steps = outcome.trace
    return steps is not None and _finished(outcome) and len(steps.steps) < limits.max_steps


@dataclass(frozen=True, slots=True)
class _Plan:
    k: int
    max_chain: int
    rounds: int
    per_round: int
    singles: int = 0
    distractors: bool = False
    renamed: int | None = None


@dataclass(frozen=True, slots=True)
class _MutantRule:
    shipped: list[str]
    crash_mutants: bool


def _equivalents(
    builder: _Builder,
    reference: Sequence[Outcome],
    report: GenerationReport,
    limits: _Limits,
    pool: SandboxPool,
    plan: _Plan,
) -> list[tuple[_Candidate, int]]:
    composed: list[tuple[_Candidate, int]] = []
    singles: list[tuple[_Candidate, int]] = []
    for salt in range(plan.rounds):
        if len(composed) >= plan.k and (salt > 0 or plan.singles == 0):
            break
        clock = time.perf_counter()
        rng = random.Random(f"core-bench-chains:{builder.seed}:{salt}:{builder.code}")
        chains = _equivalent_chains(builder, rng, salt, plan)
        candidates = (
            builder.build(chains.singles, "equivalent", salt, single=True) if salt == 0 else []
        )
        if plan.k > 0:
            candidates += builder.build(chains.composed, "equivalent", salt)
        report.transform_s += time.perf_counter() - clock
        clock = time.perf_counter()
        outcomes = _run_many(pool, [c.code for c in candidates], report.calls, limits)
        report.execute_s += time.perf_counter() - clock
        report.candidates += len(candidates)
        for candidate, result in zip(candidates, outcomes, strict=True):
            verdict = _verdict(reference, result, report.calls)[0]
            if verdict.kept:
                (singles if candidate.single else composed).append((candidate, verdict.calls))
            else:
                report.rejected[verdict.reason] += 1
    report.verified = len(composed) + len(singles)
    clock = time.perf_counter()
    calls_of = {id(c): n for c, n in composed}
    taken = {c.shape for c, _ in singles[: plan.singles]}
    chosen = _select_diverse([c for c, _ in composed], plan.k, plan.renamed, taken)
    report.transform_s += time.perf_counter() - clock
    return [(c, calls_of[id(c)]) for c in chosen] + singles[: plan.singles]


def _separating_calls(
    reference: Sequence[Outcome],
    outcomes: Sequence[Outcome],
    calls: Sequence[str],
    rule: _MutantRule,
) -> list[str]:
    """The shipped calls that tell a mutant from the original: both return and the values
    differ (with `crash_mutants`, any difference)."""
    shipped = set(rule.shipped)
    out: list[str] = []
    for call, ref, got in zip(calls, reference, outcomes, strict=True):
        if call not in shipped or ref.status not in _FINISHED:
            continue
        if rule.crash_mutants:
            if compare_outcomes(ref, got) is not None:
                out.append(call)
        elif (
            ref.status == "ok"
            and got.status == "ok"
            and not same_value(ref.result, got.result, strictness="strict")
        ):
            out.append(call)
    return out


def _mutants(
    builder: _Builder,
    report: GenerationReport,
    limits: _Limits,
    pool: SandboxPool,
    wanted: int,
    rule: _MutantRule,
    known: Mapping[str, Outcome],
) -> list[Variant]:
    """Mutants that finish on every call and are told apart from the original on a shipped
    call (`_separating_calls`), tried in a seeded order a few at a time until `wanted` are
    found. The original's traced outcomes in `known` are not run again."""
    names = [t.name for t in all_transforms("mutant")]
    random.Random(f"core-bench-mutants:{builder.seed}:{builder.code}").shuffle(names)
    clock = time.perf_counter()
    reference = _reference(pool, builder.code, report.calls, known, limits, trace=True)
    report.execute_s += time.perf_counter() - clock
    # A mutant that loops is stopped at a step budget relative to the original's longest
    # call, not at `max_steps`: tracing thousands of steps of a runaway loop is what would
    # cost time, and a mutant that runs far longer than its original is a poor control anyway.
    longest = max((len(o.trace.steps) for o in reference if o.trace is not None), default=0)
    budget = min(limits.max_steps, _MUTANT_STEP_FACTOR * longest + _MUTANT_STEP_SLACK)
    mutant_limits = _Limits(limits.timeout_s, limits.memory_mb, budget)
    out: list[Variant] = []
    start = 0
    while len(out) < wanted and start < len(names):
        # As many as could still be needed, but no more than the pool runs at once: the
        # candidates are examined in order until `wanted` are found, so a mutant built and
        # traced beyond the pool's width would be waste whenever the ones before it succeed.
        size = min(wanted - len(out) + 1, max(1, pool.workers))
        group = names[start : start + size]
        start += len(group)
        clock = time.perf_counter()
        candidates = builder.build([[name] for name in group], "mutant", 0)
        report.transform_s += time.perf_counter() - clock
        clock = time.perf_counter()
        codes = [c.code for c in candidates]
        outcomes = _run_many(pool, codes, report.calls, mutant_limits, trace=True)
        report.execute_s += time.perf_counter() - clock
        for candidate, result in zip(candidates, outcomes, strict=True):
            if len(out) >= wanted:
                break
            if not all(_finished(o) for o in result):
                report.rejected["mutant: does not finish"] += 1
                continue
            verdict = _verdict(reference, result, report.calls)[0]
            separating = _separating_calls(reference, result, report.calls, rule)
            if not separating:
                report.rejected["mutant: not told apart on a shipped call"] += 1
                continue
            out.append(_to_variant(candidate, verdict.calls, separating))
            out[-1].traced = dict(zip(report.calls, result, strict=True))
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
    with ProcessPoolExecutor(
        max_workers=count,
        mp_context=context,
        initializer=die_with_parent,  # a caller killed however it ends takes them with it
        initargs=(os.getpid(),),
    ) as executor:
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

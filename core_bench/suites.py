"""Sized suites: seeded subsets of a built benchmark that a researcher can afford to run.

A full build is large (the bundled data gives about 100,000 tasks per model and strategy, a
CRUXEval build several hundred thousand), while CoRE's benchmark is 255 implementations of 60
problems with about 8 tests and 4 probes each. Three suites:

- `quick`: a smoke test of the whole chain, at most `QUICK_BUDGET` (500) tasks per strategy and
  sample with every task kind.
- `standard`: the default for real models, sized by the rule below so that the overall
  robustness gap and probe accuracy have 95% interval half-widths of at most 3 points for a
  model near 70% accuracy.
- `full`: everything the build holds.

Selection is per problem, the unit every bootstrap interval resamples: problems are taken in
a seeded order, and each keeps its original, a stratified share of its variants (one per family
first, single-transform variants before composed ones, then mutants), its first calls (the
dataset's own call is the first) and a stratified share of its probes, where a probe of the
original is kept together with all its anchored copies, so that every metric that compares
variants question by question still can.

The standard rule. For a proportion near `p` = 0.7 measured on `n` items that come in clusters
of `m` items per problem with intra-problem correlation `ICC`, the 95% interval half-width is

    h = z * sqrt(v * (1 + (m - 1) * ICC) / n),    z = 1.96

with `v = p (1 - p)` = 0.21 for probe accuracy, and `v = 2 p (1 - p)` = 0.42 for the robustness
gap (a difference of two paired proportions, taking the correlation between a model's answers on
an original and on its variant as 0: the conservative bound). `ICC` = 0.2 is assumed (problems
differ in difficulty; the simulation in `bench/suites.py` checks the rule against the real
bootstrap with a model whose per-problem accuracy is Beta(2.8, 1.2): mean 0.7, ICC 0.2). With
`m` = 16 pairs per problem, for example, `n` must reach 1.96^2 * 0.42 * 4 / 0.03^2 = 7,172 pairs,
about 450 problems. `standard` adds problems in the seeded order until both half-widths,
computed from the counts actually selected, are at most `TARGET_HALF_WIDTH`; a benchmark too
small for that gives all its problems (`Selection.met` is then False, and the half-widths say
what the reader can expect).
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from core_bench.benchmark import Benchmark
from core_bench.schemas import Probe, Problem, Variant

Suite = Literal["quick", "standard", "full"]
SUITES: tuple[Suite, ...] = ("quick", "standard", "full")

QUICK_BUDGET = 500
"""Most tasks of a `quick` suite per strategy and sample (every task kind included)."""

TARGET_HALF_WIDTH = 0.03
"""The 95% interval half-width `standard` is sized for (3 points)."""

ACCURACY = 0.7
"""The accuracy of the model `standard` is sized for."""

ICC = 0.2
"""Assumed correlation of two items of the same problem (see the module docstring)."""

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Shape:
    """How much of one problem a suite keeps.

    Attributes:
        calls: the first N calls of the problem.
        equivalents: equivalent variants (stratified by family).
        mutants: mutant variants.
        probes_per_variant: probes per kept variant (original, equivalents, mutants), counted
            with the anchored copies of a chosen original probe.
    """

    calls: int
    equivalents: int
    mutants: int
    probes_per_variant: int


SHAPES: dict[Suite, Shape] = {
    "quick": Shape(calls=2, equivalents=2, mutants=1, probes_per_variant=1),
    "standard": Shape(calls=4, equivalents=4, mutants=1, probes_per_variant=4),
}
"""Per-problem shape of each sized suite (CoRE: about 4.3 implementations, 7.8 tests and 4
probes each; `standard` keeps fewer calls per problem and more problems, which narrows the
intervals for the same number of requests because items of one problem are correlated)."""


@dataclass(frozen=True, slots=True)
class Selection:
    """A suite drawn from a benchmark.

    Attributes:
        suite: the suite's name.
        benchmark: the selected benchmark (same root and manifest, fewer records).
        tasks: output, input and probe tasks per strategy and sample.
        gap_pairs: (equivalent variant, call) pairs the robustness gap compares with the original.
        probes: probes selected.
        gap_half_width: predicted 95% half-width of the overall robustness gap (the rule).
        probe_half_width: predicted 95% half-width of probe accuracy (the rule).
        met: True when both half-widths are within `TARGET_HALF_WIDTH` (quick and full: None).
    """

    suite: Suite
    benchmark: Benchmark
    tasks: int
    gap_pairs: int
    probes: int
    gap_half_width: float | None
    probe_half_width: float | None
    met: bool | None


def half_width(n: int, clusters: int, variance: float, *, icc: float = ICC) -> float | None:
    """The rule's 95% half-width of a mean over `n` items in `clusters` problems.

    Args:
        n: items.
        clusters: problems the items come from.
        variance: per-item variance (p(1-p) for a proportion, 2p(1-p) for a paired gap).
        icc: intra-problem correlation.

    Returns:
        The half-width (a fraction, 0.03 = 3 points), or None without items.
    """
    if n <= 0 or clusters <= 0:
        return None
    m = n / clusters
    return Z95 * math.sqrt(variance * (1 + (m - 1) * icc) / n)


def select_suite(benchmark: Benchmark, suite: Suite, *, seed: int = 0) -> Selection:
    """Draw `suite` from `benchmark` (the same seed and benchmark give the same selection).

    Args:
        benchmark: a built benchmark.
        suite: "quick", "standard" or "full".
        seed: seed of the problem order and of every choice within a problem.

    Raises:
        ValueError: an unknown suite.
    """
    if suite not in SUITES:
        raise ValueError(f"unknown suite {suite!r}; expected one of {', '.join(SUITES)}")
    if suite == "full":
        return _selection(
            "full", benchmark, benchmark.problems, benchmark.variants, benchmark.probes, met=None
        )
    shape = SHAPES[suite]
    variants_of: dict[str, list[Variant]] = defaultdict(list)
    for variant in benchmark.variants:
        variants_of[variant.problem_id].append(variant)
    probes_of: dict[str, list[Probe]] = defaultdict(list)
    for probe in benchmark.probes:
        probes_of[probe.problem_id].append(probe)
    order = list(benchmark.problems)
    random.Random(f"suite:{seed}").shuffle(order)
    chosen: list[tuple[Problem, list[Variant], list[Probe]]] = []
    tasks = pairs = probes = 0
    cheapest = QUICK_BUDGET
    for problem in order:
        rng = random.Random(f"suite:{seed}:{problem.id}")
        kept_problem, kept_variants = _trim(problem, variants_of[problem.id], shape, rng)
        kept_probes = _probes(
            probes_of[problem.id], kept_variants, len(kept_problem.calls), shape, rng
        )
        cost = _task_count(kept_problem, kept_variants, kept_probes)
        if suite == "quick" and tasks + cost > QUICK_BUDGET:
            cheapest = min(cheapest, cost)
            if QUICK_BUDGET - tasks < cheapest:
                break
            continue  # a smaller problem further on may still fit
        chosen.append((kept_problem, kept_variants, kept_probes))
        tasks += cost
        pairs += _gap_pairs(kept_problem, kept_variants)
        probes += len(kept_probes)
        if suite == "standard" and _met(pairs, probes, len(chosen)):
            break
    position = {p.id: i for i, p in enumerate(benchmark.problems)}
    chosen.sort(key=lambda item: position[item[0].id])
    selected_problems = [p for p, _, _ in chosen]
    selected_variants = [v for _, vs, _ in chosen for v in vs]
    selected_probes = [q for _, _, qs in chosen for q in qs]
    met = _met(pairs, probes, len(chosen)) if suite == "standard" else None
    return _selection(
        suite, benchmark, selected_problems, selected_variants, selected_probes, met=met
    )


def _met(pairs: int, probes: int, problems: int) -> bool:
    gap = half_width(pairs, problems, 2 * ACCURACY * (1 - ACCURACY))
    probe = half_width(probes, problems, ACCURACY * (1 - ACCURACY))
    return (
        gap is not None
        and probe is not None
        and gap <= TARGET_HALF_WIDTH
        and probe <= TARGET_HALF_WIDTH
    )


def _trim(
    problem: Problem, variants: list[Variant], shape: Shape, rng: random.Random
) -> tuple[Problem, list[Variant]]:
    """The problem with its first calls, and its original plus a stratified set of variants."""
    calls = min(shape.calls, len(problem.calls))
    kept_problem = problem.model_copy(
        update={"calls": problem.calls[:calls], "outputs": problem.outputs[:calls]}
    )
    originals = [v for v in variants if v.kind == "original"]
    equivalents = _stratified(
        [v for v in variants if v.kind == "equivalent"],
        key=lambda v: (v.family or "", not v.single),
        count=shape.equivalents,
        rng=rng,
    )
    mutants = _stratified(
        [v for v in variants if v.kind == "mutant"],
        key=lambda v: (v.chain[0] if v.chain else "", False),
        count=shape.mutants,
        rng=rng,
    )
    wanted = {v.id for v in (*originals, *equivalents, *mutants)}
    kept = [
        v.model_copy(update={"outputs": v.outputs[:calls]}) if len(v.outputs) > calls else v
        for v in variants
        if v.id in wanted
    ]
    return kept_problem, kept


def _stratified(
    items: list[Variant],
    *,
    key: Callable[[Variant], tuple[str, bool]],
    count: int,
    rng: random.Random,
) -> list[Variant]:
    """Up to `count` items, round-robin over strata in a seeded order; within a stratum the
    items whose key's second part is False (single-transform variants) come first."""
    if count <= 0 or not items:
        return []
    strata: dict[str, list[Variant]] = defaultdict(list)
    for item in items:
        strata[key(item)[0]].append(item)
    for members in strata.values():
        rng.shuffle(members)
        members.sort(key=lambda v: key(v)[1])
    names = sorted(strata)
    rng.shuffle(names)
    picked: list[Variant] = []
    while len(picked) < count and any(strata.values()):
        for name in names:
            if strata[name] and len(picked) < count:
                picked.append(strata[name].pop(0))
    return picked


def _probes(
    probes: list[Probe], variants: list[Variant], calls: int, shape: Shape, rng: random.Random
) -> list[Probe]:
    """A stratified set of probe groups on the kept variants and first `calls` calls: an
    original probe with its anchored copies is one group; any other probe is a group of its
    own."""
    kept_variants = {v.id for v in variants}
    usable = [p for p in probes if p.variant_id in kept_variants and p.call_index < calls]
    copies: dict[str, list[Probe]] = defaultdict(list)
    for probe in usable:
        if probe.anchor_of is not None:
            copies[probe.anchor_of].append(probe)
    groups: dict[str, list[list[Probe]]] = defaultdict(list)
    for probe in usable:
        if probe.anchor_of is None:
            groups[probe.kind].append([probe, *copies.get(probe.id, [])])
    budget = shape.probes_per_variant * len(variants)
    for members in groups.values():
        rng.shuffle(members)
    kinds = sorted(groups)
    rng.shuffle(kinds)
    picked: list[Probe] = []
    progress = True
    while progress and len(picked) < budget:
        progress = False
        for kind in kinds:
            if groups[kind] and len(picked) < budget:
                group = groups[kind].pop(0)
                progress = True
                if len(picked) + len(group) <= budget or not picked:
                    picked.extend(group)
    order = {p.id: i for i, p in enumerate(probes)}
    return sorted(picked, key=lambda p: order[p.id])


def _task_count(problem: Problem, variants: Sequence[Variant], probes: Sequence[Probe]) -> int:
    calls = len(problem.calls)
    pairs = sum(len(v.outputs) if v.outputs else calls for v in variants)
    return 2 * pairs + len(probes)


def _gap_pairs(problem: Problem, variants: Iterable[Variant]) -> int:
    return len(problem.calls) * sum(v.kind == "equivalent" for v in variants)


def _selection(
    suite: Suite,
    benchmark: Benchmark,
    problems: list[Problem],
    variants: list[Variant],
    probes: list[Probe],
    *,
    met: bool | None,
) -> Selection:
    calls = {p.id: len(p.calls) for p in problems}
    pairs = sum(calls[v.problem_id] for v in variants if v.kind == "equivalent")
    tasks = 2 * sum(len(v.outputs) if v.outputs else calls[v.problem_id] for v in variants)
    count = len(problems)
    return Selection(
        suite=suite,
        benchmark=replace(benchmark, problems=problems, variants=variants, probes=probes),
        tasks=tasks + len(probes),
        gap_pairs=pairs,
        probes=len(probes),
        gap_half_width=half_width(pairs, count, 2 * ACCURACY * (1 - ACCURACY)),
        probe_half_width=half_width(len(probes), count, ACCURACY * (1 - ACCURACY)),
        met=met,
    )

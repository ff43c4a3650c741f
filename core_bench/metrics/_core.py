"""CoRE's strict and soft metrics on a CoRE-sized budget: core_I, core_Is, core_W, core_Ws,
core_RCS, core_Cons, and the per-call strict forms I_call and W_call.

CoRE (arXiv 2604.25399, eqs. 6-9) scores a problem p with implementations j = 1..m (the
original and its equivalents), tests t = 1..n shared by them, and intermediate-state probes
q = 1..k_j of each implementation; o_jt and s_jq are 1 when the answer is right:

    eq. 6   I_p   = prod_j prod_t o_jt             every output of every implementation right
    eq. 7   Is_p  = (1/m) sum_j prod_t o_jt        averaged over implementations (an
                                                   implementation counts when all its tests
                                                   are right); not pooled over calls
    eq. 8   W_p   = prod_j prod_q s_jq             every probe of every implementation right
            Ws_p  = (1/m) sum_j prod_q s_jq        averaged over implementations
    eq. 9   RCS_p = I_p * Ws_p                     right outputs backed by right states
            Cons_p = 1 - (I_p - Ws_p)^2            so mean Cons = 1 - MSE(I, Ws)

Each metric is the mean over problems, x100. CoRE reports, for GPT-5, I = 84.62 on about 4.3
implementations x 7.8 tests per problem and 4.1 probes per implementation. Strict products
shrink geometrically with the number of items (a model right on 95% of items, independently,
has E[I] = 0.95^(m*n): 12.9% on 5 x 8, and E[W] = 0.95^(items): 35.8% on 5 x 4 probes but
about 0 on the ~200 probes per problem a default build holds), so the budget is chosen here,
by the metric, not by the build (`Budget`; `bench/core_expected.py` prints the expected values
on a benchmark's own budget):

- implementations: the original, then up to `IMPLEMENTATIONS - 1` equivalent variants (family
  `distractor` excluded: CoRE's implementations are natural code) in the order of
  sha256(f"{seed}:impl:{variant id}");
- calls: up to `CALLS` of the calls answered on these implementations, in the order of
  sha256(f"{seed}:call:{problem id}:{call index}"), the same calls for every implementation
  (CoRE's tests are shared);
- probes: per implementation, up to `PROBES` of its probes (task "probe"; full traces
  excluded) on the chosen calls, taken by the rank of their call, then by
  sha256(f"{seed}:probe:{probe id}").

`seed` is the summary's seed (the benchmark's by default), so the budget is the same for
every model of a benchmark. Per-call strict forms, which stay comparable as builds grow:

- I_call_p: over the budget's calls, the mean of prod_j o_jt (every implementation right on
  the same call);
- W_call_p: over the budget's calls that carry budget probes, the mean of "every budget probe
  of every implementation on that call is right".

A problem with several samples per task (sample index 0, 1, ..) is scored once per sample
index and those scores averaged. Rows: core_I, core_Is, I_call (task output), core_W, core_Ws,
W_call (task probe), core_RCS and core_Cons (task core, over problems with both), each with a
bootstrap interval by problem and n = problems; and core_budget (task core; groups
"implementations", "calls", "probes" (per implementation): the budget's mean sizes per
problem, not percentages, to compare with CoRE's 4.3 x 7.8 x 4.1).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from core_bench.metrics._data import Context, Metric, correct
from core_bench.schemas import MetricRow

IMPLEMENTATIONS = 5
"""Implementations per problem at most (the original and up to four equivalents)."""
CALLS = 8
"""Calls (CoRE's tests) per implementation at most."""
PROBES = 4
"""Probes per implementation at most."""

_KINDS = ("original", "equivalent")
_EXCLUDED_FAMILIES = ("distractor",)
_TASKS = {
    "core_I": "output",
    "core_Is": "output",
    "I_call": "output",
    "core_W": "probe",
    "core_Ws": "probe",
    "W_call": "probe",
}
"""The task column of each metric's row (core_RCS and core_Cons combine both: task "core")."""
METRICS = ("core_I", "core_Is", "I_call", "core_W", "core_Ws", "W_call", "core_RCS", "core_Cons")


def rank(seed: int, *parts: object) -> str:
    """The sort key of the seeded draws: sha256 of "seed:part:part..." in hex."""
    return hashlib.sha256(":".join(str(p) for p in (seed, *parts)).encode()).hexdigest()


@dataclass(slots=True)
class _Problem:
    """What one problem's samples say, before the budget is drawn."""

    outputs: dict[str, dict[int, dict[int, bool]]] = field(default_factory=dict)
    """variant id -> call index -> sample index -> right"""
    probes: dict[str, dict[str, tuple[int, dict[int, bool]]]] = field(default_factory=dict)
    """variant id -> probe id -> (call index, sample index -> right)"""
    original: str | None = None


@dataclass(frozen=True, slots=True)
class Budget:
    """The items of one problem that CoRE's metrics are computed on.

    Attributes:
        implementations: variant ids, the original first.
        calls: call indices, in draw order.
        probes: variant id -> probe ids (each with its call index) in draw order.
    """

    implementations: tuple[str, ...]
    calls: tuple[int, ...]
    probes: Mapping[str, tuple[tuple[str, int], ...]]


def draw_budget(
    problem_id: str,
    original: str | None,
    variants: Iterable[str],
    calls: Iterable[int],
    probes: Mapping[str, Iterable[tuple[str, int]]],
    seed: int,
) -> Budget:
    """Draw a problem's budget by the module docstring's seeded rule.

    Args:
        problem_id: the problem.
        original: its original variant's id (None when it has no answered sample).
        variants: ids of its answered equivalent variants (not the original).
        calls: the call indices answered on any of them.
        probes: variant id -> (probe id, call index) of its answered probes.
        seed: the seed of the draws.
    """
    others = sorted(set(variants) - {original}, key=lambda v: rank(seed, "impl", v))
    chosen = ([original] if original is not None else []) + others
    chosen = chosen[:IMPLEMENTATIONS]
    ordered = sorted(set(calls), key=lambda c: rank(seed, "call", problem_id, c))[:CALLS]
    position = {c: i for i, c in enumerate(ordered)}
    picked: dict[str, tuple[tuple[str, int], ...]] = {}
    for variant in chosen:
        mine = [(p, c) for p, c in probes.get(variant, ()) if c in position]
        mine.sort(key=lambda pc: (position[pc[1]], rank(seed, "probe", pc[0])))
        picked[variant] = tuple(mine[:PROBES])
    return Budget(tuple(chosen), tuple(ordered), picked)


def _scores(data: _Problem, budget: Budget, index: int) -> dict[str, float]:
    """The problem's metrics (0..1) on sample index `index`; a metric without items is absent."""
    values: dict[str, float] = {}
    per_impl: list[bool] = []
    per_call: dict[int, bool] = {}
    for variant in budget.implementations:
        seen = [
            data.outputs[variant][c][index]
            for c in budget.calls
            if index in data.outputs.get(variant, {}).get(c, {})
        ]
        if seen:
            per_impl.append(all(seen))
        for c in budget.calls:
            right = data.outputs.get(variant, {}).get(c, {}).get(index)
            if right is not None:
                per_call[c] = per_call.get(c, True) and right
    if per_impl:
        values["core_I"] = float(all(per_impl))
        values["core_Is"] = sum(per_impl) / len(per_impl)
        values["I_call"] = sum(per_call.values()) / len(per_call)
    probe_impl: list[bool] = []
    probe_call: dict[int, bool] = {}
    for variant in budget.implementations:
        answers = data.probes.get(variant, {})
        seen_probes: list[bool] = []
        for probe_id, call in budget.probes.get(variant, ()):
            right = answers[probe_id][1].get(index)
            if right is None:
                continue
            seen_probes.append(right)
            probe_call[call] = probe_call.get(call, True) and right
        if seen_probes:
            probe_impl.append(all(seen_probes))
    if probe_impl:
        values["core_W"] = float(all(probe_impl))
        values["core_Ws"] = sum(probe_impl) / len(probe_impl)
        values["W_call"] = sum(probe_call.values()) / len(probe_call)
    if "core_I" in values and "core_Ws" in values:
        values["core_RCS"] = values["core_I"] * values["core_Ws"]
        values["core_Cons"] = 1.0 - (values["core_I"] - values["core_Ws"]) ** 2
    return values


def _collect(ctx: Context) -> dict[str, _Problem]:
    problems: dict[str, _Problem] = defaultdict(_Problem)
    for sample in ctx.samples:
        variant = ctx.variants.get(sample.variant_id)
        if variant is None or variant.kind not in _KINDS:
            continue
        if variant.family in _EXCLUDED_FAMILIES:
            continue
        data = problems[sample.problem_id]
        if variant.kind == "original":
            data.original = variant.id
        if sample.task == "output":
            calls = data.outputs.setdefault(variant.id, {})
            calls.setdefault(sample.call_index, {})[sample.sample_index] = correct(sample)
        elif sample.task == "probe" and sample.probe_id is not None:
            mine = data.probes.setdefault(variant.id, {})
            entry = mine.setdefault(sample.probe_id, (sample.call_index, {}))
            entry[1][sample.sample_index] = correct(sample)
    return problems


def problem_budgets(ctx: Context) -> dict[str, Budget]:
    """The budget of every problem with answered original or equivalent samples."""
    return {pid: _budget(pid, data, ctx.bootstrap.seed) for pid, data in _collect(ctx).items()}


def _budget(problem_id: str, data: _Problem, seed: int) -> Budget:
    variants = set(data.outputs) | set(data.probes)
    calls = {c for calls in data.outputs.values() for c in calls}
    calls |= {c for probes in data.probes.values() for c, _ in probes.values()}
    probes = {v: [(p, c) for p, (c, _) in mine.items()] for v, mine in data.probes.items()}
    return draw_budget(problem_id, data.original, variants, calls, probes, seed)


def core_rows(ctx: Context) -> list[MetricRow]:
    """CoRE's metrics on the budget, per problem, averaged over problems, x100 (module
    docstring); rows in `METRICS` order, then core_budget."""
    per: dict[str, dict[str, float]] = {}
    sizes: list[tuple[int, int, int]] = []
    seed = ctx.bootstrap.seed
    for problem_id, data in sorted(_collect(ctx).items()):
        budget = _budget(problem_id, data, seed)
        indices = sorted(
            {i for calls in data.outputs.values() for s in calls.values() for i in s}
            | {i for probes in data.probes.values() for _, s in probes.values() for i in s}
        )
        found: dict[str, list[float]] = defaultdict(list)
        for index in indices:
            for metric, value in _scores(data, budget, index).items():
                found[metric].append(value)
        if found:
            per[problem_id] = {m: sum(v) / len(v) for m, v in found.items()}
            probes = sum(len(p) for p in budget.probes.values())
            sizes.append((len(budget.implementations), len(budget.calls), probes))
    names = ("implementations", "calls", "probes")
    rows: list[MetricRow] = []
    for metric in METRICS:
        units = [(v[metric], 1.0) for _, v in sorted(per.items()) if metric in v]
        row = ctx.ratio_row(_TASKS.get(metric, "core"), metric, "all", units)
        if row is not None:
            rows.append(row)
    if sizes:
        means = [sum(s[k] for s in sizes) / len(sizes) for k in range(3)]
        means[2] = sum(s[2] / s[0] for s in sizes) / len(sizes)  # per implementation
        for group, mean in zip(names, means, strict=True):
            rows.append(ctx.row("core", "core_budget", group, mean, len(sizes)))
    return rows


def expected_strict(p: float, budgets: Sequence[tuple[int, int, float]]) -> dict[str, float]:
    """Expected core metrics (x100) of a model right on each item with probability `p`,
    errors independent, over problems with the given budget sizes.

    Args:
        p: the chance of a right answer on any one item.
        budgets: per problem, (implementations m, calls n, probes per implementation k).

    Returns:
        core_I = mean p^(m n), core_Is = mean p^n, I_call = mean p^m, core_W = mean p^(m k),
        core_Ws = mean p^k (problems with k > 0), x100.
    """
    if not budgets:
        return {}
    probed = [b for b in budgets if b[2] > 0]
    out = {
        "core_I": 100 * sum(p ** (m * n) for m, n, _ in budgets) / len(budgets),
        "core_Is": 100 * sum(p**n for _, n, _ in budgets) / len(budgets),
        "I_call": 100 * sum(p**m for m, _, _ in budgets) / len(budgets),
    }
    if probed:
        out["core_W"] = 100 * sum(p ** (m * k) for m, _, k in probed) / len(probed)
        out["core_Ws"] = 100 * sum(p**k for _, _, k in probed) / len(probed)
    return out


METRIC = Metric(
    core_rows,
    {
        "core_I": "CoRE's I: share of problems with every output right on every implementation "
        "(original + up to 4 equivalents, up to 8 calls each)",
        "core_Is": "CoRE's Is: share of a problem's implementations with all their outputs "
        "right, averaged over problems",
        "I_call": "share of calls on which every implementation's output is right, per problem",
        "core_W": "CoRE's W: share of problems with every probe (4 per implementation) right",
        "core_Ws": "CoRE's Ws: share of a problem's implementations with all their probes "
        "right, averaged over problems",
        "W_call": "share of calls on which every implementation's probes are right, per problem",
        "core_RCS": "CoRE's RCS = I x Ws per problem: right outputs backed by right states",
        "core_Cons": "CoRE's Cons = 1 - (I - Ws)^2 per problem: agreement of core_I and core_Ws "
        "(high too when both are low: read it beside them)",
        "core_budget": "CoRE budget actually used: mean implementations, calls, probes per "
        "implementation per problem (CoRE: 4.3, 7.8, 4.1); counts, not percentages",
    },
)

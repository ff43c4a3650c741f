"""Robustness gap: accuracy on originals minus accuracy on equivalent variants, same calls,
overall (composed variants), per transform (single-transform variants) and per family."""

from __future__ import annotations

from collections import defaultdict

from core_bench.metrics._data import Context, Metric, correct
from core_bench.metrics._stats import mcnemar
from core_bench.schemas import MetricRow, Variant

SEPARATE_FAMILIES = ("distractor",)
"""Families never mixed into the overall gap ("all"); they have their own "family:F" rows."""


def _groups(variant: Variant) -> list[str]:
    """The robustness groups an equivalent variant's pairs count in (see `robustness_rows`)."""
    groups: list[str] = []
    if variant.family not in SEPARATE_FAMILIES and not variant.single:
        groups.append("all")
    if variant.single and len(variant.chain) == 1:
        groups.append(variant.chain[0])
    if variant.family is not None:
        groups.append(f"family:{variant.family}")
    return groups


def robustness_rows(ctx: Context) -> list[MetricRow]:
    """robustness_gap (x100, bootstrap CI by problem) and mcnemar_p per group.

    A pair is (the original's sample, an equivalent variant's sample) of the same problem, task
    (output or input), call and sample index. The variant's record says which groups the pair
    counts in (issue 9's factorial design):

    - "all": composed variants (`Variant.single` False) outside the `distractor` family: the
      overall gap;
    - a transform's name T: single-transform variants whose chain is [T] only, so each
      transform's gap is its own (not confounded with renaming or with the rest of a chain);
      a renaming style's single variants give renaming its own rows;
    - "family:F": every variant of family F (`Variant.family`: rewrite, idiom, rename,
      distractor, reimplementation), single or composed: each family is an axis of its own,
      distractor variants only there.

    The gap is the original's accuracy minus the variant's over the group's pairs (an original
    sample appears in one pair per variant of the group). mcnemar_p is McNemar's two-sided
    test on the pairs' discordant counts (exact up to 1000, treating pairs as independent,
    which they are not quite when an original pairs with several variants). n = problems for
    the gap, pairs for the p-value.
    """
    rows: list[MetricRow] = []
    for task in ("output", "input"):
        originals: dict[tuple[str, int, int], bool] = {}
        for sample in ctx.samples:
            if sample.task == task and ctx.kind(sample) == "original":
                key = (sample.problem_id, sample.call_index, sample.sample_index)
                originals[key] = correct(sample)
        # group -> problem -> [sum(original - variant), pairs, b, c]
        groups: dict[str, dict[str, list[int]]] = defaultdict(dict)
        for sample in ctx.samples:
            if sample.task != task or ctx.kind(sample) != "equivalent":
                continue
            key = (sample.problem_id, sample.call_index, sample.sample_index)
            if key not in originals:
                continue
            orig, var = originals[key], correct(sample)
            for group in _groups(ctx.variants[sample.variant_id]):
                tally = groups[group].setdefault(sample.problem_id, [0, 0, 0, 0])
                tally[0] += int(orig) - int(var)
                tally[1] += 1
                tally[2] += orig and not var
                tally[3] += var and not orig
        for group, problems in sorted(groups.items(), key=lambda g: (g[0] != "all", g[0])):
            units = [(float(t[0]), float(t[1])) for _, t in sorted(problems.items())]
            row = ctx.ratio_row(task, "robustness_gap", group, units)
            if row is not None:
                rows.append(row)
            b = sum(t[2] for t in problems.values())
            c = sum(t[3] for t in problems.values())
            pairs = sum(t[1] for t in problems.values())
            rows.append(ctx.row(task, "mcnemar_p", group, mcnemar(b, c), pairs))
    return rows


METRIC = Metric(
    robustness_rows,
    {
        "robustness_gap": "accuracy on originals minus on their equivalent variants, same calls "
        "(> 0: rewriting the code hurts); all = composed variants, a transform = its single "
        "variants, family:F = that family",
        "mcnemar_p": "McNemar's p-value of the original/variant pairs (small: the gap is real)",
    },
)

"""Robustness gap: accuracy on originals minus accuracy on equivalent variants, same calls."""

from __future__ import annotations

from collections import defaultdict

from core_bench.metrics._data import Context, correct
from core_bench.metrics._stats import mcnemar
from core_bench.schemas import MetricRow


def robustness_rows(ctx: Context) -> list[MetricRow]:
    """robustness_gap (x100, bootstrap CI by problem) and mcnemar_p per transform and "all".

    A pair is (the original's sample, an equivalent variant's sample) of the same problem, task
    (output or input), call and sample index. Group "all" holds every pair; group T holds the
    pairs whose variant has T in its chain (a variant counts once per transform it applies).
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
            chain = ctx.variants[sample.variant_id].chain
            for group in ("all", *dict.fromkeys(chain)):
                tally = groups[group].setdefault(sample.problem_id, [0, 0, 0, 0])
                tally[0] += int(orig) - int(var)
                tally[1] += 1
                tally[2] += orig and not var
                tally[3] += var and not orig
        for group, problems in sorted(groups.items()):
            units = [(float(t[0]), float(t[1])) for _, t in sorted(problems.items())]
            row = ctx.ratio_row(task, "robustness_gap", group, units)
            if row is not None:
                rows.append(row)
            b = sum(t[2] for t in problems.values())
            c = sum(t[3] for t in problems.values())
            pairs = sum(t[1] for t in problems.values())
            rows.append(ctx.row(task, "mcnemar_p", group, mcnemar(b, c), pairs))
    return rows

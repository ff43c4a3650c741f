"""CoRE's per-problem metrics: I, Is, W, Ws, RCS, Cons (x100, averaged over problems)."""

from __future__ import annotations

from collections import defaultdict

from core_bench.metrics._data import Context, correct
from core_bench.schemas import MetricRow

_KINDS = ("original", "equivalent")
_TASKS = {"I": "output", "Is": "output", "W": "probe", "Ws": "probe"}
"""The task column of each metric's row (RCS and Cons combine both: task "core")."""


def core_rows(ctx: Context) -> list[MetricRow]:
    """CoRE's metrics per problem, then averaged over problems and reported x100.

    Over the samples of a problem's original and equivalent variants (mutants excluded: their
    answers differ by design), every call and sample index:

    - Is: the fraction of its output-prediction samples that are correct.
    - I: 1 when all of them are correct, else 0.
    - Ws: the fraction of its probe samples (task "probe"; full traces excluded) that are
      correct.
    - W: 1 when all of them are correct, else 0.
    - RCS: I x Ws.
    - Cons: 1 - (I - Ws)^2, so that its mean is 1 - MSE(I, Ws).

    I and Is are over problems with output samples, W and Ws over problems with probe samples,
    RCS and Cons over problems with both. Each row has a bootstrap interval resampled by
    problem; n = problems.
    """
    outputs: dict[str, list[bool]] = defaultdict(list)
    probes: dict[str, list[bool]] = defaultdict(list)
    for sample in ctx.samples:
        if ctx.kind(sample) not in _KINDS:
            continue
        if sample.task == "output":
            outputs[sample.problem_id].append(correct(sample))
        elif sample.task == "probe":
            probes[sample.problem_id].append(correct(sample))
    per: dict[str, dict[str, float]] = defaultdict(dict)
    for problem, seen in outputs.items():
        per[problem]["Is"] = sum(seen) / len(seen)
        per[problem]["I"] = float(all(seen))
    for problem, seen in probes.items():
        per[problem]["Ws"] = sum(seen) / len(seen)
        per[problem]["W"] = float(all(seen))
    for values in per.values():
        if "I" in values and "Ws" in values:
            values["RCS"] = values["I"] * values["Ws"]
            values["Cons"] = 1.0 - (values["I"] - values["Ws"]) ** 2
    rows: list[MetricRow] = []
    for metric in ("I", "Is", "W", "Ws", "RCS", "Cons"):
        units = [(v[metric], 1.0) for _, v in sorted(per.items()) if metric in v]
        row = ctx.ratio_row(_TASKS.get(metric, "core"), metric, "all", units)
        if row is not None:
            rows.append(row)
    return rows

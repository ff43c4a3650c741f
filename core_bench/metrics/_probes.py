"""Probe accuracy by kind, by dimension and by position in the trace."""

from __future__ import annotations

from collections import defaultdict

from core_bench.metrics._data import Context, Metric, Tally, correct
from core_bench.schemas import MetricRow, Probe

POSITION_BUCKETS = ((0, 4), (5, 9), (10, 19), (20, 49))
"""Buckets of `features.step_index` (inclusive bounds); later steps fall in "50+"."""


def position_bucket(step_index: int) -> str:
    """The bucket name of a trace step, e.g. "5-9" or "50+"."""
    for low, high in POSITION_BUCKETS:
        if step_index <= high:
            return f"{low}-{high}"
    return f"{POSITION_BUCKETS[-1][1] + 1}+"


def _groups(probe: Probe) -> list[tuple[str, str]]:
    return [
        ("accuracy_by_kind", probe.kind),
        *(("accuracy_by_dimension", d) for d in dict.fromkeys(probe.dimensions)),
        ("accuracy_by_position", position_bucket(probe.features.step_index)),
    ]


def probe_rows(ctx: Context) -> list[MetricRow]:
    """Accuracy x100 of probe samples (task "probe", every variant kind) per group.

    Metrics: accuracy_by_kind (group = probe kind), accuracy_by_dimension (group = CoRE
    dimension; a probe counts in each of its dimensions), accuracy_by_position (group = bucket
    of the probe's `features.step_index`, see `POSITION_BUCKETS`). Intervals are bootstrapped
    by problem; n = samples.
    """
    tallies: dict[tuple[str, str], Tally] = defaultdict(Tally)
    for sample in ctx.samples:
        if sample.task != "probe" or sample.probe_id is None:
            continue
        probe = ctx.probes.get(sample.probe_id)
        if probe is None:
            continue
        for key in _groups(probe):
            tallies[key].add(sample.problem_id, correct(sample))
    ordered = sorted(tallies.items())
    rows = (ctx.share_row("probe", metric, group, tally) for (metric, group), tally in ordered)
    return [row for row in rows if row is not None]


METRIC = Metric(
    probe_rows,
    {
        "accuracy_by_kind": "probe accuracy per probe kind",
        "accuracy_by_dimension": "probe accuracy per CoRE dimension",
        "accuracy_by_position": "probe accuracy per bucket of the probe's step in the trace",
    },
)

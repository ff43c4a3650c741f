"""One line per metric, shown beside its number, and the headline table's rows.

The lines are the metric modules' own (`core_bench.metrics.MEANING`, which each metric module
declares in its `METRIC`); the headline is the report's choice of them.
"""

from __future__ import annotations

from core_bench.metrics import MEANING

HEADLINE: tuple[tuple[str, str, str, str, str], ...] = (
    (
        "output pass@1",
        "output",
        "pass@1",
        "original",
        "share of calls whose return value is predicted right (CRUXEval-O), original functions",
    ),
    (
        "input pass@1",
        "input",
        "pass@1",
        "original",
        "share of calls for which the predicted input gives the output (CRUXEval-I), originals",
    ),
    (
        "robustness gap (output)",
        "output",
        "robustness_gap",
        "all",
        "output accuracy on originals minus on composed equivalent variants (> 0: rewriting hurts)",
    ),
    ("core_I", "output", "core_I", "all", MEANING["core_I"]),
    ("core_Ws", "probe", "core_Ws", "all", MEANING["core_Ws"]),
    ("core_Cons", "core", "core_Cons", "all", MEANING["core_Cons"]),
    (
        "probe accuracy",
        "probe",
        "accuracy",
        "all",
        "share of intermediate-state questions (probes) answered right; the full_trace "
        "question is not one of them (next row)",
    ),
    (
        "full trace accuracy",
        "full_trace",
        "accuracy",
        "all",
        "share of full_trace questions answered right: every line the call runs, in order, "
        "with the values each run of a line changes",
    ),
    ("IC", "core", "IC", "all", MEANING["IC"]),
    ("IC_all_wrong", "core", "IC_all_wrong", "all", MEANING["IC_all_wrong"]),
)
"""The headline table's rows: (label, task, metric, group, meaning); core_Cons sits beside the
core_I and core_Ws it comes from, IC_all_wrong beside IC (the share of IC's units that no
answer of the model got right)."""

FEW_ITEMS = 30
"""A figure over fewer units (n: problems or samples, as the metric counts) is marked "few":
its interval is wide and its value moves with a handful of items."""


def meaning(metric: str) -> str:
    """The one-line meaning of a metric ("" when it has none)."""
    return MEANING.get(metric, "")

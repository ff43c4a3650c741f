"""One line per metric, shown beside its number, and the headline table's rows."""

from __future__ import annotations

MEANING = {
    "accuracy": "share of answers graded correct (failed and unparseable answers count wrong)",
    "pass@1": "share of calls answered right by one sample, on the original functions",
    "pass@5": "chance that at least one of 5 samples is right, on the original functions",
    "pass@10": "chance that at least one of 10 samples is right, on the original functions",
    "robustness_gap": "accuracy on originals minus on their equivalent variants, same calls "
    "(> 0: rewriting the code hurts); all = composed variants, a transform = its single "
    "variants, family:F = that family",
    "mcnemar_p": "McNemar's p-value of the original/variant pairs (small: the gap is real)",
    "core_I": "CoRE's I: share of problems with every output right on every implementation "
    "(original + up to 4 equivalents, up to 8 calls each)",
    "core_Is": "CoRE's Is: share of a problem's implementations with all their outputs right, "
    "averaged over problems",
    "I_call": "share of calls on which every implementation's output is right, per problem",
    "core_W": "CoRE's W: share of problems with every probe (4 per implementation) right",
    "core_Ws": "CoRE's Ws: share of a problem's implementations with all their probes right, "
    "averaged over problems",
    "W_call": "share of calls on which every implementation's probes are right, per problem",
    "core_RCS": "CoRE's RCS = I x Ws per problem: right outputs backed by right states",
    "core_Cons": "CoRE's Cons = 1 - (I - Ws)^2 per problem: agreement of core_I and core_Ws "
    "(high too when both are low: read it beside them)",
    "core_budget": "CoRE budget actually used: mean implementations, calls, probes per "
    "implementation per problem (CoRE: 4.3, 7.8, 4.1); counts, not percentages",
    "IC": "REval's incremental consistency score per (variant, call) unit with coverage, "
    "state, path and output answers: 1 all right, 0.5 / 0.25 / 0.125 when only the first "
    "3 / 2 / 1 are, 0 otherwise (a right answer after a wrong one, or none right)",
    "IC_consistent": "share of units whose answers never turn right after a wrong one "
    "(high too when every answer is wrong: read it beside IC_all_wrong)",
    "IC_all_wrong": "share of IC's units with every answer wrong (consistent only vacuously; "
    "a model that knows nothing scores high here)",
    "IC_consistent_any_right": "IC_consistent over the units with at least one right answer",
    "superficial_rate": "of the right outputs, share whose probes are wrong (superficial "
    "execution)",
    "coherence": "share of units in each cell of output right/wrong x probes right/wrong",
    "accuracy_by_kind": "probe accuracy per probe kind",
    "accuracy_by_dimension": "probe accuracy per CoRE dimension",
    "accuracy_by_position": "probe accuracy per bucket of the probe's step in the trace",
    "mutant_sensitivity": "on mutants whose output differs, share answered with the mutant's "
    "output (the model reads the code)",
    "mutant_stale": "on mutants whose output differs, share answered with the original's "
    "output (the model recognises the shape)",
    "trace_precision": "share of the states the model's trace claims that the real trace has",
    "trace_recall": "share of the real trace's states that the model's trace claims",
    "trace_faithful": "share of traces whose steps equal the real ones, in order",
    "trace_first_divergence": "mean step at which the model's trace first goes wrong (a count)",
}
"""metric name -> what it measures, in one line."""

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
        "share of intermediate-state questions (probes) answered right",
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

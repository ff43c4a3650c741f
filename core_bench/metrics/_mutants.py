"""Mutant sensitivity: does the model's answer follow the code when a mutant changes the result?"""

from __future__ import annotations

from core_bench.benchmark import Benchmark, literal_output
from core_bench.grading import grade_value
from core_bench.metrics._data import Context, Metric, MutantOutputs, Tally, correct
from core_bench.schemas import MetricRow


def stored_mutant_outputs(benchmark: Benchmark) -> MutantOutputs:
    """The mutants' outputs the build stored (`Variant.outputs`), literal ones only."""
    found: dict[tuple[str, int], str | None] = {}
    for variant in benchmark.variants:
        if variant.kind == "mutant":
            for index, stored in enumerate(variant.outputs):
                found[(variant.id, index)] = literal_output(stored)
    return found


def _same(answer: str | None, expected: str) -> bool:
    try:
        return answer is not None and grade_value(answer, expected)[0] == "correct"
    except ValueError:
        return False


def mutant_rows(ctx: Context) -> list[MetricRow]:
    """mutant_sensitivity and mutant_stale x100 on output prediction.

    Over output samples of mutant variants on calls whose mutant output differs from the
    original's (`ctx.mutant_outputs` gives the mutant's, `ctx.originals` the problem's outputs
    by problem id):
    mutant_sensitivity is the percentage whose answer is the mutant's output (the sample is
    correct); mutant_stale the percentage whose answer is the original's output (the model
    answered from the code's shape). Intervals are bootstrapped by problem; n = samples.
    """
    outputs, originals = ctx.mutant_outputs, ctx.originals
    tallies = {"mutant_sensitivity": Tally(), "mutant_stale": Tally()}
    for sample in ctx.samples:
        if sample.task != "output" or ctx.kind(sample) != "mutant":
            continue
        mutant = outputs.get((sample.variant_id, sample.call_index))
        known = originals.get(sample.problem_id)
        if mutant is None or known is None or sample.call_index >= len(known):
            continue
        original = known[sample.call_index]
        if _same(mutant, original):
            continue
        for name, hit in (
            ("mutant_sensitivity", correct(sample)),
            ("mutant_stale", _same(sample.answer, original)),
        ):
            tallies[name].add(sample.problem_id, hit)
    rows = (ctx.share_row("output", name, "all", tally) for name, tally in tallies.items())
    return [row for row in rows if row is not None]


METRIC = Metric(
    mutant_rows,
    {
        "mutant_sensitivity": "on mutants whose output differs, share answered with the "
        "mutant's output (the model reads the code)",
        "mutant_stale": "on mutants whose output differs, share answered with the original's "
        "output (the model recognises the shape)",
    },
)

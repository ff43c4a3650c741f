"""What the viewer shows, as plain JSON values: an index of problems and one record per problem.

Everything comes from the run directories (samples.jsonl, manifest.json) and the benchmark they
name; the real traces of `trace`-strategy samples are traced again in the sandbox, as grading
does. Model text goes into these values as it is: the page only ever puts it in the DOM as text.
"""

from __future__ import annotations

import difflib
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from core_bench.benchmark import Benchmark
from core_bench.metrics import claimed_trace, parse_steps
from core_bench.report import RunData
from core_bench.schemas import Probe, Problem, Sample, Variant

TraceSource = Callable[[list[tuple[str, str]]], list[str | None]]
"""Given (code, call) pairs, the real trace of each rendered as `Trace.render("core")`, or
None where the call could not be traced."""

MAX_RESPONSE = 20_000
"""Characters of a response the viewer keeps (the rest is cut with a mark)."""


@dataclass(slots=True)
class ViewData:
    """The viewer's data.

    Attributes:
        index: one entry per problem for the list and its filters.
        problems: problem id -> everything the problem's page shows.
        models: the run labels, in the order given.
        facets: the values each filter offers.
    """

    index: list[dict[str, Any]]
    problems: dict[str, dict[str, Any]]
    models: list[str]
    facets: dict[str, list[str]]


def collect(runs: list[RunData], traces: TraceSource | None = None) -> ViewData:
    """Join the runs' samples with their benchmark, problem by problem.

    Args:
        runs: run directories as `core_bench.report.load_runs` reads them.
        traces: traces (code, call) pairs for the `trace` strategy's comparison; None leaves
            the real traces out.

    Raises:
        ValueError: no run has a readable benchmark.
    """
    benchmark = next((r.benchmark for r in runs if r.benchmark is not None), None)
    if benchmark is None:
        notes = "; ".join(note for r in runs for note in r.notes) or "no benchmark"
        raise ValueError(f"no run has a readable benchmark ({notes})")
    variants: dict[str, list[Variant]] = defaultdict(list)
    for variant in benchmark.variants:
        variants[variant.problem_id].append(variant)
    probes = {p.id: p for p in benchmark.probes}
    samples: dict[str, list[tuple[str, Sample]]] = defaultdict(list)
    for run in runs:
        if run.benchmark is None:
            continue
        for sample in cast("list[Sample]", run.samples):  # load_runs(full_samples=True)
            samples[sample.problem_id].append((run.label, sample))
    real = _real_traces(benchmark, samples, traces)
    index: list[dict[str, Any]] = []
    pages: dict[str, dict[str, Any]] = {}
    facets: dict[str, set[str]] = defaultdict(set)
    for problem in benchmark.problems:
        mine = variants[problem.id]
        family_of = {v.id: _family(v) for v in mine}
        rows = [_sample_row(label, s, probes, family_of, real) for label, s in samples[problem.id]]
        signature = Counter(
            (r["model"], r["task"], r["strategy"], r["verdict"], r["family"], r["probe_kind"])
            for r in rows
        )
        for model, task, strategy, verdict, family, kind in signature:
            facets["model"].add(model)
            facets["task"].add(task)
            facets["strategy"].add(strategy)
            facets["verdict"].add(verdict)
            facets["family"].add(family)
            if kind:
                facets["probe_kind"].add(kind)
        index.append(
            {
                "id": problem.id,
                "source": problem.source,
                "variants": len(mine),
                "samples": len(rows),
                "correct": sum(r["verdict"] == "correct" for r in rows),
                "signature": [[*key, count] for key, count in sorted(signature.items())],
            }
        )
        pages[problem.id] = _page(problem, mine, rows, benchmark)
    models = [r.label for r in runs]
    return ViewData(
        index=index,
        problems=pages,
        models=models,
        facets={k: sorted(v) for k, v in sorted(facets.items())},
    )


def _family(variant: Variant) -> str:
    if variant.kind == "original":
        return "original"
    if variant.kind == "mutant":
        return "mutant"
    return variant.family or "rewrite"


def _sample_row(
    label: str,
    sample: Sample,
    probes: dict[str, Probe],
    family_of: dict[str, str],
    real: dict[tuple[str, int], str],
) -> dict[str, Any]:
    probe = probes.get(sample.probe_id) if sample.probe_id else None
    response = sample.response
    if len(response) > MAX_RESPONSE:
        response = response[:MAX_RESPONSE] + f"\n...<cut: {len(sample.response):,} characters>"
    row: dict[str, Any] = {
        "model": label,
        "task": sample.task,
        "strategy": sample.strategy,
        "variant": sample.variant_id,
        "family": family_of.get(sample.variant_id, "?"),
        "call": sample.call_index,
        "sample": sample.sample_index,
        "probe": sample.probe_id,
        "probe_kind": probe.kind if probe is not None else "",
        "question": probe.question if probe is not None else "",
        "expected": probe.answer if probe is not None else None,
        "answer": sample.answer,
        "verdict": sample.verdict,
        "reason": sample.reason,
        "response": response,
    }
    if sample.strategy == "trace" and sample.task in ("output", "input"):
        truth = real.get((sample.variant_id, sample.call_index))
        if truth is not None:
            row["trace"] = _trace_pair(sample.response, truth)
    return row


def _trace_pair(response: str, truth: str) -> dict[str, Any]:
    """The model's trace lines and the real ones, and the index (in each list of lines) of the
    first step where they differ (None when they agree)."""
    claimed_text = claimed_trace(response) or ""
    claimed = [line for line in claimed_text.splitlines() if line.strip()]
    real = [line for line in truth.splitlines() if line.strip()]
    mine = [(i, parse_steps(line)) for i, line in enumerate(claimed)]
    theirs = [(i, parse_steps(line)) for i, line in enumerate(real)]
    mine_steps = [(i, sorted(s[0])) for i, s in mine if s]
    real_steps = [(i, sorted(s[0])) for i, s in theirs if s]
    first: tuple[int | None, int | None] = (None, None)
    for (ci, cs), (ri, rs) in zip(mine_steps, real_steps, strict=False):
        if cs != rs:
            first = (ci, ri)
            break
    else:
        if len(mine_steps) != len(real_steps):
            shorter = min(len(mine_steps), len(real_steps))
            first = (
                mine_steps[shorter][0] if shorter < len(mine_steps) else None,
                real_steps[shorter][0] if shorter < len(real_steps) else None,
            )
    return {"claimed": claimed, "real": real, "diverge": list(first)}


def _page(
    problem: Problem, variants: list[Variant], rows: list[dict[str, Any]], benchmark: Benchmark
) -> dict[str, Any]:
    original = next((v for v in variants if v.kind == "original"), None)
    base = original.code if original is not None else problem.code
    return {
        "id": problem.id,
        "source": problem.source,
        "entry": problem.entry,
        "calls": [
            {"call": c, "output": o} for c, o in zip(problem.calls, problem.outputs, strict=True)
        ],
        "variants": [
            {
                "id": v.id,
                "kind": v.kind,
                "family": _family(v),
                "chain": v.chain,
                "single": v.single,
                "jaccard": v.jaccard,
                "code": v.code,
                "changed": _changed_lines(base, v.code),
            }
            for v in variants
        ],
        "samples": rows,
        "dataset": benchmark.manifest.dataset.name,
    }


def _changed_lines(before: str, after: str) -> dict[str, list[int]]:
    """0-based lines of `before` removed or replaced and of `after` added or replacing."""
    old, new = before.splitlines(), after.splitlines()
    removed: list[int] = []
    added: list[int] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new).get_opcodes():
        if tag != "equal":
            removed.extend(range(i1, i2))
            added.extend(range(j1, j2))
    return {"before": removed, "after": added}


def _real_traces(
    benchmark: Benchmark,
    samples: dict[str, list[tuple[str, Sample]]],
    traces: TraceSource | None,
) -> dict[tuple[str, int], str]:
    if traces is None:
        return {}
    by_id = {v.id: v for v in benchmark.variants}
    problems = {p.id: p for p in benchmark.problems}
    wanted: dict[tuple[str, int], tuple[str, str]] = {}
    for items in samples.values():
        for _, sample in items:
            if sample.strategy != "trace" or sample.task not in ("output", "input"):
                continue
            variant = by_id.get(sample.variant_id)
            problem = problems.get(sample.problem_id)
            if variant is None or problem is None or sample.call_index >= len(problem.calls):
                continue
            wanted[(variant.id, sample.call_index)] = (
                variant.code,
                problem.calls[sample.call_index],
            )
    keys = sorted(wanted)
    found = traces([wanted[key] for key in keys]) if keys else []
    return {key: text for key, text in zip(keys, found, strict=True) if text is not None}


def sandbox_traces(pool: Any, timeout_s: float) -> TraceSource:
    """A `TraceSource` that traces in `pool` (a `tracer.SandboxPool`), one batch per code."""

    def trace_all(pairs: list[tuple[str, str]]) -> list[str | None]:
        by_code: dict[str, list[int]] = defaultdict(list)
        for position, (code, _) in enumerate(pairs):
            by_code[code].append(position)
        jobs = [(code, [pairs[i][1] for i in positions]) for code, positions in by_code.items()]
        results: list[str | None] = [None] * len(pairs)
        for positions, outcomes in zip(
            by_code.values(), pool.map(jobs, timeout_s=timeout_s, trace=True), strict=True
        ):
            for position, outcome in zip(positions, outcomes, strict=True):
                if outcome.trace is not None:
                    results[position] = outcome.trace.render("core")
        return results

    return trace_all

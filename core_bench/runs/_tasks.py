"""Turning a benchmark into tasks: task kind x strategy (x sample, at run time).

Output and input prediction are asked of every (variant, call) pair, originals included;
every probe of the benchmark is a task of the kind its probe kind's registry row names
(`core_bench.probes.task_kind`: "probe", or a task kind of its own). Task ids are stable and
readable:

    direct/output/cb-001:eq1:c3          output prediction, variant cb-001:eq1, call 3
    cot/probe/<probe id>                 a probe question, chain-of-thought strategy
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from core_bench.benchmark import Benchmark, literal_output
from core_bench.probes import PROBE_TASK_KINDS, task_kind
from core_bench.schemas import Probe, Problem, Strategy, TaskKind, Variant

TASK_KINDS: tuple[TaskKind, ...] = ("output", "input", *PROBE_TASK_KINDS)
STRATEGIES: tuple[Strategy, ...] = ("direct", "cot", "trace")


@dataclass(slots=True, eq=False)
class Task:
    """One question put to a model (sampled `--samples` times). Treat it as read-only (not
    frozen only because building hundreds of thousands of frozen instances is slow).

    Attributes:
        id: stable id, "<strategy>/<kind>/<variant id>:c<call index>" or
            "<strategy>/<kind>/<probe id>".
        kind: one of `TASK_KINDS`.
        strategy: "direct", "cot" or "trace".
        problem_id, variant_id, call_index: what the task is about.
        variant_kind: "original", "equivalent" or "mutant".
        code: the variant's source.
        entry: the name of the function the call calls.
        call: the call expression, e.g. "f('abc')".
        output: repr of what the call returns on this variant.
        probe: the probe asked, for the task kinds of probes (`PROBE_TASK_KINDS`).
        original_output: repr of what the call returns on the original (differs from
            `output` on a mutant where the mutant changes the result).
    """

    id: str
    kind: TaskKind
    strategy: Strategy
    problem_id: str
    variant_id: str
    variant_kind: str
    call_index: int
    code: str
    entry: str
    call: str
    output: str
    original_output: str
    probe: Probe | None = None

    @property
    def expected(self) -> str:
        """The reference answer: the output repr, or the probe's answer."""
        return self.probe.answer if self.probe is not None else self.output

    @property
    def probe_id(self) -> str | None:
        """The probe's id, or None for output and input tasks."""
        return self.probe.id if self.probe is not None else None


MutantOutputs = Callable[[Sequence[tuple[str, Sequence[str]]]], list[list[str | None]]]
"""Given (code, calls) pairs, the repr of each call's return value (None when the call does not
return a literal value): how the outputs of mutants, which differ from the problem's, are
found."""


def output_task_id(strategy: str, kind: str, variant_id: str, call_index: int) -> str:
    """The id of an output or input task."""
    return f"{strategy}/{kind}/{variant_id}:c{call_index}"


def make_tasks(
    benchmark: Benchmark,
    *,
    kinds: Iterable[TaskKind] = TASK_KINDS,
    strategies: Iterable[Strategy] = ("direct",),
    limit: int | None = None,
    mutant_outputs: MutantOutputs | None = None,
) -> list[Task]:
    """Every task of `benchmark` for the given kinds and strategies, sorted by id.

    Args:
        benchmark: the benchmark read by `load_benchmark`.
        kinds: task kinds to include.
        strategies: strategies to include.
        limit: only the first N problems (in the order of problems.jsonl).
        mutant_outputs: finds the outputs of mutant variants (by running them) when the
            benchmark does not hold them (`Variant.outputs`, filled by builds since schema 2);
            without either, mutants get no output or input tasks. A mutant call that does not
            return a literal value gets none either.
    """
    wanted = set(kinds)
    chosen = benchmark.problems[:limit] if limit is not None else benchmark.problems
    problems = {p.id: p for p in chosen}
    variants = [v for v in benchmark.variants if v.problem_id in problems]
    outputs = _variant_outputs(problems, variants, mutant_outputs)
    by_variant = {v.id: v for v in variants}
    tasks: list[Task] = []
    for strategy in strategies:
        if wanted & {"output", "input"}:
            for variant in variants:
                problem = problems[variant.problem_id]
                for index, output in enumerate(outputs[variant.id]):
                    if output is None:
                        continue
                    for kind in ("output", "input"):
                        if kind in wanted:
                            tasks.append(
                                _task(kind, strategy, problem, variant, index, output, None)
                            )
        if wanted.intersection(PROBE_TASK_KINDS):
            for probe in benchmark.probes:
                kind = task_kind(probe.kind)
                owner = by_variant.get(probe.variant_id)
                if kind not in wanted or owner is None:
                    continue
                problem = problems[owner.problem_id]
                output = outputs[owner.id][probe.call_index]
                tasks.append(_task(kind, strategy, problem, owner, probe.call_index, output, probe))
    tasks.sort(key=lambda t: t.id)
    return tasks


def _task(
    kind: TaskKind,
    strategy: Strategy,
    problem: Problem,
    variant: Variant,
    index: int,
    output: str | None,
    probe: Probe | None,
) -> Task:
    base = probe.id if probe is not None else f"{variant.id}:c{index}"
    return Task(
        id=f"{strategy}/{kind}/{base}",
        kind=kind,
        strategy=strategy,
        problem_id=problem.id,
        variant_id=variant.id,
        variant_kind=variant.kind,
        call_index=index,
        code=variant.code,
        entry=problem.entry,
        call=problem.calls[index],
        output=output if output is not None else problem.outputs[index],
        original_output=problem.outputs[index],
        probe=probe,
    )


def _variant_outputs(
    problems: Mapping[str, Problem],
    variants: Sequence[Variant],
    mutant_outputs: MutantOutputs | None,
) -> dict[str, list[str | None]]:
    """Outputs per variant: the problem's for originals and verified equivalents, the stored
    ones for mutants (else found by `mutant_outputs`)."""
    outputs: dict[str, list[str | None]] = {}
    mutants: list[Variant] = []
    for variant in variants:
        calls = len(problems[variant.problem_id].calls)
        if variant.kind != "mutant":
            outputs[variant.id] = list(problems[variant.problem_id].outputs)
        elif len(variant.outputs) == calls:
            outputs[variant.id] = [literal_output(o) for o in variant.outputs]
        else:
            mutants.append(variant)
    if mutants and mutant_outputs is not None:
        jobs = [(v.code, problems[v.problem_id].calls) for v in mutants]
        for variant, results in zip(mutants, mutant_outputs(jobs), strict=True):
            outputs[variant.id] = list(results)
    else:
        for variant in mutants:
            outputs[variant.id] = [None] * len(problems[variant.problem_id].calls)
    return outputs


def code_call_key(code: str, call: str) -> str:
    """A key for one (code, call) pair, for memoising what running it gives."""
    return hashlib.sha256(f"{code}\0{call}".encode()).hexdigest()

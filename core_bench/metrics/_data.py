"""What every metric needs: the samples of one (model, strategy), with their benchmark records."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from core_bench.benchmark import Benchmark
from core_bench.metrics._stats import Bootstrap
from core_bench.schemas import MetricRow, Probe, Sample, Strategy, TaskKind, Variant, Verdict


@dataclass(slots=True)
class GradedSample:
    """What the metrics and the usage counts read of a `Sample` (same field names).

    `response` and `answer` are kept only where a metric reads them (the claimed trace of an
    output or input sample of the `trace` strategy; the answer of an output sample); elsewhere
    they are "" and None. `prompt_hash` and `reason` are not kept. `task`, `strategy` and
    `verdict` hold the schema's literals (`read_graded` validates each line as a `Sample`).
    """

    task_id: str
    task: TaskKind
    strategy: Strategy
    problem_id: str
    variant_id: str
    probe_id: str | None
    call_index: int
    sample_index: int
    answer: str | None
    verdict: Verdict
    response: str
    finish_reason: str | None
    truncated: bool
    prompt_tokens: int | None
    completion_tokens: int | None


Graded = Sample | GradedSample
"""What the metrics read of a graded sample: a `core_bench.schemas.Sample`, or the lighter
`GradedSample` with the same fields (a run reads its samples.jsonl back into those)."""


MutantOutputs = Mapping[tuple[str, int], str | None]
"""(variant id, call index) -> repr of a mutant's output on that call (None: not a literal)."""

Traces = Mapping[tuple[str, int], str]
"""(variant id, call index) -> the real trace of that call, rendered "core"."""


@dataclass(slots=True)
class Context:
    """The samples of one strategy and what the metrics look up about them.

    Attributes:
        model: the model spec written into every row.
        strategy: the strategy of every sample in `samples`.
        samples: the strategy's samples.
        variants: the benchmark's variants by id.
        probes: the benchmark's probes by id.
        bootstrap: the resampler of every interval (seeded).
        originals: the problems' outputs (reprs) by problem id.
        mutant_outputs: the mutants' outputs (see `MutantOutputs`).
        traces: the real traces of the calls asked with the `trace` strategy; None when they
            are not given (then there are no trace-faithfulness rows).
    """

    model: str
    strategy: str
    samples: Sequence[Graded]
    variants: dict[str, Variant]
    probes: dict[str, Probe]
    bootstrap: Bootstrap
    originals: Mapping[str, Sequence[str]] = field(default_factory=dict)
    mutant_outputs: MutantOutputs = field(default_factory=dict)
    traces: Traces | None = None

    @classmethod
    def split(
        cls,
        samples: Iterable[Graded],
        benchmark: Benchmark,
        model: str,
        bootstrap: Bootstrap,
        *,
        mutant_outputs: MutantOutputs | None = None,
        traces: Traces | None = None,
    ) -> list[Context]:
        """One context per strategy present in `samples`, in sorted order (`mutant_outputs`:
        default none)."""
        by_strategy: dict[str, list[Graded]] = {}
        for sample in samples:
            by_strategy.setdefault(sample.strategy, []).append(sample)
        variants = {v.id: v for v in benchmark.variants}
        probes = {p.id: p for p in benchmark.probes}
        originals = {p.id: p.outputs for p in benchmark.problems}
        mutants = mutant_outputs if mutant_outputs is not None else {}
        return [
            cls(model, strategy, members, variants, probes, bootstrap, originals, mutants, traces)
            for strategy, members in sorted(by_strategy.items())
        ]

    def kind(self, sample: Graded) -> str:
        """The kind of the sample's variant ("?" when the benchmark does not know it)."""
        variant = self.variants.get(sample.variant_id)
        return variant.kind if variant is not None else "?"

    def row(
        self,
        task: str,
        metric: str,
        group: str,
        value: float,
        n: int,
        ci: tuple[float, float] | None = None,
    ) -> MetricRow:
        """A row of this context's model and strategy."""
        return MetricRow(
            model=self.model,
            strategy=self.strategy,
            task=task,
            metric=metric,
            group=group,
            value=value,
            ci_low=ci[0] if ci is not None else None,
            ci_high=ci[1] if ci is not None else None,
            n=n,
        )

    def ratio_row(
        self,
        task: str,
        metric: str,
        group: str,
        units: Sequence[tuple[float, float]],
        *,
        scale: float = 100.0,
    ) -> MetricRow | None:
        """A row whose value is `scale * sum(num) / sum(den)` over per-problem units, with a
        bootstrap interval resampled by problem; None when there are no units. n = problems."""
        found = self.bootstrap.ratio(units)
        if found is None:
            return None
        value, low, high = found
        return self.row(task, metric, group, scale * value, len(units), (scale * low, scale * high))

    def share_row(self, task: str, metric: str, group: str, tally: Tally) -> MetricRow | None:
        """A `ratio_row` x100 of `tally`'s hits over its trials, resampled by problem; None when
        the tally is empty. n = trials (samples), not problems."""
        units = [(float(hits), float(trials)) for _, (hits, trials) in sorted(tally.counts.items())]
        row = self.ratio_row(task, metric, group, units)
        return None if row is None else row.model_copy(update={"n": tally.trials})


@dataclass(slots=True)
class Tally:
    """Hits out of trials per problem: the units of a share bootstrapped by problem.

    Attributes:
        counts: problem id -> [hits, trials].
    """

    counts: dict[str, list[int]] = field(default_factory=dict)

    def add(self, problem_id: str, hit: bool) -> None:
        """Count one trial of a problem, a hit or not."""
        counts = self.counts.setdefault(problem_id, [0, 0])
        counts[0] += hit
        counts[1] += 1

    @property
    def trials(self) -> int:
        """Trials over every problem."""
        return sum(trials for _, trials in self.counts.values())


def correct(sample: Graded) -> bool:
    """Whether a sample is judged correct (failed requests and unparseable answers are not)."""
    return sample.verdict == "correct"


@dataclass(frozen=True, slots=True)
class Metric:
    """What a metric module declares (its `METRIC`), the one thing `summarize` and the report's
    glossary read of it once the module is listed in `_registry.METRIC_MODULES`.

    Attributes:
        rows: the module's rows for one strategy's context (`summarize` calls it once per
            strategy, in the registry's order, which is the order of summary.json's rows).
        meanings: each metric name its rows use -> what it measures, in one line (shown
            beside the number in reports).
    """

    rows: Callable[[Context], list[MetricRow]]
    meanings: Mapping[str, str]

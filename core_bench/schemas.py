"""Records a benchmark build and a run write to disk; `core-bench schema` prints their JSON Schemas.

Field names are part of the public contract (DESIGN.md, "Benchmark files"). Every model is
frozen and forbids unknown fields, so a file written by another version fails loudly on load.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

SCHEMA_VERSION = 2
"""Bumped whenever a field of a written record changes meaning or shape."""

VariantKind = Literal["original", "equivalent", "mutant"]
VariantFamily = Literal["rewrite", "idiom", "rename", "distractor", "reimplementation", "mutant"]
"""DESIGN.md's families of variants; each is its own axis in every report."""
ProbeKind = Literal[
    "state_after",
    "branch",
    "loop_iterations",
    "loop_exit_state",
    "coverage",
    "next_line",
    "call_return",
    "full_trace",
    "run_count",
    "change_count",
    "first_true",
    "return_line",
    "exception_line",
    "call_count",
    "imported",
]
"""Probe kinds of DESIGN.md's table (`input` and `output` are tasks on every problem, not
probes), plus `imported` for questions taken as written from another benchmark (CoRE)."""

Dimension = Literal["Arithmetic", "Logic", "State", "Boundary"]
"""CoRE's four dimensions of intermediate-state reasoning."""


class Record(BaseModel):
    """Base of every record on disk."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Problem(Record):
    """A function with the calls it is asked about.

    Attributes:
        id: unique within the benchmark (the dataset's own id where it has one).
        source: where the problem comes from, e.g. "bundled", "cruxeval", "core-qa".
        code: the module source; it defines `entry` (and possibly helpers).
        entry: the name of the function the calls call.
        calls: call expressions such as "f([1, 2], 3)".
        outputs: reprs of the return values, in the order of `calls`.
    """

    id: str
    source: str
    code: str
    entry: str
    calls: list[str]
    outputs: list[str]


class Variant(Record):
    """One way of writing a problem's function; every problem has exactly one "original".

    Attributes:
        family: the family of the variant's transforms (None for the original); a composed
            variant takes the family of its first non-rename transform.
        single: True when the variant is one transform applied alone (one factor, no
            renaming), so a transform's robustness gap is its own; False when composed.
        outputs: the repr of the variant's result on each call of its problem, in order, as
            the build traced it (an exception as "!ExceptionType"; "!Truncated" or "!NoTrace"
            when the trace was cut at its step limit or could not be taken).
        renames: old name -> new name applied by the chain (an extension of DESIGN.md's fields,
            used to ask the same question of every variant).
        line_map: original line -> lines of this variant, where the chain could tell.
        origin: where a "reimplementation" variant's code comes from: "core-qa:<CoRE row
            id>" or the author model "openai:<name>"; None for the others.
    """

    id: str
    problem_id: str
    kind: VariantKind
    code: str
    chain: list[str]
    jaccard: float
    cc: int
    verified_calls: int
    family: VariantFamily | None = None
    single: bool = False
    outputs: list[str] = Field(default_factory=list)
    renames: dict[str, str] = Field(default_factory=dict)
    line_map: dict[int, list[int]] = Field(default_factory=dict)
    origin: str | None = None


class Anchor(Record):
    """Where in a variant's execution a probe points.

    Attributes:
        line: a line of the variant's code.
        occurrence: counts from 1 over every execution of `line` during the call.
        variable: the variable asked about, or None where the kind needs none.
    """

    line: int
    occurrence: int
    variable: str | None = None


class ProbeFeatures(Record):
    """Difficulty features of a probe, for accuracy-by-position analyses.

    Attributes:
        step_index: index of the anchored step in the trace.
        iteration: innermost loop iteration at the anchor, or None outside loops.
        nesting: number of enclosing loops at the anchor.
        operators: number of operators on the anchored line.
    """

    step_index: int
    iteration: int | None = None
    nesting: int = 0
    operators: int = 0


class Probe(Record):
    """A question about an intermediate state, with the answer read off the trace.

    Attributes:
        anchor_of: on a variant's probe that asks the same semantic question as a probe of the
            original (anchored), the id of that original probe; None elsewhere. An extension
            of DESIGN.md's fields that makes probe-level consistency across variants a join.
    """

    id: str
    problem_id: str
    variant_id: str
    call_index: int
    kind: ProbeKind
    dimensions: list[Dimension]
    question: str
    anchor: Anchor
    answer: str
    answer_type: str
    features: ProbeFeatures
    anchored: bool
    anchor_of: str | None = None


class SkippedRow(Record):
    """A dataset row the build left out, and why."""

    file: str
    line: int | None = None
    id: str | None = None
    reason: str


class DatasetInfo(Record):
    """Which dataset a benchmark was built from."""

    name: str
    sha256: str
    path: str | None = None


class Manifest(Record):
    """What was built, from what, with which options and versions."""

    schema_version: int = SCHEMA_VERSION
    dataset: DatasetInfo
    seed: int
    options: dict[str, Any]
    package_versions: dict[str, str]
    counts: dict[str, int]
    skipped: list[SkippedRow]
    built_at: str
    isolation: str | None = None
    """How the sandbox isolated the dataset's code while it was traced: "bwrap" (bubblewrap
    namespaces) or "process" (plain processes, rlimits, the guard); None in older builds."""


TaskKind = Literal["output", "input", "probe", "full_trace"]
Strategy = Literal["direct", "cot", "trace"]
Verdict = Literal["correct", "wrong", "unparseable", "timeout", "error"]
"""How a sample was judged: "unparseable" (no answer could be read) is counted, never dropped;
"timeout" and "error" are requests that failed after their retries, or input predictions whose
run did not finish."""


class Sample(Record):
    """One graded answer of a model to one task (a line of a run's samples.jsonl).

    Attributes:
        task_id: the task's id (unique in a run per sample_index).
        task: "output" (predict the return value), "input" (predict an input giving the
            output), "probe" (an intermediate-state question) or "full_trace".
        strategy: "direct", "cot" or "trace".
        probe_id: the probe asked, for probe and full_trace tasks; None otherwise.
        sample_index: 0.. for repeated samples of the same task (pass@k).
        prompt_hash: sha256 of the rendered messages, to tell prompts apart across runs.
        response: the raw text the model returned ("" when the request failed).
        answer: the answer read from the response, or None when none could be read.
        reason: why the verdict is what it is, for people (e.g. the failed request's error).
        finish_reason: why the model stopped, as the server said ("stop", "length", ...);
            None for reference agents, failed requests and servers that do not say.
        truncated: the response was cut at `--max-tokens` (finish_reason "length").
        prompt_tokens, completion_tokens: the tokens the server counted (its `usage`), when
            it returned them.
    """

    task_id: str
    task: TaskKind
    strategy: Strategy
    problem_id: str
    variant_id: str
    probe_id: str | None = None
    call_index: int
    sample_index: int
    prompt_hash: str
    response: str
    answer: str | None = None
    verdict: Verdict
    reason: str = ""
    finish_reason: str | None = None
    truncated: bool = False
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


class MetricRow(Record):
    """One figure of a run's summary.json, in tidy long form.

    Attributes:
        metric: e.g. "pass@1", "core_I", "core_Ws", "core_RCS", "IC", "robustness_gap".
        group: what the figure is about: a transform, probe kind or dimension, or "all".
        ci_low, ci_high: the 95% confidence interval where one is computed, else None.
        n: how many units (samples, problems) the figure is over.
    """

    model: str
    strategy: str
    task: str
    metric: str
    group: str
    value: float
    ci_low: float | None = None
    ci_high: float | None = None
    n: int


RUN_SCHEMA_VERSION = 1
"""Bumped whenever a field of a run directory's records (manifest.json, summary.json) changes."""

RunStatus = Literal["running", "complete", "incomplete", "interrupted"]
"""A run's state: going on, done, done with failed requests (rerun to retry), or stopped."""


class BenchmarkRef(Record):
    """Which benchmark a run used: its directory and the sha256 of its files."""

    path: str
    sha256: str
    files: dict[str, str]


class RunManifest(Record):
    """manifest.json of a run directory.

    Attributes:
        config: every option of the run (the API key never).
        model: the model spec, e.g. "openai:gpt-4o-mini" or "ref:oracle".
        base_urls: the replicas requests went to (empty for reference agents).
        sampling: temperature, max_tokens, top_p, samples, seed.
        usage: token counts, truncation, wall time and requests/s (see `runs._usage`).
        status: "running" while the run goes on, "complete" when every task has a sample
            that did not fail, "incomplete" when some requests failed (rerun to retry them),
            "interrupted" when it was stopped.
        counts: tasks, samples, cached, requested, failed, retries.
        isolation: how the sandbox isolated code and model answers: "bwrap" (bubblewrap
            namespaces) or "process" (plain processes, rlimits, the guard).
    """

    schema_version: int = RUN_SCHEMA_VERSION
    model: str
    api: str
    base_urls: list[str]
    sampling: dict[str, Any]
    seed: int
    config: dict[str, Any]
    benchmark: BenchmarkRef
    package_versions: dict[str, str]
    git_commit: str | None
    started_at: str
    usage: dict[str, Any] = {}
    finished_at: str | None = None
    status: RunStatus = "running"
    counts: dict[str, int] = {}
    isolation: str | None = None


class RunSummary(Record):
    """The `run` object of summary.json: the manifest's fields a report shows.

    Attributes:
        tasks, strategies: the run's task kinds and strategies.
        usage: as `RunManifest.usage` (empty in runs from before token accounting).
        benchmark_sha256: `BenchmarkRef.sha256` of the benchmark the run used.
    """

    model: str
    api: str
    base_urls: list[str]
    sampling: dict[str, Any]
    seed: int
    tasks: list[str] | None
    strategies: list[str] | None
    benchmark_sha256: str
    status: RunStatus
    counts: dict[str, int]
    usage: dict[str, Any] = {}
    started_at: str
    finished_at: str | None


class Summary(Record):
    """summary.json of a run directory: the run, and its metrics in tidy long form."""

    run: RunSummary
    metrics: list[MetricRow]


RECORDS: dict[str, type[Record]] = {
    "manifest": Manifest,
    "problem": Problem,
    "variant": Variant,
    "probe": Probe,
    "sample": Sample,
    "metric": MetricRow,
    "run_manifest": RunManifest,
    "summary": Summary,
}
"""The records written to disk by name (a build's, then a run directory's manifest.json and
summary.json), as `core-bench schema NAME` knows them."""


_R = TypeVar("_R", bound=BaseModel)


def invalid(what: str, exc: ValidationError, whole: str = "the line") -> str:
    """`not a valid <what> (<field>: <problem>)`: the first error of a record that does not
    validate, in one line (the caller names the file and line before it); `whole` stands for
    the field when the error is the record's own (invalid JSON)."""
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error["loc"]) or whole
    return f"not a valid {what} ({where}: {error['msg']})"


def read_records(path: Path, model: type[_R]) -> Iterator[_R]:
    """Read a JSON Lines file of `model` records one line at a time (blank lines skipped).

    Raises:
        ValueError: a line is not a valid record, as `<file>:<line>: not a valid <model>
            (<field>: <problem>)`.
    """
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = model.model_validate_json(line)
            except ValidationError as exc:
                what = model.__name__.lower()
                raise ValueError(f"{path}:{number}: {invalid(what, exc)}") from None
            yield record

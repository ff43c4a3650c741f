"""Records a benchmark build writes to disk; `core-bench schema` prints their JSON Schemas.

Field names are part of the public contract (DESIGN.md, "Benchmark files"). Every model is
frozen and forbids unknown fields, so a file written by another version fails loudly on load.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = 1
"""Bumped whenever a field of a written record changes meaning or shape."""

VariantKind = Literal["original", "equivalent", "mutant"]
ProbeKind = Literal[
    "state_after",
    "branch",
    "loop_iterations",
    "loop_exit_state",
    "coverage",
    "next_line",
    "call_return",
    "full_trace",
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
        renames: old name -> new name applied by the chain (an extension of DESIGN.md's fields,
            used to ask the same question of every variant).
        line_map: original line -> lines of this variant, where the chain could tell.
    """

    id: str
    problem_id: str
    kind: VariantKind
    code: str
    chain: list[str]
    jaccard: float
    cc: int
    verified_calls: int
    renames: dict[str, str] = Field(default_factory=dict)
    line_map: dict[int, list[int]] = Field(default_factory=dict)


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


RECORDS: dict[str, type[Record]] = {
    "manifest": Manifest,
    "problem": Problem,
    "variant": Variant,
    "probe": Probe,
}
"""The records of a build by name, as `core-bench schema NAME` knows them."""

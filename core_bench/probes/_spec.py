"""The shape of a probe kind's registry row (`KindSpec`) and the types its fields use.

Each kind's row is the `ROW` of its own module, `_kind_<name>`; `_registry` lists them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal

from core_bench.probes import _guesses as guess
from core_bench.probes._answerable import StaticFacts
from core_bench.probes._context import CallContext
from core_bench.probes._reading import Reader, Reading
from core_bench.schemas import Dimension, ProbeKind, TaskKind

Stage = Literal["coverage", "state", "path", "output"]
"""REval's stages, in the order each builds on the one before."""

AnswerType = Literal["value", "bool", "int", "line", "trace"]
"""How an answer is read: "value" (the literal's own type), "bool", "int", "line" (a line
number, or 'return'), "trace" (a list of [line, dict] pairs)."""

Anchoring = Literal[
    "value",
    "loop_value",
    "condition",
    "body_counts",
    "coverable_line",
    "mapped_line",
    "next_lines",
    "returns",
    "entry_function",
]
"""How a variant gets the same question (a strategy of `_anchoring._Matcher`): by the value
history of the variable right after the run ("value") or the loop ("loop_value"), the outcomes
of the mapped condition ("condition"), the body counts of the mapped loop ("body_counts"), the
mapped line of the same role ("mapped_line", "coverable_line" for coverable lines only), the
mapped next lines ("next_lines"), the renamed function's returns ("returns"), or the renamed
entry function's answer ("entry_function")."""

Rule = Callable[[StaticFacts, int, int, str | None, int], str | None]
"""A static answerability rule: (facts, line, occurrence, variable, calls of the line's
function) -> the answer the syntax alone gives, or None where it derives nothing."""


@dataclass(frozen=True, slots=True)
class KindSpec:
    """One probe kind.

    Attributes:
        kind: its name.
        dimensions: its CoRE dimensions.
        answer: its answer type (see `AnswerType`).
        stage: its REval stage, or None when it belongs to none.
        read: reads the answer at one anchor (line, occurrence, variable), or None.
        each: every reading of a call.
        question: the question text of a reading.
        anchoring: how a variant gets the same question; None: never anchored.
        static: the static answerability rule; None: none applies.
        on_def_line: the anchor line is a `def` line (no operators, no nesting).
        summary: what is asked, in one line.
        weight: how strongly selection favours the kind (see `_select.select`): kinds with
            open answers (values, traces) weigh more than counts, and counts more than
            True/False and line answers, which a constant guess gets about half the time; a
            kind weighing less than 1 takes part in a call's selection only with that
            probability.
        per_call: at most this many probes of the kind per (variant, call); None: no limit.
        guesses: the kind's code-blind candidate rules (`_guesses`), by name.
        blind: the name of the rule `ref:blind` uses (the best of `guesses` on the bundled
            build, as `bench/blind_rules.py` prints it).
        keep_guessed: the probability that selection keeps a candidate whose answer one of
            `guesses` gives (1.0 for True/False kinds, which selection balances instead).
        operator_dimension: a probe on a line with two or more operators also has the
            Arithmetic dimension.
        task: the task kind a run asks the kind's probes as: "probe", or a task kind of its
            own (with its own prompt and grading).
    """

    kind: ProbeKind
    dimensions: tuple[Dimension, ...]
    answer: AnswerType
    stage: Stage | None
    read: Reader
    each: Callable[[CallContext], Iterator[Reading]]
    question: Callable[[CallContext, Reading], str]
    anchoring: Anchoring | None
    static: Rule | None
    on_def_line: bool
    summary: str
    weight: float
    per_call: int | None
    guesses: Mapping[str, guess.Rule] = field(default_factory=dict)
    blind: str = ""
    keep_guessed: float = 1.0
    operator_dimension: bool = False
    task: TaskKind = "probe"

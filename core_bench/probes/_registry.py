"""The probe kinds: one row per kind holds everything about it.

A row gives the kind's name, its CoRE dimensions, its answer type, its REval stage (which
`core_bench.metrics` reads for incremental consistency), how its answer is read from a trace
(`read` at one anchor, `each` for every anchor of a call; definitions in `_kinds` and
`_kinds_flow`), its question (`_questions`), how it is anchored on a variant (a strategy of
`_anchoring`), and its static answerability rule (`_answerable`). Adding a kind means writing
its reader, question and rule, and adding its row here (and its name to `schemas.ProbeKind`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal

from core_bench.probes import _answerable as rules
from core_bench.probes import _kinds as trace_kinds
from core_bench.probes import _kinds_flow as flow
from core_bench.probes import _questions as ask
from core_bench.probes._answerable import StaticFacts, for_call
from core_bench.probes._context import CallContext, literal, same_value
from core_bench.probes._reading import Reading
from core_bench.schemas import Dimension, ProbeKind

Stage = Literal["coverage", "state", "path", "output"]
"""REval's stages, in the order each builds on the one before."""

AnswerType = Literal["value", "bool", "int", "line", "trace"]
"""How an answer is read: "value" (the literal's own type), "bool", "int", "line" (a line
number, or 'return'), "trace" (a list of [line, dict] pairs)."""

Anchoring = Literal["value", "branch", "loop", "coverage", "line", "call", "count", "def_line"]
"""How a variant gets the same question (a strategy of `_anchoring._Matcher`): by the value
history of the variable ("value"), the outcomes of the mapped condition ("branch"), the body
counts of the mapped loop ("loop"), the mapped line ("coverage", "count"), the mapped next
lines ("line"), the renamed function's returns ("call"), or the renamed entry function's
answer ("def_line")."""

Reader = Callable[[CallContext, int, int, str | None], Reading | None]
Rule = Callable[[StaticFacts, int, int, str | None, int], str | None]


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


ROWS: tuple[KindSpec, ...] = (
    KindSpec(
        "state_after", ("State",), "value", "state",
        trace_kinds.read_state_after, trace_kinds.each_state_after, ask.ask_state_after,
        "value", rules.state_after_rule, False,
        "the value of a variable right after the k-th run of a line", 3.0, None,
    ),
    KindSpec(
        "branch", ("Logic",), "bool", "path",
        trace_kinds.read_branch, trace_kinds.each_branch, ask.ask_branch,
        "branch", rules.branch_rule, False,
        "whether a condition holds at the k-th run of its line", 0.4, 1,
    ),
    KindSpec(
        "loop_iterations", ("Boundary",), "int", None,
        trace_kinds.read_loop_iterations, trace_kinds.each_loop_iterations,
        ask.ask_loop_iterations, "loop", rules.loop_iterations_rule, False,
        "how many times a loop's body runs in one start of the loop", 1.2, 1,
    ),
    KindSpec(
        "loop_exit_state", ("Boundary", "State"), "value", "state",
        trace_kinds.read_loop_exit_state, trace_kinds.each_loop_exit_state,
        ask.ask_loop_exit_state, "value", rules.loop_exit_state_rule, False,
        "the value of a variable right after a loop ends", 3.0, None,
    ),
    KindSpec(
        "coverage", ("Logic",), "bool", "coverage",
        trace_kinds.read_coverage, trace_kinds.each_coverage, ask.ask_coverage,
        "coverage", rules.coverage_rule, False,
        "whether a line runs at all", 0.4, 1,
    ),
    KindSpec(
        "next_line", ("Logic",), "line", "path",
        trace_kinds.read_next_line, trace_kinds.each_next_line, ask.ask_next_line,
        "line", rules.next_line_rule, False,
        "which line of the same frame runs after the k-th run of a line", 0.4, 1,
    ),
    KindSpec(
        "call_return", ("State",), "value", "state",
        trace_kinds.read_call_return, trace_kinds.each_call_return, ask.ask_call_return,
        "call", rules.call_return_rule, True,
        "the value the k-th call of a function returns", 3.0, None,
    ),
    KindSpec(
        "full_trace", ("Arithmetic", "Logic", "State", "Boundary"), "trace", None,
        trace_kinds.read_full_trace, trace_kinds.each_full_trace, ask.ask_full_trace,
        None, None, True,
        "every line the entry call runs, with the values each run changes", 2.0, None,
    ),
    KindSpec(
        "run_count", ("Boundary", "Logic"), "int", None,
        flow.read_run_count, flow.each_run_count, ask.ask_run_count,
        "count", rules.run_count_rule, False,
        "how many times a line runs", 1.2, 1,
    ),
    KindSpec(
        "change_count", ("State",), "int", "state",
        flow.read_change_count, flow.each_change_count, ask.ask_change_count,
        "def_line", rules.change_count_rule, True,
        "how many times a variable of the entry call changes value", 1.5, 2,
    ),
    KindSpec(
        "first_true", ("Logic", "Boundary"), "int", "path",
        flow.read_first_true, flow.each_first_true, ask.ask_first_true,
        "count", None, False,
        "the pass of a loop in which a condition first holds", 0.7, 1,
    ),
    KindSpec(
        "return_line", ("Logic",), "line", "path",
        flow.read_return_line, flow.each_return_line, ask.ask_return_line,
        "def_line", rules.return_line_rule, True,
        "which return statement ends the entry call", 0.5, 1,
    ),
)  # fmt: skip

KINDS: dict[str, KindSpec] = {row.kind: row for row in ROWS}
"""Every trace-derived kind by name, in the fixed order selection shuffles."""

STAGE_OF_KIND: dict[str, Stage] = {row.kind: row.stage for row in ROWS if row.stage is not None}
"""Which REval stage a probe kind asks about; kinds that are in none are left out."""


def dimensions(kind: str, operators: int) -> list[Dimension]:
    """CoRE dimensions of a probe: its kind's, plus Arithmetic for a state_after probe on a line
    with two or more operators."""
    dims = list(KINDS[kind].dimensions)
    if kind == "state_after" and operators >= 2:
        dims.insert(0, "Arithmetic")
    return dims


_TYPES = {
    bool: "bool",
    int: "int",
    float: "float",
    complex: "complex",
    str: "str",
    bytes: "bytes",
    list: "list",
    tuple: "tuple",
    dict: "dict",
    set: "set",
    type(None): "none",
}


def answer_type(kind: str, answer: str) -> str | None:
    """The answer type a grader parses the answer as; None when the answer is not a literal.

    "line" for a line answer (an int, or the string 'return'), "trace" for full_trace (a list
    of [line, dict] pairs); otherwise the type of the literal: "int", "float", "bool", "str",
    "list", "tuple", "dict", "set", "none", "bytes" or "complex".
    """
    declared = KINDS[kind].answer
    if declared in ("line", "trace"):
        return declared
    ok, value = literal(answer)
    if not ok:
        return None
    return _TYPES.get(type(value))


def _calls(ctx: CallContext, line: int) -> int:
    """How many times the function holding `line` (or defined on it) ran in the call."""
    function = ctx.facts.functions.get(line)
    if function is None:
        facts = ctx.facts.lines.get(line)
        if facts is None:
            return 0
        function = ctx.facts.functions.get(facts.function_line)
        if function is None:
            return 0
    return len(ctx.calls.get((function.name, function.line), []))


def static_answer(ctx: CallContext, reading: Reading) -> str | None:
    """The answer the syntax alone gives at a reading's anchor (its kind's static rule), or
    None where the rule derives nothing."""
    rule = KINDS[reading.kind].static
    if rule is None:
        return None
    try:
        facts = for_call(ctx.code, ctx.trace.call)
    except SyntaxError:
        return None
    calls = _calls(ctx, reading.line)
    return rule(facts, reading.line, reading.occurrence, reading.variable, calls)


def answerable(ctx: CallContext, reading: Reading) -> bool:
    """Whether a reading's answer can be derived without executing: its kind's static rule
    derives an answer, and it is the recorded one."""
    derived = static_answer(ctx, reading)
    return derived is not None and same_value(derived, reading.answer)

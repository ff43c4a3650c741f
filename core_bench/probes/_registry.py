"""The probe kinds: one row per kind holds everything about it.

A row gives the kind's name, its CoRE dimensions, its answer type, its REval stage (which
`core_bench.metrics` reads for incremental consistency), how its answer is read from a trace
(`read` at one anchor, `each` for every anchor of a call), its question, how it is anchored
on a variant (a strategy of `_anchoring`), its static answerability rule, its code-blind
guesses (which `ref:blind` answers with and selection avoids) and how strongly selection
favours it. The first twelve kinds' functions are in `_kinds`, `_kinds_flow`, `_questions`,
`_answerable` and `_guesses`; a new kind is one module holding all of it and its `ROW`
(`_kind_exception`, `_kind_call_count`), listed in `KIND_MODULES`, plus its name in
`schemas.ProbeKind` (the record's literal, which `core-bench schema` prints).
"""

from __future__ import annotations

from core_bench.probes import _answerable as rules
from core_bench.probes import _guesses as guess
from core_bench.probes import _kind_call_count, _kind_exception
from core_bench.probes import _kinds as trace_kinds
from core_bench.probes import _kinds_flow as flow
from core_bench.probes import _questions as ask
from core_bench.probes._answerable import for_call
from core_bench.probes._context import CallContext, literal, same_value
from core_bench.probes._reading import Reading
from core_bench.probes._spec import KindSpec, Stage
from core_bench.schemas import Anchor, Dimension

KIND_MODULES = (_kind_exception, _kind_call_count)
"""Kinds that live in a module of their own, each with everything about it in its `ROW`."""

ROWS: tuple[KindSpec, ...] = (
    KindSpec(
        "state_after", ("State",), "value", "state",
        trace_kinds.read_state_after, trace_kinds.each_state_after, ask.ask_state_after,
        "value", rules.state_after_rule, False,
        "the value of a variable right after the k-th run of a line", 0.85, 1,
        guess.STATE, "2", 0.2,
    ),
    KindSpec(
        "branch", ("Logic",), "bool", "path",
        trace_kinds.read_branch, trace_kinds.each_branch, ask.ask_branch,
        "branch", rules.branch_rule, False,
        "whether a condition holds at the k-th run of its line", 0.2, 1,
        guess.BOOL, "False",
    ),
    KindSpec(
        "loop_iterations", ("Boundary",), "int", None,
        trace_kinds.read_loop_iterations, trace_kinds.each_loop_iterations,
        ask.ask_loop_iterations, "loop", rules.loop_iterations_rule, False,
        "how many times a loop's body runs in one start of the loop", 0.8, 1,
        guess.LOOP_ITERATIONS, "len of the iterated argument", 0.1,
    ),
    KindSpec(
        "loop_exit_state", ("Boundary", "State"), "value", "state",
        trace_kinds.read_loop_exit_state, trace_kinds.each_loop_exit_state,
        ask.ask_loop_exit_state, "value", rules.loop_exit_state_rule, False,
        "the value of a variable right after a loop ends", 2.5, 1,
        guess.LOOP_EXIT, "value ending the loop, else first literal", 0.2,
    ),
    KindSpec(
        "coverage", ("Logic",), "bool", "coverage",
        trace_kinds.read_coverage, trace_kinds.each_coverage, ask.ask_coverage,
        "coverage", rules.coverage_rule, False,
        "whether a line runs at all", 0.2, 1,
        guess.BOOL, "True",
    ),
    KindSpec(
        "next_line", ("Logic",), "line", "path",
        trace_kinds.read_next_line, trace_kinds.each_next_line, ask.ask_next_line,
        "line", rules.next_line_rule, False,
        "which line of the same frame runs after the k-th run of a line", 0.4, 1,
        guess.NEXT_LINE, "next non-blank line", 0.1,
    ),
    KindSpec(
        "call_return", ("State",), "value", "state",
        trace_kinds.read_call_return, trace_kinds.each_call_return, ask.ask_call_return,
        "call", rules.call_return_rule, True,
        "the value the k-th call of a function returns", 3.0, None,
        guess.CALL_RETURN, "1", 0.2,
    ),
    KindSpec(
        "full_trace", ("Arithmetic", "Logic", "State", "Boundary"), "trace", None,
        trace_kinds.read_full_trace, trace_kinds.each_full_trace, ask.ask_full_trace,
        None, None, True,
        "every line the entry call runs, with the values each run changes", 0.8, None,
        guess.FULL_TRACE, "empty", 0.2,
    ),
    KindSpec(
        "run_count", ("Boundary", "Logic"), "int", None,
        flow.read_run_count, flow.each_run_count, ask.ask_run_count,
        "count", rules.run_count_rule, False,
        "how many times a line runs", 1.2, 1,
        guess.RUN_COUNT, "len of the iterated argument (+1 for a header)", 0.1,
    ),
    KindSpec(
        "change_count", ("State",), "int", "state",
        flow.read_change_count, flow.each_change_count, ask.ask_change_count,
        "def_line", rules.change_count_rule, True,
        "how many times a variable of the entry call changes value", 1.5, 2,
        guess.CHANGE_COUNT, "1", 0.1,
    ),
    KindSpec(
        "first_true", ("Logic", "Boundary"), "int", "path",
        flow.read_first_true, flow.each_first_true, ask.ask_first_true,
        "count", None, False,
        "the pass of a loop in which a condition first holds", 0.7, 1,
        guess.FIRST_TRUE, "2", 0.1,
    ),
    KindSpec(
        "return_line", ("Logic",), "line", "path",
        flow.read_return_line, flow.each_return_line, ask.ask_return_line,
        "def_line", rules.return_line_rule, True,
        "which return statement ends the entry call", 0.5, 1,
        guess.RETURN_LINE, "last return", 0.1,
    ),
)  # fmt: skip

ROWS = ROWS + tuple(module.ROW for module in KIND_MODULES)

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


GuessMemo = dict[tuple[str, int, str | None], list[str]]
"""Guesses already made in one call, by (kind, line, variable) (see `guessed`)."""


def guessed(ctx: CallContext, reading: Reading, memo: GuessMemo | None = None) -> bool:
    """Whether one of the reading's kind's code-blind rules (`guesses`) gives its answer.

    The rules read the anchor's line and variable, not its occurrence (a test checks that
    each kind's rules give the same guesses whatever the occurrence), so the runs of one line
    share their guesses: pass one `memo` for the readings of one call of one code.
    """
    rules = KINDS[reading.kind].guesses
    if not rules:
        return False
    key = (reading.kind, reading.line, reading.variable)
    guesses = memo.get(key) if memo is not None else None
    if guesses is None:
        anchor = Anchor(line=reading.line, occurrence=reading.occurrence, variable=reading.variable)
        call = ctx.trace.call
        seen = guess.Seen(ctx.code, guess.call_name(call), call, anchor=anchor)
        guesses = guess.guesses_of(dict(rules), seen)
        if memo is not None:
            memo[key] = guesses
    return any(same_value(g, reading.answer) for g in guesses)


def answerable(ctx: CallContext, reading: Reading) -> bool:
    """Whether a reading's answer can be derived without executing: its kind's static rule
    derives an answer, and it is the recorded one."""
    derived = static_answer(ctx, reading)
    return derived is not None and same_value(derived, reading.answer)

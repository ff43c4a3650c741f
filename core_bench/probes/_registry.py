"""The probe kinds: one row per kind holds everything about it.

A row (`KindSpec`) gives the kind's name, its CoRE dimensions, its answer type, its REval stage
(which `core_bench.metrics` reads for incremental consistency), how its answer is read from a
trace (`read` at one anchor, `each` for every anchor of a call), its question, how it is
anchored on a variant (a strategy of `_anchoring`), its static answerability rule, its
code-blind guesses (which `ref:blind` answers with and selection avoids) and how strongly
selection favours it. Each kind is one module, `_kind_<name>`, holding all of it and its `ROW`;
adding a kind is that module, one line in `KIND_MODULES` and its name in `schemas.ProbeKind`
(the record's literal, which `core-bench schema` prints). Nothing outside a kind's module names
the kind.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from core_bench.probes import _guesses as guess
from core_bench.probes import (
    _kind_branch,
    _kind_call_count,
    _kind_call_return,
    _kind_change_count,
    _kind_coverage,
    _kind_exception,
    _kind_first_true,
    _kind_full_trace,
    _kind_loop_exit_state,
    _kind_loop_iterations,
    _kind_next_line,
    _kind_return_line,
    _kind_run_count,
    _kind_state_after,
)
from core_bench.probes._answerable import StaticFacts, for_call
from core_bench.probes._context import (
    CallContext,
    literal,
    opens_a_list_with_items,
    read_value,
)
from core_bench.probes._reading import Reading
from core_bench.probes._spec import KindSpec, Stage
from core_bench.schemas import Anchor, Dimension, TaskKind
from tracer import same_value, values_equal

KIND_MODULES = (
    _kind_state_after,
    _kind_branch,
    _kind_loop_iterations,
    _kind_loop_exit_state,
    _kind_coverage,
    _kind_next_line,
    _kind_call_return,
    _kind_full_trace,
    _kind_run_count,
    _kind_change_count,
    _kind_first_true,
    _kind_return_line,
    _kind_exception,
    _kind_call_count,
)
"""The modules of the kinds, each with everything about its kind in its `ROW`, in the fixed
order selection shuffles (a new kind goes last: the order is part of every build's draws)."""

ROWS: tuple[KindSpec, ...] = tuple(module.ROW for module in KIND_MODULES)

KINDS: dict[str, KindSpec] = {row.kind: row for row in ROWS}
"""Every trace-derived kind by name, in the fixed order selection shuffles."""

STAGE_OF_KIND: dict[str, Stage] = {row.kind: row.stage for row in ROWS if row.stage is not None}
"""Which REval stage a probe kind asks about; kinds that are in none are left out."""

PROBE_TASK_KINDS: tuple[TaskKind, ...] = tuple(dict.fromkeys(("probe", *(r.task for r in ROWS))))
"""The task kinds a run asks probes as: "probe", then those kinds of their own declare."""


def task_kind(kind: str) -> TaskKind:
    """The task kind a run asks a probe of this kind as ("probe" for a kind with no row, such
    as imported probes)."""
    row = KINDS.get(kind)
    return row.task if row is not None else "probe"


def dimensions(kind: str, operators: int) -> list[Dimension]:
    """CoRE dimensions of a probe: its kind's, plus Arithmetic on a line with two or more
    operators for a kind with `operator_dimension`."""
    dims = list(KINDS[kind].dimensions)
    if KINDS[kind].operator_dimension and operators >= 2:
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

    "line" for a line answer (an int, or the string 'return'), "trace" for a trace answer (a
    list of [line, dict] pairs); otherwise the type of the literal: "int", "float", "bool", "str",
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


_NO_FACTS = "no facts"
"""What the memo holds for a call whose code does not parse."""


def _static_facts(ctx: CallContext) -> StaticFacts | None:
    """The static facts of the call's code and call (kept in the context: every reading of
    the call asks for them)."""
    found = ctx.memo.get(("static", "facts"))
    if found is None:
        try:
            found = for_call(ctx.code, ctx.trace.call)
        except SyntaxError:
            found = _NO_FACTS
        ctx.memo[("static", "facts")] = found
    return found if isinstance(found, StaticFacts) else None


def static_answer(ctx: CallContext, reading: Reading) -> str | None:
    """The answer the syntax alone gives at a reading's anchor (its kind's static rule), or
    None where the rule derives nothing."""
    rule = KINDS[reading.kind].static
    if rule is None:
        return None
    facts = _static_facts(ctx)
    if facts is None:
        return None
    key = ("static", "calls", reading.line)
    calls = ctx.memo.get(key)
    if calls is None:
        calls = ctx.memo[key] = _calls(ctx, reading.line)
    return rule(facts, reading.line, reading.occurrence, reading.variable, calls)


GuessMemo = dict[tuple[str, int, str | None], "Guesses"]
"""Guesses already made in one call, by (kind, line, variable) (see `guessed`)."""


@dataclass(frozen=True, slots=True)
class Guesses:
    """The answers a kind's code-blind rules give at one anchor, read once as values.

    Attributes:
        texts: the answer texts, without repeats.
        values: the values of those that read as literals.
    """

    texts: frozenset[str]
    values: tuple[object, ...]
    matched: dict[str, bool] = field(default_factory=dict)

    @classmethod
    def of(cls, texts: list[str]) -> Guesses:
        """The guesses the rules gave (a rule's None, not an answer text, never matches).

        Shared: anchors whose rules give the same texts (most give the same few constants
        and defaults) get one object, with the answers it has matched so far.
        """
        return _guesses_of_texts(tuple(t if isinstance(t, str) else None for t in texts))

    def match(self, answer: str) -> bool:
        """Whether one of the guesses is the answer: `same_value` of each guess and the
        answer, with the answer read once (or not at all where no guess can equal it)."""
        known = self.matched.get(answer)
        if known is None:
            known = self._match(answer)
            if len(answer) <= _REMEMBERED_ANSWER:
                if len(self.matched) >= _REMEMBERED_ANSWERS:
                    self.matched.clear()  # shared by many calls: bounded
                self.matched[answer] = known
        return known

    def _match(self, answer: str) -> bool:
        if answer in self.texts:
            return True
        if not self.values:
            return False
        values = self.values
        if opens_a_list_with_items(answer):
            values = tuple(v for v in values if not (type(v) is list and not v))
            if not values:
                return False
        ok, value = read_value(answer)
        return ok and any(values_equal(g, value, strictness="typed") for g in values)


_REMEMBERED_ANSWER = 512
"""Longest answer whose match a shared `Guesses` remembers (long ones are rare)."""

_REMEMBERED_ANSWERS = 4096
"""Most answers a shared `Guesses` remembers at once."""


@lru_cache(maxsize=4096)
def _guesses_of_texts(texts: tuple[str | None, ...]) -> Guesses:
    kept = dict.fromkeys(t for t in texts if isinstance(t, str))
    values = []
    for text in kept:
        ok, value = read_value(text)
        if ok:
            values.append(value)
    return Guesses(frozenset(kept), tuple(values))


@lru_cache(maxsize=4096)
def _blind_anchor(line: int, occurrence: int, variable: str | None) -> Anchor:
    """The anchor a blind rule is shown (never written anywhere, so built without validation:
    the fields are already of their types; kept, as the variants of a problem share lines)."""
    return Anchor.model_construct(line=line, occurrence=occurrence, variable=variable)


def guessed(ctx: CallContext, reading: Reading, memo: GuessMemo | None = None) -> bool:
    """Whether one of the reading's kind's code-blind rules (`guesses`) gives its answer.

    The rules read the anchor's line and variable, not its occurrence (a test checks that
    each kind's rules give the same guesses whatever the occurrence), so the runs of one line
    share their guesses: they are kept in `memo`, by default the context's own.
    """
    rules = KINDS[reading.kind].guesses
    if not rules:
        return False
    if memo is None:
        memo = ctx.memo.setdefault("guesses", {})
    key = (reading.kind, reading.line, reading.variable)
    guesses = memo.get(key)
    if guesses is None:
        anchor = _blind_anchor(reading.line, reading.occurrence, reading.variable)
        call = ctx.trace.call
        seen = guess.Seen(ctx.code, guess.call_name(call), call, anchor=anchor)
        guesses = memo[key] = Guesses.of(guess.guesses_of(dict(rules), seen))
    return guesses.match(reading.answer)


def answerable(ctx: CallContext, reading: Reading) -> bool:
    """Whether a reading's answer can be derived without executing: its kind's static rule
    derives an answer, and it is the recorded one."""
    derived = static_answer(ctx, reading)
    return derived is not None and same_value(derived, reading.answer, strictness="typed")


def unanswerable(ctx: CallContext, kind: str, readings: Iterable[Reading]) -> list[Reading]:
    """The readings of one kind that are not `answerable`, in order: the kind's rule and the
    call's static facts are looked up once for all of them (a call offers thousands)."""
    rule = KINDS[kind].static
    facts = _static_facts(ctx) if rule is not None else None
    if rule is None or facts is None:
        return list(readings)
    memo = ctx.memo
    kept: list[Reading] = []
    for reading in readings:
        key = ("static", "calls", reading.line)
        calls = memo.get(key)
        if calls is None:
            calls = memo[key] = _calls(ctx, reading.line)
        derived = rule(facts, reading.line, reading.occurrence, reading.variable, calls)
        if derived is None or not same_value(derived, reading.answer, strictness="typed"):
            kept.append(reading)
    return kept


def unguessed(ctx: CallContext, kind: str, readings: list[Reading]) -> list[Reading]:
    """The readings of one kind that are not `guessed`, in order, with the kind's rules and
    the call's memo looked up once."""
    if not KINDS[kind].guesses:
        return list(readings)
    memo: GuessMemo = ctx.memo.setdefault("guesses", {})
    return [r for r in readings if not guessed(ctx, r, memo)]

"""Anchored probes: the same semantic question asked of another variant of the function.

A probe chosen on the original variant gets a counterpart on a variant only where the variant's
own trace shows the same thing happening: the variable (through the rename map) takes the same
sequence of distinct values up to the anchor and has the same value there; the condition, loop,
line or function (through the line map, or else by position in that value history or by the
renamed source text) gives the same outcomes up to the anchor. The counterpart's answer is read
off the variant's trace, and its question is written from the variant's code.
"""

from __future__ import annotations

import io
import tokenize
from collections.abc import Callable

from core_bench.probes._build import rebuild_probe
from core_bench.probes._context import CallContext, same_value
from core_bench.probes._lines import LineFacts
from core_bench.probes._reading import RETURN_MARK, Reading
from core_bench.probes._registry import KINDS, answerable
from core_bench.schemas import Probe
from tracer import Trace

GROUP_MARK = "@"
"""Separates the original probe's id from the variant id in a counterpart's id."""


def anchor_group(probe: Probe) -> str:
    """The id of the original probe a probe is (or is a counterpart of): the part of its id
    before `@`; probes with the same group ask the same semantic question."""
    return probe.anchor_of or probe.id.split(GROUP_MARK, 1)[0]


def _history(ctx: CallContext, func: str, variable: str) -> tuple[list[str], list[int]]:
    """The distinct successive values `variable` takes in frames of `func`, and for each step
    how many of them were seen up to and including that step (kept in the context: the
    original's are read for every variant; never mutate them)."""
    key = ("history", func, variable)
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = _read_history(ctx, func, variable)
    return found


def _read_history(ctx: CallContext, func: str, variable: str) -> tuple[list[str], list[int]]:
    values: list[str] = []
    seen: list[int] = []
    for step in ctx.steps:
        if step.func == func:
            text = step.locals.get(variable)
            if text is not None and (not values or not same_value(values[-1], text)):
                values.append(text)
        seen.append(len(values))
    return values, seen


def _tokens(text: str, renames: dict[str, str]) -> tuple[str, ...] | None:
    """The tokens of one source line, with names renamed; None when it does not tokenize."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text.strip() + "\n").readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    skip = {tokenize.NEWLINE, tokenize.NL, tokenize.COMMENT, tokenize.ENDMARKER}
    out: list[str] = []
    for t in tokens:
        if t.type in skip:
            continue
        attribute = bool(out) and out[-1] == "."  # `.count` is not the variable `count`
        out.append(
            renames.get(t.string, t.string)
            if t.type == tokenize.NAME and not attribute
            else t.string
        )
    return tuple(out)


def _same_role(original: LineFacts, variant: LineFacts) -> bool:
    """Whether two lines do the same kind of thing: the same statement, or both loop headers."""
    if original.loop is not None or variant.loop is not None:
        return original.loop is not None and variant.loop is not None
    return original.statement == variant.statement


class _Matcher:
    """Finds counterparts of the original's readings in one variant."""

    def __init__(
        self,
        original: CallContext,
        variant: CallContext,
        renames: dict[str, str],
        line_map: dict[int, list[int]],
    ) -> None:
        self.original = original
        self.variant = variant
        self.renames = renames
        self.line_map = line_map

    def _text_match(self, line: int, accept: Callable[[LineFacts], bool]) -> list[int]:
        """Variant lines whose source is the original line's with names renamed."""
        wanted = _tokens(self.original.facts.text(line), self.renames)
        if wanted is None:
            return []
        return [
            v
            for v, facts in sorted(self.variant.facts.lines.items())
            if facts.clean and accept(facts) and _tokens(facts.text, {}) == wanted
        ]

    def lines(self, line: int, accept: Callable[[LineFacts], bool]) -> list[int]:
        """Variant lines for an original line: those the line map gives, or else the one line
        with the same source text once names are renamed."""
        mapped = [
            v
            for v in self.line_map.get(line, [])
            if (facts := self.variant.line(v)) is not None and accept(facts)
        ]
        if mapped:
            return mapped
        same = self._text_match(line, accept)
        return same if len(same) == 1 else []

    def value(self, reading: Reading) -> Reading | None:
        """Counterpart of a reading of a variable's value right after a run, by value
        history."""
        return self.value_counterpart(reading, loops=False)

    def loop_value(self, reading: Reading) -> Reading | None:
        """Counterpart of a reading of a variable's value right after a loop, by value
        history."""
        return self.value_counterpart(reading, loops=True)

    def value_counterpart(self, reading: Reading, *, loops: bool) -> Reading | None:
        """Counterpart of a reading of a variable's value, by value history.

        The variant's reading must show the variable with the same distinct values before the
        anchored run (or loop entry, for `loops`) and after it (or after the loop), and the
        same answer.
        """
        o, v = self.original, self.variant
        if reading.variable is None:
            return None
        if loops:
            entry = o.entry_at(reading.line, reading.occurrence)
            if entry is None or entry.exit_step is None:
                return None
            until = entry.exit_step
        else:
            until = o.after[reading.step]
        func = o.steps[reading.step].func
        history, seen = _history(o, func, reading.variable)
        wanted, before = history[: seen[until]], seen[reading.step]
        name = self.renames.get(reading.variable, reading.variable)
        v_func = self.renames.get(func, func)
        v_history, v_seen = _history(v, v_func, name)
        if len(v_history) < len(wanted) or not all(
            same_value(a, b) for a, b in zip(wanted, v_history, strict=False)
        ):
            return None
        o_facts = o.facts.lines[reading.line]

        def accept(facts: LineFacts) -> bool:
            return (
                facts.loop is not None
                if loops
                else name in facts.binds or _same_role(o_facts, facts)
            )

        mapped = [
            line
            for line in self.line_map.get(reading.line, [])
            if (facts := v.line(line)) is not None and accept(facts)
        ]
        lines = mapped or [
            line for line, facts in sorted(v.facts.lines.items()) if facts.clean and accept(facts)
        ]
        read = KINDS[reading.kind].read
        found: list[Reading] = []
        for line in lines:
            for occurrence, index in enumerate(v.runs.get(line, []), 1):
                if v.steps[index].func != v_func or v_seen[index] != before:
                    continue
                if loops:
                    entry_v = v.entry_at(line, occurrence)
                    if entry_v is None or entry_v.exit_step is None:
                        continue
                    point = entry_v.exit_step
                else:
                    point = v.after[index]
                if point < 0 or v_seen[point] != len(wanted):
                    continue
                candidate = read(v, line, occurrence, name)
                if candidate is not None and same_value(candidate.answer, reading.answer):
                    found.append(candidate)
        return self._choose(reading, found, mapped=bool(mapped))

    def _choose(self, reading: Reading, found: list[Reading], *, mapped: bool) -> Reading | None:
        """One of several fitting readings: on the line with the same renamed text, else (only
        through the line map) the earliest; then the same occurrence, else the first."""
        if len({r.line for r in found}) > 1:
            same_text = set(self._text_match(reading.line, lambda _: True))
            preferred = [r for r in found if r.line in same_text]
            if preferred:
                found = preferred
            elif not mapped:
                return None  # several unrelated lines fit the history: no single counterpart
            if len({r.line for r in found}) > 1:
                first = min(found, key=lambda r: r.step).line
                found = [r for r in found if r.line == first]
        for r in found:
            if r.occurrence == reading.occurrence:
                return r
        return found[0] if found else None

    def condition(self, reading: Reading) -> Reading | None:
        """Same outcomes of the mapped condition at every run up to the anchor's."""
        o, v = self.original, self.variant
        kind = o.facts.lines[reading.line].condition_kind
        lines = self.lines(reading.line, lambda f: f.condition_kind == kind)
        k = reading.occurrence
        outcomes = [o.steps[i].branch for i in o.runs[reading.line][:k]]
        for line in lines:
            runs = v.runs.get(line, [])
            if len(runs) >= k and [v.steps[i].branch for i in runs[:k]] == outcomes:
                return KINDS[reading.kind].read(v, line, k, None)
        return None

    def body_counts(self, reading: Reading) -> Reading | None:
        """Same body counts of the mapped loop for every entry up to the anchor's."""
        o, v = self.original, self.variant
        lines = self.lines(reading.line, lambda f: f.loop is not None)
        e = reading.ordinal
        counts = [entry.body_runs for entry in o.loop_entries(reading.line)[:e]]
        for line in lines:
            entries = v.loop_entries(line)
            if len(entries) >= e and [x.body_runs for x in entries[:e]] == counts:
                return KINDS[reading.kind].read(v, line, entries[e - 1].run, None)
        return None

    def coverable_line(self, reading: Reading) -> Reading | None:
        """The mapped line, run (or not) alike."""
        facts = self.original.facts.lines[reading.line]
        lines = self.lines(reading.line, lambda f: f.coverable and _same_role(facts, f))
        for line in lines:
            found = KINDS[reading.kind].read(self.variant, line, 1, None)
            if found is not None and found.answer == reading.answer:
                return found
        return None

    def _corresponds(self, original: str | None, variant: str | None) -> bool:
        if original is None or variant is None:
            return original is variant
        if original == RETURN_MARK or variant == RETURN_MARK:
            return original == variant
        line, other = int(original), int(variant)
        if line in self.line_map:
            return other in self.line_map[line]
        wanted = _tokens(self.original.facts.text(line), self.renames)
        return wanted is not None and wanted == _tokens(self.variant.facts.text(other), {})

    def next_lines(self, reading: Reading) -> Reading | None:
        """The mapped line, followed by corresponding lines at every run up to the anchor's."""
        o, v = self.original, self.variant
        facts = o.facts.lines[reading.line]
        lines = self.lines(reading.line, lambda f: _same_role(facts, f))
        k = reading.occurrence
        for line in lines:
            if len(v.runs.get(line, [])) < k:
                continue
            read = KINDS[reading.kind].read
            pairs = [
                (read(o, reading.line, j, None), read(v, line, j, None)) for j in range(1, k + 1)
            ]
            if all(
                self._corresponds(a.answer if a else None, b.answer if b else None)
                for a, b in pairs
            ):
                return pairs[-1][1]
        return None

    def returns(self, reading: Reading) -> Reading | None:
        """The renamed function, returning the same values in every call up to the anchor's."""
        o, v = self.original, self.variant
        if reading.variable is None:
            return None
        name = self.renames.get(reading.variable, reading.variable)
        function = v.facts.function_named(name)
        if function is None:
            return None
        k = reading.occurrence

        def returned(ctx: CallContext, func: str, line: int) -> list[str | None]:
            out: list[str | None] = []
            for index in ctx.calls.get((func, line), [])[:k]:
                end = ctx.steps[ctx.frame_steps[ctx.steps[index].frame][-1]]
                out.append(end.value if end.event == "return" else None)
            return out

        wanted = returned(o, reading.variable, reading.line)
        got = returned(v, name, function.line)
        if len(got) < k or not all(same_value(a, b) for a, b in zip(wanted, got, strict=True)):
            return None
        return KINDS[reading.kind].read(v, function.line, k, name)

    def mapped_line(self, reading: Reading) -> Reading | None:
        """The mapped line of the same role, with the same answer (a count or a pass)."""
        facts = self.original.facts.lines[reading.line]
        read = KINDS[reading.kind].read
        for line in self.lines(reading.line, lambda f: _same_role(facts, f)):
            found = read(self.variant, line, reading.occurrence, None)
            if found is not None and found.answer == reading.answer:
                return found
        return None

    def entry_function(self, reading: Reading) -> Reading | None:
        """The variant's entry function, asked about the renamed variable (if any)."""
        v = self.variant
        if not v.steps:
            return None
        name = (
            None
            if reading.variable is None
            else self.renames.get(reading.variable, reading.variable)
        )
        return KINDS[reading.kind].read(v, v.steps[0].line, reading.occurrence, name)

    def counterpart(self, reading: Reading) -> Reading | None:
        """The variant's reading asking the same question (by the kind's anchoring strategy),
        or None."""
        strategy = KINDS[reading.kind].anchoring
        if strategy is None:
            return None  # a kind never anchored (line numbers differ by construction)
        found = {
            "value": self.value,
            "loop_value": self.loop_value,
            "condition": self.condition,
            "body_counts": self.body_counts,
            "coverable_line": self.coverable_line,
            "next_lines": self.next_lines,
            "returns": self.returns,
            "mapped_line": self.mapped_line,
            "entry_function": self.entry_function,
        }[strategy](reading)
        if found is None or found.kind != reading.kind:
            return None
        if KINDS[reading.kind].answer == "line":
            return found if self._corresponds(reading.answer, found.answer) else None
        if not same_value(found.answer, reading.answer):
            return None
        return found


def _original_reading(original: CallContext, probe: Probe) -> Reading | None:
    """The reading of `probe` on the original's trace, or None when it is not a probe of that
    trace (kept in the context: every variant is anchored on the same readings)."""
    memo: dict[str, Reading | None] = original.memo.setdefault("anchoring", {})
    if probe.id in memo:
        return memo[probe.id]
    anchor = probe.anchor
    reading = KINDS[probe.kind].read(original, anchor.line, anchor.occurrence, anchor.variable)
    if reading is not None and reading.answer != probe.answer:
        reading = None
    memo[probe.id] = reading
    return reading


def anchor_probes(
    original_probes: list[Probe],
    original_trace: Trace,
    variant_id: str,
    variant_code: str,
    variant_trace: Trace,
    renames: dict[str, str],
    line_map: dict[int, list[int]],
    *,
    original_code: str | None = None,
    original_context: CallContext | None = None,
    variant_context: CallContext | None = None,
) -> list[Probe]:
    """Counterparts on one variant of probes chosen on the original, for one call.

    For each original probe, the variant gets the same semantic question (variable renamed
    through `renames`, line found through `line_map` or the value history) only where its own
    trace shows the same value history and gives the same answer (for next_line, the line
    that corresponds through the line map). Counterparts have `anchored=True` and the id
    `{original probe id}@{variant_id}`; use `mark_anchored` to set `anchored` on the
    originals that got at least one counterpart. Probes of a kind without an anchoring
    strategy are never anchored.

    Args:
        original_probes: probes of the original variant, all for the call of `original_trace`.
        original_trace: the original's trace of that call.
        variant_id: id of the variant.
        variant_code: the variant's source.
        variant_trace: the variant's trace of the same call.
        renames: old name -> new name, as the variant's provenance records them.
        line_map: original line -> variant lines, possibly partial or empty.
        original_code: the original's source (defaults to `original_trace.code`).
        original_context: the `CallContext` of the original's trace, when the caller has it.
        variant_context: the `CallContext` of the variant's trace, when the caller has it.

    Returns:
        The counterparts, in the order of `original_probes`.

    Raises:
        ValueError: the probes are of more than one call, or a context given indexes
            another trace.
    """
    if not original_probes:
        return []
    if len({p.call_index for p in original_probes}) != 1:
        raise ValueError("anchor_probes takes the probes of one call (one original trace)")
    if original_trace.truncated or variant_trace.truncated:
        return []
    original = CallContext.reuse(
        original_context, original_code or original_trace.code, original_trace
    )
    variant = CallContext.reuse(variant_context, variant_code, variant_trace)
    matcher = _Matcher(original, variant, renames, line_map)
    out: list[Probe] = []
    for probe in original_probes:
        if KINDS[probe.kind].anchoring is None:
            continue  # a kind never anchored (line numbers differ by construction)
        reading = _original_reading(original, probe)
        if reading is None:
            continue  # not a probe of this trace
        found = matcher.counterpart(reading)
        if found is None or answerable(variant, found):
            continue
        group = anchor_group(probe)
        built = rebuild_probe(
            variant, found, probe, variant_id, id=f"{group}{GROUP_MARK}{variant_id}"
        )
        if built is not None:
            out.append(built.model_copy(update={"anchor_of": group}))
    return out


def mark_anchored(original_probes: list[Probe], counterparts: list[Probe]) -> list[Probe]:
    """The original probes with `anchored=True` on those that have a counterpart."""
    groups = {anchor_group(p) for p in counterparts}
    return [
        p.model_copy(update={"anchored": True}) if p.id in groups and not p.anchored else p
        for p in original_probes
    ]

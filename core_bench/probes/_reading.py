"""A probe answer read at one anchor of a traced call, and the pieces kinds read it with."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from core_bench.probes._context import CallContext
from core_bench.probes._lines import LineFacts
from core_bench.schemas import ProbeKind
from tracer import Step


@dataclass(frozen=True, slots=True)
class Reading:
    """An answer read at one anchor, with what selection and questions need.

    Attributes:
        kind: the probe kind.
        line: anchor line (of the traced code).
        occurrence: anchor occurrence (see the module docstring, per kind).
        variable: anchor variable, or None.
        answer: the answer's repr.
        step: index of the anchored step (the run the anchor names; for a line that never
            runs, the number of steps).
        weight: how error-prone the step is; selection prefers heavier readings.
        ordinal: for loop kinds, which entry of the loop the anchor names (from 1).
    """

    kind: ProbeKind
    line: int
    occurrence: int
    variable: str | None
    answer: str
    step: int
    weight: float
    ordinal: int = 0


RETURN_MARK = "'return'"
"""A line answer that names no line: the frame returns (next_line's answer, a guess's)."""


Reader = Callable[[CallContext, int, int, str | None], Reading | None]
"""Reads a kind's answer at one anchor (line, occurrence, variable), or None."""


def operator_weight(operators: int, compound: bool) -> float:
    """The weight a line's operators add to a reading: more operators, or a boolean operator,
    are more error-prone."""
    return 0.5 * min(operators, 6) + (2.0 if compound else 0.0)


def leaves_loop(facts: LineFacts, after: Step) -> bool:
    """Whether a run of a loop header is the one that ends the loop (`after` is the next step
    of its frame)."""
    loop = facts.loop
    if loop is None:
        return False
    return after.event == "return" or (after.line != loop.header and not loop.contains(after.line))


def at_runs(
    ctx: CallContext, read: Reader, wanted: Callable[[LineFacts], bool] = lambda _: True
) -> Iterator[Reading]:
    """The readings of `read` at every run of every clean line `wanted` accepts, in the order
    the lines first ran."""
    for line, runs in ctx.runs.items():
        facts = ctx.line(line)
        if facts is None or not wanted(facts):
            continue
        for occurrence in range(1, len(runs) + 1):
            reading = read(ctx, line, occurrence, None)
            if reading is not None:
                yield reading


def at_lines(ctx: CallContext, read: Reader, lines: Iterable[int]) -> Iterator[Reading]:
    """The readings of `read` at the 1st occurrence of each of `lines`, in their order."""
    for line in lines:
        reading = read(ctx, line, 1, None)
        if reading is not None:
            yield reading


def at_entry(read: Reader) -> Callable[[CallContext], Iterator[Reading]]:
    """The enumerator of a kind asked once per call: `read` at the entry function's `def`
    line."""

    def each(ctx: CallContext) -> Iterator[Reading]:
        if ctx.steps:
            yield from at_lines(ctx, read, [ctx.steps[0].line])

    return each


def whole_line(
    ctx: CallContext, line: int, occurrence: int, variable: str | None
) -> LineFacts | None:
    """The facts of `line` for a kind that asks about a coverable line as a whole (occurrence
    1, no variable); None when the anchor is not one."""
    facts = ctx.line(line)
    if facts is None or not facts.coverable or occurrence != 1 or variable is not None:
        return None
    return facts

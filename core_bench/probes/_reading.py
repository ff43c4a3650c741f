"""A probe answer read at one anchor of a traced call."""

from __future__ import annotations

from dataclasses import dataclass

from core_bench.schemas import ProbeKind


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

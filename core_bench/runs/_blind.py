"""Code-blind answers: the best cheap rules that read the code text and the call, never run.

`ref:blind` is the floor every report shows: what a reader gets without executing anything.
For the output task and each probe kind, several cheap rules are candidates (`CANDIDATES`;
a probe kind's are in its registry row, `core_bench.probes.KINDS`); the agent answers with
the one that scored best on the bundled build (`BEST`; the per-rule accuracies are printed by
`bench/blind_rules.py`).
"""

from __future__ import annotations

from core_bench.probes import KINDS, GuessRule, Seen, first_argument, type_default

CANDIDATES: dict[str, dict[str, GuessRule]] = {
    "output": {
        "first argument": first_argument,
        "type default of the first argument": lambda s: type_default(first_argument(s)) or "None",
    },
    **{kind: dict(row.guesses) for kind, row in KINDS.items() if row.guesses},
}
"""Task kind ("output") or probe kind -> rule name -> rule."""

BEST: dict[str, str] = {
    "output": "first argument",
    **{kind: row.blind for kind, row in KINDS.items() if row.guesses},
}
"""The rule `ref:blind` uses per kind (a probe kind's `blind` in its registry row)."""


def blind_answer(kind: str, seen: Seen) -> str:
    """The blind answer to a task: its kind's best rule (`output` for output tasks, the probe's
    kind for probes); "None" for a kind without rules."""
    rules = CANDIDATES.get(kind)
    if not rules:
        return "None"
    try:
        return rules[BEST[kind]](seen)
    except Exception:
        return "None"  # a rule never fails a run: hostile code gives a plain wrong answer


__all__ = ["BEST", "CANDIDATES", "Seen", "blind_answer"]

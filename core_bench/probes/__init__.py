"""Probes: questions about intermediate execution states, with answers read off traces.

    from core_bench.probes import probes_for_call, anchor_probes, mark_anchored

`probes_for_call` chooses a few probes for one (variant, call) from its trace: stratified over
the kinds of DESIGN.md's table (all but `input` and `output`, which are tasks), weighted toward
error-prone steps, deterministic from the seed. `anchor_probes` asks the original's probes of
another variant, where that variant's trace shows the same value history. Each kind is one row
of `KINDS` (`core_bench.probes._registry`), the `ROW` of its own module `_kind_<name>`: its
dimensions, answer type, REval stage, reader, question, anchoring, static answerability rule
and code-blind guesses. A probe whose answer the code text alone gives (`answerable`, each
kind's rule on the facts of `core_bench.probes._answerable`) is never asked; the build
also drops probes that do not hold under a second hash seed (`probe_holds`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from core_bench.probes._anchoring import anchor_group, anchor_probes, mark_anchored
from core_bench.probes._build import build_probe, probe_id
from core_bench.probes._context import CallContext
from core_bench.probes._guesses import Rule as GuessRule
from core_bench.probes._guesses import Seen, first_argument, type_default
from core_bench.probes._kind_full_trace import MAX_TRACE_LINES
from core_bench.probes._questions import ordinal
from core_bench.probes._reading import RETURN_MARK, Reading
from core_bench.probes._registry import (
    KINDS,
    PROBE_TASK_KINDS,
    ROWS,
    STAGE_OF_KIND,
    KindSpec,
    answer_type,
    answerable,
    guessed,
    static_answer,
    task_kind,
    unanswerable,
    unguessed,
)
from core_bench.probes._select import rng_for, select
from core_bench.probes._stability import probe_holds
from core_bench.schemas import Probe
from tracer import Trace

PROBE_KINDS: tuple[str, ...] = tuple(KINDS)
"""The kinds generated from traces, in the fixed order that selection shuffles."""

DEFAULT_COUNT = 6
"""Probes per (variant, call) unless told otherwise (`--probes`)."""


def _kinds(kinds: Sequence[str] | None) -> list[str]:
    if kinds is None:
        return list(PROBE_KINDS)
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise ValueError(f"unknown probe kind(s) {unknown}: expected some of {list(PROBE_KINDS)}")
    return [k for k in PROBE_KINDS if k in kinds]


def _readings(ctx: CallContext, kinds: list[str]) -> dict[str, list[Reading]]:
    if ctx.trace.truncated:
        return {}  # counts and "never runs" cannot be told from a cut trace
    return {kind: unanswerable(ctx, kind, KINDS[kind].each(ctx)) for kind in kinds}


def _unguessed(
    ctx: CallContext, readings: dict[str, list[Reading]], rng: random.Random
) -> dict[str, list[Reading]]:
    """The readings, less those a code-blind rule of their kind gets right unless a coin with
    the kind's `keep_guessed` probability keeps them (one coin per kind and call, so a call
    whose candidates are all guessed gets the kind with that probability)."""
    out: dict[str, list[Reading]] = {}
    for kind, found in readings.items():
        keep = KINDS[kind].keep_guessed
        if keep >= 1.0 or not found or rng.random() < keep:
            out[kind] = found
        else:
            out[kind] = unguessed(ctx, kind, found)
    return out


def probes_for_call(
    problem_id: str,
    variant_id: str,
    code: str,
    call_index: int,
    trace: Trace,
    *,
    count: int = DEFAULT_COUNT,
    seed: int = 0,
    kinds: Sequence[str] | None = None,
    context: CallContext | None = None,
) -> list[Probe]:
    """Choose up to `count` probes for one call of one variant.

    Selection is round-robin over the kinds that have candidates, in the fixed kind order
    shuffled by a random source seeded with `f"{seed}:{variant_id}:{call_index}"`, each
    kind's place drawn by its registry weight (kinds a constant guess answers half the time
    weigh less), at most the kind's `per_call` probes of a kind, and True/False kinds drawn
    with either answer by a coin where the call offers both; within a
    kind, candidates are drawn by weight (late iterations, compound conditions, loop exits,
    lines with many operators weigh more), preferring lines the kind has not used yet. A
    truncated trace gives no probes.

    Args:
        problem_id: the problem's id.
        variant_id: the variant's id (part of every probe id).
        code: the variant's source, as traced.
        call_index: index of the call in the problem's calls.
        trace: the trace of that call of `code`.
        count: at most this many probes.
        seed: the build seed.
        kinds: restrict to these kinds (default: all of `PROBE_KINDS`).
        context: the `CallContext` of `trace` of `code`, when the caller has it already.

    Returns:
        The probes, ordered by anchored step, then kind.

    Raises:
        ValueError: `kinds` names an unknown kind, or `context` indexes another trace.
    """
    chosen_kinds = _kinds(kinds)
    if count <= 0 or not trace.steps:
        return []
    ctx = CallContext.reuse(context, code, trace)
    rng = rng_for(seed, variant_id, call_index)
    guess_rng = random.Random(f"{seed}:{variant_id}:{call_index}:guessed")
    readings = _unguessed(ctx, _readings(ctx, chosen_kinds), guess_rng)

    def accept(reading: Reading) -> Probe | None:
        return build_probe(
            ctx, reading, problem_id=problem_id, variant_id=variant_id, call_index=call_index
        )

    weights = {kind: KINDS[kind].weight for kind in chosen_kinds}
    caps = {kind: KINDS[kind].per_call or count for kind in chosen_kinds}
    balanced = frozenset(k for k in chosen_kinds if KINDS[k].answer == "bool")
    probes = select(readings, chosen_kinds, count, rng, accept, weights, caps, balanced)
    order = {kind: i for i, kind in enumerate(PROBE_KINDS)}
    return sorted(probes, key=lambda p: (p.features.step_index, order[p.kind], p.id))


def candidate_probes(
    problem_id: str,
    variant_id: str,
    code: str,
    call_index: int,
    trace: Trace,
    *,
    kinds: Sequence[str] | None = None,
) -> list[Probe]:
    """Every probe the call offers (before selection), in kind order, then trace order.

    Meant for analyses and tests; a long trace offers thousands.
    """
    chosen_kinds = _kinds(kinds)
    if not trace.steps:
        return []
    ctx = CallContext(code, trace)
    out: list[Probe] = []
    for readings in _readings(ctx, chosen_kinds).values():
        for reading in readings:
            probe = build_probe(
                ctx, reading, problem_id=problem_id, variant_id=variant_id, call_index=call_index
            )
            if probe is not None:
                out.append(probe)
    return out


__all__ = [
    "DEFAULT_COUNT",
    "KINDS",
    "MAX_TRACE_LINES",
    "PROBE_KINDS",
    "PROBE_TASK_KINDS",
    "RETURN_MARK",
    "ROWS",
    "STAGE_OF_KIND",
    "CallContext",
    "GuessRule",
    "KindSpec",
    "Reading",
    "Seen",
    "anchor_group",
    "anchor_probes",
    "answer_type",
    "answerable",
    "candidate_probes",
    "first_argument",
    "guessed",
    "mark_anchored",
    "ordinal",
    "probe_holds",
    "probe_id",
    "probes_for_call",
    "rng_for",
    "select",
    "static_answer",
    "task_kind",
    "type_default",
]

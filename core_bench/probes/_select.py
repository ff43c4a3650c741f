"""Choosing a few probes per (variant, call): stratified over kinds, weighted toward error-prone
steps, and deterministic from the seed."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from core_bench.probes._reading import Reading

T = TypeVar("T")


def rng_for(seed: int, variant_id: str, call_index: int) -> random.Random:
    """The random source of one (variant, call); a str seed is hashed with SHA-512 by
    `random.Random`, so it is the same in every process (unlike `hash()`)."""
    return random.Random(f"{seed}:{variant_id}:{call_index}")


def weighted_order(readings: Sequence[Reading], rng: random.Random) -> list[Reading]:
    """A random order in which heavier readings tend to come first (weighted sampling without
    replacement, by Efraimidis and Spirakis' keys u ** (1 / weight))."""
    draw = rng.random
    keyed = [(-(draw() ** (1.0 / max(r.weight, 0.05))), i) for i, r in enumerate(readings)]
    keyed.sort()  # heaviest key first, ties in reading order
    return [readings[i] for _, i in keyed]


def select(
    readings: dict[str, list[Reading]],
    kind_order: Sequence[str],
    count: int,
    rng: random.Random,
    accept: Callable[[Reading], T | None],
    weights: Mapping[str, float] | None = None,
    caps: Mapping[str, int] | None = None,
    balanced: frozenset[str] = frozenset(),
) -> list[T]:
    """Pick up to `count` readings, round-robin over kinds.

    The kinds are visited in `kind_order` shuffled by `rng`, by weight when `weights` gives
    one per kind (weighted sampling without replacement: a heavier kind tends to come earlier
    in the order, so it is picked more often when `count` is below the number of kinds with
    readings); kinds without readings are skipped, and a kind stops once it has `caps[kind]`
    results. For a kind in `balanced` (True/False answers), a coin first picks the answer the
    kind's reading must have, where readings with either answer exist, so that a constant
    guess is right about half the time. A kind whose weight is below 1 takes part in the
    call only with that probability. Each visit takes the kind's next reading in
    `weighted_order`, preferring a line
    the kind has not used yet. `accept` turns a reading into the result, or rejects it (None),
    and then the kind's next reading is tried.

    Args:
        readings: kind -> every reading of that kind, in a deterministic order.
        kind_order: the fixed order of kinds before shuffling.
        count: at most this many results.
        rng: the (variant, call)'s random source.
        accept: builds the result of a reading, or None to skip it.

    Returns:
        The accepted results, in the order they were picked.
    """
    order = list(kind_order)
    if weights is None:
        rng.shuffle(order)
    else:
        keys = {k: rng.random() ** (1.0 / max(weights.get(k, 1.0), 0.05)) for k in order}
        order.sort(key=lambda k: -keys[k])
    queues = {kind: weighted_order(readings[kind], rng) for kind in order if readings.get(kind)}
    if weights is not None:
        for kind in list(queues):
            if weights.get(kind, 1.0) < 1.0 and rng.random() >= weights[kind]:
                del queues[kind]
    for kind in [k for k in order if k in balanced and k in queues]:  # not a set's order
        wanted = rng.choice(("False", "True"))
        queues[kind] = [r for r in queues[kind] if r.answer == wanted]
        if not queues[kind]:
            del queues[kind]  # taking the other answer would favour the likelier one
    taken: dict[str, int] = dict.fromkeys(queues, 0)
    used: dict[str, set[int]] = {kind: set() for kind in queues}
    chosen: list[T] = []
    while len(chosen) < count and queues:
        for kind in [k for k in order if k in queues]:
            if len(chosen) >= count:
                break
            queue = queues[kind]
            while queue:
                position = next((i for i, r in enumerate(queue) if r.line not in used[kind]), 0)
                reading = queue.pop(position)
                result = accept(reading)
                if result is not None:
                    used[kind].add(reading.line)
                    chosen.append(result)
                    taken[kind] += 1
                    break
            if not queue or (caps is not None and taken[kind] >= caps.get(kind, count)):
                del queues[kind]
    return chosen

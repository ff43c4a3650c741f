"""Choosing a few probes per (variant, call): stratified over kinds, weighted toward error-prone
steps, and deterministic from the seed."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
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
    keyed = [(rng.random() ** (1.0 / max(r.weight, 0.05)), i) for i, r in enumerate(readings)]
    keyed.sort(key=lambda pair: (-pair[0], pair[1]))
    return [readings[i] for _, i in keyed]


def select(
    readings: dict[str, list[Reading]],
    kind_order: Sequence[str],
    count: int,
    rng: random.Random,
    accept: Callable[[Reading], T | None],
) -> list[T]:
    """Pick up to `count` readings, round-robin over kinds.

    The kinds are visited in `kind_order` shuffled by `rng` (kinds without readings are
    skipped); each visit takes the kind's next reading in `weighted_order`, preferring a line
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
    rng.shuffle(order)
    queues = {kind: weighted_order(readings[kind], rng) for kind in order if readings.get(kind)}
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
                    break
            if not queue:
                del queues[kind]
    return chosen

"""Statistics of the metrics layer, without numpy: a bootstrap over problems and McNemar's test.

Every figure with a confidence interval is a ratio of sums over problems, `sum(num) / sum(den)`
(a mean of per-problem values has `den = 1`), so one resampler serves them all: it draws
problems with replacement, weights each problem's (num, den) by how often it was drawn, and
takes percentiles of the ratios. The draws come from `random.Random(seed)`, so the same seed
gives the same intervals.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

RESAMPLES = 1000
"""Bootstrap resamples per interval."""

LEVEL = 0.95
"""Confidence level of every interval."""

KEPT_DRAWS = 4
"""Draws kept for reuse, by number of units (each holds `resamples` x units indices)."""

EXACT_LIMIT = 1000
"""McNemar's test is exact (binomial) up to this many discordant pairs, chi-squared above."""


@dataclass(slots=True)
class Bootstrap:
    """Percentile bootstrap intervals of ratios of sums, resampled by unit (problem).

    The draws depend only on the seed and the number of units, so intervals over the same
    problems are resampled identically; the latest `KEPT_DRAWS` sets of draws are kept for
    reuse.

    Args:
        seed: seed of the draws.
        resamples: resamples per interval.
        level: confidence level.
    """

    seed: int = 0
    resamples: int = RESAMPLES
    level: float = LEVEL
    _draws: dict[int, list[list[int]]] = field(default_factory=dict, init=False, repr=False)

    def _indices(self, units: int) -> list[list[int]]:
        if units not in self._draws:
            if len(self._draws) >= KEPT_DRAWS:  # bound the memory: drop the oldest
                del self._draws[next(iter(self._draws))]
            rng = random.Random(f"{self.seed}:{units}")
            population = range(units)
            self._draws[units] = [rng.choices(population, k=units) for _ in range(self.resamples)]
        return self._draws[units]

    def ratio(self, units: Sequence[tuple[float, float]]) -> tuple[float, float, float] | None:
        """The ratio `sum(num) / sum(den)` over units and its bootstrap interval.

        Args:
            units: one (num, den) per unit; `den` must be positive.

        Returns:
            `(value, low, high)`, or None when there are no units.
        """
        if not units:
            return None
        nums = [u[0] for u in units]
        dens = [u[1] for u in units]
        value = sum(nums) / sum(dens)
        # map over the drawn indices keeps the per-unit loop in C: a summary computes
        # hundreds of intervals over up to 800 problems.
        stats = sorted(
            sum(map(nums.__getitem__, draw)) / sum(map(dens.__getitem__, draw))
            for draw in self._indices(len(units))
        )
        low = percentile(stats, (1 - self.level) / 2)
        high = percentile(stats, (1 + self.level) / 2)
        return value, low, high


def percentile(ordered: Sequence[float], q: float) -> float:
    """The `q` quantile (0..1) of sorted values, interpolating linearly between ranks."""
    if not ordered:
        raise ValueError("percentile of no values")
    position = q * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


def mcnemar(b: int, c: int, *, exact: bool | None = None) -> float:
    """Two-sided p-value of McNemar's test for paired binary outcomes.

    Args:
        b: pairs right under the first condition and wrong under the second.
        c: pairs wrong under the first condition and right under the second.
        exact: the exact binomial test (True), the chi-squared test with continuity
            correction (False), or exact up to `EXACT_LIMIT` discordant pairs (None).

    Returns:
        The p-value; 1.0 when there are no discordant pairs.
    """
    if b < 0 or c < 0:
        raise ValueError(f"counts must be 0 or more, got b={b}, c={c}")
    n = b + c
    if n == 0:
        return 1.0
    if exact if exact is not None else n <= EXACT_LIMIT:
        tail = sum(math.comb(n, i) for i in range(min(b, c) + 1))
        # Integer arithmetic: 0.5**n underflows for large n.
        return min(1.0, 2 * tail / 2**n)
    statistic = (abs(b - c) - 1) ** 2 / n
    return math.erfc(math.sqrt(statistic / 2))

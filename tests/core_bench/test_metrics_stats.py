"""The statistics of the metrics layer: bootstrap intervals and McNemar's test."""

from __future__ import annotations

import math
import random

import pytest

from core_bench.metrics import Bootstrap, mcnemar, percentile


def test_mcnemar_exact_on_a_known_table() -> None:
    # b=10, c=2: two-sided binomial tail 2 * P(X <= 2 | n=12, p=1/2) = 2 * 79 / 4096.
    assert mcnemar(10, 2) == pytest.approx(2 * (1 + 12 + 66) / 4096)
    assert mcnemar(2, 10) == mcnemar(10, 2)


def test_mcnemar_chi_squared_with_continuity_correction() -> None:
    # (|30 - 10| - 1)^2 / 40 = 9.025; the chi-squared (1 df) tail of 9.025 is 0.002663.
    assert mcnemar(30, 10, exact=False) == pytest.approx(0.0026635, abs=1e-6)
    assert mcnemar(30, 10) == pytest.approx(mcnemar(30, 10, exact=True))
    assert mcnemar(3000, 2900) == pytest.approx(mcnemar(3000, 2900, exact=False))


def test_mcnemar_without_discordant_pairs_or_with_balanced_ones() -> None:
    assert mcnemar(0, 0) == 1.0
    assert mcnemar(5, 5) == 1.0
    assert mcnemar(20, 0) < 1e-5
    with pytest.raises(ValueError):
        mcnemar(-1, 2)


def test_percentile_interpolates_between_ranks() -> None:
    assert percentile([0.0, 10.0], 0.5) == 5.0
    assert percentile([1.0, 2.0, 3.0], 0.0) == 1.0 and percentile([1.0, 2.0, 3.0], 1.0) == 3.0
    with pytest.raises(ValueError):
        percentile([], 0.5)


def test_bootstrap_interval_contains_the_point_estimate_and_is_seeded() -> None:
    rng = random.Random(1)
    units = [(float(rng.randint(0, 5)), 5.0) for _ in range(40)]
    found = Bootstrap(seed=3).ratio(units)
    assert found is not None
    value, low, high = found
    assert value == pytest.approx(sum(u[0] for u in units) / 200)
    assert low < value < high
    assert high - low < 0.5
    assert Bootstrap(seed=3).ratio(units) == found
    assert Bootstrap(seed=4).ratio(units) != found


def test_bootstrap_of_identical_units_has_no_width_and_of_none_is_none() -> None:
    assert Bootstrap().ratio([(1.0, 2.0)] * 5) == (0.5, 0.5, 0.5)
    assert Bootstrap().ratio([]) is None


def test_bootstrap_interval_covers_a_known_mean() -> None:
    # 200 problems with success probability 0.3: the 95% interval should hold 0.3.
    rng = random.Random(7)
    units = [(float(rng.random() < 0.3), 1.0) for _ in range(200)]
    found = Bootstrap(seed=0).ratio(units)
    assert found is not None
    _, low, high = found
    assert low <= 0.3 <= high
    half = 1.96 * math.sqrt(0.3 * 0.7 / 200)
    assert high - low == pytest.approx(2 * half, rel=0.25)

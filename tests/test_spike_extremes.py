"""A window's readings' two lowest and two highest, found without sorting (core, no Home
Assistant): the indices the sort by value gives, ties in index order, 0.0 and -0.0 too."""

from __future__ import annotations

import random

from custom_components.anomaly_monitor.core.statistics.health import two_lowest_and_highest


def test_the_extremes_are_those_of_the_sort() -> None:
    """Readings that tie (coarse steps, a repeated extreme, signed zeros) or do not: the
    first two and last two indices of the stable sort by value."""
    rng = random.Random(33)
    for _ in range(20_000):
        count = rng.randrange(2, 40)
        step = rng.choice([1.0, 0.5, 0.1, 1e-9])
        values = [round(rng.gauss(0, 3)) * step for _ in range(count)]
        if rng.random() < 0.2:
            values = [rng.choice([0.0, -0.0, 1.0, -1.0]) for _ in range(count)]
        ranked = sorted(range(count), key=values.__getitem__)
        assert two_lowest_and_highest(values) == (ranked[:2], ranked[-2:]), values

"""``exact_stdev.pstdev`` gives ``statistics.pstdev``'s float, bit for bit."""

from __future__ import annotations

from collections.abc import Callable
import random
import statistics

import pytest

from custom_components.anomaly_monitor.core.exact_stdev import pstdev


def _outcome(stdev: Callable[[tuple[float, ...]], float], values: tuple[float, ...]) -> object:
    try:
        return stdev(values)
    except Exception as err:  # the same failure is the same outcome
        return type(err)


def _same(values: tuple[float, ...]) -> None:
    ours, theirs = _outcome(pstdev, values), _outcome(statistics.pstdev, values)
    if isinstance(theirs, float):
        assert isinstance(ours, float)
        assert ours.hex() == theirs.hex()  # the same float, bit for bit
    else:
        assert ours == theirs


def test_random_hour_means_and_awkward_values() -> None:
    rng = random.Random(31)
    kinds = (
        lambda: rng.uniform(18.0, 23.0),  # a room's hour means
        lambda: round(rng.uniform(0.0, 100.0), 1),  # readings of one decimal
        lambda: rng.choice((1.0, 2.0, 0.5, 21.3)),  # repeats: small or no spread
        lambda: rng.uniform(-1e-8, 1e-8),
        lambda: rng.uniform(-1e12, 1e12),
        lambda: rng.randint(-50, 50),  # ints mixed in
        lambda: rng.gauss(0.0, 1.0) * 10.0 ** rng.randint(-30, 30),
    )
    for _ in range(20_000):
        values = tuple(rng.choice(kinds)() for _ in range(rng.randint(1, 16)))
        _same(values)


@pytest.mark.parametrize(
    "values",
    [
        (21.5,),
        (21.5, 21.5, 21.5),
        (0.0, -0.0),
        (1, 2, 3, 4),
        (0.1, 0.2, 0.3),
        (5e-324, 1e308),
        (1.0, 2.0, float("nan")),  # not finite: left to ``statistics`` (which fails)
        (1.0, float("inf")),
        (True, 2.0),  # not a float or an int: left to ``statistics``
    ],
)
def test_edges(values: tuple[float, ...]) -> None:
    _same(values)


def test_no_value_is_an_error_as_statistics_says() -> None:
    with pytest.raises(statistics.StatisticsError):
        pstdev(())

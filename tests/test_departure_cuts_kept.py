"""``first_departure``'s sums and sorted residuals kept across a sensor's hours (core, no
Home Assistant): whatever hours are put in, replaced or taken out, in any order, the verdict
is ``first_departure``'s on the same hours, to the last bit."""

from __future__ import annotations

from collections import defaultdict
import random

from custom_components.anomaly_monitor.core.baselines.departure_cuts_kept import DepartureCuts
from custom_components.anomaly_monitor.core.statistics.daily_profile import (
    HourSides,
    departure_cuts,
    first_departure,
    hour_sides,
)

from .test_learned_days_kept import Days, random_days


def _hours(days: Days, cuts: list[int]) -> dict[int, HourSides]:
    by_hour: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for position, day in enumerate(sorted(days)):
        for hour, value in days[day]:
            by_hour[hour].append((position, value))
    return {hour: hour_sides(readings, cuts) for hour, readings in by_hour.items()}


def test_hours_put_in_and_replaced_give_first_departures_verdict() -> None:
    """Each step replaces, adds or drops one hour (with the sides of another random day
    set, as a closed hour's are): the kept sums and sorted residuals give the verdict
    ``first_departure`` gives summing and sorting afresh."""
    rng = random.Random(33)
    departed = compared = 0
    for _ in range(150):
        days = random_days(rng)
        order = sorted(days)
        cuts = departure_cuts(len(order))
        if not cuts:
            continue
        current = _hours(days, cuts)
        kept = DepartureCuts(len(cuts))
        for hour, sides in current.items():
            kept.put(hour, sides)
        for _ in range(12):
            other = _hours(random_days(rng), cuts)  # another regime's hours, same cuts
            hour = rng.randrange(24)
            replaced = other.get(hour) if rng.random() < 0.85 else None
            if replaced is None:
                current.pop(hour, None)
            else:
                current[hour] = replaced
            kept.put(hour, replaced)
            expected = first_departure(order, cuts, dict(sorted(current.items())))
            assert kept.first_departure(order, cuts) == expected
            compared += 1
            departed += expected is not None
    assert compared > 1000
    assert departed > 100  # departures compared, not only their absence

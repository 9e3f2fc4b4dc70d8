"""What a sensor usually reads, as the baselines learned it: the reference a check asks for.

A window statistic (``statistics/daily_profile.py``, ``power_range.py``…) compares a
sensor's last day with its own earlier days; in a live home the analysed window holds a
few hours, so those days are not there. The baselines hold them (``HourProfiles``: each
hour of each day of the last fortnight; ``NumericRanges``: everything a sensor read), and
this module turns them into the two references a check needs, in one place:

- ``usual_at``: what the sensor read at the *same local hour* on the other days learned:
  centre (median), spread (robust: 1.4826 × the median absolute deviation), lowest and
  highest, and how many days. The daily cycle is part of it (an evening's warmth is
  compared with other evenings).
- ``usual_range``: the lowest, highest, mean and spread of every reading learned, and over
  how many days the sensor has been learned (a sensor seen for an afternoon has no range).

Neither reads entity ids' words; both return ``None`` when too little is learned.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from statistics import median

from .home_baselines import HomeBaselines

# A median absolute deviation times this estimates a normal spread's standard deviation.
MAD_TO_SIGMA = 1.4826


@dataclass(frozen=True, slots=True)
class UsualHour:
    """The same local hour on the other days learned."""

    centre: float
    spread: float
    lowest: float
    highest: float
    days: int


@dataclass(frozen=True, slots=True)
class UsualRange:
    """Every reading learned."""

    lowest: float
    highest: float
    mean: float
    spread: float
    readings: int
    days: float


def usual_at(
    baselines: HomeBaselines, entity_id: str, start: datetime, min_days: int
) -> tuple[float | None, UsualHour | None]:
    """(the mean of the hour starting at ``start`` if closed, its usual on other days).

    The usual is ``None`` with fewer than ``min_days`` other days at that hour.
    """
    own, others = baselines.profiles.same_hour(entity_id, start)
    if len(others) < min_days:
        return own, None
    # Worked out once per hour's days (an analysis every few minutes asks the same hours).
    return own, baselines.profiles.derived(entity_id, start, "usual", _usual_hour)


def _usual_hour(others: tuple[float, ...]) -> UsualHour:
    centre = median(others)
    spread = MAD_TO_SIGMA * median(abs(v - centre) for v in others)
    return UsualHour(centre, spread, min(others), max(others), len(others))


def usual_range(baselines: HomeBaselines, entity_id: str, now: datetime) -> UsualRange | None:
    """The sensor's learned range, or None when it has never been learned.

    A highest reached in the last hours is not part of it yet (``ranges.SETTLE``): the
    reading now is compared with what the sensor read before it.
    """
    usual = baselines.ranges.usual(entity_id, now)
    if usual is None:
        return None
    readings, mean, spread, lowest, highest = usual
    since = baselines.ranges.since(entity_id) or baselines.first_seen
    days = (now - since) / timedelta(days=1) if since is not None else 0.0
    return UsualRange(lowest, highest, mean, spread, readings, days)


def day_by_day(baselines: HomeBaselines, entity_id: str) -> dict[date, list[tuple[int, float]]]:
    """Every learned day of a profiled sensor: (local hour, the hour's mean), oldest first.

    The same shape as a window statistic's days of readings (``daily_profile.py``): a
    statistic that compares days with days can take these when its window holds one.
    """
    hours = baselines.profiles.hours.get(entity_id)
    days: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for hour, values in enumerate(hours or ()):
        for day, mean in values:  # a day at most once per hour: each day's list is in hour order
            days[day].append((hour, mean))
    return {date.fromordinal(day): days[day] for day in sorted(days)}

"""Loads this home draws while nobody tracked is home: learned, no sign of anyone in.

``appliance_active_while_away`` tells a load drawing power in an empty home. In many homes
something draws then every week: an untracked grandfather's oxygen concentrator after his
day-care, the cleaner's vacuum on Tuesday mornings, a towel radiator or a sump pump that
its own thermostat or float switches at any hour. ``MeterHours`` already knows, per meter
and local hour, the days it drew while that whole hour was watched with nobody home
(``MeterHours.empty_days``); nothing new is stored. A run while the home is empty is
what the home does then when the meter drew while empty

- near that time of day (within ``NEAR_HOURS`` of the hour its run began) on
  ``WEEKLY_DAYS`` earlier days of the same kind (weekdays, weekends) or on ``DAILY_DAYS``
  days of any kind: the recurrence that makes an entry a regular visitor's
  (``stamped_uses.regular_days``); or
- in ``MIN_PARTS`` parts of the day on ``MIN_DAYS`` days at least: it draws at any hour
  by itself, as a pet moves at any hour (``AwayNormal.moves_at_any_hour``).

A meter that never drew while the home was empty, or only once near that time (an oven,
an air conditioner run only with the family in), is told as before: a load left on in an
empty home. Fewer than ``MIN_DAYS`` empty days learned: nothing is explained.
"""

from __future__ import annotations

from datetime import datetime

from .away_normal import MIN_DAYS, MIN_PARTS, PART_HOURS
from .clock import day_number, local
from .day_masks import DAYS_KEPT
from .meter_hours import MeterHours
from .stamped_uses import DAILY_DAYS, WEEKLY_DAYS, _weekend

# Hours on either side of the run's start that count as "near that time of day": a life
# without a tracker keeps its hours loosely (oxygen after the van at 16:50 or 17:20).
NEAR_HOURS = 1


def _days(meters: MeterHours, mask: int) -> list[int]:
    """The local day ordinals of the set bits of a ``MeterHours`` mask."""
    return [meters.day - back for back in range(DAYS_KEPT) if mask >> back & 1]


def drawn_while_empty(meters: MeterHours, meter: str, began: datetime) -> str | None:
    """Why ``meter`` drawing from ``began`` while the home is empty is what it does here
    then, or None when it is not learned to."""
    hour = local(began, meters.zone).hour
    today = day_number(began, meters.zone)
    # The hours around midnight wrap onto the same day's bits: a day off at most.
    near = 0
    for offset in range(-NEAR_HOURS, NEAR_HOURS + 1):
        near |= meters.empty_days(meter, (hour + offset) % 24, today)
    days = _days(meters, near)
    alike = [day for day in days if _weekend(day) == _weekend(today)]
    if len(alike) >= WEEKLY_DAYS or len(days) >= DAILY_DAYS:
        return f"it drew near {hour:02d}:00 while nobody was home on {len(days)} other days"
    parts: set[int] = set()
    anyday = 0
    for other in range(24):
        mask = meters.empty_days(meter, other, today)
        if mask:
            parts.add(other // PART_HOURS)
            anyday |= mask
    if len(parts) >= MIN_PARTS and anyday.bit_count() >= MIN_DAYS:
        return (
            f"it draws at all hours while nobody is home ({anyday.bit_count()} days), "
            "switched by itself"
        )
    return None

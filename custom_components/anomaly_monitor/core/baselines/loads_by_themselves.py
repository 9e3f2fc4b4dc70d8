"""A load that runs around the clock lately: a thermostat's, whoever is home.

``appliance_active_while_away`` asks (``away_habits``) whether a meter draws at the hour
its run began on most days (a timer set for that hour) or drew while the home was empty
before (``away_meters``). A towel radiator or a heater on its own thermostat, switched on
for the winter in a home seldom empty, is neither: it cycles day and night and its next
cycle while the home is empty was told as somebody inside.

A meter that drew in ``CLOCK_HOURS`` hours of the day at least on each of the last
``CLOCK_DAYS`` days watched whole (``MeterHours``: every hour, whoever is home; at night
while everybody sleeps as by day) runs by itself: its run while the home is empty is its
thermostat's. Nothing new is stored. A load run only when somebody is in (an oven, an
air conditioner in the afternoons, a heater at night) draws in a few hours of the day and
is told as before, as is one switched on for good only a day or two ago.
"""

from __future__ import annotations

from datetime import datetime

from .clock import day_number
from .meter_hours import MeterHours

# Hours of the day a load drew in, on each of the last ``CLOCK_DAYS`` days watched whole,
# for one that runs around the clock (a thermostat's cycles of 40 minutes every two hours
# leave some hours without one: 16 to 22 of 24 in a winter week).
CLOCK_HOURS = 16
CLOCK_DAYS = 2


def around_the_clock(meters: MeterHours, meter: str, began: datetime) -> int | None:
    """The days (``CLOCK_DAYS``) it drew in ``CLOCK_HOURS`` hours of each, the last days
    watched whole before ``began``'s day; None when it did not."""
    masks = meters.runs.get(meter)
    if masks is None:
        return None
    today = day_number(began, meters.zone)
    whole = meters.before(today)
    for hour in range(24):
        whole &= meters.watched[hour]
    seen = 0
    while whole and seen < CLOCK_DAYS:
        day = whole & -whole  # the most recent day watched whole
        if sum(1 for hour in range(24) if masks[hour] & day) < CLOCK_HOURS:
            return None
        whole ^= day
        seen += 1
    return seen if seen == CLOCK_DAYS else None

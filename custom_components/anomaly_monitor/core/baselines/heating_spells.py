"""A heating element drawing far longer than it ever heats: a part of a programme stuck.

A washing machine heats its water for 15 minutes of a 75-minute wash, a dishwasher twice
for 20; the rest of the run a motor or a pump draws a few hundred watts. A thermostat or
a heating relay that sticks keeps the element on for hours (set 14: a washer drawing 2 kW
for three hours, never told: its whole run, 3 × 75 min, was not yet long and its runs too
few). A meter's heating spells (``power.heating_key``: drawing ``HEATING_WATTS`` without a
break) are learned apart from its runs; once ``MIN_SPELLS`` are known and they are a part
of its runs (the longest at most ``PART`` of its longest run), a spell ``FACTOR`` times
the longest, never under ``FLOOR``, is told (``long_runs``). A heater, an EV charger or a
water heater heats for its whole run: its spells are its runs, judged as runs are. No word
of an id or a name is read.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from .durations import StateDurations
from .power import RUNNING, heating_key

MIN_SPELLS = 5
PART = 0.5
FACTOR = 3.0
FLOOR = timedelta(hours=1)


def heating_limit(
    durations: StateDurations, meter: str
) -> tuple[datetime, timedelta, int, float] | None:
    """(since, limit, spells, longest minutes) of the meter's heating spell under way,
    when its heating is a learned part of its runs; None otherwise."""
    key = heating_key(meter)
    current = durations.current.get(key)
    if current is None or current[0] != RUNNING:
        return None
    count, longest = durations.whole_record(key, RUNNING)
    runs, longest_run = durations.whole_record(meter, RUNNING)
    if count < MIN_SPELLS or longest <= 0 or runs < MIN_SPELLS or longest > PART * longest_run:
        return None
    return current[1], max(FLOOR, FACTOR * timedelta(minutes=longest)), count, longest

"""A way out opened at night minutes before the time it is opened every morning: an early start.

Somebody here goes out by this door at dawn every day (a man to the mosque for the dawn
prayer at 05:05, a farmer off with the horses at 05:00). The day he goes at 04:59 he is
a few minutes early, not somebody walking out in the night; nor is a person who never
left before 05:00 (``night_presence``) out for the night when the door's morning comes
within minutes. Read from ``DailyRoutines``: the quarter hours the door stood open, day
by day. The door opened within ``EARLY`` after this time of day (in the same day's
quarters) on ``HABIT_DAYS`` or more of the days kept before today is such a habit.

Only the walk-out judged by who moved after the door asks it (``night_outings``): a way
out taken while the household sleeps is judged by its area's use an hour either side
(``asleep_way_out``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from .daily_routines import quarter_of
from .home_baselines import HomeBaselines

# The door's morning use this soon after the opening makes it an early start.
EARLY = timedelta(minutes=20)
# Days with that use (before today) that make it a habit, not a one-off.
HABIT_DAYS = 2


def early_start(baselines: HomeBaselines, door: str, opened: datetime) -> bool:
    """Whether ``door`` was opened within ``EARLY`` after ``opened``'s time of day on
    ``HABIT_DAYS`` or more days before today (see the module)."""
    routines = baselines.routines
    masks = routines.slots.get(door)
    if masks is None:
        return False
    zone = baselines.zone
    first, day = quarter_of(opened, zone)
    last, last_day = quarter_of(opened + EARLY, zone)
    if last_day != day:
        last = len(masks) - 1  # up to midnight: a dawn habit lies within the day
    days = 0
    for slot in range(first, last + 1):
        days |= masks[slot]
    days &= routines.before(day)
    return days.bit_count() >= HABIT_DAYS

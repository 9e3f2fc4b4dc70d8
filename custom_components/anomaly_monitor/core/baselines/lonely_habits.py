"""An opening that goes unseen as a matter of course here, at any time of that part of day.

``LonelyOpenings.regular`` knows an opening that goes unseen at the same time of day (the
bathroom door at 07:50 every morning). A back slider to a garden no motion sensor sees
goes unseen whenever somebody steps out, at 11:10 one day, 15:30 the next: never twice
at the same minute, and so told every day. Unseen on ``HABIT_DAYS`` other days within
``HABIT_REACH`` of the time of day is how this opening is used (``habitual_days``); one
at a time it has never gone unseen (the garden door at 03:00) is still told.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta, tzinfo

from .clock import day_number, local

# Unseen on this many other days, within this of the time of day, is a habit.
HABIT_DAYS = 3
HABIT_REACH = timedelta(hours=3)
_MINUTES = 1440


def habitual_days(
    stamps: Iterable[float],
    when: datetime,
    zone: tzinfo | None,
    *,
    within: timedelta = HABIT_REACH,
    least: int = HABIT_DAYS,
) -> int | None:
    """On how many other days the openings ``stamps`` (day * 1440 + minute, local) fall
    within ``within`` of ``when``'s time of day, when on ``least`` or more; None when
    fewer."""
    moment = local(when, zone)
    minute = moment.hour * 60 + moment.minute
    today = day_number(when, zone)
    reach = within.total_seconds() / 60
    days: set[int] = set()
    for value in stamps:
        day, used = divmod(int(value), _MINUTES)
        apart = abs(minute - used) % _MINUTES
        if day != today and min(apart, _MINUTES - apart) <= reach:
            days.add(day)
    return len(days) if len(days) >= least else None

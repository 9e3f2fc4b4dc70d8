"""A use stored as one number (its local day and minute of the day), and uses that recur.

The away normal's entries, the unaccompanied openings, the long stays store each use as
``stamp``: day ordinal * 1440 + minute of the day, local time. Uses within
``ENTRY_REACH`` of the same time of day on ``WEEKLY_DAYS`` days of the same kind (weekdays,
weekends) or on ``DAILY_DAYS`` days recur (``regular_days``): a carer twice a day, the
cleaner on Wednesdays at 13:00.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta, tzinfo

from .clock import day_number, local

# An entry within this of the same time of day, on this many days of the same kind
# (weekday / weekend) or on this many days of any kind, is a regular visit.
ENTRY_REACH = timedelta(minutes=45)
WEEKLY_DAYS = 2
DAILY_DAYS = 3
_MINUTES = 1440


def _minute(when: datetime, zone: tzinfo | None) -> int:
    moment = local(when, zone)
    return moment.hour * 60 + moment.minute


def _weekend(day: int) -> bool:
    return (day - 1) % 7 >= 5  # ordinal 1 (0001-01-01) was a Monday


def _near(minute: int, other: int) -> bool:
    apart = abs(minute - other) % _MINUTES
    return min(apart, _MINUTES - apart) <= ENTRY_REACH.total_seconds() / 60


def day_of(value: float) -> int:
    """The day ordinal of a stored ``stamp``."""
    return int(value) // _MINUTES


def stamp(when: datetime, zone: tzinfo | None) -> float:
    """``when`` as one stored number: day ordinal * 1440 + minute of the day, local."""
    return float(day_number(when, zone) * _MINUTES + _minute(when, zone))


def regular_days(
    stamps: Iterable[float], when: datetime, zone: tzinfo | None, daily: int = DAILY_DAYS
) -> int | None:
    """On how many days other than ``when``'s the ``stamps`` fall within ``ENTRY_REACH`` of
    its time of day, when they recur (``WEEKLY_DAYS`` days of the same kind, weekday or
    weekend, or ``daily`` days); None when they do not."""
    minute = _minute(when, zone)
    today = day_number(when, zone)
    weekend = _weekend(today)
    days: set[int] = set()
    alike: set[int] = set()
    for value in stamps:
        day, used = divmod(int(value), _MINUTES)
        if day == today or not _near(minute, used):
            continue
        days.add(day)
        if _weekend(day) == weekend:
            alike.add(day)
    if len(alike) >= WEEKLY_DAYS or len(days) >= daily:
        return len(days)
    return None

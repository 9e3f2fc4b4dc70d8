"""Night trips kept per quarter of the day: each day's longest and how many (a bed's, a room's).

``bed_returns`` (how long a bed stays empty before it is lain on again) and ``room_returns``
(how soon somebody out of the room they sleep in comes back to it) learn the same record:
per quarter of the day, one row a day of the longest trip and their count, ``DAYS_KEPT``
days; a quarter is learned once ``MIN_TRIPS`` trips on ``MIN_DAYS`` days are kept.
"""

from __future__ import annotations

from collections import deque
from datetime import datetime, timedelta, tzinfo
from typing import NamedTuple

from .clock import slot_of
from .room_quiet import DAYS_KEPT, QUARTER_HOURS, QUARTERS

MIN_TRIPS = 3
MIN_DAYS = 2


class DayTrips(NamedTuple):
    """One day's trips at one quarter."""

    day: int
    longest: float  # minutes away
    trips: int


class LearnedTrips(NamedTuple):
    """What a quarter taught of its trips."""

    longest: timedelta
    trips: int
    days: int


def new_quarters() -> list[deque[DayTrips]]:
    """An empty record: one row of days per quarter."""
    return [deque(maxlen=DAYS_KEPT) for _ in range(QUARTERS)]


def add_trip(
    rows: list[deque[DayTrips]], out: datetime, back: datetime, zone: tzinfo | None
) -> None:
    """A trip from ``out`` to ``back``, kept at the quarter ``out`` falls in (a day older
    than the newest kept is not learned)."""
    _, hour, day = slot_of(out, zone)
    days = rows[hour // QUARTER_HOURS]
    minutes = (back - out).total_seconds() / 60
    if days and days[-1].day == day:
        newest = days[-1]
        days[-1] = DayTrips(day, max(newest.longest, minutes), newest.trips + 1)
    elif not days or day > days[-1].day:
        days.append(DayTrips(day, minutes, 1))


def learned_at(
    rows: list[deque[DayTrips]], out: datetime, zone: tzinfo | None
) -> LearnedTrips | None:
    """What the quarter ``out`` falls in taught; None while fewer than ``MIN_TRIPS`` trips
    on ``MIN_DAYS`` days."""
    _, hour, _ = slot_of(out, zone)
    quarter = list(rows[hour // QUARTER_HOURS])
    trips = sum(row.trips for row in quarter)
    days = len({row.day for row in quarter})
    if trips < MIN_TRIPS or days < MIN_DAYS:
        return None
    return LearnedTrips(timedelta(minutes=max(r.longest for r in quarter)), trips, days)

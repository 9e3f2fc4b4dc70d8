"""Local time slots the baselines are kept in: hour of day, hour of week, day number.

Times come aware: UTC (the recorder's history) or on the home's clock (the watcher's,
``core.home_clock``); a home lives by its own clock, so every slot is taken in the home's
time zone (DST included: an hour is the local hour it was lived in).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, tzinfo
from functools import lru_cache

HOURS_PER_WEEK = 7 * 24
ONE_HOUR = timedelta(hours=1)


def local(when: datetime, zone: tzinfo | None) -> datetime:
    """``when`` in the home's zone (naive times are taken as already local)."""
    if zone is None or when.tzinfo is None:
        return when
    return when.astimezone(zone)


def moment_text(when: datetime, now: datetime, zone: tzinfo | None) -> str:
    """A past moment as the homeowner reads it beside ``now``: "08:31" today, "Thu 08:31"
    within the week before, "24 Nov 08:31" further back (a weekday alone would name
    two days)."""
    moment, today = local(when, zone), local(now, zone).date()
    if moment.date() == today:
        return f"{moment:%H:%M}"
    if today - moment.date() < timedelta(days=7):
        return f"{moment:%a %H:%M}"
    return f"{moment:%d %b %H:%M}"


# Every time zone's offset is a multiple of 15 minutes: within a quarter hour since the
# epoch, the local hour and day never change.
_QUARTER = 900


@lru_cache(maxsize=512)
def _slot(quarter: int, zone: tzinfo | None) -> tuple[int, int, int]:
    """(hour of week, hour of day, day ordinal) of a quarter hour since the epoch.

    A home's changes fall in a few recent quarters: converting each quarter once (not
    each change) keeps the time-zone arithmetic off the per-event path.
    """
    moment = datetime.fromtimestamp(quarter * _QUARTER, zone or UTC)
    return moment.weekday() * 24 + moment.hour, moment.hour, moment.toordinal()


def slot_of(when: datetime, zone: tzinfo | None) -> tuple[int, int, int]:
    """(hour of week, hour of day, day ordinal) of ``when``, local time."""
    if when.tzinfo is None:  # naive: already local
        return when.weekday() * 24 + when.hour, when.hour, when.toordinal()
    return _slot(int(when.timestamp() // _QUARTER), zone)


def hour_of_week(when: datetime, zone: tzinfo | None) -> int:
    """0 (Monday 00:00-01:00) to 167 (Sunday 23:00-24:00), local time."""
    return slot_of(when, zone)[0]


def hour_of_day(when: datetime, zone: tzinfo | None) -> int:
    """The local hour, 0-23."""
    return slot_of(when, zone)[1]


def day_number(when: datetime, zone: tzinfo | None) -> int:
    """The local calendar day as an ordinal (consecutive days differ by one)."""
    return slot_of(when, zone)[2]


def hour_start(when: datetime) -> datetime:
    """The start of the hour ``when`` falls in (in ``when``'s own zone)."""
    return when.replace(minute=0, second=0, microsecond=0)


def next_hour(slot: datetime) -> datetime:
    """One real hour after ``slot``, on ``slot``'s own clock. An hour added to a time in a
    zone moves the clock's face: across a clock change it lands in spring's missing hour
    (whose next hour then comes twice) or jumps over autumn's repeated one."""
    if slot.tzinfo is None:
        return slot + ONE_HOUR
    return (slot.astimezone(UTC) + ONE_HOUR).astimezone(slot.tzinfo)


def parse_time(value: object) -> datetime | None:
    """An ISO time from stored data, or ``None`` when it is not one (stored data is untrusted)."""
    if not isinstance(value, str) or len(value) > 64:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None


def format_time(value: datetime | None) -> str | None:
    """ISO form for storage."""
    return value.isoformat() if value is not None else None

"""Local time slots the baselines are kept in: hour of day, hour of week, day number.

Transitions carry aware UTC times; a home lives by its own clock, so every slot is taken
in the home's time zone (DST included: an hour is the local hour it was lived in).
"""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo

HOURS_PER_WEEK = 7 * 24
ONE_HOUR = timedelta(hours=1)


def local(when: datetime, zone: tzinfo | None) -> datetime:
    """``when`` in the home's zone (naive times are taken as already local)."""
    if zone is None or when.tzinfo is None:
        return when
    return when.astimezone(zone)


def hour_of_week(when: datetime, zone: tzinfo | None) -> int:
    """0 (Monday 00:00-01:00) to 167 (Sunday 23:00-24:00), local time."""
    moment = local(when, zone)
    return moment.weekday() * 24 + moment.hour


def day_number(when: datetime, zone: tzinfo | None) -> int:
    """The local calendar day as an ordinal (consecutive days differ by one)."""
    return local(when, zone).date().toordinal()


def hour_start(when: datetime) -> datetime:
    """The start of the hour ``when`` falls in (in ``when``'s own zone)."""
    return when.replace(minute=0, second=0, microsecond=0)


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

"""An instant as the home's clock read it: the time every transition and window carries.

Python orders and subtracts two datetimes of the same ``ZoneInfo`` by their wall times,
ignoring ``fold``: on the morning the clocks go back, 01:05 of the second pass reads
*before* 01:45 of the first, and the 20 minutes between them read as -40. So an instant
is kept with the fixed UTC offset the home's clock had at that moment instead: it orders
and subtracts as the instant it is (datetimes of different offsets compare through UTC),
and still reads as the home's clock did (``.hour``, ``.weekday()``, ``.date()``, "since
01:30"). The home's zone itself (``Environment.zone``) is what tells the local hour of
any other instant, on either side of a clock change.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone, tzinfo

# One ``timezone`` per zone and offset (a home sees two a year), made once: the
# transitions of a window share it (datetimes of one tzinfo compare fastest), and a time
# already on a zone's clock is known by it without converting again (``_MADE``, by
# identity: a ``timezone`` equals any other of its offset, UTC's too).
_FIXED: dict[tuple[tzinfo, timedelta | None], timezone] = {}
_MADE: dict[int, tzinfo] = {}


def _fixed(zone: tzinfo, offset: timedelta | None) -> timezone:
    fixed = _FIXED.get((zone, offset))
    if fixed is None:
        minutes = int((offset or timedelta()).total_seconds()) // 60
        sign, minutes = ("-", -minutes) if minutes < 0 else ("+", minutes)
        made = timezone(offset or timedelta(), f"{zone}{sign}{minutes // 60:02}:{minutes % 60:02}")
        fixed = _FIXED.setdefault((zone, offset), made)
        _MADE[id(fixed)] = zone
    return fixed


def on_home_clock(when: datetime, zone: tzinfo | None) -> datetime:
    """``when`` as the home's clock in ``zone`` read it then, with that moment's fixed
    offset (naive times, or no zone: ``when`` as it is). Cheap for a time already on it."""
    if zone is None or when.tzinfo is None or _MADE.get(id(when.tzinfo)) is zone:
        return when
    local = when.astimezone(zone)
    return local.replace(tzinfo=_fixed(zone, local.utcoffset()))

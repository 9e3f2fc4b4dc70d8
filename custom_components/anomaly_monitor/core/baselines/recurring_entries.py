"""An entry at the time somebody untracked came in before: on the same weekday, or on the
home's first days.

``AwayNormal.regular_entry`` takes an entry as a regular visitor's once the entrance was
used near that time of day (``ENTRY_REACH``) on ``WEEKLY_DAYS`` days of the same kind
(weekdays, weekends) or ``DAILY_DAYS`` days while the home was empty. Two recurrences
come sooner than that and are as plain to a homeowner:

- **weekly**: the entrance was used near this time on the same weekday a week (or
  weeks) before, while the home was empty: the cleaner who lets herself in on
  Wednesdays at 09:30, told the first Wednesday, is not news the second;
- **the first days**: the home has been learned empty in this part of the day
  (``AwayNormal.away_days``) on only ``FIRST_DAYS`` earlier days of the same kind, and
  the entrance was used near this time on most of them (``MOST_AWAY``): a grandfather
  without a phone back from day care at 16:40, the maid at 09:00 every morning. Two
  days do not make a habit for ``regular_entry``, but in a home watched for two days
  they are all there is, and they agree.

An entry at a time nothing came in on those days is judged as before (every break-in
of the sets came at such a time); one followed by somebody tracked coming home was
never learned as an entry (``AwayNormal``). Nothing is stored: it reads what
``AwayNormal`` keeps.
"""

from __future__ import annotations

from datetime import datetime

from .away_normal import MOST_AWAY, AwayNormal, _part
from .clock import day_number
from .stamped_uses import _MINUTES, _minute, _near, _weekend

# The days of the same kind a home was learned empty at that part of the day, at most,
# for the first days' rule: past them ``regular_entry``'s counts judge.
FIRST_DAYS = 2
WEEK = 7


def recurring_entry(away: AwayNormal, entrance: str, when: datetime) -> int | None:
    """On how many earlier days ``entrance`` was used near ``when``'s time of day while
    the home was empty, when that is weekly or all there is of the first days; else None."""
    stamps = away.entries.get(entrance)
    if not stamps:
        return None
    zone = away.zone
    minute = _minute(when, zone)
    today = day_number(when, zone)
    used: set[int] = set()
    for value in stamps:
        day, at = divmod(int(value), _MINUTES)
        if day < today and _near(minute, at):
            used.add(day)
    if not used:
        return None
    if any((today - day) % WEEK == 0 for day in used):
        return len(used)
    weekend = _weekend(today)
    empty = {
        int(day)
        for day in away.away_days[_part(when, zone)]
        if day < today and _weekend(int(day)) == weekend
    }
    alike = {day for day in used if _weekend(day) == weekend}
    empty |= alike
    if len(empty) <= FIRST_DAYS and alike and len(alike) >= MOST_AWAY * len(empty):
        return len(used)
    return None

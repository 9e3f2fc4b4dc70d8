"""The usual longest quiet of hours this home never learned with somebody home: a prior.

``QuietSpells`` learns an hour once somebody was home in it on ``MIN_DAYS`` days. A home
that is empty on weekday late mornings never learns them, and a person home then (a day
off, a sick day, a weekend) would be judged by nothing: a fall at 11:00 waits, unjudged,
until the first learned hour. Issue 24 keeps a prior for what is not learned yet; here it
is the home's own: an hour not learned takes the usual of the nearest learned hours on
either side of it (the longer of the two: a quiet that runs into the afternoon is judged
as the afternoon would be), and, when it has been seen on a day or more, never less than
its own longest then. The hours learned keep their own usual.

Only for somebody tracked home: a person untracked in the hours the trackers are out is
judged by the days the home was lived in then (``QuietSpells.lived``), or not at all.
None while no hour of the day is learned (the first days: ``no_movement_while_home``'s).
"""

from __future__ import annotations

from datetime import datetime

from .clock import hour_start, local, next_hour
from .quiet_spells import QuietSpells

# Hours searched on each side of an hour not learned for a learned one.
_REACH = 12


def _nearest_learned(quiet: QuietSpells, hour: int, step: int, twice: bool) -> float | None:
    """The usual of the first learned hour from ``hour`` going by ``step`` (1 or -1)."""
    for distance in range(1, _REACH + 1):
        found = quiet.typical((hour + step * distance) % 24, twice=twice)
        if found is not None:
            return found
    return None


def _own_longest(quiet: QuietSpells, hour: int, skip_day: int) -> float | None:
    """The longest this hour was quiet on the few days somebody was home in it."""
    seen = [value for day, value in quiet.maxima[hour % 24] if day != skip_day]
    return max(seen, default=None)


def prior_of_hour(quiet: QuietSpells, hour: int, skip_day: int, twice: bool) -> float | None:
    """The usual longest quiet (minutes) an hour not learned is judged by; None when no
    learned hour lies within ``_REACH`` hours on either side."""
    sides = [
        found
        for step in (-1, 1)
        if (found := _nearest_learned(quiet, hour, step, twice)) is not None
    ]
    if not sides:
        return None
    own = _own_longest(quiet, hour, skip_day)
    return max([*sides, *([own] if own is not None else [])])


def typical_over_with_prior(
    quiet: QuietSpells, start: datetime, end: datetime, *, twice: bool = False
) -> float | None:
    """``QuietSpells.typical_over``, with each hour not learned judged by its prior; None
    while no hour it covers has a usual or a prior."""
    learned: list[float] = []
    slot = hour_start(local(start, quiet.zone))
    stop = local(end, quiet.zone)
    hours = 0
    while slot <= stop and hours < 24:
        day = slot.date().toordinal()
        found = quiet.typical(slot.hour, skip_day=day, twice=twice)
        if found is None:
            found = prior_of_hour(quiet, slot.hour, day, twice)
        if found is None:
            return None
        learned.append(found)
        slot = next_hour(slot)
        hours += 1
    return max(learned, default=None)

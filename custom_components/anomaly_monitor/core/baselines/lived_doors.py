"""A door the home's untracked life goes in and out by, whatever the minute.

``untracked_judge.untracked_opening`` takes an entry into an "empty" home as an untracked
person's day when the entrance is used within ``USE_REACH`` (90 min) of the time of day on
three other days. Somebody who lives there without a tracker (a grandmother in her own
ger in the yard, eight boarders with their own door, a lodger) does not keep minutes:
their door opens a few times in every part of the day, at a different minute each day,
and is told as an entry into an empty home day after day.

What makes such an entry ordinary is learned from this home, not from names:

- **the home is lived in then**: on most of the days it was empty near this time of day,
  somebody showed while every tracker was away (``UntrackedLife.shown_life``);
- **by this door**: it was used while the home was empty in this part of the day (or
  within ``LIFE_REACH`` of this time) on most of the days it was empty then, on
  ``DAILY_DAYS`` days at least (``AwayNormal.entries``: uses followed by a tracked
  arrival are not learned);
- **and today too**: somebody moved about in the home during this empty spell before the
  door opened (a sensor that keeps a person's hours, not one that moves at any hour).

An entry into a home that has been still since everybody left (a break-in into an empty
flat), by a door nobody uses while the home is empty, at an hour the home is not lived in,
by a window (climbed through) or by a door with a lock (its keyholders are learned by
``keyed_entries``; a door whose lock stayed shut was forced) is judged as before.
"""

from __future__ import annotations

from datetime import datetime

from ..home import HomeView
from ..keyed_doors import locks_of
from ..phoneless_residents import lives_here_without_phone
from .away_normal import LEAVE_GRACE, MOST_AWAY, PART_HOURS, _part
from .clock import day_number
from .home_baselines import HomeBaselines
from .somebody_in import is_motion
from .stamped_uses import _MINUTES, DAILY_DAYS, _minute
from .still_spells import keeps_a_pet
from .stored_spell import SIGN
from .untracked_life import LIFE_REACH


def _door_days(baselines: HomeBaselines, entrance: str, when: datetime) -> int | None:
    """Days (before today) the entrance was used near ``when``'s time of day while the home
    was empty, when that is most of the days it was empty then; else None."""
    away = baselines.away
    stamps = away.entries.get(entrance)
    if not stamps:
        return None
    zone = away.zone
    minute, today, part = _minute(when, zone), day_number(when, zone), _part(when, zone)
    reach = LIFE_REACH.total_seconds() / 60
    used: set[int] = set()
    for value in stamps:
        day, at = divmod(int(value), _MINUTES)
        apart = abs(minute - at)
        # In the same part of the day (the days lived empty are counted by part), or near.
        near = at // (PART_HOURS * 60) == part or min(apart, _MINUTES - apart) <= reach
        if day != today and near:
            used.add(day)
    empty = {int(d) for d in away.away_days[part] if d != today} | used
    if len(used) >= DAILY_DAYS and len(used) >= MOST_AWAY * len(empty):
        return len(used)
    return None


def _moved_this_spell(baselines: HomeBaselines, home: HomeView, when: datetime) -> bool:
    """Somebody moved in the home since everybody left and before ``when``: a motion
    sensor that keeps a person's hours (not one that moves at any hour: a pet)."""
    away = baselines.away
    since = away.empty_since
    if since is None:
        return False
    since += LEAVE_GRACE
    onsets = [(t, e) for t, e, kind in away.spell if kind == SIGN]
    onsets += [
        (c.when, e)
        for e in home.history
        if is_motion(home, e)
        for c in home.changes(e)
        if c.state.lower() == "on"
    ]
    # Not ``AwayNormal.moves_at_any_hour`` (motion in most parts of the day while empty):
    # somebody who lives here untracked moves in every part of the day too. People sleep;
    # a sensor that moves round the clock is a pet's or sees outside.
    untracked = baselines.untracked
    return any(since <= t < when and untracked.round_the_clock(e, t) is None for t, e in onsets)


def lived_door(
    baselines: HomeBaselines, home: HomeView, entrance: str, when: datetime
) -> int | None:
    """On how many earlier empty days ``entrance`` was used near this time, when it is the
    door of somebody who lives here untracked (see the module); else None."""
    if home.domain(entrance) != "binary_sensor" or home.device_class(entrance) == "window":
        return None
    if locks_of(home, entrance):
        return None
    days = _door_days(baselines, entrance, when)
    if days is None:
        return None
    pets = keeps_a_pet(home, baselines)
    if (
        baselines.untracked.shown_life(
            baselines.away, when, pets=pets, people=lives_here_without_phone(home.window)
        )
        is None
    ):
        return None
    return days if _moved_this_spell(baselines, home, when) else None

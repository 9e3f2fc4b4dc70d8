"""Entries made with the key while nobody tracked is home: the household's keyholders.

A cleaner, a carer, a dog-sitter, guests with the keypad code come in the same way: the
lock is unlocked and, within ``KEY_REACH``, its door opens. A forced door opens with its
lock still locked; a back door without a lock, a window, a door whose lock was not touched
are not entries with the key.

What the key's entries look like here is learned from the lock's unlocks while the home
was empty (``AwayNormal.entries``, a tracked person's own return excluded). An entry with
the key at a time of day within ``KEY_HOURS`` of one on another day (``KEYED_DAYS``) is a
keyholder's visit: somebody the household gave the key or code to, at the hours they
come. One at an hour no keyholder ever came (03:00), on a door whose lock was never
unlocked while nobody was home, or without the key, is judged as before and told.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta, tzinfo

from ..home import HomeView
from ..keyed_doors import KEY_REACH, changed_to, doors_of, locks_of
from .away_normal import AwayNormal
from .clock import day_number, local

# A keyholder's entry within this of the time of day of one on another day fits.
KEY_HOURS = timedelta(hours=2)
# Other days with a keyholder's entry near that time needed.
KEYED_DAYS = 1
# Learned times of day a told finding names at most.
SHOWN = 5
_MINUTES = 1440


def _used(home: HomeView, away: AwayNormal, entity_id: str, wanted: str) -> list[datetime]:
    """When the door opened (``wanted`` "on") or the lock was unlocked: in the window, and
    the entries of this empty spell kept from before it (a visit outlasts the window)."""
    kept = (t for t, e in away.recent if e == entity_id)
    return sorted({*changed_to(home, entity_id, wanted), *kept})


def key_of(
    home: HomeView, away: AwayNormal, entrance: str, when: datetime
) -> tuple[str, bool] | None:
    """(the lock, whether its door has opened yet) when ``entrance``'s use at ``when`` is
    an entry with the key: a lock unlocked then, or a door opened within ``KEY_REACH`` of
    its lock being unlocked. A lock with a door must see the door open: (lock, False) while
    ``KEY_REACH`` has not passed; None once it has without the door opening, and for a
    lock that has no door sensor (an unlock alone says nothing of an entry)."""
    if home.domain(entrance) == "lock":
        doors = doors_of(home, entrance)
        if not doors:
            return None
        opened = any(
            when <= t <= when + KEY_REACH for d in doors for t in _used(home, away, d, "on")
        )
        if opened:
            return entrance, True
        return (entrance, False) if home.end - when <= KEY_REACH else None
    for lock in locks_of(home, entrance):
        if any(when - KEY_REACH <= t <= when for t in _used(home, away, lock, "unlocked")):
            return lock, True
    return None


def in_keyed_visit(home: HomeView, away: AwayNormal, door: str, when: datetime) -> bool:
    """The door opens while its lock has stayed unlocked since an earlier entry with the
    key: the keyholder going about or leaving, not somebody coming in."""
    for lock in locks_of(home, door):
        unlocks = [t for t in changed_to(home, lock, "unlocked") if t < when - KEY_REACH]
        if not unlocks:
            continue
        since = unlocks[-1]
        if any(since < t <= when for t in changed_to(home, lock, "locked")):
            continue
        if key_of(home, away, lock, since) == (lock, True):
            return True
    return False


def _minute(when: datetime, zone: tzinfo | None) -> int:
    moment = local(when, zone)
    return moment.hour * 60 + moment.minute


def _apart(minute: int, other: int) -> int:
    apart = abs(minute - other) % _MINUTES
    return min(apart, _MINUTES - apart)


def _other_days(away: AwayNormal, lock: str, when: datetime) -> Iterable[tuple[int, int]]:
    """(day, minute of the day) of the lock's unlocks while empty, on days other than
    ``when``'s."""
    today = day_number(when, away.zone)
    for value in away.entries.get(lock, ()):
        day, minute = divmod(int(value), _MINUTES)
        if day != today:
            yield day, minute


def keyholder_days(away: AwayNormal, lock: str, when: datetime) -> int | None:
    """On how many other days a keyholder came in near ``when``'s time of day while the
    home was empty, when that is at least ``KEYED_DAYS``; None when none did."""
    minute = _minute(when, away.zone)
    reach = KEY_HOURS.total_seconds() / 60
    days = {day for day, used in _other_days(away, lock, when) if _apart(minute, used) <= reach}
    return len(days) if len(days) >= KEYED_DAYS else None


def keyholder_hours(
    away: AwayNormal, lock: str, when: datetime, empty: str = "the home was empty"
) -> str:
    """What the learned keyholders' entries say, for a finding that is told: the times of
    day they came in on other days (to the quarter hour, the earliest ``SHOWN`` of them),
    or that none ever did (``empty``: how the home was empty, ``empty_home_words``)."""
    quarters = sorted({used // 15 * 15 for _, used in _other_days(away, lock, when)})
    if not quarters:
        return f" Nobody ever came in with the key while {empty}."
    shown = ", ".join(_clock(minute) for minute in quarters[:SHOWN])
    more = " and later" if len(quarters) > SHOWN else ""
    return f" With the key, somebody came in while {empty} only around {shown}{more}."


def _clock(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"

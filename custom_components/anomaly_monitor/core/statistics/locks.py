"""Entry locks over time: a door that opened before its lock let it, a lock left open.

A smart lock and the door contact beside it tell one story: the lock turns to
"unlocked", then the door opens. A door that opens first and only then sees its lock
report "unlocked" was opened while the lock said it was locked (forced, or a lock whose
reports cannot be trusted). And a lock that stays unlocked for a long time while the
alarm guards an empty home leaves the home open.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from statistics import median

from ..device_roles import same_device
from ..finding_kind import FindingKind
from ..home import ENTRY_DEVICE_CLASSES, HomeView
from ..home_then import someone_home_at
from ..models import AnomalyType, Finding, Severity
from ..role_words import says, words
from .armed import armed_away_periods
from .timeline import intervals

# A lock reporting "unlocked" this soon after its door opened is reporting that opening.
LATE_UNLOCK = timedelta(seconds=60)
# Two reports in the same second carry no order (HA stamps them to the same instant).
SAME_INSTANT = timedelta(seconds=1)
# Unlocked this long inside an armed-away period is a home left open, not a person
# passing through (entering and re-locking takes seconds to a minute).
UNLOCKED_WHILE_ARMED = timedelta(minutes=30)
# ...and longer than this many times the lock's usual unlocked stretch.
HABIT_FACTOR = 3.0


def _locks_and_doors(home: HomeView) -> list[tuple[str, list[str]]]:
    """Each lock with an area, and the entry doors of that area: those that are its own
    (``_own_doors``) when any is, else all of them."""
    pairs: list[tuple[str, list[str]]] = []
    for lock in home.history_of("lock"):
        area = home.area(lock)
        if area is None:
            continue
        doors = [
            e
            for e in home.history
            if home.domain(e) == "binary_sensor"
            and home.device_class(e) in ENTRY_DEVICE_CLASSES
            and home.area(e) == area
        ]
        if doors:
            pairs.append((lock, _own_doors(home, lock, doors) or doors))
    return pairs


def _own_doors(home: HomeView, lock: str, doors: list[str]) -> list[str]:
    """The doors of the lock's area that are its own: one device with it (the registry, or
    HA's naming of one device's entities) or named as it ("Front door" and "Front door
    contact"). A gate or a second door in the same hall is another door (set 27: a gate
    opened a minute before the front door was unlocked, told as the front door opened while
    locked)."""
    own = home.info(lock)
    if own is None:
        return []
    return [
        door
        for door in doors
        if (state := home.info(door)) is not None
        and (same_device(own, state) or _share_a_name(own.info.name, state.info.name))
    ]


def _share_a_name(one: str, other: str) -> bool:
    """One name holds the other's, as whole words ("Porte devant" in "Porte devant")."""
    return bool(words(one)) and bool(words(other)) and (says(one, (other,)) or says(other, (one,)))


DOOR_OPENED_BEFORE_UNLOCK = FindingKind(
    "door_opened_before_unlock", AnomalyType.SECURITY, Severity.MEDIUM
)


def door_opened_before_unlock(home: HomeView) -> Iterator[Finding]:
    """An entry door opened, and only afterwards did its lock report being unlocked.

    Magnitude: how many seconds the unlock report came after the door opened (the largest).
    """
    for lock, doors in _locks_and_doors(home):
        unlocks = [c.when for c in home.changes(lock) if c.state.lower() == "unlocked"]
        if not unlocks:
            continue
        late: list[tuple[datetime, float, str]] = []
        for door in doors:
            for change in home.changes(door):
                if change.state.lower() != "on":
                    continue
                opened = change.when
                after = [u for u in unlocks if opened + SAME_INSTANT <= u <= opened + LATE_UNLOCK]
                # An unlock just before (or with) the opening is the normal order.
                before = [u for u in unlocks if opened - LATE_UNLOCK <= u < opened + SAME_INSTANT]
                if after and not before:
                    late.append((opened, (after[0] - opened).total_seconds(), door))
        if not late:
            continue
        opened, lag, door = late[0]
        yield DOOR_OPENED_BEFORE_UNLOCK.finding(
            evidence=(lock,),
            reasoning=f"{door} opened at {opened:%H:%M:%S}, {lag:.0f} s before {lock} "
            "reported being unlocked: it was opened while the lock said locked.",
            recommendation=f"Check the door for forced entry and {lock}'s state reports.",
            magnitude=max(lag for _, lag, _ in late),
            # Opened and unlocked while somebody tracked was home: the household's own
            # doing (the back door used a minute before leaving by the front), though
            # everybody left before it was judged (``learning_gate``).
            home_then=all(
                someone_home_at(home, when) and someone_home_at(home, when + timedelta(seconds=lag))
                for when, lag, _ in late
            ),
        )


LOCK_UNLOCKED_WHILE_ARMED = FindingKind(
    "lock_unlocked_while_armed", AnomalyType.SECURITY, Severity.HIGH
)


def lock_unlocked_while_armed(home: HomeView) -> Iterator[Finding]:
    """An entry lock stayed unlocked for a long time while the alarm was armed away.

    Magnitude: the longest such stretch, in minutes.
    """
    armed = armed_away_periods(home)
    if not armed:
        return
    for entity_id in home.history_of("lock"):
        unlocked = [i for i in intervals(home, entity_id) if i.state.lower() == "unlocked"]
        longest = timedelta(0)
        since: datetime | None = None
        worst = None
        for interval in unlocked:
            for start, end in armed:
                overlap = min(interval.end, end) - max(interval.start, start)
                if overlap > longest:
                    longest, since, worst = overlap, max(interval.start, start), interval
        if longest < UNLOCKED_WHILE_ARMED or since is None:
            continue
        # A lock this home always leaves unlocked that long is its habit, not news.
        others = [i.duration.total_seconds() for i in unlocked if i is not worst]
        if others and longest.total_seconds() < HABIT_FACTOR * median(others):
            continue
        minutes = longest.total_seconds() / 60
        yield LOCK_UNLOCKED_WHILE_ARMED.finding(
            evidence=(entity_id,),
            reasoning=f"{entity_id} stayed unlocked for {minutes:.0f} min from "
            f"{since:%Y-%m-%d %H:%M} while the alarm was armed away.",
            recommendation=f"Lock {entity_id}, and check why it was left unlocked.",
            magnitude=minutes,
        )

"""An entrance left unlocked in an empty home: unlocked, and nobody came in or was inside.

``entry_unsecured_while_away`` tells a lock unlocked while nobody tracked is home; while
untracked people stay (guests of a holiday let, a carer), its later findings are signs of
that stay and are shown, not pushed (``anomalies.away_stay``). A lock that goes unlocked
when the home has been still for a while, and then nobody opens its door nor moves
anywhere, is no sign of anybody: the visitor has gone and the home stands unlocked (a
caretaker who did not throw the deadbolt, a keypad or remote unlock by mistake). That is
news whatever stay was told before, so it is its own finding (joining the door's incident,
which is then told).

Known by domain (``lock``), HA's device classes (entry door, motion/occupancy/presence,
openings) and ``last_changed``; no word is read. After a restart ``last_changed`` is the
restart: the home looks recently used and nothing is found (the safe side).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from ..finding_kind import FindingKind
from ..home import HomeView, is_motion, is_on, is_opening
from ..keyed_doors import door_of_lock
from ..models import AnomalyType, EntityState, Finding, Severity
from .context import ids, motion_in

# Unlocked this long with nobody coming in: not somebody on the way in or out.
LEFT_FOR = timedelta(minutes=10)
# Nobody moved, no door or window changed, for this long before the unlock: nobody
# inside unlocked it on the way out.
STILL_BEFORE = timedelta(minutes=15)

LEFT_UNLOCKED_WHILE_AWAY = FindingKind(
    "left_unlocked_while_away", AnomalyType.SECURITY, Severity.HIGH
)


def _entry_door(home: HomeView, lock: EntityState) -> EntityState | None:
    # The same door ``entry_unsecured_while_away`` takes: the findings share a subject.
    return door_of_lock(home, lock)


def left_unlocked_while_away(home: HomeView) -> Iterator[Finding]:
    """A lock unlocked for ``LEFT_FOR`` while nobody is home, its door closed since before,
    and nothing moving or opening from ``STILL_BEFORE`` before the unlock until now.

    Magnitude: minutes the lock has been unlocked.
    """
    if not home.nobody_home:
        return
    now = home.end
    watched = [s for s in home.states.values() if is_motion(s) or is_opening(s)]
    for lock in home.of("lock"):
        since = lock.last_changed
        if lock.state.lower() != "unlocked" or since is None or now - since < LEFT_FOR:
            continue
        door = _entry_door(home, lock)
        if door is None or is_on(door):
            continue  # the door open is ``entry_unsecured_while_away``'s entry
        if any(
            is_on(s) or s.last_changed is None or s.last_changed > since - STILL_BEFORE
            for s in watched
        ):
            continue  # somebody about: the stay's own unlocking
        minutes = (now - since).total_seconds() / 60
        # The entrance finding's evidence and more (``merge_findings`` keeps the wider
        # one of an incident; this rule runs first, so of equals it is kept): the door's
        # incident then says this, and is told even when shown as an away stay's sign.
        area = lock.info.area
        watchers = motion_in(home, area) + [s for s in home.in_area(area) if s.domain == "camera"]
        watchers += home.of("alarm_control_panel")[:1]
        yield LEFT_UNLOCKED_WHILE_AWAY.finding(
            evidence=ids(lock, door, watchers),
            context=ids(door, watchers),
            subject=door.entity_id,
            while_away=True,
            magnitude=round(minutes, 1),
            reasoning=(
                f"{lock.info.name} has been unlocked for {minutes:.0f} min while nobody is "
                "home; nobody came in and nothing has moved since."
            ),
            recommendation="Lock it remotely or ask someone to check the door.",
        )

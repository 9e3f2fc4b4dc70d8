"""Doors opened from outside at night, learned: when somebody comes in here unannounced.

The household's own night use of a door comes from inside: somebody moves in the rooms
towards it before it opens (the dog let out, the rubbish taken out, a smoke), or a phone
leaves with them or comes home with them. A door that opens first, with nothing moving
inside for ``ON_THE_WAY`` before it and no person or tracker changing within
``PRESENCE_NEAR`` of it, was opened by somebody coming in from outside whom the home does
not track: a second-shift worker without a tracked phone, a lodger, a teenager back late.
Per door, the night-time ones (``NIGHT_HOURS``) are kept (``stamp``, newest first,
``KEPT``): on how many nights this door was entered so at an hour (``nights_entered``)
tells an entry of this home's own from a stranger's (``unused_hour_entry``).

Beside them, the night's outings (``out_at``): a door opened at night by somebody inside
(motion within ``ON_THE_WAY`` before it) after which nothing moved inside for ``GONE``, and
not the way back of a trip through the same door (within ``TRIP_BACK`` of its last
opening: the dog let out and in again). Until another door or opening opens, somebody is
out: the next opening from outside is them coming back (a teenager back from a party at
03:25 by the door he left by), not a stranger.

Not stored: the last motion onset, the last presence change, the openings waiting to see
whether a presence change follows them, the outings. Stored data is untrusted
(``from_dict``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta, tzinfo
from typing import Any

from .away_normal import MAX_SENSORS, remember, split_due, stored_numbers
from .clock import local
from .packed import pack
from .stamped_uses import stamp
from .stored_values import stored_entity_id, stored_items

KEPT = 40
# The reaches the rule judges an opening with (``night_outings.ON_THE_WAY``,
# ``night_presence.PRESENCE_NEAR``; those modules read the baselines, this one is in them).
ON_THE_WAY = timedelta(minutes=3)
PRESENCE_NEAR = timedelta(minutes=15)
# Nothing moved inside this long after a door opened: whoever opened it went out
# (``night_outings.GONE``).
GONE = timedelta(minutes=5)
# A door opened again this soon is the way back of a trip through it.
TRIP_BACK = timedelta(minutes=20)
KEPT_OUTINGS = 8
# The hours an entry is kept at: the night (``unused_hour_entry``'s 22-06) and the hour
# either side it pools.
NIGHT_HOURS = frozenset({21, 22, 23, 0, 1, 2, 3, 4, 5, 6})
# An entry this recent is of the night being judged, not of a night learned.
SAME_NIGHT = timedelta(hours=12)
_MINUTES = 1440


class OutsideEntries:
    """Per door: the night openings with no sign inside before them and no phone near."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.entries: dict[str, list[float]] = {}
        self._motion: datetime | None = None
        self._presence: datetime | None = None
        self._pending: list[tuple[datetime, str]] = []
        self._last_opened: dict[str, datetime] = {}
        self._leaving: datetime | None = None  # a night opening from inside, nothing since
        # Each outing: [went out, the next opening after it (None: still out)].
        self._outings: deque[list[datetime | None]] = deque(maxlen=KEPT_OUTINGS)

    def moved(self, when: datetime) -> None:
        """A motion sensor began to see somebody."""
        self.advance(when)
        self._motion = when
        self._leaving = None  # somebody inside moved: not gone (or somebody else is up)

    def presence(self, when: datetime) -> None:
        """A person arrived or left: the openings just before it were theirs."""
        self._presence = when
        self._pending = [(at, e) for at, e in self._pending if when - at > PRESENCE_NEAR]

    def opened(self, door: str, when: datetime) -> None:
        """A door or other opening opened."""
        self.advance(when)
        if self._outings and self._outings[-1][1] is None:
            self._outings[-1][1] = when  # somebody came in (or another went out)
        last, self._last_opened[door] = self._last_opened.get(door), when
        if len(self._last_opened) > MAX_SENSORS:
            del self._last_opened[next(iter(self._last_opened))]
        if local(when, self.zone).hour not in NIGHT_HOURS:
            return
        if self._motion is not None and timedelta(0) <= when - self._motion <= ON_THE_WAY:
            back = last is not None and timedelta(0) < when - last <= TRIP_BACK
            self._leaving = None if back else when
            return  # somebody inside walked to it
        if self._presence is not None and timedelta(0) <= when - self._presence <= PRESENCE_NEAR:
            return  # a phone came home (or left) with whoever opened it
        self._pending.append((when, door))

    def advance(self, now: datetime) -> None:
        """Openings no presence change followed are entries from outside."""
        due, self._pending = split_due(self._pending, now, PRESENCE_NEAR)
        remember(self.entries, due, self.zone, KEPT)
        if self._leaving is not None and now - self._leaving > GONE:
            self._outings.append([self._leaving, None])
            self._leaving = None

    def out_at(self, when: datetime) -> bool:
        """Somebody went out by a door at night (within ``SAME_NIGHT``) before ``when`` and
        no door or opening opened since, until ``when``."""
        return any(
            left is not None
            and timedelta(0) < when - left <= SAME_NIGHT
            and (back is None or back >= when)
            for left, back in self._outings
        )

    def nights_entered(self, door: str, when: datetime, hours: set[int]) -> int:
        """On how many nights before ``when``'s this door was entered from outside at one
        of ``hours`` (local)."""
        return nights_at(self.entries.get(door, ()), when, hours, self.zone)

    def as_dict(self) -> dict[str, Any]:
        return {door: pack(kept, 0) for door, kept in self.entries.items()}

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> OutsideEntries:
        """Rebuild from stored data (a damaged door's entries are dropped)."""
        entries = cls(zone)
        if not isinstance(data, Mapping):
            return entries
        for door, text in stored_items(data, MAX_SENSORS):
            if stored_entity_id(door) and (kept := stored_numbers(text, KEPT, 1e10)):
                entries.entries[door] = kept
        return entries


def nights_at(stamps: Iterable[float], when: datetime, hours: set[int], zone: tzinfo | None) -> int:
    """On how many nights before ``when``'s one of ``stamps`` fell at one of ``hours``."""
    before = stamp(when - SAME_NIGHT, zone)
    nights = {
        int((value - 12 * 60) // _MINUTES)  # a night from noon to noon
        for value in stamps
        if value <= before and int(value % _MINUTES) // 60 in hours
    }
    return len(nights)

"""Arrivals from outside, learned whoever is home: when somebody usually comes in by a door.

The away rules learn the entries of an *empty* home (``AwayNormal.entries``). Who comes in
while somebody is home is a way in too: a son back from school at 13:50 while his father
is home, a lodger who comes through the side door to the laundry on Wednesdays and
Saturdays, a cousin at 13:00 every weekday. The day the phones happen to be away at that
hour, the same arrival is no stranger's.

An arrival is told from the household's own use by what comes before and after it:

- nothing moved in the door's own room for ``ON_THE_WAY`` before it opened (nobody inside
  walked to it: whoever opened it came from outside). The door's room, not the home: with
  somebody home, something moves somewhere most minutes; where the door's room has no
  motion sensor, anywhere;
- no tracked person arrived or left within ``PRESENCE_NEAR`` of it (that was them);
- it is not the way back of a trip through the same door (within ``TRIP_BACK`` of its last
  opening: the dog let out and in again, the bins);
- something moved inside within ``FOLLOWED`` after it (whoever opened it walked in).

Per door, the newest ``KEPT`` (``stamp``); ``arrival_days``: on how many earlier days this
door was entered so near a time of day, when that recurs (``stamped_uses.regular_days``:
on two days of the same kind or three of any). One day is no habit: a door the household
uses at home, or a visitor's single call, teaches nothing. Stored data is untrusted
(``from_dict``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
from typing import Any

from .away_normal import MAX_SENSORS, remember, stored_numbers
from .outside_entries import ON_THE_WAY, PRESENCE_NEAR, TRIP_BACK
from .packed import pack
from .stamped_uses import regular_days
from .stored_values import stored_entity_id, stored_items

KEPT = 40
# Whoever came in shows on a motion sensor this soon after the door opened.
FOLLOWED = timedelta(minutes=5)


class DayArrivals:
    """Per door: the openings from outside (nobody on the way, no phone near, motion after)."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.arrivals: dict[str, list[float]] = {}
        # Not stored: the last motion and presence change, each door's last opening, and
        # the openings waiting for what follows them: [when, door, motion followed].
        self._motion: dict[str | None, datetime] = {}  # the last motion onset, per area
        self._presence: datetime | None = None
        self._last_opened: dict[str, datetime] = {}
        self._pending: list[tuple[datetime, str, list[bool]]] = []

    def moved(self, when: datetime, area: str | None) -> None:
        """A motion sensor (in ``area``) began to see somebody."""
        self.advance(when)
        for at, _, followed in self._pending:
            if timedelta(0) <= when - at <= FOLLOWED:
                followed[0] = True
        self._motion[None] = when
        if area:
            self._motion.pop(area, None)
            self._motion[area] = when
            if len(self._motion) > MAX_SENSORS:
                del self._motion[next(a for a in self._motion if a is not None)]

    def presence(self, when: datetime) -> None:
        """A person arrived or left: the openings just before it were theirs."""
        self._presence = when
        self._pending = [p for p in self._pending if when - p[0] > PRESENCE_NEAR]

    def opened(self, door: str, when: datetime, area: str | None) -> None:
        """A door or other opening (in ``area``) opened."""
        self.advance(when)
        moved = self._motion.get(area or None, self._motion.get(None))
        last = self._last_opened.pop(door, None)
        self._last_opened[door] = when
        if len(self._last_opened) > MAX_SENSORS:
            del self._last_opened[next(iter(self._last_opened))]
        if moved is not None and timedelta(0) <= when - moved <= ON_THE_WAY:
            return  # somebody inside walked to it
        if self._presence is not None and timedelta(0) <= when - self._presence <= PRESENCE_NEAR:
            return  # a phone came home (or left) with whoever opened it
        if last is not None and timedelta(0) < when - last <= TRIP_BACK:
            return  # the way back of a trip through it
        self._pending.append((when, door, [False]))

    def advance(self, now: datetime) -> None:
        """Openings no presence change followed, and motion did, are arrivals."""
        count = 0
        while count < len(self._pending) and now - self._pending[count][0] > PRESENCE_NEAR:
            count += 1
        due, self._pending = self._pending[:count], self._pending[count:]
        remember(self.arrivals, [(at, door) for at, door, f in due if f[0]], self.zone, KEPT)

    def arrival_days(self, door: str, when: datetime) -> int | None:
        """On how many other days ``door`` was entered from outside near ``when``'s time of
        day, when that recurs; else None."""
        return regular_days(self.arrivals.get(door, ()), when, self.zone)

    def as_dict(self) -> dict[str, Any]:
        return {door: pack(kept, 0) for door, kept in self.arrivals.items()}

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> DayArrivals:
        """Rebuild from stored data (a damaged door's arrivals are dropped)."""
        arrivals = cls(zone)
        if not isinstance(data, Mapping):
            return arrivals
        for door, text in stored_items(data, MAX_SENSORS):
            if stored_entity_id(door) and (kept := stored_numbers(text, KEPT, 1e10)):
                arrivals.arrivals[door] = kept
        return arrivals

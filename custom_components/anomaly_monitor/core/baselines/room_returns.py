"""How soon somebody up in the night comes back to the room they got up in: a room's trips.

``bed_returns`` learns a bed's trips; a home without a bed sensor shows the same trips by
its rooms. After the night's rest (a quiet of ``room_quiet.REST`` anywhere) the first sign
is in the room somebody sleeps in (her door opened, his room's motion), then one outside
it (the kitchen, the hall), then, minutes later, one in that room again (the door shut
behind her): one trip out and back, its minutes counted from the first sign outside the
room to the first sign back in it. A room whose night trips come back within minutes is
one somebody sleeps in; one whose first sign after the rest is never followed by a sign
back in it (the day begun, the way back unseen) teaches nothing.

Learned per room and quarter of the day the trip went out in (local): per day the
longest and how many, ``DAYS_KEPT`` days, in the night hours only (``NIGHT_HOURS``).
``room_trip.room_trip`` judges a trip under way by them. The trip under way (``trip``) is
kept so: where it began, when it left that room. Bounded: ``MAX_ROOMS`` x 4 quarters x
``DAYS_KEPT`` days.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
from typing import Any, NamedTuple

from .clock import format_time, parse_time, slot_of
from .room_quiet import MAX_AREA_NAME, QUARTERS, stored_quarters
from .stored_values import stored_day_longest_count, stored_items
from .trip_quarters import DayTrips, LearnedTrips, add_trip, learned_at, new_quarters

MAX_ROOMS = 32
# The hours a trip out of the rest is a night's (local): from five the day begins for
# early risers (fajr, the bakery), and their first steps out are no trip.
NIGHT_HOURS = frozenset({22, 23, 0, 1, 2, 3, 4})
# Back within this after the first sign outside: a trip. Longer is no trip out of bed
# (the night finished in the armchair, the day begun).
MAX_TRIP = timedelta(hours=1)
MAX_MINUTES = MAX_TRIP.total_seconds() / 60
# A room's quarter is learned from this many trips back to it, on this many nights.


class OpenTrip(NamedTuple):
    """A trip out of the night's rest under way: from which room, when it left it."""

    room: str
    began: datetime  # the first sign after the rest, in ``room``
    out: datetime | None  # the first sign outside ``room`` since (None: not left yet)


class RoomReturns:
    """Per room and quarter: how long after leaving it at night somebody is back in it."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.trips: dict[str, list[deque[DayTrips]]] = {}
        self.trip: OpenTrip | None = None

    def sign(self, when: datetime, area: str, *, after_rest: bool) -> None:
        """A sign of somebody at ``when`` in ``area``; ``after_rest``: the first after a
        rest of the whole home."""
        trip = self.trip
        if after_rest or trip is None:
            began_night = slot_of(when, self.zone)[1] in NIGHT_HOURS
            self.trip = OpenTrip(area, when, None) if after_rest and began_night else None
            return
        if trip.out is not None and when - trip.out > MAX_TRIP:
            self.trip = None  # never back: no trip
        elif area != trip.room and trip.out is None:
            self.trip = trip._replace(out=when)
        elif area == trip.room and trip.out is not None:
            self._learn(trip.room, trip.out, when)
            self.trip = None

    def nobody_home(self) -> None:
        """Everybody is known away, or nobody's place is known: no trip under way."""
        self.trip = None

    def _learn(self, room: str, out: datetime, back: datetime) -> None:
        rows = self.trips.get(room)
        if rows is None:
            if len(self.trips) >= MAX_ROOMS or len(room) > MAX_AREA_NAME:
                return
            rows = self.trips[room] = new_quarters()
        add_trip(rows, out, back, self.zone)

    def learned(self, room: str, out: datetime) -> LearnedTrips | None:
        """What ``room`` taught of its night trips at the quarter ``out`` falls in; None
        while fewer than ``MIN_TRIPS`` on ``MIN_DAYS`` nights."""
        rows = self.trips.get(room)
        return None if rows is None else learned_at(rows, out, self.zone)

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable form: per room, per quarter ``[day, longest, trips]``; the
        trip under way."""
        trip = self.trip
        return {
            "trips": {
                room: [[[r.day, round(r.longest, 1), r.trips] for r in days] for days in rows]
                for room, rows in self.trips.items()
            },
            "trip": None
            if trip is None
            else [trip.room, format_time(trip.began), format_time(trip.out)],
        }

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> RoomReturns:
        """Rebuild from stored data; anything malformed is dropped, never raised."""
        returns = cls(zone)
        if not isinstance(data, Mapping):
            return returns
        for room, rows in stored_items(data.get("trips"), MAX_ROOMS):
            if not isinstance(room, str) or not 0 < len(room) <= MAX_AREA_NAME:
                continue
            if not isinstance(rows, list) or len(rows) != QUARTERS:
                continue
            returns.trips[room] = stored_quarters(rows, _day_trips)
        trip = data.get("trip")
        if isinstance(trip, list) and len(trip) == 3 and isinstance(trip[0], str):
            began = parse_time(trip[1])
            if began is not None and 0 < len(trip[0]) <= MAX_AREA_NAME:
                returns.trip = OpenTrip(trip[0], began, parse_time(trip[2]))
        return returns


def _day_trips(item: object) -> DayTrips | None:
    """A stored ``[day, longest, trips]``, or None when it is not one."""
    stored = stored_day_longest_count(item, MAX_MINUTES, 1)
    return None if stored is None else DayTrips(*stored)

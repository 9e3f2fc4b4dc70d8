"""How long a bed stays empty when whoever left it comes back to it: this bed's trips.

Somebody up in the night for the toilet, the commode, a glass of water, the dawn
ablution, lies down again in the same bed: the bed's empty spell that ends with it lain on
again is one trip out of it. A household's trips are its own (a grandmother back within
eight minutes every night; a man who reads in the kitchen for forty), and the spell that
never ends in the same bed is no trip (the day begun, the night finished elsewhere).
Learned per bed and quarter of the day it was left in (local): when a bed lain on for
``LAIN`` was left and lain on again within ``MAX_TRIP``, the minutes empty; per day the
longest and how many, ``DAYS_KEPT`` days. ``bed_left`` and ``bed_trip`` judge a bed left
in the night and still empty by them (``night_trip_limit``). Bounded: ``MAX_BEDS`` x 4
quarters x ``DAYS_KEPT`` days.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
from typing import Any

from .clock import slot_of
from .room_quiet import QUARTERS, stored_quarters
from .stored_values import stored_day_longest_count, stored_entity_id, stored_items
from .trip_quarters import DayTrips, LearnedTrips, add_trip, learned_at, new_quarters

MAX_BEDS = 16
# The bed was lain on this long before it was left: somebody was in it for the night, or
# back from an earlier trip of it (a cat's minute on it is no lying down).
LAIN = timedelta(minutes=30)
# Lain on again within this: a trip out of the bed. Longer is the night (or the day)
# spent elsewhere, no trip.
MAX_TRIP = timedelta(hours=2)
MAX_MINUTES = MAX_TRIP.total_seconds() / 60
# A quarter of a bed is learned from this many trips, on this many days.

# A trip out of a bed in the night, and nothing seen of its leaver elsewhere: past this
# many times the longest trip learned, at least ``MARGIN`` more, never under ``FLOOR``
# (``bed_left.EXIT_FLOOR``, a door somebody always comes back through within minutes)...
FACTOR = 2.0
MARGIN = timedelta(minutes=10)
FLOOR = timedelta(minutes=20)
# ...and before the bed's trips at this quarter are learned (a prior: a trip to the toilet
# at night of half an hour, nothing seen of it since, is somebody who did not come back).
PRIOR = timedelta(minutes=25)
# The hours a bed left is a trip out of the night (local; ``still_in_room.NIGHT_HOURS``):
# later, it is the day begun.
NIGHT_HOURS = frozenset({22, 23, 0, 1, 2, 3, 4, 5})


class BedReturns:
    """Per bed and quarter: how long it stays empty before whoever left it lies down again."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.trips: dict[str, list[deque[DayTrips]]] = {}
        self._lain: dict[str, datetime] = {}  # each bed's lying down, while it reads on
        self._left: dict[str, datetime] = {}  # each bed left after ``LAIN``, still empty

    def bed(self, when: datetime, entity_id: str, on: bool) -> None:
        """An occupancy or presence sensor (maybe a bed) changed to on or off."""
        if on:
            left = self._left.pop(entity_id, None)
            if left is not None and timedelta() <= when - left <= MAX_TRIP:
                self._learn(entity_id, left, when)
            if entity_id in self._lain or len(self._lain) < MAX_BEDS:
                self._lain[entity_id] = when
            return
        lain = self._lain.pop(entity_id, None)
        if lain is None or when - lain < LAIN:
            return
        if entity_id in self._left or len(self._left) < MAX_BEDS:
            self._left[entity_id] = when

    def _learn(self, bed: str, left: datetime, back: datetime) -> None:
        rows = self.trips.get(bed)
        if rows is None:
            if len(self.trips) >= MAX_BEDS:
                return
            rows = self.trips[bed] = new_quarters()
        add_trip(rows, left, back, self.zone)

    def learned(self, bed: str, left: datetime) -> LearnedTrips | None:
        """What ``bed`` taught of its trips at the quarter ``left`` falls in; None while
        fewer than ``MIN_TRIPS`` trips on ``MIN_DAYS`` days."""
        rows = self.trips.get(bed)
        return None if rows is None else learned_at(rows, left, self.zone)

    def limit(self, bed: str, left: datetime) -> tuple[timedelta, LearnedTrips | None] | None:
        """How long after ``left`` the bed may stay empty with its leaver seen nowhere
        else (see ``FACTOR``), and what it rests on (None: the prior); None when it was
        left outside the night (``NIGHT_HOURS``: a bed left at 07:30 is the day begun, a
        bath after it no trip)."""
        if slot_of(left, self.zone)[1] not in NIGHT_HOURS:
            return None
        learned = self.learned(bed, left)
        if learned is None:
            return PRIOR, None
        longest = learned.longest
        return max(FLOOR, longest * FACTOR, longest + MARGIN), learned

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable form: per bed, per quarter ``[day, longest, trips]``."""
        return {
            bed: [[[r.day, round(r.longest, 1), r.trips] for r in days] for days in rows]
            for bed, rows in self.trips.items()
        }

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> BedReturns:
        """Rebuild from stored data; anything malformed is dropped, never raised."""
        returns = cls(zone)
        if not isinstance(data, Mapping):
            return returns
        for bed, rows in stored_items(data, MAX_BEDS):
            if not stored_entity_id(bed) or not isinstance(rows, list) or len(rows) != QUARTERS:
                continue
            returns.trips[bed] = stored_quarters(rows, _day_trips)
        return returns


def _day_trips(item: object) -> DayTrips | None:
    """A stored ``[day, longest, trips]``, or None when it is not one."""
    stored = stored_day_longest_count(item, MAX_MINUTES, 1)
    return None if stored is None else DayTrips(*stored)

"""How soon after a bed is left somebody shows outside its room.

A bed left at the hour a day begins says little by itself: the grandmother's day starts at
05:50 every morning, her bed stays empty until night, and her room may be quiet for two
hours after (a weekend's prayer by the window). What her mornings share is the next step:
within three minutes of leaving the bed she is seen outside its room (the bathroom for
the ablution). Learned per bed and quarter of the day (local, the quarter the bed was
left in): when a bed lain on for ``LAIN`` was left, how long until the first sign of
anybody in another room (a motion sensor turning on, a door or window used; outdoor areas
are no room of the house); per day the longest and how many, ``DAYS_KEPT`` days. The bed
lain on again first (back to bed after the commode) teaches nothing; everybody known away
ends the wait. ``bed_left.bed_exit`` judges a bed left and still empty with nobody seen
outside its room since. Bounded: ``MAX_BEDS`` x 4 quarters x ``DAYS_KEPT`` days.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
from typing import Any, NamedTuple

from ..outdoor_areas import outdoor_area
from .bed_returns import BedReturns
from .clock import slot_of
from .room_quiet import DAYS_KEPT, QUARTER_HOURS, QUARTERS, stored_quarters
from .stored_values import stored_day_longest_count, stored_entity_id, stored_items

MAX_BEDS = 16
# What a bed (or a chair) sensor is: an occupancy or presence sensor (whether it is lain
# on is learned: ``held_on.lain_on``).
BED_CLASSES = frozenset({"occupancy", "presence"})
# The bed was lain on this long before it was left (``bed_trip.LAIN``: back from an earlier
# trip of the night counts; a cat's minute on it does not).
LAIN = timedelta(minutes=30)
# A quarter of a bed is learned from this many exits, on this many days.
MIN_EXITS = 5
MIN_DAYS = 3
# Waiting longer than this for a sign elsewhere is no exit (the day spent in the room).
MAX_WAIT = timedelta(hours=6)
MAX_MINUTES = MAX_WAIT.total_seconds() / 60


class DayExits(NamedTuple):
    """One day's exits from a bed's room at one quarter."""

    day: int
    longest: float  # minutes from the bed left to the first sign outside its room
    exits: int


class LearnedExits(NamedTuple):
    """What a bed's quarter taught."""

    longest: timedelta
    exits: int
    days: int


class _Pending(NamedTuple):
    bed: str
    area: str
    left: datetime


class BedExits:
    """Per bed and quarter: how soon after it is left somebody shows outside its room."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.exits: dict[str, list[deque[DayExits]]] = {}
        self._lain: dict[str, datetime] = {}  # each bed's lying down, while it reads on
        self._pending: dict[str, _Pending] = {}  # beds left, nobody seen elsewhere yet
        self.returns = BedReturns(zone)  # how long each bed stays empty before lain on again

    def bed(self, when: datetime, entity_id: str, area: str | None, on: bool) -> None:
        """An occupancy or presence sensor (maybe a bed) changed to on or off."""
        self.returns.bed(when, entity_id, on)
        if on:
            self._pending.pop(entity_id, None)  # back to bed: nothing learned
            if entity_id in self._lain or len(self._lain) < MAX_BEDS:
                self._lain[entity_id] = when
            return
        lain = self._lain.pop(entity_id, None)
        if lain is None or not area or when - lain < LAIN:
            return
        if entity_id in self._pending or len(self._pending) < MAX_BEDS:
            self._pending[entity_id] = _Pending(entity_id, area, when)

    def sign(self, when: datetime, area: str | None) -> None:
        """Somebody showed in ``area`` (a motion sensor on, a door or window used)."""
        if not area or outdoor_area(area):
            return
        for bed, pending in list(self._pending.items()):
            if area == pending.area:
                continue
            del self._pending[bed]
            if when - pending.left <= MAX_WAIT:
                self._learn(bed, pending.left, when)

    def everybody_left(self) -> None:
        """Everybody is known away: nobody is waited for."""
        self._pending.clear()

    def _learn(self, bed: str, left: datetime, seen: datetime) -> None:
        rows = self.exits.get(bed)
        if rows is None:
            if len(self.exits) >= MAX_BEDS:
                return
            rows = self.exits[bed] = [deque(maxlen=DAYS_KEPT) for _ in range(QUARTERS)]
        _, hour, day = slot_of(left, self.zone)
        days = rows[hour // QUARTER_HOURS]
        minutes = max(0.0, (seen - left).total_seconds() / 60)
        if days and days[-1].day == day:
            newest = days[-1]
            days[-1] = DayExits(day, max(newest.longest, minutes), newest.exits + 1)
        elif not days or day > days[-1].day:
            days.append(DayExits(day, minutes, 1))

    def learned(self, bed: str, left: datetime) -> LearnedExits | None:
        """What ``bed`` taught at the quarter ``left`` falls in; None while fewer than
        ``MIN_EXITS`` exits on ``MIN_DAYS`` days."""
        rows = self.exits.get(bed)
        if rows is None:
            return None
        _, hour, _ = slot_of(left, self.zone)
        quarter = list(rows[hour // QUARTER_HOURS])
        exits = sum(row.exits for row in quarter)
        days = len({row.day for row in quarter})
        if exits < MIN_EXITS or days < MIN_DAYS:
            return None
        return LearnedExits(timedelta(minutes=max(r.longest for r in quarter)), exits, days)

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable form: per bed, per quarter ``[day, longest, exits]``."""
        return {
            bed: [[[r.day, round(r.longest, 1), r.exits] for r in days] for days in rows]
            for bed, rows in self.exits.items()
        }

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> BedExits:
        """Rebuild from stored data; anything malformed is dropped, never raised."""
        exits = cls(zone)
        if not isinstance(data, Mapping):
            return exits
        for bed, rows in stored_items(data, MAX_BEDS):
            if not stored_entity_id(bed) or not isinstance(rows, list) or len(rows) != QUARTERS:
                continue
            exits.exits[bed] = stored_quarters(rows, _day_exits)
        return exits


def _day_exits(item: object) -> DayExits | None:
    """A stored ``[day, longest, exits]``, or None when it is not one."""
    stored = stored_day_longest_count(item, MAX_MINUTES, 0)
    return None if stored is None else DayExits(*stored)

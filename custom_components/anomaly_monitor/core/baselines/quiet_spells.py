"""How long this home usually goes without movement while someone is home, by hour of day.

A *quiet spell* starts at the last movement (a motion, occupancy or presence sensor
turning on or off) or when someone comes home, and lasts until the next movement. For
each local hour of the day we keep, per day, the longest the current spell had lasted
at any moment of that hour while someone was home (the spell's length at the end of the
hour, or when it ended). A night's sleep thus shows as long spells in the small hours and
short ones in the afternoon; a person who naps after lunch teaches the early afternoon
that an hour and a half of stillness is normal.

Kept bounded: ``DAYS_KEPT`` values per hour. Nothing is learned into ``maxima`` while the
home is known to be empty (the spell of an empty home says nothing about its occupants).
But a home may be lived in while every tracker is out (a grandmother, a child without a
phone): a spell begun by movement *after* the trackers left is somebody's inside, and it is
kept apart (``lived``, as bounded). Whoever judges such an untracked person's stillness reads
both (``typical(..., lived=True)``): the hours the trackers are always out have a limit too.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
import math
from typing import Any

from .clock import ONE_HOUR, format_time, hour_start, local, next_hour, parse_time, slot_of
from .daily_rhythm import is_weekend
from .stored_values import stored_day_value, stored_items

# Days of history per hour of the day: four weeks follow a changing routine.
DAYS_KEPT = 28
# Fewer days than this at an hour and the hour is not learned yet.
MIN_DAYS = 4
# The typical longest spell of an hour: this quantile of its daily values (one bad day,
# say the day of an incident, does not teach that a fall is normal).
TYPICAL_QUANTILE = 0.9
# After a gap in the record (HA stopped), at most this much is accounted as quiet.
MAX_CATCH_UP = timedelta(hours=36)
# Persons followed for occupancy (bounded against a flood of entities).
MAX_PERSONS = 64


class QuietSpells:
    """Learns the usual length of quiet spells per hour of the day; O(hours) per update."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        # Per local hour: (day number, longest spell in minutes) for the last DAYS_KEPT days.
        self.maxima: list[deque[tuple[int, float]]] = [deque(maxlen=DAYS_KEPT) for _ in range(24)]
        # The same, from spells begun by movement while every tracker was away.
        self.lived: list[deque[tuple[int, float]]] = [deque(maxlen=DAYS_KEPT) for _ in range(24)]
        self.empty_since: datetime | None = None  # every tracker away since then
        self.quiet_since: datetime | None = None
        self.accounted_to: datetime | None = None
        self.presence: dict[str, bool | None] = {}
        # When each person's known place (home, away) last changed: a blink to unknown and
        # back is no arrival (``presence_moves``). Not stored: unknown after a restart.
        self.placed_at: dict[str, datetime] = {}
        # When each person last came home from a known away (not a first sight, not a
        # blink): who a lock was turned for (``lock_in_use``). Not stored either.
        self.came_home_at: dict[str, datetime] = {}

    # --- occupancy ---------------------------------------------------------------------

    @property
    def occupied(self) -> bool | None:
        """True someone home, False everybody known away, None unknown (no persons)."""
        known = list(self.presence.values())
        if any(where is True for where in known):
            return True
        if known and all(where is False for where in known):
            return False
        return None

    @property
    def one_home_alone(self) -> bool:
        """Exactly one tracked person home, and nobody's place unknown."""
        places = list(self.presence.values())
        return None not in places and places.count(True) == 1

    def forget(self, person: str) -> None:
        """``person`` is no longer counted (HA cannot locate them)."""
        self.presence.pop(person, None)
        self.placed_at.pop(person, None)
        self.came_home_at.pop(person, None)

    def presence_changed(self, person: str, where: bool | None, when: datetime) -> None:
        """A person came home, left, or became unknown (unknown is never away)."""
        if person not in self.presence and len(self.presence) >= MAX_PERSONS:
            return
        self.account(when)
        was = self.occupied
        if where is None and self.presence.get(person) is not None:
            return  # unknown says nothing: the last known place stands
        if where is not None and where != self.presence.get(person):
            self.placed_at[person] = when
            if where and self.presence.get(person) is False:
                self.came_home_at[person] = when
        self.presence[person] = where
        now = self.occupied
        if now is False and was is not False:
            self.empty_since = when
        elif now is not False:
            self.empty_since = None
        if now is True and was is not True:
            self.quiet_since = when  # an arrival: the spell of the occupants starts now

    # --- movement ----------------------------------------------------------------------

    def movement(self, when: datetime) -> None:
        """Someone moved at ``when``: the current spell ends."""
        if self.accounted_to is not None and when < self.accounted_to:
            return  # out of order (a late history row): already accounted
        self.account(when)
        self.quiet_since = when

    def account(self, until: datetime) -> None:
        """Record the current spell's length for every hour up to ``until``."""
        since, done = self.quiet_since, self.accounted_to
        if done is not None and until <= done:
            return
        self.accounted_to = until
        if since is None:
            return
        maxima = self.maxima
        if self.occupied is False:
            empty = self.empty_since
            if empty is None or since <= empty:
                return  # nobody moved since everybody left: an empty home's quiet
            maxima = self.lived  # somebody untracked moved since: their quiet
        start = since if done is None else max(done, since)
        start = max(start, until - MAX_CATCH_UP)
        slot = hour_start(start)
        while slot < until:
            end = slot + ONE_HOUR
            point = min(until, end)
            if point > start:
                minutes = (point - since).total_seconds() / 60
                self._record(slot, minutes, maxima)
            slot = end

    def _record(
        self, slot: datetime, minutes: float, maxima: list[deque[tuple[int, float]]]
    ) -> None:
        _, hour, day = slot_of(slot, self.zone)
        values = maxima[hour]
        if values and values[-1][0] == day:
            if minutes > values[-1][1]:
                values[-1] = (day, minutes)
        elif not values or day > values[-1][0]:
            values.append((day, minutes))

    # --- what is normal ----------------------------------------------------------------

    def typical(
        self,
        hour: int,
        skip_day: int | None = None,
        *,
        lived: bool = False,
        twice: bool = False,
    ) -> float | None:
        """The usual longest spell (minutes) at a local hour, or None while not learned.

        ``skip_day``: a day whose value is left out (the one the current spell is writing).
        ``lived``: also the days the trackers were out and somebody moved inside (per day,
        the longer of the two).
        ``twice``: at most the longest reached on two of the days (below ten days the
        quantile is the longest of all: one odd day would be the usual), unless the longest
        is the only day of its kind learned (a weekend's lie-in on the first weekend is the
        weekends' usual, not an odd day).
        """
        by_day = dict(self.maxima[hour % 24])
        if lived:
            for day, value in self.lived[hour % 24]:
                by_day[day] = max(value, by_day.get(day, value))
        days = sorted((v, day) for day, v in by_day.items() if day != skip_day)
        if len(days) < MIN_DAYS:
            return None
        index = min(len(days) - 1, math.ceil(TYPICAL_QUANTILE * len(days)) - 1)
        if twice and _of_a_kind_seen_again(days[-1][1], [day for _, day in days[:-1]]):
            index = min(index, len(days) - 2)
        return days[index][0]

    def typical_over(
        self, start: datetime, end: datetime, *, lived: bool = False, twice: bool = False
    ) -> float | None:
        """The longest usual spell over the hours a spell from ``start`` to ``end`` covers.

        Each hour is judged on the other days: the spell being judged has already written
        its own length into the hours it covers and must not teach itself. None when any
        of those hours is not learned yet (the caller falls back to a conservative default).
        """
        slots: dict[int, int] = {}
        slot = hour_start(local(start, self.zone))
        stop = local(end, self.zone)
        while slot <= stop and len(slots) < 24:
            slots[slot.hour] = slot.date().toordinal()
            slot = next_hour(slot)
        learned = [
            self.typical(hour, skip_day=day, lived=lived, twice=twice)
            for hour, day in slots.items()
        ]
        if not learned or any(value is None for value in learned):
            return None
        return max(value for value in learned if value is not None)

    def learned_hours(self) -> int:
        """How many hours of the day have a usable baseline."""
        return sum(1 for hour in range(24) if self.typical(hour) is not None)

    def days_seen(self) -> int:
        """How many different days have taught something."""
        return len({day for values in self.maxima for day, _ in values})

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable form."""
        # The lived-while-away parts only once there are any (an older form saves the same).
        lived: dict[str, Any] = {"lived": _stored(self.lived)} if any(self.lived) else {}
        if self.empty_since is not None:
            lived["empty_since"] = format_time(self.empty_since)
        return {
            **lived,
            "maxima": _stored(self.maxima),
            "quiet_since": format_time(self.quiet_since),
            "accounted_to": format_time(self.accounted_to),
            "presence": dict(self.presence),
        }

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> QuietSpells:
        """Rebuild from stored data; anything malformed is dropped, never raised."""
        spells = cls(zone)
        if not isinstance(data, Mapping):
            return spells
        _read(data.get("maxima"), spells.maxima)
        _read(data.get("lived"), spells.lived)
        spells.empty_since = parse_time(data.get("empty_since"))
        spells.quiet_since = parse_time(data.get("quiet_since"))
        spells.accounted_to = parse_time(data.get("accounted_to"))
        for person, where in stored_items(data.get("presence"), MAX_PERSONS):
            if isinstance(person, str) and len(person) <= 255 and where in (True, False, None):
                spells.presence[person] = where
        return spells


def _of_a_kind_seen_again(day: int, others: list[int]) -> bool:
    """Whether another of ``others`` is of ``day``'s kind (a weekday, a weekend day)."""
    return any(is_weekend(other) == is_weekend(day) for other in others)


def _stored(maxima: list[deque[tuple[int, float]]]) -> list[list[list[float]]]:
    return [[[day, round(value, 1)] for day, value in values] for values in maxima]


def _read(stored: object, maxima: list[deque[tuple[int, float]]]) -> None:
    """Stored per-hour ``[day, minutes]`` rows into ``maxima`` (malformed rows dropped)."""
    if not isinstance(stored, list):
        return
    for hour, values in enumerate(stored[:24]):
        if not isinstance(values, list):
            continue
        for item in values[-DAYS_KEPT:]:
            pair = _day_value(item)
            if pair is not None and (not maxima[hour] or pair[0] > maxima[hour][-1][0]):
                maxima[hour].append(pair)


def _day_value(item: object) -> tuple[int, float] | None:
    """A stored [day, minutes quiet] pair: no spell is negative or longer than 1e6 min."""
    pair = stored_day_value(item)
    return pair if pair is not None and 0 <= pair[1] <= 1e6 else None

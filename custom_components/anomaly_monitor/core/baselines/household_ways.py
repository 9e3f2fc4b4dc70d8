"""The doors the tracked household comes and goes by, and the doors it never does.

A tracked person arriving opens a way in first (the front door, the garage, the back door
from the car port); one leaving opens a way out last. Whatever else opens around their
arrival or departure (a bedroom door as they take off their coat, the WC) comes after the
way in or before the way out. So, per opening contact, this home learns how often it was
**the way**: the first contact opened within ``ARRIVAL_REACH`` of a tracked arrival (either
side: a phone reports on the driveway or minutes after the door), or the last one opened
within ``DEPARTURE_BEFORE`` before a tracked departure (or ``DEPARTURE_AFTER`` after it,
the phone reporting before the door shuts).

A contact opened on ``MIN_DAYS`` days or more that was never (at most ``WAY_SHARE``) the
way at ``MIN_CHANGES`` arrivals and departures read with a way, while another contact was
the way at most of them, is an **inside door** (``inside_door``): a grandmother's room
door, a bathroom door, the door to the live-in help's quarters. Whoever opens it while the
trackers are away is inside already: they came in by a way in (judged there) or never went
out. A back door the household never uses to come or go is an inside door by this count
too; the away rules therefore ask it only after a way in was used in the same visit
(``away_judge._entries``), never for the first opening of an empty spell.

Per contact: [times it was the way, days opened, last day opened]; and the arrivals and
departures read with a way. Bounded (``MAX_CONTACTS``), stored versioned; stored data is
untrusted and a malformed item is dropped.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
from typing import Any

from .clock import day_number
from .stored_values import is_stored_number, stored_entity_id, stored_items

HOUSEHOLD_WAYS_VERSION = 1
MAX_CONTACTS = 300
ARRIVAL_REACH = timedelta(minutes=10)
DEPARTURE_BEFORE = timedelta(minutes=15)
DEPARTURE_AFTER = timedelta(minutes=2)
MIN_DAYS = 3
MIN_CHANGES = 6
WAY_SHARE = 0.1
# Another contact is the household's way at this share of the changes read with a way.
KNOWN_WAY_SHARE = 0.5
# A count past this is halved with the others (the newest weeks weigh).
MAX_COUNT = 2_000.0

_WAYS, _DAYS, _LAST_DAY = range(3)


class HouseholdWays:
    """Per opening contact: how often it was the tracked household's way in or out."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.counts: dict[str, list[float]] = {}
        self.changes = 0.0  # arrivals and departures read with a way
        # Not stored: the openings of the last minutes, an arrival waiting for its way in,
        # and the latest departure (its way out may open a moment after the phone says so).
        self._recent: deque[tuple[datetime, str]] = deque()
        self._arrival: datetime | None = None
        self._departure: tuple[datetime, bool] | None = None  # (when, way counted)

    def opened(self, entity_id: str, when: datetime) -> None:
        """The contact ``entity_id`` opened at ``when``."""
        counts = self.counts.get(entity_id)
        if counts is None:
            if len(self.counts) >= MAX_CONTACTS:
                return
            counts = self.counts[entity_id] = [0.0, 0.0, -1.0]
        day = float(day_number(when, self.zone))
        if counts[_LAST_DAY] != day:
            counts[_DAYS] += 1
            counts[_LAST_DAY] = day
        arrival = self._arrival
        if arrival is not None:
            self._arrival = None
            if when - arrival <= ARRIVAL_REACH:
                self._count(entity_id)  # the phone reported first: the first door after
        departure = self._departure
        if departure is not None and not departure[1] and when - departure[0] <= DEPARTURE_AFTER:
            self._departure = (departure[0], True)
            self._count(entity_id)  # the phone reported before the door
        self._recent.append((when, entity_id))
        while self._recent and when - self._recent[0][0] > DEPARTURE_BEFORE:
            self._recent.popleft()

    def presence(self, when: datetime, arrived: bool) -> None:
        """A tracked person arrived (``arrived``) or left at ``when``."""
        recent = [(t, e) for t, e in self._recent if t <= when]
        if arrived:
            before = [(t, e) for t, e in recent if when - t <= ARRIVAL_REACH]
            if before:
                self._count(before[0][1])  # the first door opened as they came
            else:
                self._arrival = when
            return
        if recent:
            self._departure = (when, True)
            self._count(recent[-1][1])  # the last door opened as they went
        else:
            self._departure = (when, False)

    def _count(self, entity_id: str) -> None:
        self.changes += 1
        counts = self.counts.get(entity_id)
        if counts is not None:
            counts[_WAYS] += 1
        if self.changes > MAX_COUNT:
            self.changes = round(self.changes / 2)
            for item in self.counts.values():
                item[_WAYS] = round(item[_WAYS] / 2)

    def inside_door(self, entity_id: str) -> bool:
        """Whether ``entity_id``, opened on ``MIN_DAYS`` days, was (nearly) never the
        household's way in or out over ``MIN_CHANGES`` arrivals and departures, while
        another contact was the way at most of them."""
        counts = self.counts.get(entity_id)
        if counts is None or counts[_DAYS] < MIN_DAYS or self.changes < MIN_CHANGES:
            return False
        if counts[_WAYS] > WAY_SHARE * self.changes:
            return False
        busiest = max((c[_WAYS] for c in self.counts.values()), default=0.0)
        return busiest >= KNOWN_WAY_SHARE * self.changes

    def known(self) -> list[str]:
        """The contacts learned as inside doors (diagnostics)."""
        return sorted(e for e in self.counts if self.inside_door(e))

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable, versioned form."""
        return {
            "version": HOUSEHOLD_WAYS_VERSION,
            "changes": self.changes,
            "contacts": {e: list(counts) for e, counts in self.counts.items()},
        }

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> HouseholdWays:
        """Rebuild from stored data; another version or garbage gives an empty one."""
        learned = cls(zone)
        if not isinstance(data, Mapping) or data.get("version") != HOUSEHOLD_WAYS_VERSION:
            return learned
        changes = data.get("changes")
        if not is_stored_number(changes) or not isinstance(changes, int | float) or changes < 0:
            return learned
        learned.changes = float(changes)
        for entity_id, numbers in stored_items(data.get("contacts"), MAX_CONTACTS):
            if not stored_entity_id(entity_id) or not isinstance(numbers, list):
                continue
            if len(numbers) == 3 and all(is_stored_number(n) for n in numbers):
                ways, days, last = map(float, numbers)
                if ways >= 0 and days >= 0:
                    learned.counts[entity_id] = [ways, days, last]
        return learned

"""Openings nobody is seen making, learned: when each door or window opens unseen here.

``unaccompanied_opening`` tells a door or window that opened while no motion sensor saw
anybody. In many homes that is how one is used: the bathroom door opened every morning
at 07:50 where the hall sensor does not reach, the back door a carer uses at 15:00. Per
opening sensor, the day and minute of each opening with no motion anywhere within
``PRESENCE_WINDOW`` and nobody tracked coming home within ``ARRIVAL_WINDOW`` (the rule's
own reaches), the newest ``KEPT``; one that recurs at that time of day
(``stamped_uses.regular_days``: on ``LONELY_DAYS`` days) is usual
(``regular``), and the rule's finding is not told (``lonely_judge.judge_lonely``).

Beside them, every opening of each sensor, seen or not (``uses``, the newest
``KEPT_USES``): when the door is used at all here, for ``everyday_openings``; and the
night openings nobody inside made (``entries``, ``outside_entries``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from datetime import datetime, tzinfo
from typing import Any

from ..statistics.openings import ARRIVAL_WINDOW, PRESENCE_WINDOW
from .away_normal import (
    MAX_SENSORS,
    remember,
    split_due,
    stored_numbers,
)
from .day_arrivals import DayArrivals
from .lonely_habits import habitual_days
from .outside_entries import OutsideEntries
from .packed import pack
from .stamped_uses import regular_days
from .stored_values import stored_entity_id, stored_items

LONELY_VERSION = 1
KEPT = 40
# Unseen at the same time of day on this many days is how it is used (not a security
# finding while away: a medium one about a door opened with nobody seen).
LONELY_DAYS = 2
# Every opening kept per sensor: a front door used ten times a day is known over a week.
KEPT_USES = 80
KEPT_RECENT = 8


class LonelyOpenings:
    """Per opening sensor: when it opened with nobody seen."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.openings: dict[str, list[float]] = {}
        self.uses: dict[str, list[float]] = {}  # every opening, seen or not
        # Not stored: the last motion and arrival, and openings waiting for either.
        self._motion: datetime | None = None
        self._arrived: datetime | None = None
        self._pending: list[tuple[datetime, str]] = []
        # Per sensor, its latest openings and the last motion before each (the window a
        # finding is judged in may begin after that motion).
        self.recent: dict[str, deque[tuple[datetime, datetime | None]]] = {}
        self.entries = OutsideEntries(zone)  # doors opened from outside at night
        # Doors entered from outside, whoever is home (fed with areas by ``sign_learning``).
        self.arrivals = DayArrivals(zone)

    def moved(self, when: datetime) -> None:
        """Any motion sensor started moving: the openings just before it were somebody's."""
        self.advance(when)  # the recorder's history is learned without pauses: keep it short
        self._motion = when
        self._pending = [(at, e) for at, e in self._pending if when - at > PRESENCE_WINDOW]
        self.entries.moved(when)

    def presence(self, when: datetime, now_in: bool | None, was_in: bool | None) -> None:
        """A person's presence changed from ``was_in`` to ``now_in`` (None: not known)."""
        if now_in is not None and now_in != was_in:
            self.entries.presence(when)  # arriving or leaving: by a door, with a phone
            self.arrivals.presence(when)
        if now_in is True and was_in is not True:
            self.arrived(when)

    def arrived(self, when: datetime) -> None:
        """Somebody tracked came home."""
        self._arrived = when
        self._pending = [(at, e) for at, e in self._pending if when - at > ARRIVAL_WINDOW]

    def opened(self, sensor: str, when: datetime) -> None:
        """An opening sensor opened."""
        self.advance(when)
        remember(self.uses, [(when, sensor)], self.zone, KEPT_USES)
        self.entries.opened(sensor, when)
        if sensor in self.recent or len(self.recent) < MAX_SENSORS:
            self.recent.setdefault(sensor, deque(maxlen=KEPT_RECENT)).append((when, self._motion))
        if self._motion is not None and when - self._motion <= PRESENCE_WINDOW:
            return
        if self._arrived is not None and when - self._arrived <= ARRIVAL_WINDOW:
            return
        self._pending.append((when, sensor))

    def motion_before(self, sensor: str, when: datetime) -> datetime | None:
        """The last motion before ``sensor`` opened at ``when`` (None: not known)."""
        recent = self.recent.get(sensor, ())
        return next((moved for at, moved in recent if at == when), None)

    def advance(self, now: datetime) -> None:
        """Openings no motion or arrival followed are learned."""
        reach = max(PRESENCE_WINDOW, ARRIVAL_WINDOW)
        due, self._pending = split_due(self._pending, now, reach)
        remember(self.openings, due, self.zone, KEPT)
        self.entries.advance(now)
        self.arrivals.advance(now)

    def regular(self, sensor: str, when: datetime) -> int | None:
        """On how many other days it opened unseen near ``when``'s time of day, when that
        recurs (at that time, or as a habit in that part of the day: ``lonely_habits``);
        None when it does not."""
        kept = self.openings.get(sensor, ())
        return regular_days(kept, when, self.zone, daily=LONELY_DAYS) or habitual_days(
            kept, when, self.zone
        )

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable, versioned form."""
        data: dict[str, Any] = {
            "version": LONELY_VERSION,
            "openings": {s: pack(kept, 0) for s, kept in self.openings.items()},
        }
        if self.uses:  # an older stored form, read back, is saved the same
            data["uses"] = {s: pack(kept, 0) for s, kept in self.uses.items()}
        if self.entries.entries:
            data["entries"] = self.entries.as_dict()
        if self.arrivals.arrivals:
            data["arrivals"] = self.arrivals.as_dict()
        return data

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> LonelyOpenings:
        """Rebuild from stored data: another version gives a fresh one, a damaged part is
        dropped."""
        lonely = cls(zone)
        if not isinstance(data, Mapping) or data.get("version") != LONELY_VERSION:
            return lonely
        for sensor, text in stored_items(data.get("openings"), MAX_SENSORS):
            if stored_entity_id(sensor) and (kept := stored_numbers(text, KEPT, 1e10)):
                lonely.openings[sensor] = kept
        for sensor, text in stored_items(data.get("uses"), MAX_SENSORS):
            if stored_entity_id(sensor) and (kept := stored_numbers(text, KEPT_USES, 1e10)):
                lonely.uses[sensor] = kept
        lonely.entries = OutsideEntries.from_dict(data.get("entries"), zone)
        lonely.arrivals = DayArrivals.from_dict(data.get("arrivals"), zone)
        return lonely

"""When each area of this home is usually active: activity counts per area and hour of week.

An *activity* is a person's trace: a motion, occupancy or presence sensor turning on, a
door or window opening, a light switched. Each is counted in its area's slot for the
local hour of the week (168 slots); ``observed`` counts how many times each slot has been
watched, so a count becomes a rate (activities per observed hour) whatever the history's
length. Counts are halved once a slot has been watched ``HALVE_AFTER`` times: old weeks
fade and the numbers stay bounded.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
from typing import Any

from ..models import clip
from .clock import HOURS_PER_WEEK, ONE_HOUR, format_time, hour_of_week, hour_start, parse_time
from .packed import pack, unpack
from .stored_values import stored_items

# Areas kept (the home's named areas; a hostile registry cannot grow this without bound).
MAX_AREAS = 64
# Key for activity in entities without an area.
NO_AREA = ""
# Once a slot has been watched this often (weeks), its counts are halved.
HALVE_AFTER = 16
# After a gap in the record (HA stopped), at most this many hours count as watched.
MAX_CATCH_UP = timedelta(hours=36)


class ActivityProfile:
    """Activity counts per area and local hour of the week."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.counts: dict[str, list[float]] = {}
        self.observed: list[float] = [0.0] * HOURS_PER_WEEK
        self.watched_to: datetime | None = None

    def activity(self, when: datetime, area: str | None) -> None:
        """Someone did something in ``area`` at ``when``."""
        self.watch(when)
        key = (area if len(area) <= 100 else clip(area, 100)) if area else NO_AREA
        counts = self.counts.get(key)
        if counts is None:
            if len(self.counts) >= MAX_AREAS:
                return
            counts = self.counts[key] = [0.0] * HOURS_PER_WEEK
        counts[hour_of_week(when, self.zone)] += 1

    def watch(self, until: datetime) -> None:
        """Every hour started before ``until`` and not yet counted has been watched."""
        done = self.watched_to
        if done is not None and done <= until < done + ONE_HOUR:
            return  # the same hour (nearly every call): nothing to count
        current = hour_start(until)
        if self.watched_to is None:
            self.watched_to = current
            return
        slot = max(self.watched_to, current - MAX_CATCH_UP)
        while slot < current:
            self._observed_one(hour_of_week(slot, self.zone))
            slot += ONE_HOUR
        self.watched_to = max(self.watched_to, current)

    def _observed_one(self, slot: int) -> None:
        self.observed[slot] += 1
        if self.observed[slot] >= HALVE_AFTER:
            self.observed[slot] /= 2
            for counts in self.counts.values():
                counts[slot] /= 2

    def rate(self, area: str | None, slot: int, spread: int = 1) -> tuple[float, float]:
        """(activities, watched hours) for ``area`` around a slot of the week.

        ``spread`` pools the neighbouring hours of the same day (``slot`` ± spread), where
        a single hour of one weekday has too few weeks to say much.
        """
        counts = self.counts.get(area or NO_AREA)
        total = watched = 0.0
        for offset in range(-spread, spread + 1):
            index = (slot + offset) % HOURS_PER_WEEK
            watched += self.observed[index]
            if counts is not None:
                total += counts[index]
        return total, watched

    def rate_of_day(self, area: str | None, hour: int, spread: int = 1) -> tuple[float, float]:
        """(activities, watched hours) around a local hour of the day, every weekday pooled."""
        total = watched = 0.0
        for day in range(7):
            count, hours = self.rate(area, day * 24 + hour % 24, spread)
            total += count
            watched += hours
        return total, watched

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable form."""
        return {
            # one line of text each in HA's indented file (``packed.py``)
            "counts": {area: pack(counts, 2) for area, counts in self.counts.items()},
            "observed": pack(self.observed, 2),
            "watched_to": format_time(self.watched_to),
        }

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> ActivityProfile:
        """Rebuild from stored data; anything malformed is dropped."""
        profile = cls(zone)
        if not isinstance(data, Mapping):
            return profile
        if (observed := _slots(data.get("observed"))) is not None:
            profile.observed = observed
        for area, values in stored_items(data.get("counts"), MAX_AREAS):
            slots = _slots(values)
            if isinstance(area, str) and len(area) <= 100 and slots is not None:
                profile.counts[area] = slots
        profile.watched_to = parse_time(data.get("watched_to"))
        return profile


def _slots(values: object) -> list[float] | None:
    if isinstance(values, str):  # the packed form
        return unpack(values, HOURS_PER_WEEK, 0.0, 1e7)
    if not isinstance(values, list) or len(values) != HOURS_PER_WEEK:  # the older form
        return None
    result: list[float] = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        if not 0 <= value <= 1e7:  # also rejects NaN
            return None
        result.append(float(value))
    return result

"""The most minutes a power meter ran in one small hour of any night learned.

A pressure pump runs a minute when somebody uses the toilet at night; a line that cracked
in the ground makes it run nine minutes in every twelve, all night (set 23). Both run at an
hour the meter is used to (``MeterHours`` knows the hours, not how much), each run a
normal draw and far from "running far longer" for a pump a float cuts. How much it runs in
an hour is the difference: every run a meter ends (``StateDurations``' running stays) adds
its minutes to the local clock hours of the small hours (``SMALL_HOURS_START`` to
``SMALL_HOURS_END``) it overlaps; the most of any such hour is kept, settled once its night
is over (tonight's runs never raise what tonight is judged by). ``night_cycling`` reads it.

Bounded by the meters ``StateDurations`` keeps; the settled most is stored, one number a
meter; tonight's count is not (a restart starts it again).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
from typing import Any

from ..statistics.night import SMALL_HOURS_END, SMALL_HOURS_START
from .clock import hour_start, local, next_hour, slot_of
from .stored_values import is_stored_number, stored_entity_id, stored_items

MAX_METERS = 400
_NIGHT_SHIFT = timedelta(hours=12)  # a night is named by the day its evening began


def night_of(when: datetime, zone: tzinfo | None) -> int:
    """The night ``when`` falls in: the local day of the evening before its small hours."""
    return slot_of(when - _NIGHT_SHIFT, zone)[2]


class NightRunMinutes:
    """Per meter, the most minutes run in one small hour: settled nights, and tonight."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.most: dict[str, float] = {}  # settled: nights before the one being counted
        # Tonight (not stored): the night, the most of its hours, the hour being counted and
        # its minutes so far.
        self.tonight: dict[str, tuple[int, float, datetime, float]] = {}

    def ran(self, entity_id: str, since: datetime, until: datetime) -> None:
        """The meter ran from ``since`` to ``until`` (a run ended)."""
        if until <= since or (entity_id not in self.most and len(self.most) >= MAX_METERS):
            return
        slot = hour_start(local(since, self.zone))
        for _ in range(25):  # a gap in the record counts a day at most
            if slot >= until:
                break
            after = next_hour(slot)
            if SMALL_HOURS_START <= slot.hour < SMALL_HOURS_END:
                minutes = (min(until, after) - max(since, slot)).total_seconds() / 60
                self._add(entity_id, slot, minutes)
            slot = after

    def _add(self, entity_id: str, slot: datetime, minutes: float) -> None:
        night = night_of(slot, self.zone)
        current = self.tonight.get(entity_id)
        if current is not None and current[0] != night:
            self.most[entity_id] = max(self.most.get(entity_id, 0.0), current[1])
            current = None
        self.most.setdefault(entity_id, 0.0)
        if current is not None and current[2] == slot:
            minutes += current[3]
        most = max(minutes, current[1] if current is not None else 0.0)
        self.tonight[entity_id] = (night, most, slot, minutes)

    def most_before(self, entity_id: str, when: datetime) -> float | None:
        """The most minutes the meter ran in one small hour of the nights before ``when``'s
        (0 when it never ran then); None when it has never ended a run since learned."""
        if entity_id not in self.most:
            return None
        most = self.most[entity_id]
        current = self.tonight.get(entity_id)
        if current is not None and current[0] != night_of(when, self.zone):
            most = max(most, current[1])
        return most

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable form: the settled most (tonight's folded in) per meter."""
        return {
            entity: round(max(most, self.tonight.get(entity, (0, 0.0))[1]), 1)
            for entity, most in self.most.items()
        }

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> NightRunMinutes:
        """Rebuild from stored data; anything malformed is dropped."""
        learned = cls(zone)
        if not isinstance(data, Mapping):
            return learned
        for entity, most in stored_items(data, MAX_METERS):
            if stored_entity_id(entity) and is_stored_number(most):
                learned.most[entity] = min(max(float(most), 0.0), 60.0)
        return learned

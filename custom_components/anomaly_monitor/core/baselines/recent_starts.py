"""How many times each power meter's appliance started, day by day, over the last week.

The learned cycle (``StateDurations``: running and idle spells per quarter of the day) sums
a fortnight or more: it cannot say whether the appliance still cycled *yesterday*. A
dehumidifier that ran day and night in a damp week and only now and then since, or a
heating pump whose season is ending, has a long learned cycle but no recent one; a fridge
starts a few dozen times every day. ``cycle_stopped`` reads these counts to judge only an
appliance that cycled on each of the last days.

Bounded: ``MAX_ENTITIES`` meters, ``DAYS_KEPT`` days each; stored as one line of text per
meter (``packed.py``), untrusted when read back.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from datetime import datetime, tzinfo
from typing import Any

from .clock import day_number
from .packed import pack, unpack

MAX_ENTITIES = 64
DAYS_KEPT = 7
_MAX_DAY = 3_652_059


class RecentStarts:
    """Per power meter: (local day, starts that day) for the last ``DAYS_KEPT`` days."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.days: dict[str, deque[list[int]]] = {}

    def started(self, entity_id: str, when: datetime) -> None:
        """The appliance behind ``entity_id`` started running at ``when``."""
        days = self.days.get(entity_id)
        if days is None:
            if len(self.days) >= MAX_ENTITIES:
                return
            days = self.days[entity_id] = deque(maxlen=DAYS_KEPT)
        day = day_number(when, self.zone)
        if days and days[-1][0] == day:
            days[-1][1] += 1
        elif not days or day > days[-1][0]:
            days.append([day, 1])

    def on_days(self, entity_id: str, days: range) -> list[int]:
        """Starts on each of ``days`` (day ordinals; 0 for a day without any)."""
        counts = {pair[0]: pair[1] for pair in self.days.get(entity_id, ())}
        return [counts.get(day, 0) for day in days]

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable form: per meter ``"day,starts,day,starts,..."``."""
        return {
            entity: pack([number for pair in days for number in pair], 0)
            for entity, days in self.days.items()
        }

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> RecentStarts:
        """Rebuild from stored data; anything malformed is dropped, never raised."""
        starts = cls(zone)
        if not isinstance(data, Mapping):
            return starts
        for entity, text in list(data.items())[:MAX_ENTITIES]:
            if not isinstance(entity, str) or len(entity) > 255 or not isinstance(text, str):
                continue
            count = text.count(",") + 1
            numbers = unpack(text, count, 0, _MAX_DAY) if count <= 2 * DAYS_KEPT else None
            if numbers is None or count % 2:
                continue
            days: deque[list[int]] = deque(maxlen=DAYS_KEPT)
            for day, started in zip(numbers[::2], numbers[1::2], strict=True):
                valid = day >= 1 and day.is_integer() and started.is_integer()
                if valid and (not days or day > days[-1][0]):
                    days.append([int(day), int(started)])
            if days:
                starts.days[entity] = days
        return starts

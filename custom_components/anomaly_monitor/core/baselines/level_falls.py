"""How fast each level sensor has ever fallen: the largest fall within ``SPAN``, learned.

A heating-oil tank's ultrasonic level (a sensor with no device class, in %) moves by a
point with the temperature of the tank twice a day and falls a point a day as the boiler
burns it; a water tank's level falls by ten points when the household showers. How far
each has ever fallen within ``SPAN`` is its own normal (``fast_falls.py`` judges a fall far
beyond it: oil siphoned at night, a tank draining through a burst pipe).

Per sensor: its readings of the last ``SPAN`` (a fall is the highest of them minus the
reading now), the largest fall learned, and when it was first read. A new largest fall
*settles* (``SETTLE``) before it is part of the normal: the fall under way is judged
against the falls before it, not against itself (the live stream is learned before each
analysis). Bounded: ``MAX_ENTITIES`` sensors, ``MAX_RECENT`` readings each; only the
largest fall and the first reading are stored.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
import math
from typing import Any

MAX_ENTITIES = 100
# HA's vocabulary of a stored level: the stored-volume class, or a sensor with no class
# reading a share or a volume (a tank's level in %, litres in a tank). Not a volume or
# water *meter* (a total that only rises, and resets).
_STORED_CLASS = "volume_storage"
_LEVEL_UNITS = frozenset({"%", "L", "mL", "gal", "m³", "ft³"})
MAX_RECENT = 64
SPAN = timedelta(hours=1)
SETTLE = timedelta(hours=6)


def is_level(domain: str, device_class: str | None, unit: str | None) -> bool:
    """Whether a sensor of ``device_class`` reading in ``unit`` is a stored level."""
    return domain == "sensor" and (
        device_class == _STORED_CLASS or (device_class is None and unit in _LEVEL_UNITS)
    )


class LevelFalls:
    """Per sensor: [largest settled fall, first read (epoch s), pending fall, pending since]."""

    def __init__(self) -> None:
        self.learned: dict[str, list[float]] = {}
        self._recent: dict[str, deque[tuple[float, float]]] = {}

    def reading(self, entity_id: str, value: float | None, when: datetime) -> None:
        """``entity_id`` reads ``value`` at ``when`` (None: unreadable, the span restarts)."""
        if value is None or not math.isfinite(value):
            self._recent.pop(entity_id, None)
            return
        at = when.timestamp()
        learned = self.learned.get(entity_id)
        if learned is None:
            if len(self.learned) >= MAX_ENTITIES:
                return
            learned = self.learned[entity_id] = [0.0, at, 0.0, 0.0]
        if learned[3] and at - learned[3] >= SETTLE.total_seconds():
            learned[0], learned[2], learned[3] = max(learned[0], learned[2]), 0.0, 0.0
        recent = self._recent.setdefault(entity_id, deque(maxlen=MAX_RECENT))
        # The reading that held at the span's start stays (a level reads until it changes).
        while len(recent) > 1 and at - recent[1][0] >= SPAN.total_seconds():
            recent.popleft()
        recent.append((at, value))
        fall = max(v for _, v in recent) - value
        if fall > max(learned[0], learned[2]):
            learned[2] = fall
            learned[3] = learned[3] or at

    def fall_now(self, entity_id: str) -> tuple[float, float] | None:
        """(the fall within ``SPAN`` to the latest reading, the highest it fell from)."""
        recent = self._recent.get(entity_id)
        if not recent:
            return None
        highest = max(v for _, v in recent)
        return highest - recent[-1][1], highest

    def largest(self, entity_id: str) -> tuple[float, datetime] | None:
        """(the largest settled fall, when the sensor was first read)."""
        learned = self.learned.get(entity_id)
        if learned is None:
            return None
        return learned[0], datetime.fromtimestamp(learned[1], UTC)

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """Only what is settled or pending (the last hour's readings begin again)."""
        return {
            entity_id: [round(n, 3) for n in learned] for entity_id, learned in self.learned.items()
        }

    @classmethod
    def from_dict(cls, data: object) -> LevelFalls:
        falls = cls()
        if not isinstance(data, Mapping):
            return falls
        for entity_id, stored in list(data.items())[:MAX_ENTITIES]:
            if (
                isinstance(entity_id, str)
                and isinstance(stored, list)
                and len(stored) == 4
                and all(
                    isinstance(n, int | float)
                    and not isinstance(n, bool)
                    and math.isfinite(n)
                    and n >= 0
                    for n in stored
                )
            ):
                falls.learned[entity_id] = [float(n) for n in stored]
        return falls

"""The typical range of each numeric sensor: mean, spread, lowest and highest seen.

A running mean and (population) variance, exact until ``MEMORY`` readings and then
exponentially weighted with that memory (older readings weigh less), so a sensor that
moved to a new room or season settles to its new normal. Bounded to ``MAX_ENTITIES`` sensors.

A new highest or lowest *settles*: a reading beyond everything learned is held apart (the
pending highest, the pending lowest) until ``SETTLE`` after the excursion began, so a check
asking "is it beyond its learned range now?" compares the reading with what the sensor read
before it, not with itself (the live stream is learned before each analysis): a glucose
monitor's first night hypo is judged against the days before it, on either side. When the
sensor was first learned is kept too: a range learned over an afternoon is no range.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
import math
from typing import Any

MAX_ENTITIES = 400
MEMORY = 5_000
SETTLE = timedelta(hours=6)
_SETTLE_S = SETTLE.total_seconds()
# [count, mean, variance, lowest, highest, first seen, pending highest, pending since,
#  pending lowest, pending since] (times in epoch seconds; 0 = unknown / nothing pending).
_STORED = (5, 8, 10)


class NumericRanges:
    """Per numeric entity: [count, mean, variance, lowest, highest, since, pending highest,
    since, pending lowest, since]."""

    def __init__(self) -> None:
        self.stats: dict[str, list[float]] = {}

    def reading(self, entity_id: str, value: float, when: datetime | None = None) -> None:
        """A finite reading of ``entity_id`` (at ``when``, if known)."""
        if not math.isfinite(value):
            return
        stats = self.stats.get(entity_id)
        if stats is None:
            if len(self.stats) >= MAX_ENTITIES:
                return
            first = [1.0, value, 0.0, value, value, _seconds(when), value, 0.0, value, 0.0]
            self.stats[entity_id] = first
            return
        count = min(stats[0] + 1, MEMORY)
        weight = 1 / count
        delta = value - stats[1]
        stats[1] += weight * delta
        stats[2] = (1 - weight) * (stats[2] + weight * delta * delta)
        stats[0] = count
        # The time is read only while an excursion is pending or as one begins (rarely: a
        # reading nearly always lies within the range already learned).
        if stats[9]:
            now = _seconds(when)
            if not now or now - stats[9] >= _SETTLE_S:
                stats[3], stats[9] = min(stats[3], stats[8]), 0.0
        if value < stats[3]:
            now = _seconds(when)
            if now:
                stats[8] = value if not stats[9] else min(stats[8], value)
                stats[9] = stats[9] or now
            else:
                stats[3] = value
        if stats[7]:
            now = _seconds(when)
            if not now or now - stats[7] >= _SETTLE_S:
                stats[4], stats[7] = max(stats[4], stats[6]), 0.0  # the excursion is learned
        if value > stats[4]:
            now = _seconds(when)
            if now:
                stats[6] = value if not stats[7] else max(stats[6], value)
                stats[7] = stats[7] or now
            else:  # no time: learned at once
                stats[4] = value

    def usual(
        self, entity_id: str, now: datetime | None = None
    ) -> tuple[int, float, float, float, float] | None:
        """(readings, mean, standard deviation, lowest, highest), or None.

        With ``now``, a highest or lowest reached less than ``SETTLE`` ago is not part of it yet.
        """
        stats = self.stats.get(entity_id)
        if stats is None:
            return None
        count, mean, variance, low, high, _, pending, pending_since, pending_low, low_since = stats
        if pending_since and (now is None or now.timestamp() - pending_since >= _SETTLE_S):
            high = max(high, pending)
        if low_since and (now is None or now.timestamp() - low_since >= _SETTLE_S):
            low = min(low, pending_low)
        return int(count), mean, math.sqrt(variance), low, high

    def since(self, entity_id: str) -> datetime | None:
        """When ``entity_id`` was first learned, if known."""
        stats = self.stats.get(entity_id)
        if stats is None or not stats[5]:
            return None
        return datetime.fromtimestamp(stats[5], UTC)

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable form."""
        return {entity: [round(v, 4) for v in stats] for entity, stats in self.stats.items()}

    @classmethod
    def from_dict(cls, data: object) -> NumericRanges:
        """Rebuild from stored data; anything malformed is dropped."""
        ranges = cls()
        if not isinstance(data, Mapping):
            return ranges
        for entity, stats in list(data.items())[:MAX_ENTITIES]:
            if not isinstance(entity, str) or len(entity) > 255 or not isinstance(stats, list):
                continue
            if len(stats) not in _STORED or not all(_finite(v) for v in stats):
                continue
            values = [float(v) for v in stats]
            if len(values) == 5:  # stored before the first-seen time was kept
                values += [0.0, values[4], 0.0]
            if len(values) == 8:  # stored before a new lowest settled
                values += [values[3], 0.0]
            count, mean, variance, low, high, since, pending, pending_since = values[:8]
            pending_low, low_since = values[8:]
            lowest, highest = min(low, pending_low), max(high, pending)
            if not (1 <= count <= MEMORY and variance >= 0 and lowest <= mean <= highest):
                continue
            if since < 0 or pending_since < 0 or (pending_since and pending < high):
                continue
            if low_since < 0 or (low_since and pending_low > low):
                continue
            ranges.stats[entity] = values
        return ranges


def _finite(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)


def _seconds(when: datetime | None) -> float:
    """``when`` in epoch seconds; 0.0 (unknown) without a time or a time zone."""
    return when.timestamp() if when is not None and when.tzinfo is not None else 0.0

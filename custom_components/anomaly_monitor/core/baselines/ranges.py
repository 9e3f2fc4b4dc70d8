"""The typical range of each numeric sensor: mean, spread, lowest and highest seen.

A running mean and (population) variance, exact until ``MEMORY`` readings and then
exponentially weighted with that memory (older readings weigh less), so a sensor that
moved to a new room or season settles to its new normal. Bounded to ``MAX_ENTITIES`` sensors.
"""

from __future__ import annotations

from collections.abc import Mapping
import math
from typing import Any

MAX_ENTITIES = 400
MEMORY = 5_000


class NumericRanges:
    """Per numeric entity: [count, mean, variance, lowest, highest]."""

    def __init__(self) -> None:
        self.stats: dict[str, list[float]] = {}

    def reading(self, entity_id: str, value: float) -> None:
        """A finite reading of ``entity_id``."""
        if not math.isfinite(value):
            return
        stats = self.stats.get(entity_id)
        if stats is None:
            if len(self.stats) >= MAX_ENTITIES:
                return
            self.stats[entity_id] = [1.0, value, 0.0, value, value]
            return
        count = min(stats[0] + 1, MEMORY)
        weight = 1 / count
        delta = value - stats[1]
        stats[1] += weight * delta
        stats[2] = (1 - weight) * (stats[2] + weight * delta * delta)
        stats[0] = count
        stats[3] = min(stats[3], value)
        stats[4] = max(stats[4], value)

    def usual(self, entity_id: str) -> tuple[int, float, float, float, float] | None:
        """(readings, mean, standard deviation, lowest, highest), or None."""
        stats = self.stats.get(entity_id)
        if stats is None:
            return None
        count, mean, variance, low, high = stats
        return int(count), mean, math.sqrt(variance), low, high

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
            if len(stats) != 5 or not all(_finite(v) for v in stats):
                continue
            count, mean, variance, low, high = (float(v) for v in stats)
            if 1 <= count <= MEMORY and variance >= 0 and low <= mean <= high:
                ranges.stats[entity] = [count, mean, variance, low, high]
        return ranges


def _finite(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)

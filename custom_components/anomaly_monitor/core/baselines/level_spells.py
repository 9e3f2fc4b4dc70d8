"""How long each thermometer has ever stayed at or beyond each level: its learned spells.

A bulk milk tank's probe reads 15 °C for the half hour the warm milk goes in, and 31 °C
for the half hour of its wash; it never *stays* there. A reading is judged by how long it
has held, against how long the same sensor ever held that high (or that low) before
(``kept_levels.py``), not against one line.

Per sensor, for the side above and the side below: the spells still open (a monotonic
stack: each level the readings have stayed at or beyond since when) and, once a spell
ends, the longest it lasted at each level (a Pareto front of (level, seconds): a spell at
or above 15 °C for 30 min is also one at or above 14 °C for 30 min). Amortised O(1) per
reading. An unreadable reading ends the open spells without learning them (an outage is no
spell), and so does a restart (the open spells are not stored).

Bounded: ``MAX_ENTITIES`` sensors, ``MAX_POINTS`` points per side (two neighbours merge
into the larger level with the longer time: a longer spell claimed, never a shorter one,
so a merge can only keep an alarm from being told), ``MAX_OPEN`` open levels per side.
Stored as plain numbers; a malformed part is dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
import math
from typing import Any

MAX_ENTITIES = 200
MAX_POINTS = 32
MAX_OPEN = 64
# Levels are kept to this resolution (a thermometer's tenth).
RESOLUTION = 0.1


class _Side:
    """Spells at or above each level (for the side below, the readings are negated)."""

    __slots__ = ("front", "open")

    def __init__(self, front: list[list[float]] | None = None) -> None:
        # Open spells: [level, since (epoch s)], levels rising; the last is the reading now.
        self.open: list[list[float]] = []
        # Ended spells: [level, longest seconds], levels rising and seconds falling.
        self.front: list[list[float]] = front or []

    def reading(self, value: float, when: float) -> None:
        since = when
        while self.open and self.open[-1][0] > value:
            level, began = self.open.pop()
            self._learn(level, when - began)
            since = began
        if not self.open or self.open[-1][0] < value:
            self.open.append([value, since])
            if len(self.open) > MAX_OPEN:
                del self.open[0]  # the lowest level's spell: the longest, least telling

    def _learn(self, level: float, seconds: float) -> None:
        front = self.front
        if any(lv >= level and s >= seconds for lv, s in front):
            return  # a spell as long at a level as high is known
        front[:] = [p for p in front if not (p[0] <= level and p[1] <= seconds)]
        front.append([level, seconds])
        front.sort()
        while len(front) > MAX_POINTS:
            # Merge the closest neighbours into the higher level with the longer time.
            i = min(range(len(front) - 1), key=lambda k: front[k + 1][0] - front[k][0])
            front[i : i + 2] = [[front[i + 1][0], front[i][1]]]

    def longest(self, level: float) -> float | None:
        """The longest ended spell at or beyond ``level`` (seconds), None if none ended."""
        times = [s for lv, s in self.front if lv >= level]
        return max(times) if times else None


class LevelSpells:
    """Per sensor: open spells and the longest ended ones, above and below."""

    def __init__(self) -> None:
        self.sides: dict[str, tuple[_Side, _Side]] = {}

    def reading(self, entity_id: str, value: float | None, when: datetime) -> None:
        """``entity_id`` reads ``value`` from ``when`` on (None: unreadable)."""
        sides = self.sides.get(entity_id)
        if value is None or not math.isfinite(value):
            if sides is not None:
                for side in sides:
                    side.open.clear()
            return
        if sides is None:
            if len(self.sides) >= MAX_ENTITIES:
                return
            sides = self.sides[entity_id] = (_Side(), _Side())
        level = round(value / RESOLUTION) * RESOLUTION
        at = when.timestamp()
        sides[0].reading(level, at)
        sides[1].reading(-level, at)

    def held(self, entity_id: str, above: bool) -> list[tuple[float, float, float | None]]:
        """The open spells on one side: (level, since epoch s, longest ended at that level).

        Above: the levels the readings have stayed at or above; below: at or under."""
        sides = self.sides.get(entity_id)
        if sides is None:
            return []
        side = sides[0] if above else sides[1]
        sign = 1.0 if above else -1.0
        return [(sign * level, since, side.longest(level)) for level, since in side.open]

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """Only the ended spells (the open ones begin again after a restart)."""
        return {
            entity_id: [[[round(v, 2), round(s)] for v, s in side.front] for side in sides]
            for entity_id, sides in self.sides.items()
        }

    @classmethod
    def from_dict(cls, data: object) -> LevelSpells:
        spells = cls()
        if not isinstance(data, Mapping):
            return spells
        for entity_id, stored in list(data.items())[:MAX_ENTITIES]:
            if not isinstance(entity_id, str) or not isinstance(stored, list) or len(stored) != 2:
                continue
            fronts = [_front(part) for part in stored]
            if fronts[0] is not None and fronts[1] is not None:
                spells.sides[entity_id] = (_Side(fronts[0]), _Side(fronts[1]))
        return spells


def _front(stored: object) -> list[list[float]] | None:
    if not isinstance(stored, list):
        return None
    points: list[list[float]] = []
    for point in stored[:MAX_POINTS]:
        if (
            not isinstance(point, list)
            or len(point) != 2
            or not all(
                isinstance(n, int | float) and not isinstance(n, bool) and math.isfinite(n)
                for n in point
            )
            or point[1] < 0
        ):
            return None
        points.append([float(point[0]), float(point[1])])
    return sorted(points)

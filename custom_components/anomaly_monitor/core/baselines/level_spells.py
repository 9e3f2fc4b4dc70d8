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

Only a thermometer that is no room: once ``ROOM_READINGS`` are learned (``NumericRanges``),
one whose mean lies within ``ROOM_LOW``-``ROOM_HIGH`` is not followed (``room_like``),
and what it learned is dropped: a home's thermometers are mostly rooms, and a room's
heating, sun and season keep its spells changing with every reading.

Bounded: ``MAX_ENTITIES`` sensors, ``MAX_POINTS`` points per side (two neighbours merge
into the larger level with the longer time: a longer spell claimed, never a shorter one,
so a merge can only keep an alarm from being told), ``MAX_OPEN`` open levels per side.
Stored as plain numbers; a malformed part is dropped.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping
from datetime import datetime
from itertools import pairwise
import math
from typing import Any

from ..temperatures import to_celsius

MAX_ENTITIES = 200
# A thermometer whose mean reading lies within these (°C) is kept like a room: its spells
# are not learned (``kept_levels`` never judges a room), once ``ROOM_READINGS`` are known.
ROOM_LOW = 10.0
ROOM_HIGH = 30.0
ROOM_READINGS = 100
MAX_POINTS = 16
MAX_OPEN = 32
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
        # Levels rise and times fall along the front: the first point at or above the
        # level has the longest time of all those as high (O(log n) for nearly every spell).
        i = bisect_left(front, level, key=_level)
        if i < len(front) and front[i][1] >= seconds:
            return  # a spell as long at a level as high is known
        j = i
        if j < len(front) and front[j][0] == level:
            j += 1  # the same level, shorter: replaced
        k = i
        while k > 0 and front[k - 1][1] <= seconds:
            k -= 1  # lower levels held no longer: this spell says more
        front[k:j] = [[level, seconds]]
        while len(front) > MAX_POINTS:
            # Merge the closest neighbours into the higher level with the longer time.
            i = min(range(len(front) - 1), key=lambda k: front[k + 1][0] - front[k][0])
            front[i : i + 2] = [[front[i + 1][0], front[i][1]]]

    def longest(self, level: float) -> float | None:
        """The longest ended spell at or beyond ``level`` (seconds), None if none ended."""
        i = bisect_left(self.front, level, key=_level)
        return self.front[i][1] if i < len(self.front) else None


def room_like(stats: list[float] | None, unit: str | None) -> bool:
    """Whether a thermometer's learned range (``NumericRanges.stats``) is a room's."""
    if stats is None or stats[0] < ROOM_READINGS:
        return False
    mean = to_celsius(stats[1], unit)
    return mean is not None and ROOM_LOW <= mean <= ROOM_HIGH


def _level(point: list[float]) -> float:
    return point[0]


class LevelSpells:
    """Per sensor: open spells and the longest ended ones, above and below."""

    def __init__(self) -> None:
        self.sides: dict[str, tuple[_Side, _Side]] = {}

    def forget(self, entity_id: str) -> None:
        """A room after all: not followed."""
        self.sides.pop(entity_id, None)

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
        """Only the ended spells (the open ones begin again after a restart), one line of
        text per sensor ("level:seconds ..." above, "|", the same below): HA's indented
        file would give every number a line."""
        return {
            entity_id: "|".join(" ".join(f"{v:g}:{s:.0f}" for v, s in side.front) for side in sides)
            for entity_id, sides in self.sides.items()
            if sides[0].front or sides[1].front
        }

    @classmethod
    def from_dict(cls, data: object) -> LevelSpells:
        spells = cls()
        if not isinstance(data, Mapping):
            return spells
        for entity_id, stored in list(data.items())[:MAX_ENTITIES]:
            if not isinstance(entity_id, str) or not isinstance(stored, str):
                continue
            parts = stored.split("|")
            fronts = [_front(part) for part in parts] if len(parts) == 2 else [None]
            if fronts[0] is not None and fronts[-1] is not None:
                spells.sides[entity_id] = (_Side(fronts[0]), _Side(fronts[-1]))
        return spells


def _front(stored: str) -> list[list[float]] | None:
    """A stored front, or None when any point is malformed (the sensor is learned anew)."""
    points: list[list[float]] = []
    for point in stored.split()[:MAX_POINTS]:
        level, _, seconds = point.partition(":")
        try:
            numbers = [float(level), float(seconds)]
        except ValueError:
            return None
        if not all(math.isfinite(n) for n in numbers) or numbers[1] < 0:
            return None
        points.append(numbers)
    points.sort()
    # A front's times fall as its levels rise; a stored one that does not is not a front.
    if any(b[1] > a[1] for a, b in pairwise(points)):
        return None
    return points

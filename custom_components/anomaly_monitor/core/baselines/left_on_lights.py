"""The lights this home leaves on with nobody in their room: how often each was seen so.

``light_on_long_at_night`` reads a light switched on in the small hours, on far longer
than its night-time stays with nobody moving since, as somebody who may have fallen where
it is. Its learned night stays say how long the light is on when used at night, and a
handful of them (a toilet trip, minutes) say nothing of how often the household walks
away and leaves it on. That is a fact of the home too, seen at every hour: a hall or
passage light left burning for an hour after the last movement under it, in the evening,
while somebody went back to the sofa or to bed. A light seen left on so is a light this
home forgets; the same light on at 03:00 with its room still reads exactly as on those
evenings, and its light says nothing of a fall (the stillness of the whole home is judged
by the stillness checks, whatever the lights do).

Learned here, per light with a motion or occupancy sensor in its area: its stays on of
``LEFT_ON`` or more whose area saw no movement for the last ``QUIET`` of them or more
(``left``), counted only for stays begun outside the small hours (00-05, the hours the
night rule judges: a night stay told as a fall never teaches that leaving it on is
normal). Stays begun before this start of HA are not learned (their beginning is not
known). Bounded: ``MAX_LIGHTS`` lights, ``MAX_AREAS`` areas, counts up to ``MAX_COUNT``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
from typing import Any

from ..statistics.night import SMALL_HOURS_END, SMALL_HOURS_START
from .clock import local
from .stored_values import stored_entity_id, stored_items

# A stay this long with nobody moving under it for the last ``QUIET``: left on (the
# night rule's own floor and stillness).
LEFT_ON = timedelta(minutes=30)
QUIET = timedelta(minutes=20)
MAX_LIGHTS = 200
MAX_AREAS = 64
MAX_AREA_NAME = 255
MAX_COUNT = 1000


class LeftOnLights:
    """Per light: how many of its stays were left on with its area still (see the module)."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.left: dict[str, int] = {}
        self._on: dict[str, tuple[datetime, str]] = {}  # light -> (on since, its area)
        self._moved: dict[str, datetime] = {}  # area -> last movement seen there
        self._watched: set[str] = set()  # areas with a motion or occupancy sensor

    def moved(self, when: datetime, area: str | None) -> None:
        """Movement in ``area`` (a motion sensor going on, or seen until now)."""
        if not area or (area not in self._moved and len(self._moved) >= MAX_AREAS):
            return
        self._moved[area] = when
        self._watched.add(area)

    def light(self, entity_id: str, when: datetime, state: str, area: str | None) -> None:
        """``entity_id`` (a light) turned ``state`` at ``when``."""
        if state == "on":
            if area and entity_id not in self._on and len(self._on) < MAX_LIGHTS:
                self._on[entity_id] = (when, area)
            return
        began = self._on.pop(entity_id, None)
        if began is None or state != "off":
            return
        since, room = began
        if room not in self._watched or when - since < LEFT_ON:
            return
        if SMALL_HOURS_START <= local(since, self.zone).hour < SMALL_HOURS_END:
            return  # the night rule's own hours: a fall must not teach this
        last = max(since, self._moved.get(room, since))
        if when - last < QUIET:
            return  # somebody moved under it until it went off: in use
        if entity_id in self.left or len(self.left) < MAX_LIGHTS:
            self.left[entity_id] = min(self.left.get(entity_id, 0) + 1, MAX_COUNT)

    def times_left(self, entity_id: str) -> int:
        """How many of its stays this home was seen leaving ``entity_id`` on, nobody there."""
        return self.left.get(entity_id, 0)

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable form: the counts (a stay under way is not kept)."""
        return {"left": dict(self.left)}

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> LeftOnLights:
        """Rebuild from stored data; anything malformed is dropped, never raised."""
        lights = cls(zone)
        if not isinstance(data, Mapping):
            return lights
        for entity_id, count in stored_items(data.get("left"), MAX_LIGHTS):
            if (
                stored_entity_id(entity_id)
                and isinstance(count, int)
                and not isinstance(count, bool)
                and 0 < count <= MAX_COUNT
            ):
                lights.left[entity_id] = count
        return lights

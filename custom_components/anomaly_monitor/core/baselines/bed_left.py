"""Out of bed in the night, and nothing since: a bed sensor says where the person is not.

``still_where_last_seen`` leaves a quiet begun in the hours this home rests at alone when
the last sign was in a room people rest in (the bedroom): it is sleep. But a bedroom with
a bed sensor (a mat under the mattress, a bed-exit pad: ``held_on.lain_on``) says more.
When that bed was lain on for ``LAIN`` or longer, was left in those hours, is still empty,
and nothing has moved anywhere since somebody was last seen in its room, they are not
asleep in it: they got up (for the toilet, the commode, a glass of water) and have neither
come back to it nor been seen anywhere else. An old person who slid off the bed reaching
for the commode lies on the bedroom floor exactly so.

Judged by this bed's own nights (``StateDurations``: how long it stayed empty when it was
left at this quarter of the day), as a room is (``room_limit``), never under ``FLOOR``
(``still_in_room``'s floor: a bed left says as much as a door shut behind somebody).
Not judged when this bed is left for long at this quarter (an early riser's day begins
then, or somebody sleeps elsewhere part of the night: ``LONG_AWAY``): it is no place people
only step out of at night. A bed never left at this quarter yet (a bedridden person turned
in it by a carer) is judged by the floor alone.
"""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo
from typing import NamedTuple

from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView, is_unavailable
from .clock import local
from .held_on import HELD, lain_on
from .home_baselines import HomeBaselines
from .long_stays import duration_text
from .room_limit import room_limit
from .still_in_room import MIN_LIMIT as FLOOR

# The bed was lain on this long before it was left: somebody was in it for the night (a
# child bouncing on it, a cat's minute, is no night in bed).
LAIN = HELD
# A bed left this long at this quarter of the day on a day learned is left for the day or
# for another bed, not only for a trip: nothing is told of it.
LONG_AWAY = timedelta(hours=1)


class BedLeft(NamedTuple):
    """A bed left in the night and still empty, and how long that may last."""

    bed: str  # the bed sensor's entity id
    name: str  # its name, as the household gave it
    left: datetime  # when it was left
    limit: timedelta  # how long after the last sign the quiet may last
    longest: timedelta | None  # the longest this bed stayed empty at this quarter
    stays: int  # how many times it was left at this quarter

    def why(self, zone: tzinfo | None) -> str:
        """Why the quiet is judged, and by what (for the finding)."""
        learned = (
            f"when it was left at this time of day it was empty for at most "
            f"{duration_text(self.longest)} ({self.stays} times)"
            if self.longest is not None
            else "it has not been left at this time of day before"
        )
        return (
            f"It began in the hours this home rests at, but {self.name} was left at "
            f"{local(self.left, zone):%H:%M} and nobody has lain on it since; {learned}"
        )


def bed_left(
    home: HomeView, baselines: HomeBaselines, area: str, since: datetime
) -> BedLeft | None:
    """The bed in ``area`` that somebody left before the quiet from ``since`` began and
    has not lain on again, when this bed is left only for trips at this time of day."""
    durations = baselines.durations
    for sensor in home.in_area(area):
        if (
            sensor.domain != "binary_sensor"
            or sensor.info.device_class not in OCCUPANCY_DEVICE_CLASSES
            or is_unavailable(sensor)
            or sensor.state != "off"
            or not lain_on(baselines, sensor.entity_id)
        ):
            continue
        current = durations.current.get(sensor.entity_id)
        before = durations.last_stay.get(sensor.entity_id)
        if current is None or before is None or current[0] != "off":
            continue
        left = current[1]
        state, lain_from, lain_until = before
        if state != "on" or lain_until != left or left - lain_from < LAIN or left > since:
            continue  # not lain on until it was left (or left after the quiet began)
        usual = durations.usual(sensor.entity_id, "off", left)
        longest = timedelta(minutes=usual[2]) if usual is not None else None
        if longest is not None and longest >= LONG_AWAY:
            continue  # left for long at this time of day: no trip
        limit = room_limit(longest or timedelta(), FLOOR)
        stays = usual[0] if usual is not None else 0
        return BedLeft(sensor.entity_id, sensor.info.name, left, limit, longest, stays)
    return None

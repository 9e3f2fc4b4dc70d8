"""A door open with somebody moving beside it is in use, not "left open".

A sliding door open 35 min through a children's party, the back door open while the
family carries the shopping in and out: the motion sensor of the door's own room saw
somebody all along. "Left open" is a door nobody is by: its clock runs from the later of
its opening and the last movement in its room (``unattended``). A door open much longer
than any use (``ATTENDED_LIMIT``, an hour of everyday use as ``long_stays.FLOOR``) is told
however busy its room is: a pet moving beside it does not keep a door closed. A door
whose room has no motion sensor is judged as before. Known by area and device class; no
word of an id is read.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..home import HomeView, is_motion
from ..statistics.timeline import Interval, intervals
from .long_stays import FLOOR

ATTENDED_LIMIT = FLOOR


def last_movement(home: HomeView, door: str, spell: Interval) -> datetime | None:
    """The last moment within ``spell`` a motion sensor of the door's room read on."""
    area = home.area(door)
    if area is None:
        return None
    latest: datetime | None = None
    for sensor in home.in_area(area):
        if not is_motion(sensor):
            continue
        seen = [
            min(i.end, spell.end)
            for i in intervals(home, sensor.entity_id)
            if i.state.lower() == "on" and i.start <= spell.end and i.end >= spell.start
        ]
        if not seen and sensor.state.lower() == "on" and not home.changes(sensor.entity_id):
            seen = [spell.end]  # on since before the window and still
        if seen and (latest is None or max(seen) > latest):
            latest = max(seen)
    return latest


def unattended(home: HomeView, door: str, spell: Interval) -> timedelta:
    """How long the door has stood open with nobody moving in its room."""
    moved = last_movement(home, door, spell)
    since = spell.start if moved is None else max(spell.start, moved)
    return spell.end - since


def left_open(home: HomeView, door: str, spell: Interval, limit: timedelta) -> bool:
    """Whether the open ``spell`` is past ``limit`` with nobody by the door, or past
    ``ATTENDED_LIMIT`` (and ``limit``) however busy its room is."""
    if spell.duration <= limit:
        return False
    return spell.duration > ATTENDED_LIMIT or unattended(home, door, spell) > limit

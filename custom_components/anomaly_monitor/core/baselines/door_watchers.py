"""Motion sensors of a door's room that do not see the people who use the door.

``attended_doors`` reads a motion sensor of a door's own room as somebody staying by the
door: a door open with that sensor on is in use, not "left open". A camera over a street
door that watches the street, a PIR in the far corner of a hall: each is in the door's
area but sees passers-by, not the household going in and out. At 03:20 a thief forces
the street door and the camera sees him on the pavement; read as somebody by the door, it
made the door's night-time clock wait for its motion to stop.

Who uses a door is seen on the sensor of the place beside it within a minute or two of
nearly every opening (``relations``' ``opening_motion`` pair, learned per door and sensor
of its area). A sensor that followed the door's openings on at most ``SEEN_SHARE`` of
``MIN_OPENINGS`` or more does not watch the door's way: its motion is nobody by the door.
Learned per home and pair; a pair not learned yet counts as watching (as before).

Read only by the night's quick-door limit (``door_at_rest``): in the hours the home rests
nobody stays by a door that is shut within a minute on every night learned. By day a room's
sensor that misses the door's openings still sees the people in the room who keep a door
open for hours (an evening's airing of the living room: set 14 told it at 2.7 h when the
living room's sensor stopped attending it), so ``entry_left_open`` is judged as before.
No word of an id or a name is read.
"""

from __future__ import annotations

from ..home import HomeView, is_motion
from .home_baselines import HomeBaselines

# Openings of the door, with the sensor off as it opened, before its share is read.
MIN_OPENINGS = 20
# Followed by the sensor on at most this share of them: it does not see the door's users.
SEEN_SHARE = 0.1


def blind_to_door(baselines: HomeBaselines, door: str, sensor: str) -> bool:
    """``sensor`` seldom saw anybody after ``door`` opened, over enough openings."""
    stats = baselines.relations.pairs.get((door, sensor))
    if stats is None or stats.onsets < MIN_OPENINGS:
        return False
    return stats.followed <= SEEN_SHARE * stats.onsets


def not_watching(home: HomeView, baselines: HomeBaselines, door: str) -> frozenset[str]:
    """The motion sensors of ``door``'s room that do not watch it (``blind_to_door``)."""
    area = home.area(door)
    if area is None:
        return frozenset()
    return frozenset(
        sensor.entity_id
        for sensor in home.in_area(area)
        if is_motion(sensor) and blind_to_door(baselines, door, sensor.entity_id)
    )

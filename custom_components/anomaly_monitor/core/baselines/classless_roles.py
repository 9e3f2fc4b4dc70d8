"""A binary sensor with no device class, read by how it behaves: a person's doing or not.

Many integrations set no class (a Tuya contact on a room door, a camera's motion trigger,
an ESPHome mat). What such a sensor is shows in when it goes on: a contact a person opens,
or a camera that sees them, goes on with the rest of its room (the room's motion or door
moving within ``REACH`` of it) nearly every time; a mat under a sleeper or a pump's float
goes on by itself. Read from the window's changes (no id or name is read): at least
``MIN_ONSETS`` onsets, ``PEOPLE_SHARE`` or more of them with its room moving.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..home import OCCUPANCY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES, HomeView
from ..statistics.timeline import real_changes

# Its room moved this close to its going on: the same person's doing.
REACH = timedelta(minutes=2)
# Onsets in the window before its behaviour says anything.
MIN_ONSETS = 3
# This share of its onsets with its room moving: a person's doing.
PEOPLE_SHARE = 2 / 3


def _room_moves(home: HomeView, entity_id: str, area: str) -> list[datetime]:
    """When the other openings and motion sensors of ``area`` changed in the window."""
    return sorted(
        change.when
        for other in home.history
        if other != entity_id
        and home.domain(other) == "binary_sensor"
        and home.device_class(other) in OPENING_DEVICE_CLASSES | OCCUPANCY_DEVICE_CLASSES
        and home.area(other) == area
        for change in real_changes(home, other)
    )


def reads_as_opening_or_motion(home: HomeView, entity_id: str) -> bool:
    """A classless binary sensor whose onsets nearly all come with its room moving (a
    contact a person opens, a camera that sees them): a person's doing, not a sensor
    that goes on by itself."""
    area = home.area(entity_id)
    if area is None:
        return False
    onsets = [c.when for c in real_changes(home, entity_id) if c.state.lower() == "on"]
    if len(onsets) < MIN_ONSETS:
        return False
    moves = _room_moves(home, entity_id, area)
    with_room = sum(1 for onset in onsets if any(abs(m - onset) <= REACH for m in moves))
    return with_room >= PEOPLE_SHARE * len(onsets)

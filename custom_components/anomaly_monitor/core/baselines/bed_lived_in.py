"""A bedbound person lies still in her bed: her room's own quiet, not the home's.

``still_where_last_seen`` judges a quiet after a sign in a room by the longest this home
stayed quiet after that room (``room_quiet``): anything moving anywhere ends such a quiet,
so in a home with a household about, a cat on the porch, carers in and out, it never lasts
long. A bedbound grandmother in her room shifts in her bed now and then, and between times
lies still for an hour or two while nothing else in the house happens to move: "last seen
in her room 1 h ago, never quiet there for longer than 23 min" was no fall.

Her bed says where she is: lived in (``held_on.lived_in``: held on for half a day and more
on average) and lain on now. Her room's own motion sensor then says how long she lies
still: its longest stays ``off`` begun at this quarter of the day (learned while she lay
there, as her bed is almost always lain on). The quiet is judged by no less than that, as
a room is (``room_limit``, never under ``still_in_room``'s floor). Out of her bed (a
slide to the floor by the commode) this says nothing: ``bed_left``'s.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView, is_unavailable
from .held_on import lain_on, lived_in
from .home_baselines import HomeBaselines
from .room_limit import room_limit
from .still_in_room import MIN_LIMIT as FLOOR


def lived_in_limit(
    home: HomeView, baselines: HomeBaselines, area: str, since: datetime
) -> timedelta | None:
    """How long a quiet from ``since`` after a sign in ``area`` may last when a bed there
    is lived in and lain on now: from the room's other sensors' longest stays ``off`` begun
    at ``since``'s quarter of the day; None when there is no such bed or nothing learned."""
    sensors = [
        sensor
        for sensor in home.in_area(area)
        if sensor.domain == "binary_sensor"
        and sensor.info.device_class in OCCUPANCY_DEVICE_CLASSES
        and not is_unavailable(sensor)
    ]
    if not any(s.state == "on" and lived_in(baselines, s.entity_id) for s in sensors):
        return None
    longest: float | None = None
    for sensor in sensors:
        if lain_on(baselines, sensor.entity_id):
            continue  # a bed: its stays off are the times it was left
        usual = baselines.durations.usual(sensor.entity_id, "off", since)
        if usual is not None:
            longest = max(longest or 0.0, usual[2])
    if longest is None:
        return None
    return room_limit(timedelta(minutes=longest), FLOOR)

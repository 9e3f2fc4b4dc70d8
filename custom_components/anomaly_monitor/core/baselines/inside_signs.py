"""Every sign of somebody inside the house in the window, in time order.

A motion, occupancy or presence sensor turning on, a door or window used, in an area not
outside the house (``outdoor_areas``: what moved in the yard is no sign of anybody in).
Read by the stillness judges (``bed_trip``, ``bed_left``, ``held_past``): whether
anybody has been seen anywhere since somebody went somewhere.
"""

from __future__ import annotations

from datetime import datetime

from ..home import OCCUPANCY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES, UNAVAILABLE_STATES, HomeView
from ..outdoor_areas import outdoor_area


def inside_signs(home: HomeView) -> list[tuple[datetime, str]]:
    """Every sign of somebody inside in the window, in time order: a motion, occupancy or
    presence sensor turning on, a door or window used, in an area not outside the house.
    A sensor's first change in the window counts too (the window begins at it: the walk
    to the bathroom may be the first thing its sensor saw in two hours)."""
    signs: list[tuple[datetime, str]] = []
    sensors = [
        *((s, True) for s in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES)),
        *((s, False) for s in home.of("binary_sensor", *OPENING_DEVICE_CLASSES)),
    ]
    for sensor, motion in sensors:
        area = sensor.info.area
        if not area or outdoor_area(area):
            continue
        before = None
        for change in home.changes(sensor.entity_id):
            readable = change.state not in UNAVAILABLE_STATES and (
                before is None or before not in UNAVAILABLE_STATES
            )
            if readable and (change.state == "on" or not motion):
                signs.append((change.when, area))
            before = change.state
    return sorted(signs)

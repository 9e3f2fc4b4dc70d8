"""Somebody shut in a room: its door closed behind them, and they were seen inside after.

A person is where they were last seen only when that room keeps them: a door of the room
(a door, window or opening sensor of its area) reads closed, it closed after the last sign
of anybody elsewhere, and a motion sensor of the room still saw somebody ``INSIDE`` after
it closed (a new motion, or one held on that long). Somebody walking out through a door
leaves its motion behind within the sensor's hold; somebody in the bathroom is seen after
the door closed. A door read closed as it came back from no state (``unknown`` as HA
starts, ``unavailable``) closed on nobody. Read from the window's changes: a door closed
before the window is not known to have closed on anybody.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import pairwise

from ..home import OCCUPANCY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES, HomeView
from ..statistics.timeline import real_changes

# Seen inside this long after the door closed: not somebody who walked out through it.
INSIDE = timedelta(minutes=2)
_UNREADABLE = frozenset({"unavailable", "unknown"})


def window_signs(home: HomeView) -> list[tuple[datetime, str]]:
    """Every sign of somebody in the window with an area, in time order: a motion,
    occupancy or presence sensor turning on, a door or window opening or closing (a
    device coming back from unavailable is nobody). The first change in the window is a
    change too (the window holds what changed in it, not each state at its start), unless
    it only records the state the window began with (``timeline.real_changes``): the
    kitchen's motion at 16:55, the only one in the window, was somebody there."""
    signs: list[tuple[datetime, str]] = []
    sensors = [
        *((s, True) for s in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES)),
        *((s, False) for s in home.of("binary_sensor", *OPENING_DEVICE_CLASSES)),
    ]
    for sensor, motion in sensors:
        area = sensor.info.area
        if not area:
            continue
        changes = home.changes(sensor.entity_id)
        real = real_changes(home, sensor.entity_id)
        first = len(changes) - len(real)  # 1 when the first records the start's state
        for index in range(first, len(changes)):
            after = changes[index]
            before = changes[index - 1].state if index else None
            if before in _UNREADABLE or after.state in _UNREADABLE:
                continue
            if not motion or after.state == "on":
                signs.append((after.when, area))
    return sorted(signs)


def shut_in(home: HomeView, area: str) -> bool:
    """Whether somebody is shut in ``area`` (see the module)."""
    signs = window_signs(home)
    for door in home.of("binary_sensor", *OPENING_DEVICE_CLASSES):
        if door.info.area != area or door.state != "off":
            continue
        changes = home.changes(door.entity_id)
        # Read shut as HA (or the sensor) came back is nobody closing it (walk 41: the
        # bedroom window read ``off`` at a restart "shut" him in after he left his bed).
        closed = [
            after.when
            for before, after in pairwise(changes)
            if after.state == "off" and before.state not in _UNREADABLE
        ]
        if not closed or changes[-1].state != "off":
            continue
        close = closed[-1]
        if any(when > close and where != area for when, where in signs):
            continue  # somebody seen elsewhere since: not shut in
        if _seen_inside(home, area, close):
            return True
    return False


def _seen_inside(home: HomeView, area: str, close: datetime) -> bool:
    """A motion sensor of ``area`` saw somebody ``INSIDE`` after ``close``."""
    after = close + INSIDE
    for sensor in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES):
        if sensor.info.area != area:
            continue
        changes = home.changes(sensor.entity_id)
        state = None  # the sensor's state at the close
        for change in changes:
            if change.when <= close:
                state = change.state
            elif change.state == "on":
                return True  # moved after the close
            else:
                if state == "on" and change.when >= after:
                    return True  # held on past the close
                state = change.state
        if state == "on" and home.end >= after:
            return True  # still on
    return False

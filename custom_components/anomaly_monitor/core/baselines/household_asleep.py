"""Whether the household is asleep now: in the small hours, after an hour of its rest;
and whether somebody sits up in a room all the same.

"Asleep" is this home's own rest (``DailyRhythm``: nobody moved for ``REST_GAP``), read
only in the small hours, and only after ``SETTLED`` of it: a quiet moment on the sofa at
22:00 is not sleep. The night rules (a lock unlocked, a door open while the household
sleeps) judge from it; the day rules leave to them what only the night tells.

A presence sensor held "on" makes no new motion: friends round for cards until two, the
living room's sensor on since nine, look like rest. A room held occupied longer than its
sensor's "on" stays begun at that time of day ever last here is people sitting up
(``sitting_up``), not asleep; a bedroom's presence sensor on all night, as on every night,
is the household asleep. On longer than ``HELD_AT_MOST``, it may be stuck: not taken as anybody.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView
from ..models import EntityState
from ..statistics.night import SMALL_HOURS_END, SMALL_HOURS_START
from .clock import local

if TYPE_CHECKING:
    from .home_baselines import HomeBaselines

# The household has rested this long: asleep, not a quiet moment on the sofa.
SETTLED = timedelta(hours=1)
# A sensor held on longer than this may be stuck: it says nobody is there.
HELD_AT_MOST = timedelta(hours=6)


def asleep_since(home: HomeView, baselines: HomeBaselines) -> datetime | None:
    """When the household's rest began, in the small hours after ``SETTLED`` of it; else
    None (awake, a quiet moment on the sofa, or somebody sitting up: ``sitting_up``)."""
    now = home.end
    if not SMALL_HOURS_START <= local(now, baselines.zone).hour < SMALL_HOURS_END:
        return None
    rest = baselines.rhythm.resting_since(now)
    if rest is None or now - rest < SETTLED or sitting_up(home, baselines, now):
        return None
    return rest


def _on_since(home: HomeView, sensor: EntityState, when: datetime) -> datetime | None:
    """Since when ``sensor`` reads "on" at ``when``; None when it reads otherwise."""
    changes = home.changes(sensor.entity_id)
    before = [c for c in changes if c.when < when]
    if before:
        return before[-1].when if before[-1].state.lower() == "on" else None
    if changes:  # its first change came after: "off" means it read on until then
        return home.window.start if changes[0].state.lower() == "off" else None
    return sensor.last_changed if sensor.state.lower() == "on" else None


def sitting_up(
    home: HomeView, baselines: HomeBaselines, when: datetime, at_least: timedelta = timedelta(0)
) -> bool:
    """An occupancy sensor reads "on" at ``when``, held longer than its "on" stays begun at
    that time of day ever last here (and than nothing learned, and ``at_least``), but not
    ``HELD_AT_MOST``: somebody sits up in that room."""
    return bool(held_rooms(home, baselines, when, at_least, first_only=True))


def held_rooms(
    home: HomeView,
    baselines: HomeBaselines,
    when: datetime,
    at_least: timedelta = timedelta(0),
    *,
    first_only: bool = False,
) -> frozenset[str]:
    """The areas (a sensor without one: its id) where somebody sits up at ``when``
    (``sitting_up``); with ``first_only``, the first found alone."""
    rooms: set[str] = set()
    for sensor in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES):
        since = _on_since(home, sensor, when)
        if since is None or not at_least <= when - since <= HELD_AT_MOST:
            continue
        learned = baselines.durations.longest(sensor.entity_id, "on", since)
        if learned is None:
            continue  # how long it holds on is not known: no proof either way
        if when - since > timedelta(minutes=learned[1]):
            rooms.add(sensor.info.area or sensor.entity_id)
            if first_only:
                break
    return frozenset(rooms)

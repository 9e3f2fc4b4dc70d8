"""A room kept busy into the night until a door opened: the evening ending, not a wanderer.

A motion sensor reads ``on`` for a minute or two after it saw somebody move; one held
``on`` for an hour and more is a busy room (``held_on``: a party keeps the living room's
sensor on all evening). When such a room was still busy within ``REACH`` before a way out
opened in the small hours, people were up together until then: guests going home after
a New Year's party or a supper, the host seeing them to the gate. Somebody who wanders
out in the night gets up from a sleeping house. Only a motion sensor (device class
``motion``: it holds on only while people move) is read: an occupancy or presence sensor
held on may be one person lying still (a bed before its nights are learned: the wanderer
getting out of it just before the door), and a bed or chair (``lain_on``) is so; nor is a
sensor held on since longer than ``AT_MOST`` ago (it may be stuck).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from ..home import HomeView
from ..models import EntityState
from .held_on import HELD, lain_on
from .long_stays import stay_since

if TYPE_CHECKING:
    from .home_baselines import HomeBaselines

# The room was still busy this soon before the door opened: the evening ran until then
# (the goodbyes at the door, coats on, take a quarter of an hour).
REACH = timedelta(minutes=20)
# A motion sensor held on since longer ago than this may be stuck: it proves nobody up.
AT_MOST = timedelta(hours=12)


def busy_until(home: HomeView, baselines: HomeBaselines, opened: datetime) -> list[str]:
    """The motion sensors whose room was busy (held ``on`` for ``HELD`` or longer) within
    ``REACH`` before ``opened``."""
    return sorted(
        sensor.entity_id
        for sensor in home.of("binary_sensor", "motion")
        if not lain_on(baselines, sensor.entity_id) and _held_near(home, baselines, sensor, opened)
    )


def _held_near(
    home: HomeView, baselines: HomeBaselines, sensor: EntityState, opened: datetime
) -> bool:
    """An ``on`` stay of ``sensor`` that lasted ``HELD`` and ran into the ``REACH`` before
    ``opened``, begun less than ``AT_MOST`` before it."""
    changes = [c for c in home.changes(sensor.entity_id) if c.when <= opened]
    since: datetime | None = None
    if not changes:
        since = stay_since(home, baselines, sensor) if sensor.state.lower() == "on" else None
    elif changes[0].state.lower() == "off":
        since = home.window.start  # it read on until its first change in the window
    # (a first change to unavailable or unknown, a radio drop or HA's restart: what it
    # read before is not known)
    for change in changes:
        if change.state.lower() == "on":
            since = since or change.when
            continue
        if since is not None and _busy(since, change.when, opened):
            return True
        since = None
    return since is not None and _busy(since, opened, opened)


def _busy(since: datetime, until: datetime, opened: datetime) -> bool:
    return until - since >= HELD and until >= opened - REACH and opened - since <= AT_MOST

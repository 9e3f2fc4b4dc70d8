"""A sensor's battery that drains in a day instead of over months.

Door, window, motion and leak sensors run a year or more on one battery: a few
percent a month. A battery that loses tens of points within a day is failing, or
the device is stuck transmitting (a chattering contact, a bad radio link) and will
go dark soon. Phones and other rechargeable devices drain daily by design, so only
batteries that belong to a fixed sensor (HA names a device's battery entity after
the device: ``binary_sensor.x`` → ``sensor.x_battery``) are judged.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from itertools import pairwise

from ..device_roles import named_as_one
from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity
from .timeline import numeric_series

# Points lost within a day that no fixed sensor's battery loses in normal use.
FAST_DRAIN_POINTS = 20.0
DRAIN_SPAN = timedelta(days=1)
# Domains of fixed, battery-powered devices a battery entity can belong to.
_FIXED_DEVICE_DOMAINS = frozenset({"binary_sensor", "lock", "cover", "valve"})
# Domains that mark a device as carried (phones, tags): they drain and recharge.
_CARRIED_DOMAINS = frozenset({"device_tracker", "person"})


def _fixed(home: HomeView, battery: str) -> bool:
    """The battery belongs to a fixed device: a fixed sibling entity, or a room of its own.

    A sibling is an entity of the battery's registry device, else one whose object id
    the battery's extends (HA's naming); a carried sibling (a phone's tracker) rules it
    out. Without siblings, a battery placed in an area is a fixed device's; phones are
    not placed in rooms.
    """
    state = home.info(battery)
    if state is not None and state.info.device is not None:
        # HA's device registry says it without names: the phone's tracker, the door's contact.
        domains = {
            s.domain
            for s in home.window.snapshot
            if s.info.device == state.info.device and s is not state
        }
        if domains & _CARRIED_DOMAINS:
            return False
        if domains & _FIXED_DEVICE_DOMAINS:
            return True
    fixed_sibling = False
    for entity_id in home.window.entity_ids:
        domain = entity_id.partition(".")[0]
        if not named_as_one(battery, entity_id):
            continue
        if domain in _CARRIED_DOMAINS:
            return False
        fixed_sibling = fixed_sibling or domain in _FIXED_DEVICE_DOMAINS
    return fixed_sibling or home.area(battery) is not None


BATTERY_DRAINING_FAST = FindingKind(
    "battery_draining_fast", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def battery_draining_fast(home: HomeView) -> Iterator[Finding]:
    """A fixed sensor's battery lost ≥ 20 points within a day and never recovered.

    Magnitude: the points lost within the worst day.
    """
    for entity_id in home.history_of("sensor", "battery"):
        series = numeric_series(home, entity_id)
        if len(series) < 3:
            continue
        values = [v for _, v in series]
        if any(b > a for a, b in pairwise(values)):
            continue  # it was charged or replaced: a rechargeable, or a new battery
        worst = 0.0
        first = 0
        for when, value in series:
            while when - series[first][0] > DRAIN_SPAN:
                first += 1
            worst = max(worst, series[first][1] - value)
        if worst < FAST_DRAIN_POINTS:
            continue
        if not _fixed(home, entity_id):
            continue
        yield BATTERY_DRAINING_FAST.finding(
            evidence=(entity_id,),
            reasoning=f"{entity_id} fell from {values[0]:g} % to {values[-1]:g} %, losing "
            f"{worst:g} points within a day; a sensor battery lasts months.",
            recommendation="Replace the battery soon and check the device for a stuck "
            "contact or a weak radio link that keeps it transmitting.",
            magnitude=worst,
        )

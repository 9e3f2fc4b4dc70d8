"""A light or switch turned off the very second it was turned on: two commands fighting.

Nobody switches a light on and off within a second by hand, and a dimmer or a bulb does
not report it by itself. It is what two automations (or an automation and a scene, a
group, a schedule) do when one answers motion with "on" and another, with conditions
that disagree, answers the same trigger with "off": the light never stays on and the
person walks in the dark. One such moment is enough to tell; a real home whose lights
flicker like this every evening has a conflict worth fixing, not a habit.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity
from .timeline import area_motion_reporting, intervals

# Commands this close together came from one trigger, not from a person.
AT_ONCE = timedelta(seconds=1)
# Domains a motion automation switches.
_SWITCHED = frozenset({"light", "switch", "fan"})
# Motion of the same area this close to the flicker is the trigger both commands answered
# (and motion right after, with the light left off, is the person still in the dark).
TRIGGER_REACH = timedelta(minutes=1)


SWITCHED_OFF_AT_ONCE = FindingKind(
    "switched_off_at_once", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def switched_off_at_once(home: HomeView) -> Iterator[Finding]:
    """A light, switch or fan was switched off within a second of being switched on.

    Magnitude: how many times it happened in the window.
    """
    start = home.window.start
    for entity_id in home.history:
        if home.domain(entity_id) not in _SWITCHED:
            continue
        flickers = [
            spell.start
            for spell in intervals(home, entity_id)
            if spell.state.lower() == "on"
            and not spell.ongoing
            and spell.duration <= AT_ONCE
            and (start is None or spell.start > start)
        ]
        if not flickers:
            continue
        triggers = area_motion_reporting(
            home, entity_id, "on", flickers[0], TRIGGER_REACH, changes_only=True
        )
        yield SWITCHED_OFF_AT_ONCE.finding(
            evidence=(entity_id, *triggers),
            reasoning=f"{entity_id} was switched on at {flickers[0]:%Y-%m-%d %H:%M:%S} and off "
            "again within a second: two automations (or a scene and an automation) are "
            "giving it opposite commands.",
            recommendation="Look for automations or scenes that switch it on the same trigger "
            "and make their conditions agree.",
            magnitude=float(len(flickers)),
        )

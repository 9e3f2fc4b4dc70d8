"""Somebody come to the room of a told hazard while it still reads its hazard is answering it.

Set 18 (Richmond): the water heater leaked in the garage at 14:10, told and acknowledged; at
18:14 the neighbour who minds the house came in by the garage's door to shut the valve,
and "Garage entry door is open while nobody is home" was pushed, the floor still wet.

A hazard its detector still reads (smoke, CO, gas, water: not a person's stillness, whose
"fallen" one may be the one who left) has brought somebody to it: whoever opens a door of
its room is the help, though no tracker knows them. So a new entry while nobody is home
(no hazard, no graver than the hazard) whose every shown device is a door or window
contact (or a motion sensor) of the room of such a hazard (the areas of the devices it
shows), within ``HOLD`` of its first telling, is shown as the hazard's part and not
pushed, acknowledged with it. (With somebody home, what the household does about a hazard
is ``hazard_answer``'s and ``hazard_handled``'s.) A home-wide anomaly is never held:
motion while away is one anomaly wherever it moves, and held for the hazard's room it
would grow the hall's motion untold (walk 61; set 33's housemate come down to the leak is
told so). Anything else is told as ever: a door in another room, a lock (a keyed entry is
its own event), a device gone offline, a hazard over (no longer found). An intruder who
came in by the hazard's room and walks on into the home is told then: the motion of
another room, following the entry held so, joins it and is the first sign of somebody
inside (``core.escalation``). Known by device class and area; no word of an id is read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

from ..core.escalation import INTRUSION_RULES
from ..core.home import OCCUPANCY_DEVICE_CLASSES
from ..core.models import HOME_SUBJECT, AnomalyType, EntityState
from ..core.open_states import is_opening
from ..core.rules.safety import HAZARD_DETECTED
from ..core.statistics.alarms import HAZARD_ALARM_SOUNDED
from .acknowledged_hold import HOLD
from .open_anomaly import OpenAnomaly, rank
from .store import parse_time

# What says somebody came while nobody is home: an entry, motion.
_SOMEBODY_CAME = frozenset({AnomalyType.SECURITY, AnomalyType.OCCUPANCY_MISMATCH})
# Armed away: the alarm's own verdict on an entry, never held.
_MOTION_RULES = INTRUSION_RULES - {"entry_while_armed_away"}
# A hazard its detector reads (smoke, CO, gas, water): what brings help to its room. A
# person's stillness ("possible fall") is no such hazard: the one thought still may be
# the one who left, and motion after it while nobody is home is news.
_DETECTOR_RULES = frozenset({HAZARD_DETECTED.rule, HAZARD_ALARM_SOUNDED.rule})


def _door_or_motion(state: EntityState) -> bool:
    """A door or window (contact or cover), or a motion sensor: no lock, no reading."""
    motion = state.domain == "binary_sensor" and state.info.device_class in OCCUPANCY_DEVICE_CLASSES
    return motion or is_opening(state.domain, state.info.device_class)


def _still_sounding(hazard: OpenAnomaly, now: datetime) -> bool:
    """A hazard in the home, told, found by the latest analysis, told within ``HOLD``."""
    first = parse_time(hazard.first_seen)
    return (
        hazard.hazard
        and hazard.anomaly_type == AnomalyType.SAFETY_HAZARD
        and not hazard.subject.startswith("person.")
        and any(member.rule in _DETECTOR_RULES for member in hazard.members)
        and hazard.missing_since is None
        and hazard.ended is None
        and first is not None
        and first <= now <= first + HOLD
    )


def _rooms(anomaly: OpenAnomaly, entities: Mapping[str, EntityState]) -> set[str] | None:
    """The areas of the devices ``anomaly`` shows; None if one has no area."""
    areas = set()
    for entity_id in anomaly.shown_evidence:
        state = entities.get(entity_id)
        if state is None or not state.info.area:
            return None
        areas.add(state.info.area)
    return areas


def at_the_hazard_room(
    anomaly: OpenAnomaly,
    open_now: Iterable[OpenAnomaly],
    now: datetime,
    entities: Mapping[str, EntityState],
) -> OpenAnomaly | None:
    """The told hazard still found in whose room ``anomaly`` (just opened) is somebody
    come to it, if any."""
    shown = [entities.get(e) for e in anomaly.shown_evidence]
    if (
        anomaly.hazard
        # One anomaly for the whole home (motion while away, wherever it moves) grows with
        # the next room's motion under the same signature: held for the hazard's room, it
        # would hide an intruder in the hall (walk 61). Only a finding of its own device is.
        or anomaly.subject == HOME_SUBJECT
        or not anomaly.while_away
        or anomaly.anomaly_type not in _SOMEBODY_CAME
        or not shown
        or any(s is None or not _door_or_motion(s) for s in shown)
        or any(m.rule in INTRUSION_RULES and m.rule not in _MOTION_RULES for m in anomaly.members)
    ):
        return None
    rooms = _rooms(anomaly, entities)
    if not rooms:
        return None
    for hazard in open_now:
        if hazard.signature == anomaly.signature or not _still_sounding(hazard, now):
            continue
        if rank(anomaly.severity) > rank(hazard.severity):
            continue
        hazard_rooms = _rooms(hazard, entities)
        if hazard_rooms and rooms <= hazard_rooms:
            return hazard
    return None

"""What relates to what in one area, in HA's vocabulary: the four cause → effect relations.

A cause and its effect share an area and are told apart by domain and device_class only
(never an entity id's words): a door/window/opening contact opening → a motion sensor
turning on; motion → a light on; a ``climate`` entity heating → a ``temperature`` sensor
rising ``RISE``; a ``switch`` on → a ``power`` sensor rising ``POWER_RISE``. Each relation
has a reach (how long the effect may take) and says whether its cause must last until then
(*held*: a switch, the heating; a door opened for 8 s is not).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from ..home import OCCUPANCY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES
from ..hvac_state import action_from_state as climate_action
from ..models import EntityInfo
from ..temperatures import span_in_unit

OPENING_MOTION = "opening_motion"
MOTION_LIGHT = "motion_light"
HEATING_WARMS = "heating_warms"
SWITCH_POWER = "switch_power"
# A room that warms by this much (°C; ×1.8 in °F) since the heating started: the heat arrived.
RISE = 0.5
# A meter that rises by this much (W) since its switch turned on: the load draws.
POWER_RISE = 10.0


@dataclass(frozen=True, slots=True)
class Relation:
    """How long the effect may take, and whether the cause must last until then."""

    reach: timedelta
    held: bool


RELATIONS: dict[str, Relation] = {
    OPENING_MOTION: Relation(timedelta(minutes=2), held=False),
    MOTION_LIGHT: Relation(timedelta(minutes=1), held=False),
    HEATING_WARMS: Relation(timedelta(hours=3), held=True),
    SWITCH_POWER: Relation(timedelta(minutes=5), held=True),
}


def cause_kind(info: EntityInfo) -> str | None:
    """The relation ``info``'s entity is the cause of, if any."""
    domain, device_class = info.domain, info.device_class
    if domain == "binary_sensor" and device_class in OPENING_DEVICE_CLASSES:
        return OPENING_MOTION
    if domain == "binary_sensor" and device_class in OCCUPANCY_DEVICE_CLASSES:
        return MOTION_LIGHT
    if domain == "climate":
        return HEATING_WARMS
    if domain == "switch":
        return SWITCH_POWER
    return None


def is_effect(kind: str, info: EntityInfo) -> bool:
    """Whether ``info``'s entity can be the effect of a ``kind`` cause."""
    domain, device_class = info.domain, info.device_class
    if kind == OPENING_MOTION:
        return domain == "binary_sensor" and device_class in OCCUPANCY_DEVICE_CLASSES
    if kind == MOTION_LIGHT:
        return domain == "light"
    if kind == HEATING_WARMS:
        return domain == "sensor" and device_class == "temperature"
    return domain == "sensor" and device_class == "power"


def cause_active(kind: str, state: str) -> bool:
    """Whether ``state`` is the cause's active state (open, moving, heating, on)."""
    if kind == HEATING_WARMS:
        return climate_action(state) == "heating"
    return state == "on"


def rise_needed(kind: str, info: EntityInfo) -> float:
    """How far a numeric effect must rise to count (in its own unit; 0 for binary ones)."""
    if kind == HEATING_WARMS:
        return span_in_unit(RISE, info.unit)
    return POWER_RISE if kind == SWITCH_POWER else 0.0

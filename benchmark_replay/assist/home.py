"""A test home for HA-Assist-style sentences: floors, areas, named devices with aliases.

Two floors; lights (dimmable, colour, on/off), fans, covers (curtains, blinds, a garage door),
locks, thermostats, a TV that is playing, a vacuum, and an area (the office) with two heaters.
Every entity is registered with a device in an area, exposed to Assist, and has a state with
the attributes and supported features a real integration would report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from homeassistant.components.climate import ClimateEntityFeature
from homeassistant.components.cover import CoverEntityFeature
from homeassistant.components.fan import FanEntityFeature
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.components.lock import LockEntityFeature
from homeassistant.components.media_player import MediaPlayerEntityFeature
from homeassistant.components.vacuum import VacuumEntityFeature
from homeassistant.core import HomeAssistant
from homeassistant.helpers import (
    area_registry as ar,
    device_registry as dr,
    entity_registry as er,
    floor_registry as fr,
)
from pytest_homeassistant_custom_component.common import MockConfigEntry

PLATFORM = "assist_test_home"
FLOORS = {
    "first_floor": ("First Floor", ["ground floor", "downstairs"]),
    "second_floor": ("Second Floor", ["upstairs"]),
}
AREAS = {
    "living_room": ("Living Room", "first_floor", ["lounge"]),
    "kitchen": ("Kitchen", "first_floor", []),
    "hallway": ("Hallway", "first_floor", []),
    "office": ("Office", "first_floor", ["study"]),
    "garage": ("Garage", "first_floor", []),
    "bedroom": ("Bedroom", "second_floor", []),
    "bathroom": ("Bathroom", "second_floor", []),
}
_DIMMABLE = {"supported_color_modes": ["brightness"], "brightness": 128, "color_mode": "brightness"}
_COLOUR = {
    "supported_color_modes": ["color_temp", "hs"],
    "brightness": 200,
    "color_mode": "hs",
    "min_color_temp_kelvin": 2000,
    "max_color_temp_kelvin": 6500,
}
_FAN = {
    "supported_features": FanEntityFeature.SET_SPEED
    | FanEntityFeature.TURN_ON
    | FanEntityFeature.TURN_OFF,
    "percentage": 30,
    "percentage_step": 1,
}
_THERMOSTAT = {
    "supported_features": ClimateEntityFeature.TARGET_TEMPERATURE
    | ClimateEntityFeature.TURN_ON
    | ClimateEntityFeature.TURN_OFF,
    "hvac_modes": ["off", "heat", "cool", "auto"],
    "min_temp": 7,
    "max_temp": 35,
    "target_temp_step": 0.5,
    "temperature": 20,
    "current_temperature": 19.5,
}
_POSITION_COVER = (
    CoverEntityFeature.OPEN
    | CoverEntityFeature.CLOSE
    | CoverEntityFeature.STOP
    | CoverEntityFeature.SET_POSITION
)
_TV = (
    MediaPlayerEntityFeature.PLAY
    | MediaPlayerEntityFeature.PAUSE
    | MediaPlayerEntityFeature.STOP
    | MediaPlayerEntityFeature.NEXT_TRACK
    | MediaPlayerEntityFeature.PREVIOUS_TRACK
    | MediaPlayerEntityFeature.VOLUME_SET
    | MediaPlayerEntityFeature.VOLUME_MUTE
    | MediaPlayerEntityFeature.TURN_ON
    | MediaPlayerEntityFeature.TURN_OFF
)
_VACUUM = (
    VacuumEntityFeature.START
    | VacuumEntityFeature.PAUSE
    | VacuumEntityFeature.STOP
    | VacuumEntityFeature.RETURN_HOME
    | VacuumEntityFeature.STATE
)

# (object id, area, name, aliases, state, attributes)
ENTITIES: list[tuple[str, str, str, list[str], str, dict[str, Any]]] = [
    ("light.overhead_light", "living_room", "Overhead Light", ["ceiling light"], "off", _COLOUR),
    ("light.floor_lamp", "living_room", "Floor Lamp", [], "on", _DIMMABLE),
    ("light.kitchen_lighting", "kitchen", "Kitchen Lighting", [], "on", _DIMMABLE),
    ("light.hallway_light", "hallway", "Hallway Light", [], "off", _DIMMABLE),
    ("light.desk_lamp", "office", "Desk Lamp", [], "off", _DIMMABLE),
    ("light.bedroom_lamp", "bedroom", "Bedroom Lamp", ["reading light"], "off", _COLOUR),
    ("light.bathroom_light", "bathroom", "Bathroom Light", [], "off", _DIMMABLE),
    (
        "light.garage_light",
        "garage",
        "Garage Light",
        [],
        "off",
        {"supported_color_modes": ["onoff"], "color_mode": "onoff"},
    ),
    ("fan.ceiling_fan", "living_room", "Ceiling Fan", [], "off", _FAN),
    ("fan.bedroom_fan", "bedroom", "Bedroom Fan", [], "off", _FAN),
    (
        "cover.living_room_curtains",
        "living_room",
        "Living Room Curtains",
        [],
        "closed",
        {"device_class": "curtain", "supported_features": _POSITION_COVER, "current_position": 0},
    ),
    (
        "cover.bedroom_blinds",
        "bedroom",
        "Bedroom Blinds",
        [],
        "open",
        {"device_class": "blind", "supported_features": _POSITION_COVER, "current_position": 100},
    ),
    (
        "cover.garage_door",
        "garage",
        "Garage Door",
        [],
        "closed",
        {
            "device_class": "garage",
            "supported_features": CoverEntityFeature.OPEN | CoverEntityFeature.CLOSE,
        },
    ),
    ("lock.front_door", "hallway", "Front Door", [], "unlocked", {"supported_features": 0}),
    (
        "lock.back_door",
        "kitchen",
        "Back Door",
        [],
        "locked",
        {"supported_features": LockEntityFeature.OPEN},
    ),
    (
        "climate.living_room_thermostat",
        "living_room",
        "Living Room Thermostat",
        [],
        "heat",
        _THERMOSTAT,
    ),
    ("climate.bedroom_thermostat", "bedroom", "Bedroom Thermostat", [], "heat", _THERMOSTAT),
    ("switch.office_heater", "office", "Office Heater", ["heater"], "off", {}),
    ("switch.radiator_heater", "office", "Radiator Heater", [], "off", {}),
    ("switch.coffee_maker", "kitchen", "Coffee Maker", [], "off", {}),
    (
        "media_player.living_room_tv",
        "living_room",
        "Living Room TV",
        ["television"],
        "playing",
        {
            "supported_features": _TV,
            "volume_level": 0.3,
            "is_volume_muted": False,
            "device_class": "tv",
        },
    ),
    (
        "vacuum.robot_vacuum",
        "kitchen",
        "Robot Vacuum",
        ["Rosie"],
        "docked",
        {"supported_features": _VACUUM, "fan_speed_list": ["quiet", "standard", "max"]},
    ),
]
SATELLITE_AREA = "living_room"


@dataclass
class AssistHome:
    """Ids of what was created."""

    floors: dict[str, str] = field(default_factory=dict)
    areas: dict[str, str] = field(default_factory=dict)
    entities: dict[str, str] = field(default_factory=dict)  # object id → entity id
    satellite_device_id: str = ""
    satellite_entity_id: str = ""


async def async_build_assist_home(hass: HomeAssistant) -> AssistHome:
    """Create floors, areas, devices, entities and states; expose everything to Assist."""
    home = AssistHome()
    floor_reg, area_reg = fr.async_get(hass), ar.async_get(hass)
    dev_reg, ent_reg = dr.async_get(hass), er.async_get(hass)
    for key, (name, aliases) in FLOORS.items():
        home.floors[key] = floor_reg.async_create(name, aliases=set(aliases)).floor_id
    for key, (name, floor, aliases) in AREAS.items():
        home.areas[key] = area_reg.async_create(
            name, floor_id=home.floors[floor], aliases=set(aliases)
        ).id
    source = MockConfigEntry(domain=PLATFORM)
    source.add_to_hass(hass)
    for object_id, area, name, aliases, state, attributes in ENTITIES:
        domain, _, unique = object_id.partition(".")
        device = dev_reg.async_get_or_create(
            config_entry_id=source.entry_id, identifiers={(PLATFORM, object_id)}, name=name
        )
        dev_reg.async_update_device(device.id, area_id=home.areas[area])
        entry = ent_reg.async_get_or_create(
            domain, PLATFORM, unique, suggested_object_id=unique, device_id=device.id
        )
        if aliases:
            # Newer HAs (2026.10) make an entity's own name one of its (ordered) aliases, which
            # Assist matches instead of the state's name: keep it, as HA's dialog does.
            names = (*entry.aliases, *aliases)
            ent_reg.async_update_entity(entry.entity_id, aliases=type(entry.aliases)(names))
        hass.states.async_set(entry.entity_id, state, {"friendly_name": name, **attributes})
        async_expose_entity(hass, "conversation", entry.entity_id, True)
        home.entities[object_id] = entry.entity_id
    satellite = dev_reg.async_get_or_create(
        config_entry_id=source.entry_id, identifiers={(PLATFORM, "satellite")}, name="Satellite"
    )
    dev_reg.async_update_device(satellite.id, area_id=home.areas[SATELLITE_AREA])
    home.satellite_device_id = satellite.id
    home.satellite_entity_id = ent_reg.async_get_or_create(
        "assist_satellite", PLATFORM, "satellite", device_id=satellite.id
    ).entity_id
    await hass.async_block_till_done()
    return home

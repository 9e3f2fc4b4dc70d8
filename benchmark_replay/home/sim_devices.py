"""The simulated home's devices as their integrations would register them in HA.

Areas, one HA device per ``device`` key (a plug: switch and meter), registry entries with
their class, unit and area, and the static attributes each entity carries.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.helpers import (
    area_registry as ar,
    device_registry as dr,
    entity_registry as er,
)

from ..monitor_entry import user_entry
from .scenario import Scenario
from .scenario_schema import CELSIUS, FAHRENHEIT

PLATFORM = "home_benchmark"  # registry platform of the simulated devices
CLIMATE_LIMITS = {
    CELSIUS: {"min_temp": 7, "max_temp": 35},
    FAHRENHEIT: {"min_temp": 45, "max_temp": 95},
}


def base_attributes(scenario: Scenario) -> dict[str, dict[str, Any]]:
    """Static attributes of every simulated entity (name, class, unit...)."""
    attributes: dict[str, dict[str, Any]] = {}
    unit = scenario.data["home"]["temperature_unit"]
    for entity in scenario.data["home"]["entities"]:
        entity_id = entity["entity_id"]
        attrs: dict[str, Any] = {
            "friendly_name": entity.get("name")
            or entity_id.partition(".")[2].replace("_", " ").capitalize()
        }
        if entity.get("device_class"):
            attrs["device_class"] = entity["device_class"]
        if entity.get("unit"):
            attrs["unit_of_measurement"] = entity["unit"]
            attrs["state_class"] = "measurement"
        if entity_id.startswith("climate."):
            attrs |= {"hvac_modes": ["off", "heat", "cool"]} | CLIMATE_LIMITS[unit]
        attributes[entity_id] = attrs | dict(entity["attributes"])
    for person in scenario.data["home"]["persons"]:
        name = person.get("name") or person["id"].capitalize()
        tracker = person.get("tracker") or f"device_tracker.{person['id']}_phone"
        attributes[f"person.{person['id']}"] = {"friendly_name": name, "device_trackers": [tracker]}
        attributes[tracker] = {"friendly_name": f"{name}'s phone", "source_type": "gps"}
    return attributes


async def async_register_home(
    hass: HomeAssistant,
    home: Mapping[str, Any],
    current: Mapping[str, Any],
    base: Mapping[str, Mapping[str, Any]],
) -> None:
    """Areas, devices and registry entries, as the devices' integrations create them."""
    devices = await _async_devices(hass, home)
    areas = ar.async_get(hass)
    area_ids = {
        name: (areas.async_get_area_by_name(name) or areas.async_create(name)).id
        for name in home["areas"]
    }
    registry = er.async_get(hass)
    declared = {e["entity_id"]: e for e in home["entities"]}
    for entity_id in current:
        domain, _, object_id = entity_id.partition(".")
        spec = declared.get(entity_id, {})
        entry = registry.async_get_or_create(
            domain,
            PLATFORM,
            entity_id,
            suggested_object_id=object_id,
            original_device_class=spec.get("device_class"),
            original_name=base.get(entity_id, {}).get("friendly_name"),
            unit_of_measurement=spec.get("unit"),
        )
        if entry.entity_id != entity_id:
            raise RuntimeError(f"registry gave {entry.entity_id} for {entity_id}")
        if spec.get("device"):
            registry.async_update_entity(entity_id, device_id=devices[spec["device"]])
        if spec.get("area"):
            registry.async_update_entity(entity_id, area_id=area_ids[spec["area"]])


async def _async_devices(hass: HomeAssistant, home: Mapping[str, Any]) -> dict[str, str]:
    """One HA device per ``device`` key the scenario declares (a plug: switch and meter).

    HA keeps a device only for a config entry: the simulated devices' integration
    gets one (it has no code to set up; the entry and its devices persist as HA's do).
    """
    keys = sorted({e["device"] for e in home["entities"] if e.get("device")})
    if not keys:
        return {}
    owner = user_entry(PLATFORM, "Simulated devices", {})
    await hass.config_entries.async_add(owner)
    registry = dr.async_get(hass)
    return {
        key: registry.async_get_or_create(
            config_entry_id=owner.entry_id, identifiers={(PLATFORM, key)}, name=key
        ).id
        for key in keys
    }

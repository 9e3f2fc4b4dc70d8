"""Build the instruction check's capability model from Home Assistant's own data.

Areas come from the area registry; devices from the device registry (entities without a
device stand alone); what each entity can do from its domain, ``supported_features`` and
state attributes (min/max temperature, humidity range, volume, option lists, …).
"""

from __future__ import annotations

from typing import Any

from homeassistant.const import ATTR_FRIENDLY_NAME, ATTR_SUPPORTED_FEATURES, STATE_UNAVAILABLE
from homeassistant.core import HomeAssistant, State, callback
from homeassistant.helpers import (
    area_registry as ar,
    device_registry as dr,
    entity_registry as er,
)

from ..core.instructions import Area, DeviceCapability, Feature, HomeCapabilities
from ..core.instructions.vocabulary import (
    DEVICE_KINDS,
    kinds_in_name,
    normalize,
)
from .feature_kit import as_options
from .features import BUILDERS

# Kinds a domain implies when the names say nothing more specific.
_DOMAIN_KINDS: dict[str, tuple[str, ...]] = {
    "light": ("light",),
    "fan": ("fan",),
    "humidifier": ("humidifier",),
    "water_heater": ("water_heater",),
    "media_player": ("media_player",),
    "vacuum": ("vacuum",),
    "lock": ("lock",),
    "switch": ("switch",),
}
_COVER_KINDS = {
    "curtain": "curtain",
    "blind": "blinds",
    "shade": "blinds",
    "shutter": "blinds",
    "garage": "garage_door",
}


def _default_kinds(state: State) -> set[str]:
    domain = state.domain
    if domain == "cover":
        device_class = str(state.attributes.get("device_class") or "")
        return {_COVER_KINDS[device_class]} if device_class in _COVER_KINDS else {"blinds"}
    if domain == "climate":
        modes = as_options(state.attributes.get("hvac_modes"))
        return {"air_conditioner" if "cool" in modes else "heater", "thermostat"}
    if domain == "humidifier" and state.attributes.get("device_class") == "dehumidifier":
        return {"dehumidifier"}
    return set(_DOMAIN_KINDS.get(domain, ()))


def _strip_prefix(name: str, prefix: str) -> str:
    norm_name, norm_prefix = normalize(name), normalize(prefix)
    if norm_prefix and norm_name.startswith(norm_prefix):
        return norm_name[len(norm_prefix) :].strip()
    return norm_name


@callback
def async_build_home_capabilities(hass: HomeAssistant) -> HomeCapabilities:
    """Snapshot the home's areas, devices and their features. Runs in the event loop."""
    area_reg = ar.async_get(hass)
    dev_reg = dr.async_get(hass)
    ent_reg = er.async_get(hass)
    areas = tuple(Area(a.id, a.name, tuple(sorted(a.aliases))) for a in area_reg.async_list_areas())
    area_names = {a.area_id: a.name for a in areas}

    groups: dict[str, dict[str, Any]] = {}
    for state in hass.states.async_all(tuple(BUILDERS)):
        if state.state == STATE_UNAVAILABLE:
            continue
        entry = ent_reg.async_get(state.entity_id)
        if entry is not None and (entry.disabled_by or entry.hidden_by):
            continue
        device = dev_reg.async_get(entry.device_id) if entry and entry.device_id else None
        area_id = (entry.area_id if entry else None) or (device.area_id if device else None)
        friendly = str(state.attributes.get(ATTR_FRIENDLY_NAME) or state.object_id)[:120]
        key = device.id if device else state.entity_id
        group = groups.setdefault(
            key,
            {
                "name": ((device.name_by_user or device.name) if device else None) or friendly,
                "area_id": area_id,
                "kinds": set(),
                "features": [],
                "states": [],
            },
        )
        group["area_id"] = group["area_id"] or area_id
        group["states"].append((state, friendly))

    devices: list[DeviceCapability] = []
    for key, group in groups.items():
        name = str(group["name"])[:120]
        area_name = area_names.get(group["area_id"], "")
        kinds: set[str] = kinds_in_name(_strip_prefix(name, area_name))
        features: list[Feature] = []
        for state, friendly in group["states"]:
            rest = _strip_prefix(_strip_prefix(friendly, name), area_name)
            supported = int(state.attributes.get(ATTR_SUPPORTED_FEATURES) or 0)
            features.extend(BUILDERS[state.domain](state, supported, rest))
            if not kinds:
                kinds |= kinds_in_name(_strip_prefix(friendly, area_name))
        if not kinds:
            for state, _friendly in group["states"]:
                kinds |= _default_kinds(state)
        kinds &= set(DEVICE_KINDS)
        if features:
            devices.append(
                DeviceCapability(key, name, group["area_id"], frozenset(kinds), tuple(features))
            )
    return HomeCapabilities(areas, tuple(devices))

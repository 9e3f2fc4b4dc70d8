"""The entities whose normal is learned, and what each one is (never its name)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from homeassistant.core import HomeAssistant

from ..core.models import EntityInfo
from ..live.context_builder import can_be_located
from ..live.watcher import StateWatcher


def followed_ids(hass: HomeAssistant, watcher: StateWatcher) -> list[str]:
    """The watched entities and the persons (who is home is followed, watched or not),
    but for a person HA cannot locate (``can_be_located``: onboarding's owner without a
    tracker), watched or not, left out as the detectors' window leaves it out."""
    persons = set(hass.states.async_entity_ids("person"))
    return sorted((set(watcher.entity_ids) | persons) - unlocated_persons(hass))


def unlocated_persons(hass: HomeAssistant) -> set[str]:
    """The persons HA cannot locate (``can_be_located``): never followed."""
    return {p.entity_id for p in hass.states.async_all("person") if not can_be_located(p)}


def entity_info(watcher: StateWatcher, entity_id: str, attributes: Mapping[str, Any]) -> EntityInfo:
    """What one entity is, as the baselines learn it."""
    device_class = attributes.get("device_class")
    unit = attributes.get("unit_of_measurement")  # a power meter's W or kW
    return EntityInfo(
        entity_id=entity_id,
        name="",  # names are not needed to learn, and never stored
        area=watcher.areas.get(entity_id),
        device_class=device_class if isinstance(device_class, str) else None,
        unit=unit if isinstance(unit, str) else None,
        # HA's device: a floodlight's motion sensor and lamp are one (learned relations)
        device=watcher.devices.get(entity_id),
        service=entity_id in watcher.services,  # a web service's: no device in the home
    )


def entity_info_now(hass: HomeAssistant, watcher: StateWatcher, entity_id: str) -> EntityInfo:
    """What one entity is, read from its state now (none yet: no attributes)."""
    state = hass.states.get(entity_id)
    return entity_info(watcher, entity_id, state.attributes if state else {})


def followed_infos(hass: HomeAssistant, watcher: StateWatcher) -> list[EntityInfo]:
    """What each followed entity is, for those that have a state now.

    An entity without a state yet (its integration sets up after the monitor, or it is
    created later) is described when its first change is learned (the keeper's catch-up):
    described now, it would stay without its device class for good, and a room sensor or a
    power meter would never be profiled (seen in a live walk: 0 hour profiles).
    """
    infos = []
    for entity_id in followed_ids(hass, watcher):
        state = hass.states.get(entity_id)
        if state is not None:
            infos.append(entity_info(watcher, entity_id, state.attributes))
    return infos

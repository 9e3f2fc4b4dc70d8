"""A lock is named after the door it locks: "lock the front door" finds "Front door lock".

People say it this way, and HA's Assist understands them; main planned nothing (the
templates only knew the lock as "front door lock", and the parser has no lock verbs).
"""

from __future__ import annotations

from typing import Any

from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.helpers import (
    area_registry as ar,
    device_registry as dr,
    entity_registry as er,
)
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.anomaly_monitor.const import DOMAIN
from custom_components.anomaly_monitor.instructions.service import (
    SERVICE_CHECK_INSTRUCTION,
    async_register_instruction_service,
)


def _entity(
    hass: HomeAssistant, entity_id: str, area: str, state: str, name: str, **attributes: Any
) -> None:
    """A device named ``name`` in ``area`` with one entity, exposed to Assist (as a
    homeowner does for a lock: HA does not expose locks by default)."""
    areas = ar.async_get(hass)
    area_id = (areas.async_get_area_by_name(area) or areas.async_create(area)).id
    source = MockConfigEntry(domain="test_home")
    source.add_to_hass(hass)
    devices = dr.async_get(hass)
    device = devices.async_get_or_create(
        config_entry_id=source.entry_id, identifiers={("test_home", entity_id)}, name=name
    )
    devices.async_update_device(device.id, area_id=area_id)
    domain, _, object_id = entity_id.partition(".")
    entry = er.async_get(hass).async_get_or_create(
        domain, "test_home", object_id, suggested_object_id=object_id, device_id=device.id
    )
    assert entry.entity_id == entity_id
    hass.states.async_set(entity_id, state, {"friendly_name": name, **attributes})
    async_expose_entity(hass, "conversation", entity_id, True)


async def _calls(hass: HomeAssistant, instruction: str) -> list[tuple[str, str]]:
    response = await hass.services.async_call(
        DOMAIN,
        SERVICE_CHECK_INSTRUCTION,
        {"instruction": instruction},
        blocking=True,
        return_response=True,
    )
    assert isinstance(response, dict)
    return [(op["service"], op["entity_id"]) for op in response["operations"]]


async def _home(hass: HomeAssistant) -> None:
    hass.config.language = "en"
    assert await async_setup_component(hass, "homeassistant", {})
    async_register_instruction_service(hass)
    _entity(hass, "lock.front_door_lock", "Hallway", "locked", "Front door lock")
    # The door's own contact is called "Front door" too: it is no lock.
    _entity(hass, "binary_sensor.front_door", "Porch", "off", "Front door", device_class="door")
    _entity(hass, "lock.back_door", "Garden", "locked", "Back door")


async def test_a_lock_is_found_by_its_door(hass: HomeAssistant) -> None:
    await _home(hass)
    assert await _calls(hass, "Lock the front door") == [("lock.lock", "lock.front_door_lock")]
    assert await _calls(hass, "unlock the front door") == [("lock.unlock", "lock.front_door_lock")]
    assert await _calls(hass, "lock the front door lock") == [("lock.lock", "lock.front_door_lock")]
    assert await _calls(hass, "lock the back door") == [("lock.lock", "lock.back_door")]


async def test_two_locks_of_one_door_are_not_guessed_between(hass: HomeAssistant) -> None:
    await _home(hass)
    _entity(hass, "lock.front_door_smart_lock", "Study", "locked", "Front door smart lock")
    assert await _calls(hass, "lock the front door") == []
    assert await _calls(hass, "lock the front door smart lock") == [
        ("lock.lock", "lock.front_door_smart_lock")
    ]

"""A lock is named after the door it locks: "lock the front door" finds "Front door lock".

People say it this way, and HA's Assist understands them; main planned nothing (the
templates only knew the lock as "front door lock", and the parser has no lock verbs).
"""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from custom_components.anomaly_monitor.const import DOMAIN
from custom_components.anomaly_monitor.instruction_service import (
    SERVICE_CHECK_INSTRUCTION,
    async_register_instruction_service,
)

from .helpers import put_in_area


def _entity(
    hass: HomeAssistant, entity_id: str, area: str, state: str, name: str, **attributes: Any
) -> None:
    put_in_area(hass, area, entity_id)
    hass.states.async_set(entity_id, state, {"friendly_name": name, **attributes})


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

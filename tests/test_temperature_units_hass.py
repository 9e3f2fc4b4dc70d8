"""A US home in a real Home Assistant (its US customary unit system: thermometers,
thermostats and the weather in °F) is judged as the same home in °C, and told in °F."""

from __future__ import annotations

from typing import Any

from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from homeassistant.util.unit_system import US_CUSTOMARY_SYSTEM

from .helpers import ALICE, LIVING_TEMP, analyze, in_area, set_calm_home, setup_monitor

THERMOSTAT = "climate.living_thermostat"
WEATHER = "weather.home"


def _notifications(hass: HomeAssistant) -> list[dict[str, Any]]:
    from homeassistant.components.persistent_notification import _async_get_or_create_notifications

    return list(_async_get_or_create_notifications(hass).values())


def _us_home(hass: HomeAssistant, room: float, target: float) -> None:
    """The living room reads ``room`` °F; its thermostat heats it towards ``target`` °F;
    30 °F outdoors."""
    hass.config.units = US_CUSTOMARY_SYSTEM
    in_area(hass, LIVING_TEMP, "Living room")
    in_area(hass, THERMOSTAT, "Living room")
    set_calm_home(hass)
    hass.states.async_set(
        WEATHER, "cloudy", {"temperature": 30, "temperature_unit": "°F", "friendly_name": "Home"}
    )
    hass.states.async_set(
        THERMOSTAT,
        "heat",
        {
            "hvac_action": "heating",
            "current_temperature": room,
            "temperature": target,
            "friendly_name": "Living thermostat",
        },
    )


def _read(hass: HomeAssistant, value: float) -> None:
    hass.states.async_set(
        LIVING_TEMP,
        f"{value:g}",
        {"device_class": "temperature", "unit_of_measurement": "°F", "friendly_name": "Living"},
    )


async def test_heating_a_64_f_room_to_70_f_raises_nothing(hass: HomeAssistant) -> None:
    _us_home(hass, 64.0, 70.0)
    hass.states.async_set(THERMOSTAT, "off", {"friendly_name": "Living thermostat"})
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    entry = await setup_monitor(hass, include_entities=[THERMOSTAT, ALICE, LIVING_TEMP, WEATHER])
    _us_home(hass, 63.6, 70.0)  # the heating comes on in the window...
    for value in (63.6, 63.8, 64.0):  # ...and the room warms slowly
        _read(hass, value)
        await hass.async_block_till_done()
    response = await analyze(hass, entry)
    # Read as °C, 64 was a room far too warm to heat (hvac_against_the_room).
    assert response["verdict"]["findings"] == []


async def test_a_thermostat_idling_4_f_under_its_target_is_not_failing(
    hass: HomeAssistant,
) -> None:
    """4 °F is 2.2 °C: within what a thermostat lets a room drift; read as °C, it was
    "not responding" (over 3° under its target)."""
    _us_home(hass, 66.0, 70.0)
    hass.states.async_set(
        THERMOSTAT,
        "heat",
        {"hvac_action": "idle", "current_temperature": 66, "temperature": 70},
    )
    _read(hass, 66.0)
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    entry = await setup_monitor(hass, include_entities=[THERMOSTAT, ALICE, LIVING_TEMP, WEATHER])
    response = await analyze(hass, entry)
    assert response["verdict"]["findings"] == []


async def test_a_40_f_room_with_the_heating_on_is_told_in_f(hass: HomeAssistant) -> None:
    _us_home(hass, 40.0, 70.0)
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    entry = await setup_monitor(hass, include_entities=[THERMOSTAT, ALICE, LIVING_TEMP, WEATHER])
    _read(hass, 40.0)
    response = await analyze(hass, entry)
    await hass.async_block_till_done()
    rules = {f["rule"] for f in response["verdict"]["findings"]}
    assert "room_too_cold" in rules
    assert "hvac_against_the_room" not in rules
    assert "hvac_overshooting_target" not in rules
    messages = " ".join(n["message"] for n in _notifications(hass))
    assert "40 °F" in messages
    assert "°C" not in messages

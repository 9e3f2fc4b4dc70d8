"""Shared set-up: Alice goes out at 10:03 by the front door and leaves it open and unlocked;
the monitor tells "unlocked and open while nobody is home" (walk 45's home, in a real hass)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.persistent_notification import _async_get_or_create_notifications
from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from .helpers import (
    ALICE,
    FRONT_LOCK,
    LIVING_TEMP,
    SMOKE,
    pass_time,
    put_in_area,
    set_calm_home,
    setup_monitor,
)

DOOR = "binary_sensor.front_door"
DOOR_ATTRS = {"device_class": "door", "friendly_name": "Front door"}
LOCK_ATTRS = {"friendly_name": "Front door lock"}
LIVING_ATTRS = {"device_class": "temperature", "unit_of_measurement": "°C"}
MORNING = datetime(2026, 3, 10, 17, 0, tzinfo=dt_util.UTC)  # 10:00 local (US/Pacific)
TOLD_AWAY = "Front door lock is unlocked while nobody is home."


def messages(hass: HomeAssistant) -> list[dict[str, Any]]:
    """The persistent notifications as the homeowner reads them."""
    return [
        {**n, "message": n["message"].replace("\\", "")}
        for n in _async_get_or_create_notifications(hass).values()
    ]


async def left_open_while_away(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, away: timedelta
) -> tuple[ConfigEntry, dict[str, Any]]:
    """Alice out at 10:03:30, the door left open and unlocked; ``away`` later it is told.
    The monitor's entry and the one notification."""
    freezer.move_to(MORNING)
    put_in_area(hass, "Hall", DOOR, FRONT_LOCK)
    set_calm_home(hass)
    hass.states.async_set(FRONT_LOCK, "unlocked", LOCK_ATTRS)
    hass.states.async_set(DOOR, "off", DOOR_ATTRS)
    entry = await setup_monitor(
        hass, learned=True, include_entities=[SMOKE, FRONT_LOCK, DOOR, ALICE, LIVING_TEMP]
    )
    await pass_time(hass, freezer, timedelta(minutes=3))
    hass.states.async_set(DOOR, "on", DOOR_ATTRS)  # 10:03
    await pass_time(hass, freezer, timedelta(seconds=30))
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    await pass_time(hass, freezer, away)
    (told,) = messages(hass)
    assert TOLD_AWAY in told["message"]
    return entry, told

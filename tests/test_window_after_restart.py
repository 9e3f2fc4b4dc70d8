"""After a restart the analysed window holds the recorder's past: a door still open is told."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.components.recorder.common import (
    async_wait_recording_done,
)

from custom_components.anomaly_monitor.const import CONF_HISTORY_DAYS, CONF_INCLUDE_ENTITIES

from .helpers import ALICE, LIVING_TEMP, analyze, set_calm_home, setup_monitor
from .recorder_home import (  # noqa: F401 (fixtures, found by name)
    auto_enable_custom_integrations,
    quiet_sqlalchemy,
    recorder_config,
)

GARAGE = "binary_sensor.garage_door"
GARAGE_DOOR = {"device_class": "garage_door", "friendly_name": "Garage door"}
THERMOSTAT = "climate.living_room"
TEMP_ATTRS = {"device_class": "temperature", "unit_of_measurement": "°C", "friendly_name": "Living"}


async def test_a_door_open_since_before_a_restart_is_still_told(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Seen in a live hass: the garage door open since 06:34 was told at 06:55, HA
    restarted at 06:57, and the anomaly went missing and cleared (the new monitor's window
    began at the restart) while the door stayed open. The window's past now comes from
    the recorder."""
    await hass.config.async_set_time_zone("Europe/Amsterdam")
    freezer.move_to(datetime(2026, 12, 1, 5, 0, tzinfo=UTC))
    set_calm_home(hass)
    hass.states.async_set(GARAGE, "off", GARAGE_DOOR)
    hass.states.async_set(THERMOSTAT, "heat", {"hvac_action": "heating"})
    freezer.move_to(datetime(2026, 12, 1, 5, 34, tzinfo=UTC))  # 06:34 in Amsterdam
    hass.states.async_set(GARAGE, "on", GARAGE_DOOR)
    await async_wait_recording_done(hass)

    freezer.move_to(datetime(2026, 12, 1, 5, 45, tzinfo=UTC))  # the monitor (re)starts
    entry = await setup_monitor(
        hass, **{CONF_INCLUDE_ENTITIES: [GARAGE, ALICE, THERMOSTAT], CONF_HISTORY_DAYS: 0}
    )
    await hass.async_block_till_done(wait_background_tasks=True)
    freezer.move_to(datetime(2026, 12, 1, 5, 55, tzinfo=UTC))
    response = await analyze(hass, entry)
    finding = next(f for f in response["verdict"]["findings"] if f["rule"] == "entry_left_open")
    assert "21 min (from 06:34), and still is" in finding["reasoning"]
    # Only the window's past: nothing older than its length is put back.
    watcher = entry.runtime_data.coordinator.watcher
    held = watcher.buffer.snapshot(datetime.now(UTC))
    oldest = min(t.when for t in held)
    assert oldest >= datetime(2026, 12, 1, 5, 55, tzinfo=UTC) - timedelta(minutes=120)
    # A climate's past reads as the watcher records it: its mode and what it does.
    assert next(t.state for t in held if t.entity_id == THERMOSTAT) == "heat (heating)"


async def test_a_door_open_since_before_a_restart_keeps_its_start_past_the_window(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Walk of session 38: the fridge door open since 09:47 (the recorder's), HA started at
    11:17; once the 120-min window had passed 09:47 the door read "open for 37 min (from
    11:17)": HA's restart set its ``last_changed`` anew. Walk 39: the same with the moment
    of ``unknown`` a real start has. The recorded start is kept."""
    await hass.config.async_set_time_zone("Europe/Amsterdam")
    freezer.move_to(datetime(2026, 12, 1, 5, 0, tzinfo=UTC))
    set_calm_home(hass)
    hass.states.async_set(GARAGE, "off", GARAGE_DOOR)
    freezer.move_to(datetime(2026, 12, 1, 5, 34, tzinfo=UTC))  # 06:34 in Amsterdam
    hass.states.async_set(GARAGE, "on", GARAGE_DOOR)
    await async_wait_recording_done(hass)

    freezer.move_to(datetime(2026, 12, 1, 6, 30, tzinfo=UTC))  # HA restarts: set anew,
    hass.states.async_set(GARAGE, "unknown", GARAGE_DOOR)  # unknown while it loads (walk 39)
    freezer.move_to(datetime(2026, 12, 1, 6, 30, 1, tzinfo=UTC))
    hass.states.async_set(GARAGE, "on", GARAGE_DOOR)
    await async_wait_recording_done(hass)
    assert hass.states.get(GARAGE).last_changed == datetime(2026, 12, 1, 6, 30, 1, tzinfo=UTC)
    freezer.move_to(datetime(2026, 12, 1, 6, 30, 20, tzinfo=UTC))  # the monitor comes up
    watched = [GARAGE, ALICE, LIVING_TEMP]
    entry = await setup_monitor(hass, **{CONF_INCLUDE_ENTITIES: watched, CONF_HISTORY_DAYS: 0})
    await hass.async_block_till_done(wait_background_tasks=True)
    for minutes in (10, 70, 130):  # the window (120 min) passes 06:34 at 08:34
        freezer.move_to(datetime(2026, 12, 1, 6, 30, tzinfo=UTC) + timedelta(minutes=minutes))
        hass.states.async_set(LIVING_TEMP, str(20 + minutes / 100), TEMP_ATTRS)  # a home lives on
        response = await analyze(hass, entry)
        finding = next(f for f in response["verdict"]["findings"] if f["rule"] == "entry_left_open")
        assert "(from 06:34), and still is" in finding["reasoning"], finding["reasoning"]

"""The rows a restart writes are learned: the recorder's history read at start waits for
the recorder to write what it still holds (walk 31: a kettle's run went on across a
restart that the recorder had seen end)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.components.recorder.common import (
    async_wait_recording_done,
)

from .recorder_home import (  # noqa: F401 (fixtures, found by name)
    auto_enable_custom_integrations,
    quiet_sqlalchemy,
    setup_learning_monitor,
)

DOOR = "binary_sensor.back_door"
DOOR_ATTRS = {"device_class": "door", "friendly_name": "Back door"}


@pytest.fixture
def recorder_config() -> dict[str, Any]:
    """The recorder as HA runs it: rows are written to the database every few seconds,
    so the last ones before a start are still in its queue (the clock is frozen here: the
    recorder writes only when asked)."""
    return {"commit_interval": 5}


@pytest.fixture
def persistent_database() -> bool:
    """A database file, as HA runs it (the in-memory one is locked while rows wait)."""
    return True


async def test_the_rows_written_at_a_restart_are_learned(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The back door open when the monitor stopped; while HA started again it came back
    shut (``unknown`` first, as a template sensor does at a start), before the monitor
    followed it. The history read at start learns it as the live stream would have: the
    door's learned spell is shut, not open since before the restart, and so is the
    analysed window read back from the recorder."""
    await hass.config.async_set_time_zone("Europe/Brussels")
    today = dt_util.start_of_local_day()
    freezer.move_to(today + timedelta(hours=8))
    hass.states.async_set(DOOR, "off", DOOR_ATTRS)
    freezer.move_to(today + timedelta(hours=8, minutes=30))
    hass.states.async_set(DOOR, "on", DOOR_ATTRS)
    await async_wait_recording_done(hass)
    freezer.move_to(today + timedelta(hours=8, minutes=31))
    entry = await setup_learning_monitor(hass, [DOOR])
    durations = entry.runtime_data.baselines.baselines.durations
    assert durations.current[DOOR][0] == "on"
    # (a stale spell: the door open for ever, judged as such by every door check)

    freezer.move_to(today + timedelta(hours=8, minutes=40))
    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    # HA comes back: the states it writes while it starts, not yet in the database.
    freezer.move_to(today + timedelta(hours=8, minutes=41))
    hass.states.async_set(DOOR, "unknown", DOOR_ATTRS)
    freezer.move_to(today + timedelta(hours=8, minutes=41, seconds=2))
    hass.states.async_set(DOOR, "off", DOOR_ATTRS)
    await hass.async_block_till_done()

    freezer.move_to(today + timedelta(hours=8, minutes=41, seconds=3))
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    keeper = entry.runtime_data.baselines
    assert keeper.history_status == "loaded"
    durations = keeper.baselines.durations
    assert durations.current[DOOR][0] == "off"
    # The analysed window read back from the recorder ends with it too: shut, not open.
    window = entry.runtime_data.coordinator.watcher.buffer.snapshot(dt_util.utcnow())
    assert [t.state for t in window if t.entity_id == DOOR][-1] == "off"

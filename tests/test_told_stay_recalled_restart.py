"""The stay told while nobody was home, recalled once it ended, is not told again after a
restart (walk of session 48; ``anomalies/told_stay_recalled.py``): the recorder's history
read at the start holds the stay still."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.const import EVENT_HOMEASSISTANT_STARTED
from homeassistant.core import CoreState, HomeAssistant
from pytest_homeassistant_custom_component.components.recorder.common import (
    async_wait_recording_done,
)

from .helpers import ALICE, FRONT_LOCK, LIVING_TEMP, pass_time
from .left_open_while_away import (
    DOOR,
    DOOR_ATTRS,
    LIVING_ATTRS,
    LOCK_ATTRS,
    left_open_while_away,
    messages,
)
from .recorder_home import (  # noqa: F401 - fixtures
    auto_enable_custom_integrations,
    quiet_sqlalchemy,
    recorder_config,
)


async def test_the_recalled_stay_is_not_told_again_after_a_restart(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Over, the door shut and locked, Alice home; HA restarts at 10:58 with the stay still
    in the rule's window: main pushed the recall as new, "Front door left open", "stayed
    open for 30 min (from 10:03)" (walk of session 48)."""
    _, told = await left_open_while_away(hass, freezer, timedelta(minutes=30))
    title = str(told["title"])
    hass.states.async_set(DOOR, "off", DOOR_ATTRS)
    hass.states.async_set(FRONT_LOCK, "locked", LOCK_ATTRS)
    hass.states.async_set(ALICE, "home", {"friendly_name": "Alice"})
    for minute in range(20):
        hass.states.async_set(LIVING_TEMP, f"{21.5 + minute / 10:.1f}", LIVING_ATTRS)
        await pass_time(hass, freezer, timedelta(minutes=1))
    (note,) = messages(hass)
    assert note["title"] == f"Over: {title}"
    (entry,) = hass.config_entries.async_entries("anomaly_monitor")
    await async_wait_recording_done(hass)
    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    hass.set_state(CoreState.starting)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    freezer.tick(timedelta(seconds=2))
    hass.set_state(CoreState.running)
    hass.bus.async_fire(EVENT_HOMEASSISTANT_STARTED)
    for minute in range(10):
        hass.states.async_set(LIVING_TEMP, f"{23.5 - minute / 10:.1f}", LIVING_ATTRS)
        await pass_time(hass, freezer, timedelta(minutes=1))
    assert [n["title"] for n in messages(hass)] == [f"Over: {title}"]

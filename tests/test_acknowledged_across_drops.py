"""An acknowledged problem stays acknowledged while its device drops off the radio.

The front door is left unlocked while everybody is out; the homeowner acknowledged it.
The lock's Zigbee link drops for five minutes and comes back, still unlocked: the drop
said nothing about the door, so the anomaly neither closes nor is told again (on main it
closed two minutes into the drop and opened anew, told again, at the return). It ends
when the lock reads locked.
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_capture_events

from custom_components.anomaly_monitor.const import EVENT_ANOMALY_CLEARED, EVENT_ANOMALY_DETECTED

from .helpers import ALICE, FRONT_LOCK, analyze, set_calm_home, setup_monitor

LOCK_ATTRS = {"friendly_name": "Front door"}


async def _told_unlocked_while_away(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> MockConfigEntry:
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    await _step(hass, freezer, entry, timedelta(minutes=1), "unlocked")
    return entry


async def _step(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    entry: MockConfigEntry,
    span: timedelta,
    lock: str | None = None,
) -> None:
    if lock is not None:
        hass.states.async_set(FRONT_LOCK, lock, LOCK_ATTRS)
    freezer.tick(span)
    await analyze(hass, entry)
    await hass.async_block_till_done()


async def test_an_acknowledged_anomaly_outlives_its_device_dropping_off(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    cleared = async_capture_events(hass, EVENT_ANOMALY_CLEARED)
    entry = await _told_unlocked_while_away(hass, freezer)
    coordinator = entry.runtime_data.coordinator
    (told,) = detected
    coordinator.async_acknowledge(told.data["anomaly_id"])

    for _ in range(3):  # two drops of five minutes, each back still unlocked
        await _step(hass, freezer, entry, timedelta(minutes=1), "unavailable")
        for _ in range(4):
            await _step(hass, freezer, entry, timedelta(minutes=1, seconds=10))
        await _step(hass, freezer, entry, timedelta(minutes=1), "unlocked")
        await _step(hass, freezer, entry, timedelta(minutes=3))
    assert len(detected) == 1
    assert cleared == []
    (anomaly,) = coordinator.tracker.open.values()
    assert anomaly.key == told.data["anomaly_id"]
    assert anomaly.acknowledged

    await _step(hass, freezer, entry, timedelta(minutes=1), "locked")  # it ends as usual
    for _ in range(3):
        await _step(hass, freezer, entry, timedelta(minutes=1, seconds=10))
    assert coordinator.tracker.open == {}
    assert len(cleared) == 1
    assert len(detected) == 1


async def test_evidence_that_returns_reading_otherwise_ends_it(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Locked while the lock was out of reach: it ends once the lock says so."""
    cleared = async_capture_events(hass, EVENT_ANOMALY_CLEARED)
    entry = await _told_unlocked_while_away(hass, freezer)
    await _step(hass, freezer, entry, timedelta(minutes=1), "unavailable")
    for _ in range(10):
        await _step(hass, freezer, entry, timedelta(minutes=1, seconds=10))
    assert cleared == []  # unreadable is not over
    await _step(hass, freezer, entry, timedelta(minutes=1), "locked")
    for _ in range(3):
        await _step(hass, freezer, entry, timedelta(minutes=1, seconds=10))
    assert len(cleared) == 1

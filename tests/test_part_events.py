"""A part's events: a part of an incident told fires no ``anomaly_detected`` of its own,
and so no ``anomaly_cleared`` either, even once it has outlived its incident.

Smoke told with nobody home, the front door opened in answer (a part: shown in the smoke's
notification, no event). The smoke clears: the door, still open, stands alone (shown on
its own, still not pushed). Then the door is shut: its end fired ``anomaly_cleared`` for
an anomaly no automation had heard of (``orphans`` cleared ``part_of``, which was all the
cleared event asked). Now the end of what was told, and only that, is on the bus: the
same across a restart while the door stands alone.
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import Event, HomeAssistant
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_capture_events

from custom_components.anomaly_monitor.anomalies.open_anomaly import DETECTOR_CLEAR_AFTER
from custom_components.anomaly_monitor.const import EVENT_ANOMALY_CLEARED, EVENT_ANOMALY_DETECTED

from .helpers import FRONT_LOCK, SMOKE, analyze
from .test_incident_parts_shown import DOOR, _smoke_then_door

# Three analyses this far apart end a detector's hazard (``DETECTOR_CLEAR_AFTER``).
_STEP = DETECTOR_CLEAR_AFTER / 2 + timedelta(seconds=10)


async def _settle(
    hass: HomeAssistant, entry: MockConfigEntry, freezer: FrozenDateTimeFactory
) -> None:
    for _ in range(3):  # past the hysteresis
        freezer.tick(_STEP)
        await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)


async def _smoke_over_door_still_open(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> MockConfigEntry:
    entry = await _smoke_then_door(hass)
    hass.states.async_set(SMOKE, "off", {"device_class": "smoke", "friendly_name": "Kitchen smoke"})
    await _settle(hass, entry, freezer)
    tracker = entry.runtime_data.coordinator.tracker
    (door,) = tracker.open.values()  # the smoke is over; the door stands alone
    assert door.part_of == ""
    assert DOOR in door.signature or FRONT_LOCK in door.signature
    return entry


async def _shut_the_door(
    hass: HomeAssistant, entry: MockConfigEntry, freezer: FrozenDateTimeFactory
) -> None:
    hass.states.async_set(DOOR, "off", {"device_class": "door", "friendly_name": "Front door"})
    hass.states.async_set(FRONT_LOCK, "locked", {"friendly_name": "Front door lock"})
    await _settle(hass, entry, freezer)
    assert not entry.runtime_data.coordinator.tracker.open


def _told(events: list[Event]) -> list[str]:
    return [event.data["anomaly_id"] for event in events]


@pytest.mark.parametrize("restart", [False, True], ids=["running", "restarted alone"])
async def test_a_part_outliving_its_incident_ends_without_an_event(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, restart: bool
) -> None:
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    cleared = async_capture_events(hass, EVENT_ANOMALY_CLEARED)
    entry = await _smoke_over_door_still_open(hass, freezer)
    assert len(detected) == 1  # the smoke
    assert _told(cleared) == _told(detected)  # the smoke's end
    if restart:  # while the door stands alone
        assert await hass.config_entries.async_reload(entry.entry_id)
        await hass.async_block_till_done(wait_background_tasks=True)
        (door,) = entry.runtime_data.coordinator.tracker.open.values()
        assert not door.on_the_bus  # kept across the restart
    await _shut_the_door(hass, entry, freezer)
    assert len(detected) == 1
    assert _told(cleared) == _told(detected)  # the door's end is no event: it was never one

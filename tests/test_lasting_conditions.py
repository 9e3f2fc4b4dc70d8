"""An anomaly lasts while its condition lasts, however long that is.

The garage door stood open all afternoon: told after 15 minutes, its anomaly cleared two
hours after the door opened, with the door still open (the opening had slid out of the
analysed window, and the door's spell with it). The door's spell is read from its state
when the window holds no change of it.
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import Event, HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_capture_events

from custom_components.anomaly_monitor.const import EVENT_ANOMALY_CLEARED, EVENT_ANOMALY_DETECTED

from .helpers import ALICE, FRONT_LOCK, LIVING_TEMP, SMOKE, analyze, set_calm_home, setup_monitor

GARAGE = "binary_sensor.garage_door"
GARAGE_ATTRS = {"device_class": "garage_door", "friendly_name": "Garage door"}


def _living_room_reads(hass: HomeAssistant, step: int) -> None:
    """The rest of the home goes on (a thermometer reports)."""
    attrs = dict(hass.states.get(LIVING_TEMP).attributes)
    hass.states.async_set(LIVING_TEMP, f"{21 + (step % 3) / 10:.1f}", attrs)


async def _garage_opened(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> tuple[MockConfigEntry, list[Event], list[Event]]:
    """A monitor past its cold start, watching the garage door, which opens 5 min in: the
    entry and the captured detected and cleared events."""
    hass.states.async_set(GARAGE, "off", GARAGE_ATTRS)
    entry = await setup_monitor(
        hass, learned=True, include_entities=[SMOKE, FRONT_LOCK, ALICE, GARAGE]
    )
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    cleared = async_capture_events(hass, EVENT_ANOMALY_CLEARED)
    freezer.tick(timedelta(minutes=5))
    hass.states.async_set(GARAGE, "on", GARAGE_ATTRS)
    return entry, detected, cleared


async def test_an_open_garage_door_stays_an_anomaly_while_it_is_open(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    set_calm_home(hass)  # somebody is home: only "left open" judges the door
    entry, detected, cleared = await _garage_opened(hass, freezer)
    for step in range(20):  # five hours, an analysis every 15 minutes
        freezer.tick(timedelta(minutes=15))
        _living_room_reads(hass, step)
        await analyze(hass, entry)
        await hass.async_block_till_done()
    assert [e.data["rule"] for e in detected] == ["entry_left_open"]
    assert cleared == []
    (anomaly,) = entry.runtime_data.coordinator.tracker.open.values()
    assert "and still is" in anomaly.reasoning
    assert anomaly.magnitude is not None
    assert anomaly.magnitude > 4 * 60

    hass.states.async_set(GARAGE, "off", GARAGE_ATTRS)  # closed: it ends, in time
    for step in range(12):
        freezer.tick(timedelta(minutes=15))
        _living_room_reads(hass, step)
        await analyze(hass, entry)
        await hass.async_block_till_done()
    assert len(cleared) == 1


async def test_a_quiet_night_does_not_end_it(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Nothing at all changes for hours (everybody asleep): an analysis of a window without
    a single change judges nothing new, so the open door is neither ended nor told again
    in the morning."""
    set_calm_home(hass)
    entry, detected, cleared = await _garage_opened(hass, freezer)
    for step in range(28):  # 1 h of evening, 4 h of night, 2 h of morning
        freezer.tick(timedelta(minutes=15))
        if step < 4 or step >= 20:
            _living_room_reads(hass, step)
        await analyze(hass, entry)
        await hass.async_block_till_done()
    assert [e.data["rule"] for e in detected] == ["entry_left_open"]
    assert cleared == []

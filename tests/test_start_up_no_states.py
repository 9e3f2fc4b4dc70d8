"""Devices that read no state while HA starts get their offline grace; an outage told before
a restart stays one anomaly across it.

At start HA writes restored registry entities ``unavailable`` until their integration loads
(Zigbee, Z-Wave, cloud integrations: tens of seconds to minutes) and template entities
``unknown`` for a moment, often before the monitor is set up. The monitor's first analysis
took such a device as offline since before its window (a snapshot's offline device), and
told it at once (an experiment with every device ``unknown`` for 1 s after each restart of
the home benchmark: 197 false alarms). Here a real hass without a recorder, started as HA
starts: states written, the monitor set up, HA started.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.const import EVENT_HOMEASSISTANT_STARTED
from homeassistant.core import CoreState, Event, HomeAssistant
import pytest
from pytest_homeassistant_custom_component.common import (
    async_capture_events,
    async_fire_time_changed,
)

from custom_components.anomaly_monitor.const import (
    CONF_INCLUDE_ENTITIES,
    EVENT_ANOMALY_CLEARED,
    EVENT_ANOMALY_DETECTED,
)

from .helpers import ALICE, FRONT_LOCK, setup_monitor

KITCHEN_SMOKE = "binary_sensor.kitchen_smoke"
HALL_MOTION = "binary_sensor.hall_motion"
LANDING_SMOKE = "binary_sensor.landing_smoke"  # stays unavailable
LANDING_MOTION = "binary_sensor.landing_motion"  # stays unavailable
DEVICES = {
    KITCHEN_SMOKE: {"device_class": "smoke", "friendly_name": "Kitchen smoke"},
    HALL_MOTION: {"device_class": "motion", "friendly_name": "Hall motion"},
    LANDING_SMOKE: {"device_class": "smoke", "friendly_name": "Landing smoke"},
    LANDING_MOTION: {"device_class": "motion", "friendly_name": "Landing motion"},
}
WATCHED = [*DEVICES, FRONT_LOCK, ALICE]
# As HA writes an entity of the registry whose integration has not loaded yet.
RESTORED = {"restored": True}


async def _pass(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, span: timedelta, step: int = 5
) -> None:
    """Let ``span`` go by in steps of ``step`` s, firing every timer that falls due."""
    for _ in range(int(span.total_seconds() // step)):
        freezer.tick(timedelta(seconds=step))
        async_fire_time_changed(hass)
        await hass.async_block_till_done(wait_background_tasks=True)


def _home(hass: HomeAssistant, unavailable: set[str]) -> None:
    """The home's states as HA writes them at start (``unavailable``: not loaded yet)."""
    hass.states.async_set(FRONT_LOCK, "locked", {"friendly_name": "Front door"})
    hass.states.async_set(ALICE, "home", {"friendly_name": "Alice"})
    for entity_id, attributes in DEVICES.items():
        if entity_id in unavailable:
            hass.states.async_set(entity_id, "unavailable", attributes | RESTORED)
        else:
            hass.states.async_set(entity_id, "off", attributes)


async def _started(hass: HomeAssistant) -> None:
    """HA has started: the monitor's first analysis runs."""
    hass.set_state(CoreState.running)
    hass.bus.async_fire(EVENT_HOMEASSISTANT_STARTED)
    await hass.async_block_till_done(wait_background_tasks=True)


def _told(events: list[Event[Any]]) -> list[tuple[str, str]]:
    return [(e.data["rule"], e.data["subject"]) for e in events]


async def test_devices_unavailable_at_start_get_their_grace(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Four devices read ``unavailable`` before the monitor is set up; two come up 40 s
    later and are never told; the smoke detector that stays offline is told once its 15
    minutes have passed (counted from when HA wrote the state), not at the first analysis;
    the motion sensor that dropped with it joins that outage once its 30 have passed."""
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    hass.set_state(CoreState.starting)
    _home(hass, unavailable=set(DEVICES))
    freezer.tick(timedelta(seconds=5))  # other integrations load
    entry = await setup_monitor(hass, learned=True, **{CONF_INCLUDE_ENTITIES: WATCHED})
    freezer.tick(timedelta(seconds=3))
    await _started(hass)
    assert entry.runtime_data.coordinator.analyses == 1
    assert _told(detected) == []

    await _pass(hass, freezer, timedelta(seconds=30))  # 40 s after HA wrote them
    for entity_id in (KITCHEN_SMOKE, HALL_MOTION):
        hass.states.async_set(entity_id, "off", DEVICES[entity_id])
    await _pass(hass, freezer, timedelta(minutes=14, seconds=10))  # 14 min 50 s
    assert _told(detected) == []

    # The landing smoke's grace is over: analysed then (and the change debounce, 10 s).
    await _pass(hass, freezer, timedelta(seconds=30))
    assert _told(detected) == [("device_unavailable", LANDING_SMOKE)]
    await _pass(hass, freezer, timedelta(minutes=14, seconds=40))  # 29 min 58 s
    assert len(detected) == 1
    await _pass(hass, freezer, timedelta(seconds=30))
    # The motion sensor's 30 min have passed too; it dropped at the same moment as the
    # smoke detector, so it is the same outage: named in that anomaly, not told again.
    assert len(detected) == 1
    (anomaly,) = entry.runtime_data.coordinator.tracker.open.values()
    assert anomaly.evidence == [LANDING_SMOKE, LANDING_MOTION]
    assert "Landing smoke, Landing motion went offline together" in anomaly.reasoning


@pytest.mark.parametrize(
    "restored_at_start",
    [False, True],
    ids=["unavailable-before-setup", "restored-once-ha-starts"],
)
async def test_an_outage_told_before_a_restart_stays_one_anomaly_across_it(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, restored_at_start: bool
) -> None:
    """The landing smoke detector has been offline for 40 min, told at 15, when HA
    restarts; without a recorder the window cannot show that the outage went on. Its
    anomaly stays open, is neither cleared nor told again; once it is back the outage is
    in the window (the past spell, ``device_went_offline``), and it clears when that has
    aged out.

    HA writes it ``unavailable`` either before the monitor is set up (its integration set
    up earlier) or at HA's start (an entity of the registry whose integration is slow).
    """
    _home(hass, unavailable=set())
    entry = await setup_monitor(hass, learned=True, **{CONF_INCLUDE_ENTITIES: WATCHED})
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    cleared = async_capture_events(hass, EVENT_ANOMALY_CLEARED)
    await _pass(hass, freezer, timedelta(minutes=1))
    hass.states.async_set(LANDING_SMOKE, "unavailable", DEVICES[LANDING_SMOKE])
    await _pass(hass, freezer, timedelta(minutes=16))
    assert _told(detected) == [("device_unavailable", LANDING_SMOKE)]
    (signature,) = entry.runtime_data.coordinator.tracker.open

    await _pass(hass, freezer, timedelta(minutes=24))
    assert await hass.config_entries.async_unload(entry.entry_id)  # HA stops
    await hass.async_block_till_done(wait_background_tasks=True)
    freezer.tick(timedelta(seconds=20))
    hass.set_state(CoreState.starting)
    landing = DEVICES[LANDING_SMOKE] | RESTORED
    if restored_at_start:  # no state while the monitor is set up
        hass.states.async_remove(LANDING_SMOKE)
    else:  # a fresh state, as a new HA writes it
        hass.states.async_set(LANDING_SMOKE, "unavailable", landing, force_update=True)
    freezer.tick(timedelta(seconds=5))
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    if restored_at_start:
        hass.states.async_set(LANDING_SMOKE, "unavailable", landing, force_update=True)
    freezer.tick(timedelta(seconds=3))
    await _started(hass)

    await _pass(hass, freezer, timedelta(minutes=20))  # past its grace since the start
    coordinator = entry.runtime_data.coordinator
    assert list(coordinator.tracker.open) == [signature]
    assert len(detected) == 1
    assert cleared == []

    hass.states.async_set(LANDING_SMOKE, "off", DEVICES[LANDING_SMOKE])  # back
    await _pass(hass, freezer, timedelta(minutes=30), step=30)
    assert list(coordinator.tracker.open) == [signature]
    await _pass(hass, freezer, timedelta(hours=2), step=60)  # the window is 2 h
    assert coordinator.tracker.open == {}
    assert len(cleared) == 1
    assert len(detected) == 1

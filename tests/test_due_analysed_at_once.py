"""A limit the last analysis saw coming is analysed when it passes, not a debounce later.

A change is analysed ``SIGNIFICANT_DEBOUNCE`` after it (a burst is judged once). A limit
(a device's grace, a learned stay, a quiet) is one moment the monitor computed itself:
waiting the debounce after it told an hour's open door at 1 h 00 min 11 s, after the
story's own hour.
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import async_capture_events

from custom_components.anomaly_monitor.const import EVENT_ANOMALY_DETECTED, SIGNIFICANT_DEBOUNCE

from .helpers import ALICE, FRONT_LOCK, SMOKE, pass_time, set_calm_home, setup_monitor


async def test_a_grace_ending_is_analysed_at_once(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    set_calm_home(hass)
    entry = await setup_monitor(hass, include_entities=[SMOKE, FRONT_LOCK, ALICE])
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    await pass_time(hass, freezer, timedelta(minutes=1))
    hass.states.async_set(SMOKE, "unavailable", {"device_class": "smoke"})
    dropped = dt_util.utcnow()
    await pass_time(hass, freezer, timedelta(seconds=30))  # the change's own analysis
    due = entry.runtime_data.coordinator._offline_check.due
    assert due is not None
    assert due > dropped + timedelta(minutes=10)  # the grace's end
    await pass_time(hass, freezer, due - dt_util.utcnow() - timedelta(seconds=3))
    assert detected == []  # within the grace
    await pass_time(hass, freezer, timedelta(seconds=4))  # the timer (1 s past), then at once
    (told,) = detected
    assert told.data["rule"] == "device_unavailable"
    assert dt_util.utcnow() - due < SIGNIFICANT_DEBOUNCE


async def test_a_change_still_waits_the_debounce(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Changes in a burst are still gathered: the analysis a change asks for waits."""
    set_calm_home(hass)
    entry = await setup_monitor(hass, include_entities=[SMOKE, FRONT_LOCK, ALICE])
    coordinator = entry.runtime_data.coordinator
    await pass_time(hass, freezer, timedelta(minutes=1))
    analysed = []
    real = coordinator.async_refresh

    async def refresh() -> None:
        analysed.append(dt_util.utcnow())
        await real()

    coordinator.async_refresh = refresh
    hass.states.async_set(FRONT_LOCK, "unlocked", {"friendly_name": "Front door"})
    changed = dt_util.utcnow()
    await pass_time(hass, freezer, timedelta(seconds=5))
    assert analysed == []
    await pass_time(hass, freezer, SIGNIFICANT_DEBOUNCE)
    assert analysed
    assert analysed[0] - changed >= SIGNIFICANT_DEBOUNCE

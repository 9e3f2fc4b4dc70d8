"""A leak that begins within a second of another change is told at once: the safety check
that change began (at most one a second) does not make the hazard wait for its cooldown.

Found by the recorded week (``test_history_week.py``): the database replayed the room's
reading, the thermostat and the leak in the order HA wrote them at one moment, the History
CSV the leak first, and the leak was told 1 s apart."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import async_capture_events

from custom_components.anomaly_monitor.const import EVENT_ANOMALY_DETECTED

from .helpers import FRONT_LOCK, LIVING_TEMP, SMOKE, set_calm_home, setup_monitor

LEAK = "binary_sensor.bathroom_leak"
LEAK_ATTRIBUTES = {"device_class": "moisture", "friendly_name": "Bathroom leak"}


async def test_a_leak_right_after_another_change_is_told_at_once(hass: HomeAssistant) -> None:
    """The lock turns (a safety check runs and its cooldown begins), the leak follows in
    the same instant: the homeowner is told before the clock moves."""
    set_calm_home(hass)
    hass.states.async_set(LEAK, "off", LEAK_ATTRIBUTES)
    await setup_monitor(hass, include_entities=[SMOKE, FRONT_LOCK, LIVING_TEMP, LEAK])
    await hass.async_block_till_done(wait_background_tasks=True)
    told = async_capture_events(hass, EVENT_ANOMALY_DETECTED)

    hass.states.async_set(FRONT_LOCK, "unlocked", {"friendly_name": "Front door"})
    await hass.async_block_till_done(wait_background_tasks=True)
    hass.states.async_set(LEAK, "on", LEAK_ATTRIBUTES)
    await hass.async_block_till_done(wait_background_tasks=True)

    assert [e.data["evidence"] for e in told] == [[LEAK]]


async def test_a_leak_alone_is_told_once(hass: HomeAssistant) -> None:
    """No other change before it: one safety check, one notification."""
    set_calm_home(hass)
    hass.states.async_set(LEAK, "off", LEAK_ATTRIBUTES)
    await setup_monitor(hass, include_entities=[SMOKE, FRONT_LOCK, LIVING_TEMP, LEAK])
    await hass.async_block_till_done(wait_background_tasks=True)
    told = async_capture_events(hass, EVENT_ANOMALY_DETECTED)

    hass.states.async_set(LEAK, "on", LEAK_ATTRIBUTES)
    await hass.async_block_till_done(wait_background_tasks=True)

    assert [e.data["evidence"] for e in told] == [[LEAK]]


async def test_a_flapping_hazard_sensor_costs_few_checks(hass: HomeAssistant) -> None:
    """A hazard sensor flapping 200 times in one instant (a faulty contact): its first
    alarm is checked at once, the rest within the once-a-second limit; not 200 checks."""
    set_calm_home(hass)
    hass.states.async_set(LEAK, "off", LEAK_ATTRIBUTES)
    entry = await setup_monitor(hass, include_entities=[SMOKE, FRONT_LOCK, LIVING_TEMP, LEAK])
    await hass.async_block_till_done(wait_background_tasks=True)
    coordinator = entry.runtime_data.coordinator
    checks = 0
    check = coordinator._async_safety_check

    async def counted() -> None:
        nonlocal checks
        checks += 1
        await check()

    coordinator._async_safety_check = counted
    told = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    for _ in range(200):
        hass.states.async_set(LEAK, "on", LEAK_ATTRIBUTES)
        hass.states.async_set(LEAK, "off", LEAK_ATTRIBUTES)
    hass.states.async_set(LEAK, "on", LEAK_ATTRIBUTES)
    await hass.async_block_till_done(wait_background_tasks=True)

    assert checks <= 3
    assert [e.data["evidence"] for e in told] == [[LEAK]]

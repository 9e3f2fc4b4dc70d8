"""One fire, several smoke detectors: told once, naming every room it reached.

Smoke from the kitchen reaches the hall detector a minute later (a student flat's pan
fire, a cottage's CO through two floors). The homeowner's phone heard of it the moment the
first detector sounded; the second is the same fire, added to that notification in place.
Two leaks are two leaks: each is told.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.persistent_notification import _async_get_or_create_notifications
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import (
    async_capture_events,
    async_mock_service,
)

from custom_components.anomaly_monitor.const import CONF_NOTIFY, EVENT_ANOMALY_DETECTED

from .helpers import SMOKE, analyze, pass_time, put_in_area, set_calm_home, setup_monitor

HALL_SMOKE = "binary_sensor.hall_smoke"
BATH_LEAK = "binary_sensor.bath_leak"
SINK_LEAK = "binary_sensor.sink_leak"
# Late morning in the test time zone (US/Pacific).
MORNING = datetime(2026, 3, 10, 18, 0, tzinfo=dt_util.UTC)


async def test_smoke_reaching_a_second_detector_is_the_same_fire(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Kitchen smoke: one push. The hall detector a minute later: no second push, the
    notification names both rooms. A second leak elsewhere is told on its own."""
    freezer.move_to(MORNING)
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    put_in_area(hass, "Kitchen", SMOKE, SINK_LEAK)
    put_in_area(hass, "Hall", HALL_SMOKE)
    put_in_area(hass, "Bathroom", BATH_LEAK)
    set_calm_home(hass)
    smoke = {"device_class": "smoke"}
    leak = {"device_class": "moisture"}
    hass.states.async_set(HALL_SMOKE, "off", smoke | {"friendly_name": "Hall smoke"})
    hass.states.async_set(BATH_LEAK, "off", leak | {"friendly_name": "Bath leak"})
    hass.states.async_set(SINK_LEAK, "off", leak | {"friendly_name": "Sink leak"})
    pushes = async_mock_service(hass, "notify", "phone")
    entry = await setup_monitor(
        hass,
        include_entities=[SMOKE, HALL_SMOKE, BATH_LEAK, SINK_LEAK],
        **{CONF_NOTIFY: ["notify.phone"]},
    )
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    await pass_time(hass, freezer, timedelta(minutes=10))

    async def sound(first: str, second: str, attributes: dict[str, str]) -> None:
        """``first`` goes off, ``second`` 70 s later."""
        hass.states.async_set(first, "on", attributes)
        await analyze(hass, entry)
        await pass_time(hass, freezer, timedelta(seconds=70))
        hass.states.async_set(second, "on", attributes)
        await analyze(hass, entry)
        await pass_time(hass, freezer, timedelta(seconds=30))

    await sound(SMOKE, HALL_SMOKE, smoke)
    assert len(pushes) == 1
    assert len(detected) == 1
    messages = [n["message"] for n in _async_get_or_create_notifications(hass).values()]
    assert any("Kitchen and Hall" in m for m in messages), messages

    # The kitchen clears, the hall still sounds: the same fire, no new incident.
    hass.states.async_set(SMOKE, "off", smoke)
    await analyze(hass, entry)
    await pass_time(hass, freezer, timedelta(minutes=5))
    await analyze(hass, entry)
    assert len(detected) == 1

    await sound(BATH_LEAK, SINK_LEAK, leak)
    assert len(detected) == 3  # each leak told


async def test_heat_after_smoke_is_the_same_fire(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Hall smoke, then the kitchen's heat alarm 90 s later (set 4's pan fire): one push,
    the notification names the heat too. A CO alarm is another hazard: told."""
    freezer.move_to(MORNING)
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    kitchen_heat, hall_co = "binary_sensor.kitchen_heat", "binary_sensor.hall_co"
    put_in_area(hass, "Kitchen", kitchen_heat)
    put_in_area(hass, "Hall", HALL_SMOKE, hall_co)
    set_calm_home(hass)
    hass.states.async_set(HALL_SMOKE, "off", {"device_class": "smoke"})
    hass.states.async_set(kitchen_heat, "off", {"device_class": "heat"})
    hass.states.async_set(hall_co, "off", {"device_class": "carbon_monoxide"})
    pushes = async_mock_service(hass, "notify", "phone")
    entry = await setup_monitor(
        hass,
        include_entities=[HALL_SMOKE, kitchen_heat, hall_co],
        **{CONF_NOTIFY: ["notify.phone"]},
    )
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    await pass_time(hass, freezer, timedelta(minutes=10))

    hass.states.async_set(HALL_SMOKE, "on", {"device_class": "smoke"})
    await analyze(hass, entry)
    await pass_time(hass, freezer, timedelta(seconds=90))
    hass.states.async_set(kitchen_heat, "on", {"device_class": "heat"})
    await analyze(hass, entry)
    await pass_time(hass, freezer, timedelta(seconds=30))
    assert len(pushes) == 1
    assert len(detected) == 1
    messages = [n["message"] for n in _async_get_or_create_notifications(hass).values()]
    assert any("Smoke and heat detected in Hall and Kitchen" in m for m in messages), messages

    hass.states.async_set(hall_co, "on", {"device_class": "carbon_monoxide"})
    await analyze(hass, entry)
    await pass_time(hass, freezer, timedelta(seconds=30))
    assert len(detected) == 2

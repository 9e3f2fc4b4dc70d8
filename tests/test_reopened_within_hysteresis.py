"""A door opened while nobody is home, closed, and opened again within the clear
hysteresis says so, as a reopening after it does (issue 27, walk 10).

The first opening was pushed as a security event. Closed, its anomaly waits two minutes
before it is over (a sensor that flickers must not end it); opened again within them,
the second opening joined the open incident without a word. Either way the notification
says "Opened again". Within minutes of the first push it is that entry still: the
notification changes in place and the phone is not pushed twice for one door (session
56); an opening once that episode is over is pushed again.
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.persistent_notification import _async_get_or_create_notifications
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import async_capture_events, async_mock_service

from custom_components.anomaly_monitor.const import CONF_NOTIFY, EVENT_ANOMALY_DETECTED

from .helpers import (
    ALICE,
    LIVING_TEMP,
    analyze,
    pass_time,
    put_in_area,
    set_calm_home,
    setup_monitor,
)
from .test_break_in_as_walked import _step

DOOR = "binary_sensor.back_door"
DOOR_ATTRS = {"device_class": "door", "friendly_name": "Back door"}


async def test_a_door_reopened_within_the_hysteresis_says_so_pushed_once_past_the_episode(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    put_in_area(hass, "Kitchen", DOOR)
    set_calm_home(hass)
    hass.states.async_set(DOOR, "off", DOOR_ATTRS)
    pushes = async_mock_service(hass, "notify", "phone")
    entry = await setup_monitor(
        hass, include_entities=[DOOR, ALICE, LIVING_TEMP], **{CONF_NOTIFY: ["notify.phone"]}
    )
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    await pass_time(hass, freezer, timedelta(minutes=20))

    hass.states.async_set(DOOR, "on", DOOR_ATTRS)
    await _step(hass, freezer, entry, 60)
    assert len(pushes) == 1, [c.data["title"] for c in pushes]
    assert detected[-1].data["anomaly_type"] == "security"
    hass.states.async_set(DOOR, "off", DOOR_ATTRS)
    await _step(hass, freezer, entry, 30)  # closed for well under the two minutes
    hass.states.async_set(DOOR, "on", DOOR_ATTRS)
    await _step(hass, freezer, entry, 30)
    await analyze(hass, entry)
    titles = [c.data["title"] for c in pushes]
    assert len(pushes) == 1, titles  # the same entry, a minute after its push
    (note,) = [
        n for n in _async_get_or_create_notifications(hass).values() if "Back door" in n["title"]
    ]
    assert note["title"].startswith("Opened again: "), note["title"]
    assert len({e.data["anomaly_id"] for e in detected}) == 1

    # Left open past a quarter of an hour after the push, closed, opened again: pushed.
    for _ in range(15):
        await _step(hass, freezer, entry, 60)
    hass.states.async_set(DOOR, "off", DOOR_ATTRS)
    await _step(hass, freezer, entry, 30)
    hass.states.async_set(DOOR, "on", DOOR_ATTRS)
    await _step(hass, freezer, entry, 30)
    await analyze(hass, entry)
    titles = [c.data["title"] for c in pushes]
    assert len(pushes) == 2, titles
    assert titles[-1].startswith("Opened again: "), titles
    assert detected[-1].data["escalation"] == "reopened"
    assert len({e.data["anomaly_id"] for e in detected}) == 1  # one incident, told twice

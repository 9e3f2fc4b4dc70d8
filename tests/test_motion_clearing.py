""" "Now motion in …" leaves the title as soon as the motion clears (issue 27): it reads
"Motion in … at 10:21: …" from then on (walk 56).

Motion clearing is no significant change: the title kept "Now motion in Living Room" until
the next periodic analysis, up to a quarter of an hour after the motion ended. Now the
notification follows at once, without an analysis, an event or a push.
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import async_capture_events, async_mock_service

from custom_components.anomaly_monitor.const import CONF_NOTIFY, EVENT_ANOMALY_DETECTED

from .helpers import ALICE, LIVING_TEMP, pass_time, put_in_area, set_calm_home, setup_monitor
from .test_break_in_as_walked import MOTION, MOTION_ATTRS, WINDOW, WINDOW_ATTRS, _note, _step

WINDOW_TITLE = "Living room window opened while nobody is home"


async def test_now_motion_goes_when_the_motion_clears_without_an_analysis(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    put_in_area(hass, "Living Room", WINDOW, MOTION)
    set_calm_home(hass)
    hass.states.async_set(WINDOW, "off", WINDOW_ATTRS)
    hass.states.async_set(MOTION, "off", MOTION_ATTRS)
    pushes = async_mock_service(hass, "notify", "phone")
    entry = await setup_monitor(
        hass,
        include_entities=[WINDOW, MOTION, ALICE, LIVING_TEMP],
        **{CONF_NOTIFY: ["notify.phone"]},
    )
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    await pass_time(hass, freezer, timedelta(minutes=20))
    hass.states.async_set(WINDOW, "on", WINDOW_ATTRS)
    await _step(hass, freezer, entry, 90)
    hass.states.async_set(MOTION, "on", MOTION_ATTRS)
    await _step(hass, freezer, entry, 60)
    assert _note(hass)["title"].startswith("Now motion in Living Room: ")
    told, events = len(pushes), len(detected)
    runs = entry.runtime_data.coordinator.analyses

    hass.states.async_set(MOTION, "off", MOTION_ATTRS)
    await hass.async_block_till_done()
    # In the past, as told (walk 56: the title the phone read was gone from the notice).
    at = dt_util.as_local(detected[-1].time_fired).strftime("%H:%M")
    assert _note(hass)["title"] == f"Motion in Living Room at {at}: {WINDOW_TITLE}"
    assert entry.runtime_data.coordinator.analyses == runs  # no analysis for it
    assert (len(pushes), len(detected)) == (told, events)  # nothing told

"""A night light passing its limit is analysed then, not at the next periodic analysis.

Rose's bathroom light stays on five minutes on her night trips. Tonight she goes in at
03:20 and nothing moves after: a possible fall, due once the light has been on 30 min
with nobody seen for 20. The monitor analyses every hour here; before, nothing asked for
an analysis at the limit and the fall waited for the next periodic one (up to the whole
interval: a quarter of an hour by default). A safety matter is told within 2 min.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant, State
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import (
    async_capture_events,
    async_fire_time_changed,
)

from custom_components.anomaly_monitor.const import (
    CONF_INTERVAL,
    CONF_PROFILE,
    EVENT_ANOMALY_DETECTED,
)

from .helpers import pass_time, setup_monitor
from .test_daily_rhythm import (
    ATTRIBUTES,
    BATH_LIGHT,
    BED,
    HALL,
    ROSE,
    ZONE,
    _rules_at,
)
from .test_night_light_without_motion import home_without_bathroom_motion


async def _at(hass: HomeAssistant, freezer: FrozenDateTimeFactory, when: datetime) -> None:
    """Time passes in minute steps to ``when``, the timers firing as it does."""
    now = dt_util.utcnow()
    while now < when:
        now = min(when, now + timedelta(minutes=1))
        freezer.move_to(now)
        async_fire_time_changed(hass, now)
        await hass.async_block_till_done(wait_background_tasks=True)


def _set(hass: HomeAssistant, *changes: Any) -> None:
    for entity_id, state in changes:
        hass.states.async_set(entity_id, state, ATTRIBUTES[entity_id])


async def _bathroom_trip(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, trip: datetime
) -> None:
    """To the bathroom at ``trip``, the light on 20 s later; nothing moves after."""
    await _at(hass, freezer, trip)
    _set(hass, (BED, "on"), (HALL, "on"))
    await _at(hass, freezer, trip + timedelta(seconds=20))
    _set(hass, (BATH_LIGHT, "on"))
    await _at(hass, freezer, trip + timedelta(seconds=50))
    _set(hass, (BED, "off"), (HALL, "off"))


async def test_a_fall_is_told_within_two_minutes_of_the_light_passing_its_limit(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    _, today = await home_without_bathroom_motion(hass, freezer, **{CONF_INTERVAL: 60})
    trip = today + timedelta(hours=3, minutes=20)
    await _bathroom_trip(hass, freezer, trip)
    await _at(hass, freezer, trip + timedelta(minutes=29))
    assert [e.data["rule"] for e in detected] == []
    limit = trip + timedelta(seconds=20, minutes=30)
    await _at(hass, freezer, limit - timedelta(seconds=30))
    await pass_time(hass, freezer, timedelta(minutes=2))  # the timer, then its analysis
    (fall,) = [e.data for e in detected if "light_on_long_at_night" in e.data["rule"]]
    assert fall["evidence"][0] == BATH_LIGHT


async def test_a_fall_is_still_told_when_a_tracker_leaves_the_home_after(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Rose home when the light went on; her phone then reads away (it dropped out of the
    wifi, or somebody took it): the light still on, nobody moving, is still a fall."""
    entry, today = await home_without_bathroom_motion(hass, freezer, ROSE, **{CONF_INTERVAL: 60})
    trip = today + timedelta(hours=3, minutes=20)
    await _bathroom_trip(hass, freezer, trip)
    await _at(hass, freezer, trip + timedelta(minutes=25))
    hass.states.async_set(ROSE, "not_home", {"friendly_name": "Rose", "device_trackers": ["x"]})
    rules = await _rules_at(hass, freezer, entry, trip + timedelta(minutes=40))
    assert rules["light_on_long_at_night"]["evidence"][0] == BATH_LIGHT


async def test_which_lights_switched_on_ask_for_an_analysis(hass: HomeAssistant) -> None:
    """In the small hours, any light (a fall's); in the day, only with pets in an empty
    home (who switched it on tells a person from the dog). Walk 12's first version asked
    for none in the day, and a family's intruder upstairs went untold."""
    await hass.config.async_set_time_zone(ZONE)
    hass.states.async_set(ROSE, "not_home", {"friendly_name": "Rose", "device_trackers": ["x"]})
    entry = await setup_monitor(hass, **{CONF_PROFILE: "Rose and her dog Toby."})
    watcher = entry.runtime_data.coordinator.watcher
    today = dt_util.start_of_local_day(dt_util.now())

    def light_on(hours: float) -> State:
        return State(BATH_LIGHT, "on", last_changed=today + timedelta(hours=hours))

    assert watcher._is_significant(light_on(3), "off")
    assert watcher._is_significant(light_on(11), "off")  # the empty home, a dog in it
    hass.states.async_set(ROSE, "home", {"friendly_name": "Rose", "device_trackers": ["x"]})
    assert watcher._is_significant(light_on(3), "off")
    assert not watcher._is_significant(light_on(11), "off")
    assert not watcher._is_significant(light_on(3), "on")  # already on


async def test_a_sensor_of_moments_going_on_asks_for_an_analysis(hass: HomeAssistant) -> None:
    """A mat (class vibration, or none) going on sets the timer for its limit now: a
    seizure cannot wait for the periodic analysis. Motion while people are home does not
    ask, nor a mat already on."""
    await hass.config.async_set_time_zone(ZONE)
    hass.states.async_set(ROSE, "home", {"friendly_name": "Rose", "device_trackers": ["x"]})
    entry = await setup_monitor(hass)
    watcher = entry.runtime_data.coordinator.watcher
    mat, hall = "binary_sensor.bed_2", "binary_sensor.hall"
    assert watcher._is_significant(State(mat, "on", {"device_class": "vibration"}), "off")
    assert watcher._is_significant(State(mat, "on"), "off")
    assert not watcher._is_significant(State(mat, "on"), "on")
    assert not watcher._is_significant(State(mat, "off"), "on")
    assert not watcher._is_significant(State(hall, "on", {"device_class": "motion"}), "off")

"""Home Assistant's start, read from hass and handed to the tracker (``live.start_moment``).

Set up while HA starts, the span runs from the earliest state HA holds until HA says it
has started; set up by a reload while HA runs, it is the earliest state's moment alone.
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.const import EVENT_HOMEASSISTANT_STARTED
from homeassistant.core import CoreState, HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.live.start_moment import async_follow_ha_start


async def test_the_start_lasts_until_home_assistant_has_started(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    hass.set_state(CoreState.starting)
    booted = dt_util.utcnow()
    hass.states.async_set("binary_sensor.front_door", "off")
    freezer.tick(timedelta(seconds=30))
    hass.states.async_set("switch.boiler_relay", "on")  # an integration slower to come up
    tracker = AnomalyTracker(hass, "start")
    undo = async_follow_ha_start(hass, tracker)
    span = tracker.ha_start
    assert span is not None
    assert span.began == booted
    assert span.ended is None
    assert span.holds(booted + timedelta(seconds=50))  # still starting: any state set now
    freezer.tick(timedelta(seconds=20))
    hass.set_state(CoreState.running)
    hass.bus.async_fire(EVENT_HOMEASSISTANT_STARTED)
    await hass.async_block_till_done()
    span = tracker.ha_start
    assert span is not None
    assert span.ended == booted + timedelta(seconds=50)
    assert span.holds(booted + timedelta(seconds=30))
    assert not span.holds(booted + timedelta(minutes=5))  # a change after the start is real
    undo()


async def test_a_reload_while_running_knows_only_the_first_moment(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    booted = dt_util.utcnow()
    hass.states.async_set("binary_sensor.front_door", "off")
    freezer.tick(timedelta(hours=2))
    hass.states.async_set("switch.boiler_relay", "on")
    tracker = AnomalyTracker(hass, "reload")
    async_follow_ha_start(hass, tracker)()
    span = tracker.ha_start
    assert span is not None
    assert span.began == span.ended == booted
    assert not span.holds(booted + timedelta(hours=2))

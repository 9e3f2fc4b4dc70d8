"""A nightly run that stopped part-way, in a real hass (issue 24, set 7's dialysis cycler).

A plug's meter (its id and name say nothing of what it powers) drew from about 22:15 to
07:25 on the home's first night. On the second night the run begins at 22:20 as before
and falls to 0 W at 02:55: the power strip was knocked off. On main nothing was told
(the hours idle were learned on one night only, and every device was still being learned,
so only a safety matter would have been pushed). Now it is pushed within a quarter of an
hour of the stop, though the monitor analyses only every hour here (the glue asks for an
analysis when the meter has been idle long enough), with the meter as evidence.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
    async_fire_time_changed,
)

from custom_components.anomaly_monitor.const import (
    CONF_INCLUDE_ENTITIES,
    CONF_INTERVAL,
    DOMAIN,
    EVENT_ANOMALY_DETECTED,
)
from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.models import EntityInfo
from custom_components.anomaly_monitor.recorder.baseline_store import baseline_store

from .helpers import monitor_options

ZONE = "Europe/Lisbon"
PLUG = "sensor.shellyplusplugs_e86beae1f2a4_power"
PERSON = "person.manuel"
ATTRS = {"device_class": "power", "unit_of_measurement": "W", "friendly_name": "Plug power"}


def _first_night(yesterday: datetime) -> HomeBaselines:
    """The home watched since yesterday 00:00: one run, 22:15 to 07:25, idle at 6 W."""
    baselines = HomeBaselines(dt_util.get_default_time_zone())
    baselines.describe([EntityInfo(PLUG, "Plug power", device_class="power", unit="W")])
    baselines.observe(yesterday, PERSON, "home")
    readings = [
        (yesterday, "6.0"),
        (yesterday + timedelta(hours=22, minutes=15), "182"),
        (yesterday + timedelta(hours=22, minutes=55), "11"),
        (yesterday + timedelta(hours=31, minutes=25), "6.0"),
    ]
    moment = yesterday
    while moment <= yesterday + timedelta(hours=46):
        for when, state in readings:
            if moment - timedelta(minutes=15) < when <= moment:
                baselines.observe(when, PLUG, state)
        baselines.advance(moment)
        moment += timedelta(minutes=15)
    return baselines


async def _at(hass: HomeAssistant, freezer: FrozenDateTimeFactory, when: datetime) -> None:
    """Time passes in minute steps to ``when``, the timers firing as it does."""
    now = dt_util.utcnow()
    while now < when:
        now = min(when, now + timedelta(minutes=1))
        freezer.move_to(now)
        async_fire_time_changed(hass, now)
        await hass.async_block_till_done(wait_background_tasks=True)


async def test_a_nightly_run_that_stopped_part_way_is_pushed_within_a_quarter_hour(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    await hass.config.async_set_time_zone(ZONE)
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    today = dt_util.start_of_local_day(dt_util.now())
    yesterday = today - timedelta(days=1)
    freezer.move_to(today + timedelta(hours=22))
    hass.states.async_set(PERSON, "home", {"friendly_name": "Manuel"})
    hass.states.async_set(PLUG, "6.0", ATTRS)
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="Home",
        options=monitor_options(**{CONF_INCLUDE_ENTITIES: [PLUG, PERSON], CONF_INTERVAL: 60}),
    )
    entry.add_to_hass(hass)
    await baseline_store(hass, entry.entry_id).async_save(_first_night(yesterday).as_dict())
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()

    await _at(hass, freezer, today + timedelta(hours=22, minutes=20))
    hass.states.async_set(PLUG, "175", ATTRS)
    await _at(hass, freezer, today + timedelta(hours=23))
    hass.states.async_set(PLUG, "12", ATTRS)
    stop = today + timedelta(hours=26, minutes=55)  # 02:55
    await _at(hass, freezer, stop)
    hass.states.async_set(PLUG, "0.0", ATTRS)
    await _at(hass, freezer, stop + timedelta(minutes=14))
    assert [e.data["rule"] for e in detected] == []
    await _at(hass, freezer, stop + timedelta(minutes=17))
    (told,) = [e.data for e in detected if "meter_run_cut_short" in e.data["rules"]]
    assert told["evidence"][0] == PLUG
    assert "since 02:55" in told["reasoning"]
    assert "stopped part-way" in told["reasoning"]
    assert "still being learned" not in told["reasoning"]

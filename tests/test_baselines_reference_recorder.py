"""The learned reference in a real hass fed from the recorder: a bedroom creeping away
from its hours, and a fridge plug drawing far above its learned range."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar, entity_registry as er
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_fire_time_changed
from pytest_homeassistant_custom_component.components.recorder.common import (
    async_wait_recording_done,
)

from custom_components.anomaly_monitor.const import (
    CONF_HISTORY_DAYS,
    CONF_INCLUDE_ENTITIES,
    CONF_USE_EXPOSED,
    DOMAIN,
)

from .helpers import analyze
from .recorder_home import (  # noqa: F401 (fixtures, found by name)
    auto_enable_custom_integrations,
    quiet_sqlalchemy,
    recorder_config,
)

BEDROOM = "sensor.bedroom_temperature"
PLUG = "sensor.kitchen_plug_power"  # a fridge, by a name that says nothing
TEMPERATURE = {"device_class": "temperature", "unit_of_measurement": "°C"}
POWER = {"device_class": "power", "unit_of_measurement": "W"}
DRIFT = "reading_drifting_from_its_hours"
ABOVE = "power_above_its_learned_range"
FIRING = "sensor_firing_far_above_its_hour"


def usual(moment: datetime) -> float:
    """The bedroom: 18.5 °C, 21 °C in the evening, a little scatter from day to day."""
    base = 21.0 if 19 <= moment.hour < 23 else 18.5
    return base + (moment.toordinal() % 3 - 1) * 0.2


async def _record_history(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, today: datetime
) -> None:
    """Eight days of both sensors; today's morning, and the bedroom warming from 08:00."""
    moment = today - timedelta(days=8)
    while moment < today + timedelta(hours=10, minutes=5):
        freezer.move_to(moment)
        local = dt_util.as_local(moment)
        if moment >= today + timedelta(hours=8):  # the valve opened: a degree an hour
            reading = 18.5 + (moment - today - timedelta(hours=8)) / timedelta(hours=1) + 1
        else:
            reading = usual(local)
        hass.states.async_set(BEDROOM, f"{reading:.1f}", TEMPERATURE)
        if moment.minute == 0:  # the fridge runs 20 min an hour
            hass.states.async_set(PLUG, f"{85 + local.hour % 3}.0", POWER)
        else:
            hass.states.async_set(PLUG, "1.5", POWER)
        moment += timedelta(minutes=20 if moment.minute == 0 else 10 if moment.minute == 20 else 30)
        if moment.hour == 0 and moment.minute == 0:
            await async_wait_recording_done(hass)
    await async_wait_recording_done(hass)


async def test_drift_and_power_beyond_the_learned_reference_are_told(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Learned on start from eight days of recorder history.

    The bedroom (no thermostat) averages about 20, 21, 22 °C in the hours from 08:00,
    where every morning read 18.3-18.7: at 10:05 two closed hours are not yet a drift;
    once the 10:00 hour is closed (the baselines' tick at 11:20) it is told, and the band
    test (four hours each 2 °C beyond every day) is still silent. The plug (87 W at most
    in eight days) draws 190 W from 10:10: not told at 10:35, told at 10:45.
    """
    await hass.config.async_set_time_zone("Europe/Brussels")
    today = dt_util.start_of_local_day(dt_util.now() - timedelta(days=1))
    await _record_history(hass, freezer, today)

    freezer.move_to(today + timedelta(hours=10, minutes=5))
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="Home",
        options={
            CONF_USE_EXPOSED: False,
            CONF_INCLUDE_ENTITIES: [BEDROOM, PLUG],
            CONF_HISTORY_DAYS: 14,
        },
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    keeper = entry.runtime_data.baselines
    assert keeper is not None
    assert keeper.history_status == "loaded"
    assert keeper.baselines.profiles.days_learned(BEDROOM) >= 8

    rules = [f["rule"] for f in (await analyze(hass, entry))["verdict"]["findings"]]
    assert DRIFT not in rules
    assert ABOVE not in rules

    freezer.move_to(today + timedelta(hours=10, minutes=10))
    hass.states.async_set(PLUG, "190.0", POWER)  # the defrost heater stuck on
    await hass.async_block_till_done()
    freezer.move_to(today + timedelta(hours=10, minutes=30))
    hass.states.async_set(BEDROOM, "22.5", TEMPERATURE)
    async_fire_time_changed(hass)
    await hass.async_block_till_done()
    freezer.move_to(today + timedelta(hours=10, minutes=35))
    async_fire_time_changed(hass)
    await hass.async_block_till_done()
    rules = [f["rule"] for f in (await analyze(hass, entry))["verdict"]["findings"]]
    assert ABOVE not in rules  # 25 minutes

    freezer.move_to(today + timedelta(hours=10, minutes=45))
    async_fire_time_changed(hass)
    await hass.async_block_till_done()
    findings = (await analyze(hass, entry))["verdict"]["findings"]
    power = next(f for f in findings if f["rule"] == ABOVE)
    assert power["evidence"] == [PLUG]
    assert "has drawn 190 W for 35 min, since 10:10" in power["reasoning"]
    assert "(87 W;" in power["reasoning"]

    for minutes in (5, 20):  # the baselines close an hour at their next 15-minute tick
        freezer.move_to(today + timedelta(hours=11, minutes=minutes))
        async_fire_time_changed(hass)
        await hass.async_block_till_done()
    findings = (await analyze(hass, entry))["verdict"]["findings"]
    drift = next(f for f in findings if f["rule"] == DRIFT)
    assert drift["evidence"] == [BEDROOM]
    assert "reads 22.5 °C: since 08:00 its temperature has crept above" in drift["reasoning"]
    assert "reading_off_its_hours" not in [f["rule"] for f in findings]


async def test_a_sensor_firing_through_the_night_is_told_against_its_learned_hours(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Fifteen days in the recorder of a hallway sensor seeing someone twice an hour from
    07:00 to 23:00, never at night. Tonight it fires 40 times from 03:00, alone: told at
    04:00 (its area is never active at those hours), and not half an hour in."""
    hall = "binary_sensor.hall_motion"
    motion = {"device_class": "motion"}
    await hass.config.async_set_time_zone("Europe/Brussels")
    today = dt_util.start_of_local_day(dt_util.now() - timedelta(days=1))
    registry = er.async_get(hass)
    created = registry.async_get_or_create(
        "binary_sensor", "test", "hall", suggested_object_id="hall_motion"
    )
    assert created.entity_id == hall
    registry.async_update_entity(hall, area_id=ar.async_get(hass).async_create("Hallway").id)
    hass.states.async_set(hall, "off", motion)
    for day in range(15, 0, -1):
        morning = today - timedelta(days=day) + timedelta(hours=7)
        for minute in range(0, 16 * 60, 30):
            freezer.move_to(morning + timedelta(minutes=minute))
            hass.states.async_set(hall, "on", motion)
            freezer.move_to(morning + timedelta(minutes=minute + 1))
            hass.states.async_set(hall, "off", motion)
        await async_wait_recording_done(hass)

    freezer.move_to(today + timedelta(hours=2, minutes=55))
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="Home",
        options={CONF_USE_EXPOSED: False, CONF_INCLUDE_ENTITIES: [hall], CONF_HISTORY_DAYS: 30},
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    for i in range(40):  # every 90 s, 20 s on
        freezer.move_to(today + timedelta(hours=3, seconds=90 * i + 5))
        hass.states.async_set(hall, "on", motion)
        freezer.move_to(today + timedelta(hours=3, seconds=90 * i + 25))
        hass.states.async_set(hall, "off", motion)
        await hass.async_block_till_done()
        if i == 19:  # half an hour in: 20 onsets, not yet worth a look
            rules = [f["rule"] for f in (await analyze(hass, entry))["verdict"]["findings"]]
            assert FIRING not in rules
    freezer.move_to(today + timedelta(hours=4))
    async_fire_time_changed(hass)
    await hass.async_block_till_done()
    findings = (await analyze(hass, entry))["verdict"]["findings"]
    finding = next(f for f in findings if f["rule"] == FIRING)
    assert finding["evidence"] == [hall]
    assert "went on 40 times in the last hour" in finding["reasoning"]
    assert "Hallway usually has about 0.0 an hour (learned over 14 days)" in finding["reasoning"]

"""A milk tank left warm, in a real hass (issue 24, set 8's dairy farm).

The monitor has watched a probe (its id and name say nothing of what it measures) for five
days: 3.6-3.7 °C all night, 14.8 °C for the half hour the warm milk goes in at 06:25 and
cooled back under 4 °C by 09:00; every second day the tank is washed at 10:40 (31 °C for
half an hour, then 14 and 10.5 °C). Today the refrigeration does not start: 14.9 °C from
06:25, 15.6 °C from 07:00. On main nothing was told (no reading outside its range, and a
tank is no room). Now it is told once it has held at or above 14.9 °C for twice the
longest it ever did (the wash's half hour), naming the probe; the usual milking is not.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
)

from custom_components.anomaly_monitor.const import EVENT_ANOMALY_DETECTED
from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.models import EntityInfo

from .helpers import ALICE, SMOKE, analyse_every_5_min, setup_calm_home_with

PROBE = "sensor.node_7f_temperature"
ATTRS = {"device_class": "temperature", "unit_of_measurement": "°C", "friendly_name": "Node 7f"}
TODAY = datetime(2027, 2, 26, tzinfo=dt_util.UTC)  # Dublin keeps UTC in February
MILKING = ((25, "14.8"), (60, "11.2"), (95, "8.9"), (140, "5.9"), (185, "4.1"), (230, "3.7"))
WASH = ((0, "9.5"), (10, "31.0"), (40, "14.0"), (160, "10.5"), (400, "3.6"))


def _learned_days(today: datetime) -> dict[str, Any]:
    baselines = HomeBaselines(dt_util.get_default_time_zone())
    baselines.describe([EntityInfo(PROBE, "", area="Dairy", device_class="temperature", unit="°C")])
    start = today - timedelta(days=5)
    baselines.watching([PROBE, SMOKE, ALICE], start)
    readings = [(start, "3.6")]
    for number in range(5):
        day = start + timedelta(days=number)
        readings += [(day + timedelta(hours=6, minutes=m), v) for m, v in MILKING]
        if number % 2:
            wash = day + timedelta(hours=10, minutes=40)
            readings += [(wash + timedelta(minutes=m), v) for m, v in WASH]
    readings.sort()
    moment, index = start, 0
    while moment < today:
        while index < len(readings) and readings[index][0] <= moment:
            baselines.observe(readings[index][0], PROBE, readings[index][1])
            index += 1
        baselines.advance(moment)
        moment += timedelta(minutes=5)
    return baselines.as_dict()


async def _dairy(hass: HomeAssistant, freezer: FrozenDateTimeFactory) -> MockConfigEntry:
    at = TODAY + timedelta(hours=6)
    sensor = (PROBE, "Dairy", "3.7", ATTRS)
    return await setup_calm_home_with(
        hass, freezer, "Europe/Dublin", at, sensor=sensor, learned=lambda: _learned_days(TODAY)
    )


async def _until(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, entry: MockConfigEntry, minute: int
) -> None:
    """Analysed every 5 min until ``minute`` past 06:00."""
    await analyse_every_5_min(hass, freezer, entry, TODAY + timedelta(hours=6, minutes=minute))


def _held(events: list[Any]) -> list[dict[str, Any]]:
    return [e.data for e in events if "reading_held_far_longer_than_ever" in e.data["rules"]]


async def test_a_tank_left_warm_is_told_and_its_milking_is_not(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    entry = await _dairy(hass, freezer)
    await _until(hass, freezer, entry, 25)
    hass.states.async_set(PROBE, "14.9", ATTRS)
    await _until(hass, freezer, entry, 60)
    hass.states.async_set(PROBE, "15.6", ATTRS)
    await _until(hass, freezer, entry, 80)  # 55 min at or above 14.9 °C
    assert _held(detected) == []
    await _until(hass, freezer, entry, 100)  # 75 min: more than twice the wash's 30
    (told,) = _held(detected)
    assert told["evidence"] == [PROBE]
    assert "at or above 14.9 °C since 06:25" in told["reasoning"]
    assert "never stayed there longer than 30 min" in told["reasoning"]


async def test_the_usual_milking_is_not_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    entry = await _dairy(hass, freezer)
    for minute, value in MILKING:
        await _until(hass, freezer, entry, minute)
        hass.states.async_set(PROBE, value, ATTRS)
    await _until(hass, freezer, entry, 240)
    assert _held(detected) == []
    assert [e.data["rule"] for e in detected] == []

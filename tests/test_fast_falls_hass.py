"""An oil tank siphoned at night, in a real hass (issue 24, set 8's dairy farm).

The monitor has watched a tank's level (no device class, in %; its id and name say nothing
of what it holds) for five days: 60 % at 05:00 and 15:00, 61 % at 10:00 and 20:00 (the
tank's temperature moves the echo). At 02:55 it reads 48, then 31, 17 and 9 % by 03:25:
drained into drums. On main nothing was told (no line crossed, no device class). Now it
is told within minutes of the level holding, naming the level; its daily point is not.
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

LEVEL = "sensor.ultrasonic_4c_level"
ATTRS = {"unit_of_measurement": "%", "friendly_name": "Ultrasonic 4c"}
TODAY = datetime(2027, 3, 3, tzinfo=dt_util.UTC)  # Dublin keeps UTC in March


def _learned_days(today: datetime) -> dict[str, Any]:
    baselines = HomeBaselines(dt_util.get_default_time_zone())
    baselines.describe([EntityInfo(LEVEL, "", area="Yard", unit="%")])
    start = today - timedelta(days=5)
    baselines.watching([LEVEL, SMOKE, ALICE], start)
    for number in range(5):
        day = start + timedelta(days=number)
        for hour, value in ((5, "60"), (10, "61"), (15, "60"), (20, "61")):
            baselines.observe(day + timedelta(hours=hour), LEVEL, value)
        baselines.advance(day + timedelta(hours=23))
    baselines.advance(today)
    return baselines.as_dict()


async def _yard(hass: HomeAssistant, freezer: FrozenDateTimeFactory) -> MockConfigEntry:
    at = TODAY + timedelta(hours=2, minutes=30)
    sensor = (LEVEL, "Yard", "61", ATTRS)
    return await setup_calm_home_with(
        hass, freezer, "Europe/Dublin", at, sensor=sensor, learned=lambda: _learned_days(TODAY)
    )


async def _until(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, entry: MockConfigEntry, minute: int
) -> None:
    """Analysed every 5 min until ``minute`` past 02:30."""
    await analyse_every_5_min(hass, freezer, entry, TODAY + timedelta(hours=2, minutes=30 + minute))


# Told by its fall, or (since session 18) first by the level read far below all it read.
_TANK_RULES = {"level_falling_far_faster_than_ever", "reading_far_beyond_its_range"}


def _fell(events: list[Any]) -> list[dict[str, Any]]:
    return [e.data for e in events if _TANK_RULES & set(e.data["rules"])]


async def test_a_tank_drained_at_night_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    entry = await _yard(hass, freezer)
    for minute, value in ((25, "48"), (35, "31"), (45, "17"), (55, "9")):
        await _until(hass, freezer, entry, minute)
        hass.states.async_set(LEVEL, value, ATTRS)
    await _until(hass, freezer, entry, 70)
    (told,) = _fell(detected)
    assert told["evidence"] == [LEVEL]
    assert (
        "never fell more than 1% in 1 h" in told["reasoning"]
        or "in the 5 days learned it read 60–61 %" in told["reasoning"]
    ), told["reasoning"]


async def test_its_daily_point_is_not_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    entry = await _yard(hass, freezer)
    await _until(hass, freezer, entry, 25)
    hass.states.async_set(LEVEL, "60", ATTRS)
    await _until(hass, freezer, entry, 90)
    assert [e.data["rule"] for e in detected] == []

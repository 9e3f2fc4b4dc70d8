"""Not up, on the third morning the monitor watches an early riser (issue 24).

Walter, 86, is up at 06:20 every weekday. The monitor was set up on Monday afternoon: on
Wednesday he does not get up. Before five mornings were learned only the prior stood
("most households are up by 10:00", told at noon); the mornings already seen say more:
told four hours past the latest of them. A lie-in on the first weekend morning, after
weekday mornings only, is judged by the prior, not by his weekdays.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.anomaly_monitor.const import CONF_INCLUDE_ENTITIES, DOMAIN
from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.models import EntityInfo
from custom_components.anomaly_monitor.recorder.baseline_keeper import baseline_store

from .helpers import monitor_options, put_in_area
from .test_daily_rhythm import _rules_at

ZONE = "America/New_York"
BED = "binary_sensor.bedroom_motion"
HALL = "binary_sensor.hall_motion"
WALTER = "person.walter"
MOTION = {"device_class": "motion"}
AREAS = {BED: "Bedroom", HALL: "Hall"}


async def _watched_since(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, today: datetime, days: int
) -> MockConfigEntry:
    """Watched since the afternoon ``days`` days before ``today``: up at 06:20, about
    every 15 min until 21:15, a toilet trip at 03:40; today the trip, then nothing."""
    for area in sorted(set(AREAS.values())):
        put_in_area(hass, area, *[e for e, a in AREAS.items() if a == area])
    baselines = HomeBaselines(ZoneInfo(ZONE))
    baselines.describe(EntityInfo(e, "", area=a, device_class="motion") for e, a in AREAS.items())
    start = today - timedelta(days=days, hours=-15)
    baselines.watching(dict.fromkeys(AREAS, MOTION), start)
    baselines.observe(start, WALTER, "home")
    events: list[tuple[datetime, str, str]] = []
    for day in range(days + 1):
        midnight = today - timedelta(days=days - day)
        trip = midnight + timedelta(hours=3, minutes=40)
        if day:
            events += [(trip, BED, "on"), (trip + timedelta(minutes=4), BED, "off")]
        if day == days:
            break  # today: he does not get up
        moment = midnight + timedelta(hours=6 if day else 15, minutes=20)
        while moment < midnight + timedelta(hours=21, minutes=15):
            events += [(moment, HALL, "on"), (moment + timedelta(minutes=1), HALL, "off")]
            moment += timedelta(minutes=15)
    for when, entity_id, state in sorted(events):
        baselines.observe(when, entity_id, state, AREAS[entity_id])
    now = today + timedelta(hours=4)
    baselines.advance(now)
    freezer.move_to(now)
    hass.states.async_set(WALTER, "home", {"friendly_name": "Walter"})
    for entity_id in AREAS:
        hass.states.async_set(entity_id, "off", MOTION)
    entry = MockConfigEntry(
        domain=DOMAIN, title="Home", options=monitor_options(**{CONF_INCLUDE_ENTITIES: [*AREAS]})
    )
    entry.add_to_hass(hass)
    await baseline_store(hass, entry.entry_id).async_save(baselines.as_dict())
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


async def test_an_early_riser_not_up_on_his_third_morning_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Wednesday: up at 06:20 on Tuesday (watched since Monday 15:00); at 10:10 not yet,
    at 10:30 told (on main: at noon)."""
    await hass.config.async_set_time_zone(ZONE)
    today = datetime(2026, 1, 21, tzinfo=dt_util.get_default_time_zone())
    entry = await _watched_since(hass, freezer, today, days=2)
    rules = await _rules_at(hass, freezer, entry, today + timedelta(hours=10, minutes=10))
    assert "no_movement_while_home" not in rules
    rules = await _rules_at(hass, freezer, entry, today + timedelta(hours=10, minutes=30))
    finding = rules["no_movement_while_home"]
    assert "on the morning seen so far this household was up by 06:20" in finding["reasoning"]


async def test_a_first_weekend_lie_in_is_judged_by_the_prior(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Saturday, watched since Thursday afternoon (Friday up at 06:20): still in bed at
    11:00 is a weekend lie-in, not told."""
    await hass.config.async_set_time_zone(ZONE)
    today = datetime(2026, 1, 24, tzinfo=dt_util.get_default_time_zone())
    entry = await _watched_since(hass, freezer, today, days=2)
    rules = await _rules_at(hass, freezer, entry, today + timedelta(hours=11))
    assert "no_movement_while_home" not in rules

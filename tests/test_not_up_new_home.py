"""Not up, in a home the monitor watches since yesterday (issue 27, cold start).

Before five mornings are learned nothing said "not up", and the quiet spells' default
counted 12 hours from the last movement: a toilet trip at 05:00 moved the alarm to 17:00.
A cautious prior stands in (``core/baselines/getting_up_prior.py``): nobody up by noon
after a night's rest is told; a day sleeper's rest is not judged.
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

ZONE = "Europe/London"
BED = "binary_sensor.bedroom_motion"
HALL = "binary_sensor.hall_motion"
ROSE = "person.rose"
MOTION = {"device_class": "motion"}
AREAS = {BED: "Bedroom", HALL: "Hall"}


async def _new_home(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, bed: float, last: float
) -> tuple[MockConfigEntry, datetime]:
    """Watched since yesterday afternoon: about until ``bed`` (hours after yesterday's
    midnight), one last movement at ``last`` (hours after today's midnight)."""
    await hass.config.async_set_time_zone(ZONE)
    today = dt_util.start_of_local_day(dt_util.now())
    for area in sorted(set(AREAS.values())):
        put_in_area(hass, area, *[e for e, a in AREAS.items() if a == area])
    baselines = HomeBaselines(ZoneInfo(ZONE))
    baselines.describe(EntityInfo(e, "", area=a, device_class="motion") for e, a in AREAS.items())
    start = today - timedelta(hours=9)  # yesterday 15:00
    baselines.watching(dict.fromkeys(AREAS, MOTION), start)
    baselines.observe(start, ROSE, "home")
    events: list[tuple[datetime, str, str]] = []
    moment = start
    while moment < today - timedelta(hours=24 - bed):
        events += [(moment, HALL, "on"), (moment + timedelta(minutes=1), HALL, "off")]
        moment += timedelta(minutes=15)
    at = today + timedelta(hours=last)
    events += [(at, BED, "on"), (at + timedelta(minutes=2), BED, "off")]
    for when, entity_id, state in events:
        baselines.observe(when, entity_id, state, AREAS[entity_id])
    now = at + timedelta(minutes=5)
    baselines.advance(now)
    freezer.move_to(now)
    hass.states.async_set(ROSE, "home", {"friendly_name": "Rose"})
    for entity_id in AREAS:
        hass.states.async_set(entity_id, "off", MOTION)
    entry = MockConfigEntry(
        domain=DOMAIN, title="Home", options=monitor_options(**{CONF_INCLUDE_ENTITIES: [*AREAS]})
    )
    entry.add_to_hass(hass)
    await baseline_store(hass, entry.entry_id).async_save(baselines.as_dict())
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry, today


async def test_not_up_by_noon_in_a_new_home_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """In bed at 22:30, a toilet trip at 05:00, nothing after: at 11:30 a lie-in, at
    12:10 told (the default limit would wait until 17:00)."""
    entry, today = await _new_home(hass, freezer, bed=22.5, last=5)
    rules = await _rules_at(hass, freezer, entry, today + timedelta(hours=11, minutes=30))
    assert "no_movement_while_home" not in rules
    rules = await _rules_at(hass, freezer, entry, today + timedelta(hours=12, minutes=10))
    finding = rules["no_movement_while_home"]
    assert finding["severity"] == "high"
    assert "most households are up by 10:00" in finding["reasoning"]


async def test_a_day_sleeper_in_a_new_home_is_not_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Home from a night shift, about until 07:00, asleep since: at 13:00 that is her
    night, not a morning she did not get up."""
    entry, today = await _new_home(hass, freezer, bed=31, last=7)
    rules = await _rules_at(hass, freezer, entry, today + timedelta(hours=13))
    assert "no_movement_while_home" not in rules

"""A night light in a room without a motion sensor is judged too (issue 27).

Rose's bathroom light stays on five minutes on her night trips; her bathroom has no
motion sensor (only the bedroom and the hall do). Tonight she goes to the bathroom at
03:20 and nothing moves anywhere after: told as a possible fall. The same trip with her
walking back to bed three minutes later (the light left on) is not.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.anomaly_monitor.const import CONF_INCLUDE_ENTITIES, DOMAIN
from custom_components.anomaly_monitor.recorder.baseline_keeper import baseline_store

from .helpers import monitor_options, put_in_area
from .test_daily_rhythm import (
    AREAS,
    ATTRIBUTES,
    BATH,
    BATH_LIGHT,
    BED,
    HALL,
    ROSE,
    ZONE,
    _lived,
    _rules_at,
    _set,
)

# The bathroom's motion sensor is not watched: the room has none for the monitor.
WATCHED = [e for e in ATTRIBUTES if e != BATH]


async def home_without_bathroom_motion(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, *extra: str, **options: Any
) -> tuple[MockConfigEntry, datetime]:
    """Rose's monitor with its learned fortnight, at 01:00, the bathroom motion unwatched
    (``extra`` entities watched too; ``options`` beside the watched ones)."""
    await hass.config.async_set_time_zone(ZONE)
    today = dt_util.start_of_local_day(dt_util.now())
    for area in sorted(set(AREAS.values())):
        put_in_area(hass, area, *[e for e, a in AREAS.items() if a == area and e != BATH])
    freezer.move_to(today + timedelta(hours=1))
    hass.states.async_set(ROSE, "home", {"friendly_name": "Rose"})
    for entity_id in WATCHED:
        hass.states.async_set(
            entity_id, "0.0" if "power" in entity_id else "off", ATTRIBUTES[entity_id]
        )
    watched = {CONF_INCLUDE_ENTITIES: [*WATCHED, *extra]}
    entry = MockConfigEntry(
        domain=DOMAIN, title="Home", options=monitor_options(**watched, **options)
    )
    entry.add_to_hass(hass)
    learned = _lived(today, timedelta(hours=7))
    learned.advance(today + timedelta(hours=1))
    await baseline_store(hass, entry.entry_id).async_save(learned.as_dict())
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry, today


async def test_the_light_in_a_room_without_motion_on_long_with_nobody_about_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    entry, today = await home_without_bathroom_motion(hass, freezer)
    trip = today + timedelta(hours=3, minutes=20)
    _set(hass, freezer, trip, (BED, "on"), (HALL, "on"))
    _set(hass, freezer, trip + timedelta(seconds=20), (BATH_LIGHT, "on"))
    _set(hass, freezer, trip + timedelta(seconds=50), (BED, "off"), (HALL, "off"))
    rules = await _rules_at(hass, freezer, entry, trip + timedelta(minutes=25))
    assert "light_on_long_at_night" not in rules
    rules = await _rules_at(hass, freezer, entry, trip + timedelta(minutes=40))
    finding = rules["light_on_long_at_night"]
    assert finding["evidence"][0] == BATH_LIGHT
    assert finding["anomaly_type"] == "safety_hazard"
    assert "Bathroom has none" in finding["reasoning"]


async def test_walking_back_to_bed_with_the_light_left_on_is_not_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    entry, today = await home_without_bathroom_motion(hass, freezer)
    trip = today + timedelta(hours=3, minutes=20)
    _set(hass, freezer, trip, (HALL, "on"))
    _set(hass, freezer, trip + timedelta(seconds=20), (BATH_LIGHT, "on"))
    _set(hass, freezer, trip + timedelta(seconds=50), (HALL, "off"))
    _set(hass, freezer, trip + timedelta(minutes=3), (HALL, "on"), (BED, "on"))
    _set(hass, freezer, trip + timedelta(minutes=4), (HALL, "off"), (BED, "off"))
    rules = await _rules_at(hass, freezer, entry, trip + timedelta(minutes=50))
    assert "light_on_long_at_night" not in rules

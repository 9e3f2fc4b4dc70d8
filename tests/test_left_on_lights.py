"""A light this home leaves on with its room still is no sign of a fall at night.

Rose's bathroom light is on five minutes on her 03:00 trips (``test_daily_rhythm``); at
03:20 tonight it goes on and nobody moves after: told as a possible fall. In a home where
the same light was left burning an hour in the evening, nobody under it, the night's
light reads as those evenings did: not told by its light. The learner counts only stays
of half an hour and more whose room was still for their last 20 minutes, begun outside
the small hours.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from unittest.mock import patch
from zoneinfo import ZoneInfo

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.anomaly_monitor.const import CONF_INCLUDE_ENTITIES, DOMAIN
from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.left_on_lights import LeftOnLights
from custom_components.anomaly_monitor.recorder.baseline_store import baseline_store

from .helpers import monitor_options, put_in_area
from .test_daily_rhythm import (
    AREAS,
    ATTRIBUTES,
    BATH,
    BATH_LIGHT,
    BED,
    HOB,
    ROSE,
    ZONE,
    _lived,
    _rules_at,
    _set,
)

LONDON = ZoneInfo(ZONE)
EVENING = datetime(2026, 3, 2, 20, 0, tzinfo=LONDON)


def _stay(
    lights: LeftOnLights, on: datetime, off: datetime, moves: list[datetime], area: str = "Bath"
) -> None:
    lights.moved(on, area)
    lights.light("light.bath", on, "on", area)
    for when in moves:
        lights.moved(when, area)
    lights.light("light.bath", off, "off", area)


def test_a_light_left_burning_with_its_room_still_is_counted() -> None:
    lights = LeftOnLights(LONDON)
    _stay(lights, EVENING, EVENING + timedelta(minutes=40), [EVENING + timedelta(minutes=1)])
    assert lights.times_left("light.bath") == 1


def test_a_light_in_use_a_short_one_or_one_of_the_small_hours_is_not() -> None:
    lights = LeftOnLights(LONDON)
    minutes = [EVENING + timedelta(minutes=m) for m in range(0, 60, 10)]
    _stay(lights, EVENING, EVENING + timedelta(minutes=60), minutes)  # somebody there
    _stay(lights, EVENING, EVENING + timedelta(minutes=25), [])  # not half an hour
    night = EVENING.replace(hour=3)
    _stay(lights, night, night + timedelta(minutes=60), [])  # the night rule's own hours
    assert lights.times_left("light.bath") == 0


def test_a_light_in_a_room_no_sensor_watches_is_not_counted() -> None:
    lights = LeftOnLights(LONDON)
    lights.light("light.bath", EVENING, "on", "Bath")
    lights.light("light.bath", EVENING + timedelta(hours=2), "off", "Bath")
    assert lights.times_left("light.bath") == 0


def test_the_counts_are_kept_and_damaged_ones_dropped() -> None:
    lights = LeftOnLights(LONDON)
    _stay(lights, EVENING, EVENING + timedelta(minutes=40), [])
    again = LeftOnLights.from_dict(lights.as_dict(), LONDON)
    assert again.times_left("light.bath") == 1
    damaged = LeftOnLights.from_dict({"left": {"light.a": "x", "light.b": -1, 3: 2}}, LONDON)
    assert damaged.left == {}


def _forgetful(today: datetime) -> HomeBaselines:
    """Rose's fortnight, and two evenings she left the bathroom light on for 40 minutes
    after a visit there (her bathroom motion saw her go in and out at 20:00)."""
    observe = HomeBaselines.observe
    lived: list[tuple[datetime, str, str, str | None]] = []
    with patch.object(HomeBaselines, "observe", lambda _, *change: lived.append(change)):
        learned = _lived(today, timedelta(hours=7))
    for days in (5, 3):
        at = today - timedelta(days=days) + timedelta(hours=20)
        lived.append((at - timedelta(seconds=5), BATH_LIGHT, "on", AREAS[BATH_LIGHT]))
        lived.append((at + timedelta(minutes=40), BATH_LIGHT, "off", AREAS[BATH_LIGHT]))
    for when, entity_id, state, *area in sorted(lived, key=lambda change: change[0]):
        observe(learned, when, entity_id, state, *area)
    return learned


async def test_a_light_this_home_leaves_on_is_not_told_at_night(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The night of ``test_the_bathroom_light_on_at_night_with_nobody_moving_is_told``
    (told there at 03:55) in the home that leaves that light on: not told."""
    await hass.config.async_set_time_zone(ZONE)
    today = dt_util.start_of_local_day(dt_util.now())
    for area in sorted(set(AREAS.values())):
        put_in_area(hass, area, *[e for e, a in AREAS.items() if a == area])
    freezer.move_to(today + timedelta(hours=1))
    hass.states.async_set(ROSE, "home", {"friendly_name": "Rose"})
    for entity_id, attributes in ATTRIBUTES.items():
        hass.states.async_set(entity_id, "0.0" if entity_id == HOB else "off", attributes)
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="Home",
        options=monitor_options(**{CONF_INCLUDE_ENTITIES: list(ATTRIBUTES)}),
    )
    entry.add_to_hass(hass)
    learned = _forgetful(today)
    assert learned.left_lights.times_left(BATH_LIGHT) == 2
    learned.advance(today + timedelta(hours=1))
    await baseline_store(hass, entry.entry_id).async_save(learned.as_dict())
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    trip = today + timedelta(hours=3, minutes=20)
    _set(hass, freezer, trip, (BED, "on"), (BATH, "on"), (BATH_LIGHT, "on"))
    _set(hass, freezer, trip + timedelta(minutes=3), (BATH, "off"), (BED, "off"))
    rules = await _rules_at(hass, freezer, entry, trip + timedelta(minutes=35))
    assert "light_on_long_at_night" not in rules

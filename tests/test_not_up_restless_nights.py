"""Not up, in a home with restless nights, in a real hass (issue 24, set 4's carer home).

Harald is up at 06:30 every day. On most nights his wife is restless: up at 03:00 for
half an hour (the hall, the kitchen), back to bed until morning. Each such bout was taken
for the day's getting up (a rest ending in more than a trip), so the learned "typical"
morning was 03:00, and a restless night was a day begun. Today, after such a night, he
goes to the bathroom at 06:05 for two minutes and then nothing moves (a fall by the bed):
the bout, or that minute of movement, was taken for getting up and nothing was told.
Now a bout followed by going back to bed is part of the night, and a trip followed by
stillness is not getting up: told an hour past his usual morning (06:30 on every day
learned).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.models import EntityInfo

from .helpers import put_in_area, setup_monitor_learned
from .test_daily_rhythm import _rules_at

ZONE = "Europe/Stockholm"
BATH = "binary_sensor.badrum_motion"
HALL = "binary_sensor.hall_motion"
HARALD = "person.harald"
MOTION = {"device_class": "motion"}
AREAS = {BATH: "Bathroom", HALL: "Hall"}
DAYS = 14


def _pulse(when: datetime, entity_id: str, minutes: float = 1) -> list[tuple[datetime, str, str]]:
    return [(when, entity_id, "on"), (when + timedelta(minutes=minutes), entity_id, "off")]


async def _fortnight(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, today: datetime
) -> MockConfigEntry:
    """A fortnight: up at 06:30, about every 15 min until 21:30; restless (03:00-03:35)
    on two nights in three. Today: restless, a two-minute trip at 06:05, then nothing."""
    for area in sorted(set(AREAS.values())):
        put_in_area(hass, area, *[e for e, a in AREAS.items() if a == area])
    baselines = HomeBaselines(ZoneInfo(ZONE))
    baselines.describe(EntityInfo(e, "", area=a, device_class="motion") for e, a in AREAS.items())
    start = today - timedelta(days=DAYS)
    baselines.watching(dict.fromkeys(AREAS, MOTION), start)
    baselines.observe(start, HARALD, "home")
    events: list[tuple[datetime, str, str]] = []
    for day in range(DAYS + 1):
        midnight = start + timedelta(days=day)
        if day % 3 or day == DAYS:
            for minute in range(0, 36, 5):  # restless: the hall and back, for 35 min
                events += _pulse(midnight + timedelta(hours=3, minutes=minute), HALL, 2)
        if day == DAYS:
            break  # today: restless, then he does not get up
        moment = midnight + timedelta(hours=6, minutes=30)
        while moment < midnight + timedelta(hours=21, minutes=30):
            events += _pulse(moment, HALL)
            moment += timedelta(minutes=15)
    events += _pulse(today + timedelta(hours=6, minutes=5), BATH, 2)
    for when, entity_id, state in sorted(events):
        baselines.observe(when, entity_id, state, AREAS[entity_id])
    now = today + timedelta(hours=6, minutes=30)
    baselines.advance(now)
    freezer.move_to(now)
    hass.states.async_set(HARALD, "home", {"friendly_name": "Harald"})
    for entity_id in AREAS:
        hass.states.async_set(entity_id, "off", MOTION)
    return await setup_monitor_learned(hass, baselines.as_dict(), include_entities=[*AREAS, HARALD])


async def test_not_up_after_a_trip_in_a_home_with_restless_nights_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    await hass.config.async_set_time_zone(ZONE)
    today = datetime(2026, 2, 18, tzinfo=dt_util.get_default_time_zone())  # a Wednesday
    entry = await _fortnight(hass, freezer, today)
    rules = await _rules_at(hass, freezer, entry, today + timedelta(hours=7, minutes=20))
    assert "no_movement_while_home" not in rules  # a late morning, so far
    rules = await _rules_at(hass, freezer, entry, today + timedelta(hours=7, minutes=40))
    finding = rules["no_movement_while_home"]
    assert "on weekdays this household is usually up by 06:30" in finding["reasoning"]

"""A door the motion sensors often miss, opened at a new time, in a real hass (issue 24).

The back door of the kitchen is used every morning at 08:40, seen by the kitchen sensor,
and now and then in the evening at 17:22, when nobody is seen (the sensors face away from
it): 3 of its 15 openings learned went unseen. Today it opens at 13:07 with nobody seen,
the household up (the hall sensor moving every 15 min). On main this was told as "It
seldom opens unseen at 13:07 here": it was unseen then on no other day. Unseen is how this
door is used whenever people are up. The same opening after three hours in which nobody
moved (somebody about only minutes after it) is still told.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.core.baselines import HomeBaselines

from .learned_home import (
    door_seen_opening,
    learned_home,
    observe_until,
    play,
    up_all_day,
    watch_learned_home,
)
from .test_daily_rhythm import _rules_at

ZONE = "Europe/London"
DOOR = "binary_sensor.back_door_contact"
KITCHEN = "binary_sensor.kitchen_motion"
HALL = "binary_sensor.hallway_motion"
PERSON = "person.jo"
ATTRS = {
    DOOR: {"device_class": "door", "friendly_name": "Back door"},
    KITCHEN: {"device_class": "motion", "friendly_name": "Kitchen motion"},
    HALL: {"device_class": "motion", "friendly_name": "Hall motion"},
}
AREAS = {DOOR: "Kitchen", KITCHEN: "Kitchen", HALL: "Hallway"}
DAYS = 12
EVENINGS = (2, 6, 9)  # the door used unseen at 17:22


def _learned(today: datetime, until: datetime) -> HomeBaselines:
    """Up 07:00-23:00 (the hall every 15 min); the back door at 08:40 for 2 min, seen by the
    kitchen at 08:41; on ``EVENINGS`` also at 17:22 for 3 min, unseen; today up to ``until``."""
    start = today - timedelta(days=DAYS)
    baselines = learned_home(ZONE, ATTRS, AREAS, PERSON, start)
    events: list[tuple[datetime, str, str]] = [(start, DOOR, "off"), (start, KITCHEN, "off")]
    for day in range(DAYS + 1):
        midnight = start + timedelta(days=day)
        events += up_all_day(midnight, HALL)
        if day == DAYS:
            break  # today: the live stream below
        events += door_seen_opening(midnight + timedelta(hours=8, minutes=40), DOOR, KITCHEN)
        if day in EVENINGS:
            events += [(midnight + timedelta(hours=17, minutes=22), DOOR, "on")]
            events += [(midnight + timedelta(hours=17, minutes=25), DOOR, "off")]
    observe_until(baselines, events, AREAS, until)
    baselines.advance(until)
    return baselines


async def _opened_at_13_07(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, *, moving: bool
) -> dict[str, dict[str, object]]:
    """The monitor set up at 10:02 on a learned home; the hall moving every 15 min from
    10:15 (``moving``) or still until 13:13; the back door open 13:07-13:09 with nobody seen; the
    findings at 13:25."""
    await hass.config.async_set_time_zone(ZONE)
    today = datetime(2026, 3, 12, tzinfo=dt_util.get_default_time_zone())
    setup = today + timedelta(hours=10, minutes=2)
    learned = _learned(today, setup)
    entry = await watch_learned_home(
        hass, freezer, setup, learned, attrs=ATTRS, areas=AREAS, person=(PERSON, "Jo")
    )
    live: list[tuple[datetime, str, str]] = []
    if moving:
        for tick in range(10, 14):  # 10:15 ... 13:15, each for a minute
            for quarter in (15, 30, 45, 60):
                on = today + timedelta(hours=tick, minutes=quarter)
                live += [(on, HALL, "on"), (on + timedelta(minutes=1), HALL, "off")]
        cooking = today + timedelta(hours=12, minutes=33)
        live += [(cooking, KITCHEN, "on"), (cooking + timedelta(minutes=2), KITCHEN, "off")]
    else:  # nobody moved since the morning; somebody about only after the door
        for minute in (13, 16, 19, 22):
            on = today + timedelta(hours=13, minutes=minute)
            live += [(on, HALL, "on"), (on + timedelta(seconds=30), HALL, "off")]
        later = today + timedelta(hours=13, minutes=14)
        live += [(later, KITCHEN, "on"), (later + timedelta(minutes=2), KITCHEN, "off")]
    live += [(today + timedelta(hours=13, minutes=7), DOOR, "on")]
    live += [(today + timedelta(hours=13, minutes=9), DOOR, "off")]
    findings_at = today + timedelta(hours=13, minutes=25)
    await play(hass, freezer, ATTRS, live, until=findings_at)
    return await _rules_at(hass, freezer, entry, findings_at)


async def test_a_door_often_missed_by_the_sensors_is_not_told_while_people_are_up(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    rules = await _opened_at_13_07(hass, freezer, moving=True)
    assert "unaccompanied_opening" not in rules


async def test_the_same_opening_while_nobody_has_moved_for_hours_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    rules = await _opened_at_13_07(hass, freezer, moving=False)
    finding = rules["unaccompanied_opening"]
    assert finding["evidence"][0] == DOOR
    assert "seldom opens unseen at 13:07" in str(finding["reasoning"])

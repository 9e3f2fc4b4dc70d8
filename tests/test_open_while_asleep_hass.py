"""A door left open for the night, in a real hass (issue 24, set 5's lifestyle block).

The ranch slider (an "opening" contact, no entrance role) is used seldom: once, at a
barbecue, it stood open four hours. On Friday night it is left open after letting the
cat in, at 22:50, and the household goes to bed: on main nothing was told all night
(three times the barbecue's four hours is twelve). Now, once the household has rested an
hour in the small hours and the slider has stood open longer than it ever has, it is
told. The bedroom door, open every night, is not.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.core.baselines import HomeBaselines

from .helpers import put_in_area, setup_monitor_learned
from .learned_home import learned_home, observe_until, up_all_day
from .test_daily_rhythm import _rules_at

ZONE = "Pacific/Auckland"
SLIDER = "binary_sensor.lumi_sensor_magnet_opening_2"
BEDROOM_DOOR = "binary_sensor.bedroom_door_contact"
HALL = "binary_sensor.hallway_motion"
PRIYA = "person.priya"
ATTRS = {
    SLIDER: {"device_class": "opening", "friendly_name": "Ranch slider"},
    BEDROOM_DOOR: {"device_class": "door", "friendly_name": "Bedroom door"},
    HALL: {"device_class": "motion"},
}
AREAS = {SLIDER: "Lounge", BEDROOM_DOOR: "Bedroom", HALL: "Hallway"}
DAYS = 12


def _learned(today: datetime) -> HomeBaselines:
    """Up at 07:00, about every 15 min until 23:00; the bedroom door open every night
    (22:45 to 07:05); the slider open once, four hours at a barbecue; tonight the slider
    open from 22:50, the last movement at 23:00."""
    start = today - timedelta(days=DAYS)
    baselines = learned_home(ZONE, ATTRS, AREAS, PRIYA, start)
    events: list[tuple[datetime, str, str]] = [(start, SLIDER, "off"), (start, BEDROOM_DOOR, "off")]
    for day in range(DAYS + 1):
        midnight = start + timedelta(days=day)
        events += up_all_day(midnight, HALL)
        events += [(midnight + timedelta(hours=7, minutes=5), BEDROOM_DOOR, "off")]
        events += [(midnight + timedelta(hours=22, minutes=45), BEDROOM_DOOR, "on")]
        if day == 5:  # the barbecue
            events += [(midnight + timedelta(hours=17, minutes=40), SLIDER, "on")]
            events += [(midnight + timedelta(hours=21, minutes=45), SLIDER, "off")]
    events += [(today + timedelta(hours=22, minutes=50), SLIDER, "on")]
    observe_until(baselines, events, AREAS, today + timedelta(hours=23, minutes=1))
    return baselines


async def test_a_slider_left_open_for_the_night_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    await hass.config.async_set_time_zone(ZONE)
    today = datetime(2026, 4, 10, tzinfo=dt_util.get_default_time_zone())  # a Friday
    for area in sorted(set(AREAS.values())):
        put_in_area(hass, area, *[e for e, a in AREAS.items() if a == area])
    freezer.move_to(today + timedelta(hours=22, minutes=45))
    hass.states.async_set(BEDROOM_DOOR, "on", ATTRS[BEDROOM_DOOR])
    freezer.move_to(today + timedelta(hours=22, minutes=50))
    hass.states.async_set(SLIDER, "on", ATTRS[SLIDER])
    hass.states.async_set(PRIYA, "home", {"friendly_name": "Priya"})
    freezer.move_to(today + timedelta(hours=23, minutes=1))
    hass.states.async_set(HALL, "off", ATTRS[HALL])
    learned = _learned(today)
    learned.advance(today + timedelta(hours=23, minutes=1))
    entry = await setup_monitor_learned(hass, learned.as_dict(), include_entities=[*AREAS, PRIYA])

    night = today + timedelta(days=1)
    rules = await _rules_at(hass, freezer, entry, night + timedelta(hours=2))
    assert "open_while_asleep" not in rules  # open 3 h 10 min: the barbecue was longer
    rules = await _rules_at(hass, freezer, entry, night + timedelta(hours=3))
    finding = rules["open_while_asleep"]
    assert finding["evidence"] == [SLIDER]
    assert "has been open for 4 h 10 min, since 22:50" in finding["reasoning"]
    assert "never stood open longer than 4 h 05 min (learned from 1 stay)" in finding["reasoning"]
    rules = await _rules_at(hass, freezer, entry, night + timedelta(hours=4, minutes=30))
    assert all(BEDROOM_DOOR not in f["evidence"] for f in rules.values())

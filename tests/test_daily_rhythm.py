"""The daily rhythm of a home living alone, learned, judged in a real hass (issue #27).

Rose lives alone: in bed at 22:30, up once at 03:00 for the toilet (bedroom, hall, the
bathroom light on for five minutes), up at her usual hour, cooking at 18:00. Her monitor
has learned a fortnight of it (stored baselines, as a running monitor keeps them). Told:
she does not get up; she goes out of the front door at 03:00; the bathroom light stays
on at night with nobody moving; the hob is on at 23:00 with the house asleep. Not told:
a late riser whose learned mornings are late; a home whose hob is used at 23:00 most days.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.anomaly_monitor.const import CONF_INCLUDE_ENTITIES, DOMAIN
from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.models import EntityInfo
from custom_components.anomaly_monitor.recorder.baseline_store import baseline_store

from .helpers import analyze, monitor_options, pass_time, put_in_area

ZONE = "Europe/London"
BED = "binary_sensor.bedroom_motion"
HALL = "binary_sensor.hall_motion"
BATH = "binary_sensor.bathroom_motion"
BATH_LIGHT = "light.bathroom"
DOOR = "binary_sensor.front_door"
HOB = "sensor.hob_power"
ROSE = "person.rose"
MOTION = {"device_class": "motion"}
AREAS = {BED: "Bedroom", HALL: "Hall", BATH: "Bathroom", BATH_LIGHT: "Bathroom", DOOR: "Hall"}
AREAS[HOB] = "Kitchen"
ATTRIBUTES: dict[str, dict[str, Any]] = {
    BED: MOTION,
    HALL: MOTION,
    BATH: MOTION,
    BATH_LIGHT: {"friendly_name": "Bathroom"},
    DOOR: {"device_class": "door", "friendly_name": "Front door"},
    HOB: {"device_class": "power", "unit_of_measurement": "W", "friendly_name": "Hob power"},
}
LEARNED_DAYS = 14


def _info(entity_id: str) -> EntityInfo:
    attributes = ATTRIBUTES[entity_id]
    return EntityInfo(
        entity_id,
        attributes.get("friendly_name", ""),
        area=AREAS[entity_id],
        device_class=attributes.get("device_class"),
        unit=attributes.get("unit_of_measurement"),
    )


def _lived(
    today: datetime, wake: timedelta, late_hob: bool = False, door_hour: float | None = None
) -> HomeBaselines:
    """A fortnight of Rose's days before ``today`` (local midnight), as the monitor learned it."""
    baselines = HomeBaselines(ZoneInfo(ZONE))
    baselines.describe(_info(e) for e in ATTRIBUTES)
    start = today - timedelta(days=LEARNED_DAYS)
    baselines.watching(ATTRIBUTES, start)
    baselines.observe(start, ROSE, "home")
    events: list[tuple[datetime, str, str]] = []
    for day in range(LEARNED_DAYS):
        midnight = today - timedelta(days=LEARNED_DAYS - day)

        def at(hours: float, entity_id: str, state: str, base: datetime = midnight) -> None:
            events.append((base + timedelta(hours=hours), entity_id, state))

        # The toilet trip at 03:00: bedroom, hall, bathroom light for five minutes.
        for offset, entity_id, state in [
            (0, BED, "on"),
            (0.01, HALL, "on"),
            (0.02, BATH, "on"),
            (0.02, BATH_LIGHT, "on"),
            (0.1, BATH_LIGHT, "off"),
            (0.11, BATH, "off"),
            (0.12, HALL, "off"),
            (0.14, BED, "off"),
        ]:
            at(3 + offset, entity_id, state)
        # The day, from getting up to bed at 22:30: a sensor sees her every 15 minutes.
        up = wake.total_seconds() / 3600
        moment, sensors = up, (BED, HALL, BATH)
        while moment < 22.5:
            sensor = sensors[int(moment * 4) % 3]
            at(moment, sensor, "on")
            at(moment + 0.02, sensor, "off")
            moment += 0.25
        at(17, DOOR, "on")  # the bins, every afternoon
        at(17.01, DOOR, "off")
        at(18, HOB, "1500.0")  # dinner
        at(18.7, HOB, "0.0")
        if late_hob:
            at(23, HOB, "1400.0")  # a late supper, most days
            at(23.5, HOB, "0.0")
        if door_hour is not None and day % 3 == 0:
            at(door_hour, DOOR, "on")  # out to the step, some days at this hour
            at(door_hour + 0.01, DOOR, "off")
    # Her last movement: going to bed at 22:30 last night.
    events += [
        (today - timedelta(minutes=90), BED, "on"),
        (today - timedelta(minutes=89), BED, "off"),
    ]
    for when, entity_id, state in sorted(events):
        baselines.observe(when, entity_id, state, AREAS[entity_id])
    return baselines


async def _home(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    *,
    wake: timedelta = timedelta(hours=7),
    late_hob: bool = False,
    night: timedelta = timedelta(hours=1),
    door_hour: float | None = None,
) -> tuple[MockConfigEntry, datetime]:
    """Rose's monitor with its learned fortnight, started at ``night`` past midnight today
    (her last movement: going to bed at 22:30 last night); everything off, Rose home."""
    await hass.config.async_set_time_zone(ZONE)
    today = dt_util.start_of_local_day(dt_util.now())
    for area in sorted(set(AREAS.values())):
        put_in_area(hass, area, *[e for e, a in AREAS.items() if a == area])
    freezer.move_to(today + night)
    hass.states.async_set(ROSE, "home", {"friendly_name": "Rose"})
    for entity_id, attributes in ATTRIBUTES.items():
        initial = "0.0" if entity_id == HOB else "off"
        hass.states.async_set(entity_id, initial, attributes)
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="Home",
        options=monitor_options(**{CONF_INCLUDE_ENTITIES: list(ATTRIBUTES)}),
    )
    entry.add_to_hass(hass)
    learned = _lived(today, wake, late_hob, door_hour)
    learned.advance(today + night)
    await baseline_store(hass, entry.entry_id).async_save(learned.as_dict())
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry, today


async def _rules_at(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, entry: MockConfigEntry, when: datetime
) -> dict[str, dict[str, Any]]:
    freezer.move_to(when)
    response = await analyze(hass, entry)
    return {f["rule"]: f for f in response["verdict"]["findings"]}


def _set(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, when: datetime, *changes: Any
) -> None:
    freezer.move_to(when)
    for entity_id, state in changes:
        hass.states.async_set(entity_id, state, ATTRIBUTES[entity_id])


async def test_not_up_long_past_her_usual_morning_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Up at 07:00 every day; today nothing moved after her 03:00 trip: at 07:50 it is a
    lie-in, at 08:15 (an hour past a morning every day learned agrees on) it is told,
    saying so."""
    entry, today = await _home(hass, freezer)
    trip = today + timedelta(hours=3)
    _set(hass, freezer, trip, (BED, "on"), (HALL, "on"))
    _set(hass, freezer, trip + timedelta(minutes=6), (HALL, "off"), (BED, "off"))
    await _rules_at(hass, freezer, entry, trip + timedelta(minutes=10))  # learned live
    rules = await _rules_at(hass, freezer, entry, today + timedelta(hours=7, minutes=50))
    assert "no_movement_while_home" not in rules
    rules = await _rules_at(hass, freezer, entry, today + timedelta(hours=8, minutes=15))
    finding = rules["no_movement_while_home"]
    assert finding["severity"] == "high"
    assert "usually up by 07:00" in finding["reasoning"]
    assert "since 03:06" in finding["reasoning"]


async def test_a_late_riser_sleeping_as_she_always_does_is_not_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The same morning in a home whose learned mornings start at 10:30: still in bed at
    11:00 is her normal."""
    entry, today = await _home(hass, freezer, wake=timedelta(hours=10, minutes=30))
    rules = await _rules_at(hass, freezer, entry, today + timedelta(hours=11))
    assert "no_movement_while_home" not in rules


async def test_going_out_of_the_front_door_at_night_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The front door is used every afternoon and never at night; at 02:52 Rose walks
    through the hall and out, and nothing moves inside after. The hall lives at night (her
    toilet trip) but the door in it was opened on none of the nights learned: walked to
    while the household slept, it is told at once (session 48), and still five minutes
    later by an analysis the monitor runs for it (not the next periodic one). Somebody
    coming in at night (seen inside at once after the door) is not."""
    entry, today = await _home(hass, freezer)
    night = today + timedelta(hours=2, minutes=50)
    _set(hass, freezer, night, (BED, "on"))
    _set(hass, freezer, night + timedelta(minutes=1), (HALL, "on"))
    _set(hass, freezer, night + timedelta(minutes=2), (DOOR, "on"))
    _set(hass, freezer, night + timedelta(minutes=2, seconds=25), (DOOR, "off"))
    rules = await _rules_at(hass, freezer, entry, night + timedelta(minutes=3))
    assert "the household was asleep" in rules["went_out_at_night"]["reasoning"]
    _set(hass, freezer, night + timedelta(minutes=3, seconds=30), (HALL, "off"), (BED, "off"))
    freezer.move_to(night + timedelta(minutes=7))
    await pass_time(hass, freezer, timedelta(seconds=20))  # the analysis due at 02:57
    assert hass.states.get("binary_sensor.home_anomaly").state == "on"
    finding = (await _rules_at(hass, freezer, entry, night + timedelta(minutes=8)))[
        "went_out_at_night"
    ]
    assert finding["evidence"] == [DOOR]
    assert "02:52" in finding["reasoning"]
    assert "any of the 14 nights" in finding["reasoning"]
    # Rose comes back in at 03:30: seen in the hall at once; the outing is no longer told.
    back = today + timedelta(hours=3, minutes=30)
    _set(hass, freezer, back, (DOOR, "on"))
    _set(hass, freezer, back + timedelta(seconds=5), (HALL, "on"))
    _set(hass, freezer, back + timedelta(seconds=30), (DOOR, "off"))
    rules = await _rules_at(hass, freezer, entry, back + timedelta(minutes=10))
    assert "went_out_at_night" not in rules


async def test_the_bathroom_light_on_at_night_with_nobody_moving_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Her night trips keep the bathroom light on five minutes; tonight it went on at
    03:20 and nobody has moved since 03:23: at 03:45 not yet, at 03:55 told."""
    entry, today = await _home(hass, freezer)
    trip = today + timedelta(hours=3, minutes=20)
    _set(hass, freezer, trip, (BED, "on"), (BATH, "on"), (BATH_LIGHT, "on"))
    _set(hass, freezer, trip + timedelta(minutes=3), (BATH, "off"), (BED, "off"))
    rules = await _rules_at(hass, freezer, entry, trip + timedelta(minutes=25))
    assert "light_on_long_at_night" not in rules
    rules = await _rules_at(hass, freezer, entry, trip + timedelta(minutes=35))
    finding = rules["light_on_long_at_night"]
    assert finding["evidence"] == [BATH_LIGHT, BATH]
    assert finding["anomaly_type"] == "safety_hazard"
    assert "usually on for at most 4 min" in finding["reasoning"]


async def test_the_hob_on_after_bedtime_at_an_hour_it_never_runs_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Cooking at 18:00 every day; at 22:05 the hob goes on and nobody moves after 22:10:
    told at 22:45, with the learned normal in words."""
    entry, today = await _home(hass, freezer, night=timedelta(hours=22))
    evening = today + timedelta(hours=22, minutes=5)
    _set(hass, freezer, evening - timedelta(minutes=1), (HALL, "on"))
    _set(hass, freezer, evening, (HOB, "1450.0"))
    _set(hass, freezer, evening + timedelta(minutes=5), (HALL, "off"))
    rules = await _rules_at(hass, freezer, entry, evening + timedelta(minutes=40))
    finding = rules["cooking_at_an_unusual_hour"]
    assert finding["evidence"] == [HOB]
    assert "never ran at this hour" in finding["reasoning"]


async def test_a_hob_used_at_eleven_most_nights_is_not_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The same evening in a home whose late supper is cooked at 23:00 most days: the hob
    on at 23:05, the house quiet, is its normal."""
    entry, today = await _home(hass, freezer, late_hob=True, night=timedelta(hours=23))
    evening = today + timedelta(hours=23, minutes=5)
    _set(hass, freezer, evening - timedelta(minutes=1), (HALL, "on"))
    _set(hass, freezer, evening, (HOB, "1450.0"))
    _set(hass, freezer, evening + timedelta(minutes=5), (HALL, "off"))
    rules = await _rules_at(hass, freezer, entry, evening + timedelta(minutes=40))
    assert "cooking_at_an_unusual_hour" not in rules

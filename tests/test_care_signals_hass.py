"""Care signals the stillness and night checks did not read, in a real hass (issue 24).

Rose's learned fortnight (``test_daily_rhythm``): up by 07:00, a toilet trip at 03:00,
the front door used every afternoon and never at night.

- Her husband's **bed sensor** (an ``occupancy`` sensor that reads ``on`` for as long as
  he lies in bed, learned so night after night) hid that Rose did not get up: the
  stillness check took a sensor reading ``on`` for movement. Held ``on`` for hours, as it
  holds, it shows where he is, not that anybody moves.
- **Going out at night with a GPS watch**: the watch leaving home minutes after the front
  door opened at 03:10 was taken for "a presence change the presence checks judge" and
  nothing was told. A watch or phone that leaves after the door is who went out.
- The same outing **in a home watched for two nights** only is told too (few households go
  out in the small hours); the door opened at night with no phone leaving is not, yet.
- **The hob left on at supper time**, her usual hour, while she dozes: told once it has run
  twice its longest learned run with nobody moving for an hour (``cooker_left_on``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.anomaly_monitor.const import CONF_INCLUDE_ENTITIES, DOMAIN
from custom_components.anomaly_monitor.core.models import EntityInfo
from custom_components.anomaly_monitor.recorder.baseline_store import baseline_store

from . import test_daily_rhythm as rose
from .helpers import monitor_options, pass_time, put_in_area
from .test_daily_rhythm import BED, DOOR, HALL, ROSE, ZONE, _rules_at, _set

HIS_BED = "binary_sensor.bed_occupied"
OCCUPANCY = {"device_class": "occupancy", "friendly_name": "Bed occupied"}
WATCH = "device_tracker.rose_watch"
WATCH_ATTRS = {"friendly_name": "Rose's watch", "source_type": "gps"}


async def _rose_and_husband(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> tuple[MockConfigEntry, datetime]:
    """Rose's monitor with its learned fortnight, her husband's bed sensor and her GPS
    watch watched too; at 01:00 he is in bed (since 01:00), she is home."""
    await hass.config.async_set_time_zone(ZONE)
    today = dt_util.start_of_local_day(dt_util.now())
    areas = {**rose.AREAS, HIS_BED: "Bedroom"}
    for area in sorted(set(areas.values())):
        put_in_area(hass, area, *[e for e, a in areas.items() if a == area])
    freezer.move_to(today + timedelta(hours=1))
    hass.states.async_set(ROSE, "home", {"friendly_name": "Rose"})
    hass.states.async_set(WATCH, "home", WATCH_ATTRS)
    for entity_id, attributes in rose.ATTRIBUTES.items():
        hass.states.async_set(entity_id, "0.0" if entity_id == rose.HOB else "off", attributes)
    hass.states.async_set(HIS_BED, "on", OCCUPANCY)
    watched = [*rose.ATTRIBUTES, HIS_BED, WATCH]
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="Home",
        options=monitor_options(**{CONF_INCLUDE_ENTITIES: watched}),
    )
    entry.add_to_hass(hass)
    learned = rose._lived(today, timedelta(hours=7))
    learned.describe([*learned.infos.values(), EntityInfo(HIS_BED, "", "Bedroom", "occupancy")])
    for day in range(rose.LEARNED_DAYS, 0, -1):  # his nights: in bed 22:00-06:30
        bedtime = today - timedelta(days=day, hours=2)
        learned.observe(bedtime, HIS_BED, "on", "Bedroom")
        learned.observe(bedtime + timedelta(hours=8, minutes=30), HIS_BED, "off", "Bedroom")
    learned.advance(today + timedelta(hours=1))
    await baseline_store(hass, entry.entry_id).async_save(learned.as_dict())
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry, today


async def test_not_up_while_the_other_lies_in_bed_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """He is in bed (his sensor on since 01:00); Rose has not moved since her 03:00 trip:
    at 08:15, an hour past a morning every day learned agrees on, told (on main: nothing,
    the bed sensor read ``on``); at 07:50 it is still a lie-in."""
    entry, today = await _rose_and_husband(hass, freezer)
    trip = today + timedelta(hours=3)
    _set(hass, freezer, trip, (BED, "on"), (HALL, "on"))
    _set(hass, freezer, trip + timedelta(minutes=6), (HALL, "off"), (BED, "off"))
    await _rules_at(hass, freezer, entry, trip + timedelta(minutes=10))
    rules = await _rules_at(hass, freezer, entry, today + timedelta(hours=7, minutes=50))
    assert "no_movement_while_home" not in rules
    rules = await _rules_at(hass, freezer, entry, today + timedelta(hours=8, minutes=15))
    finding = rules["no_movement_while_home"]
    assert "usually up by 07:00" in finding["reasoning"]


async def test_a_bed_sensor_just_gone_on_is_still_movement(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The same morning, but he has just gone back to bed at 09:00 (his sensor on for a
    quarter of an hour): somebody moved, nothing is told."""
    entry, today = await _rose_and_husband(hass, freezer)
    trip = today + timedelta(hours=3)
    _set(hass, freezer, trip, (BED, "on"), (HALL, "on"))
    _set(hass, freezer, trip + timedelta(minutes=6), (HALL, "off"), (BED, "off"))
    await _rules_at(hass, freezer, entry, trip + timedelta(minutes=10))
    freezer.move_to(today + timedelta(hours=8, minutes=59))
    hass.states.async_set(HIS_BED, "off", OCCUPANCY)
    freezer.move_to(today + timedelta(hours=9))
    hass.states.async_set(HIS_BED, "on", OCCUPANCY)
    rules = await _rules_at(hass, freezer, entry, today + timedelta(hours=9, minutes=15))
    assert "no_movement_while_home" not in rules


async def _walks_out_with_her_watch(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, today: datetime, watch_leaves: bool
) -> datetime:
    """03:10: the hall, the front door open and shut; her watch leaves home at 03:19."""
    night = today + timedelta(hours=3, minutes=10)
    _set(hass, freezer, night, (HALL, "on"))
    _set(hass, freezer, night + timedelta(minutes=2), (DOOR, "on"))
    _set(hass, freezer, night + timedelta(minutes=2, seconds=30), (DOOR, "off"))
    _set(hass, freezer, night + timedelta(minutes=4), (HALL, "off"))
    if watch_leaves:
        freezer.move_to(night + timedelta(minutes=9))
        hass.states.async_set(WATCH, "not_home", WATCH_ATTRS)
    await pass_time(hass, freezer, timedelta(seconds=20))
    return night


async def test_going_out_at_night_with_a_gps_watch_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Her watch leaves 7 min after the door: told, the departure named (on main the
    watch's change made it "the presence checks' " and nothing was told)."""
    entry, today = await _rose_and_husband(hass, freezer)
    night = await _walks_out_with_her_watch(hass, freezer, today, watch_leaves=True)
    rules = await _rules_at(hass, freezer, entry, night + timedelta(minutes=11))
    finding = rules["went_out_at_night"]
    assert finding["evidence"] == [DOOR]
    assert "any of the 14 nights" in finding["reasoning"]
    assert "Rose's watch left home since" in finding["reasoning"]  # named as the notice names it


@pytest.mark.parametrize("watch_leaves", [True, False])
async def test_going_out_at_night_in_a_home_watched_two_nights(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    monkeypatch: pytest.MonkeyPatch,
    watch_leaves: bool,
) -> None:
    """Watched for two nights only: with her watch leaving, told ("few households go
    out..."); the door alone, not yet (the nights are not learned)."""
    monkeypatch.setattr(rose, "LEARNED_DAYS", 2)
    entry, today = await _rose_and_husband(hass, freezer)
    night = await _walks_out_with_her_watch(hass, freezer, today, watch_leaves)
    rules = await _rules_at(hass, freezer, entry, night + timedelta(minutes=11))
    if watch_leaves:
        assert "few households go out" in rules["went_out_at_night"]["reasoning"]
    else:
        assert "went_out_at_night" not in rules


@pytest.mark.parametrize("moves_at_19_20", [False, True])
async def test_the_hob_on_long_past_supper_with_nobody_moving_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, moves_at_19_20: bool
) -> None:
    """Supper at 18:00 is her usual hour (the hob on for 42 min every day); tonight it is
    on at 18:00 and she dozes off after 18:05: at 19:15 not yet (1 h 15 min, under twice
    her longest 42 min), at 19:35 told (on main: nothing, supper being her usual hour).
    Somebody walking through the hall at 19:20 may be minding it: not told."""
    entry, today = await rose._home(hass, freezer, night=timedelta(hours=17, minutes=50))
    supper = today + timedelta(hours=18)
    _set(hass, freezer, supper - timedelta(minutes=5), (HALL, "on"))
    _set(hass, freezer, supper, (rose.HOB, "1500.0"))
    _set(hass, freezer, supper + timedelta(minutes=5), (HALL, "off"))
    rules = await _rules_at(hass, freezer, entry, supper + timedelta(minutes=75))
    assert "cooker_left_on" not in rules
    if moves_at_19_20:
        _set(hass, freezer, supper + timedelta(minutes=80), (HALL, "on"))
        _set(hass, freezer, supper + timedelta(minutes=81), (HALL, "off"))
    rules = await _rules_at(hass, freezer, entry, supper + timedelta(minutes=95))
    if moves_at_19_20:
        assert "cooker_left_on" not in rules
        return
    finding = rules["cooker_left_on"]
    assert finding["evidence"] == [rose.HOB]
    assert finding["severity"] == "medium"  # only its name says it is a hob
    assert "it runs for at most 42 min (learned from 14 runs)" in finding["reasoning"]
    assert "nobody has moved for 1 h 30 min" in finding["reasoning"]

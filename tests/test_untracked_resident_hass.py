"""Somebody without a tracker lives here: away is not empty, in a real hass.

Alice (tracked) is home all day but on Thursdays 11:00-14:30; her father has no phone and
goes about his day at the same hours every day: the living room at 09:30, 11:30 and
14:00, his nap in the bedroom at 13:00. Ten days are stored (one Thursday afternoon among
them, where he moved as every day). On the second Thursday his 11:30 in the living room
is his day, not an intrusion; the back door opened and the hall and bedroom moving at
20:00 while Alice is still out, an hour this home never showed life while empty, is told.
"""

from __future__ import annotations

from datetime import UTC, timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_capture_events

from custom_components.anomaly_monitor.const import (
    CONF_INCLUDE_ENTITIES,
    DOMAIN,
    EVENT_ANOMALY_DETECTED,
)
from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.untracked_life import UntrackedLife
from custom_components.anomaly_monitor.core.models import EntityInfo, Transition
from custom_components.anomaly_monitor.recorder.baseline_store import baseline_store

from .helpers import analyze, monitor_options, put_in_area
from .test_away_normal import ALICE, AREAS, BACK, BEDROOM, CLASSES, DAY0, HALL, LIVING, at

AWAY_RULES = {
    "motion_while_away",
    "activity_while_away",
    "entry_unsecured_while_away",
    "window_opened_while_away",
}
WATCHED = [BACK, HALL, LIVING, BEDROOM, ALICE]
THURSDAY = 3  # DAY0 is a Monday


def _moves(day: int, hours: float, sensor: str) -> list[Transition]:
    return [
        Transition(at(day, hours), sensor, "on", AREAS[sensor]),
        Transition(at(day, hours + 0.05), sensor, "off", AREAS[sensor]),
    ]


def _day(day: int) -> list[Transition]:
    """Her father's day, every day; Alice out on Thursday 11:00-14:30."""
    events = [*_moves(day, 9.5, LIVING), *_moves(day, 11.5, LIVING)]
    events += [*_moves(day, 13, BEDROOM), *_moves(day, 14, LIVING)]
    if day % 7 == THURSDAY:
        events += [Transition(at(day, 11), ALICE, "not_home")]
        events += [Transition(at(day, 14.5), ALICE, "home")]
    return sorted(events)


def _lived_to_second_thursday() -> HomeBaselines:
    """Ten days lived, and the second Thursday until Alice left at 11:00."""
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class=CLASSES.get(e)) for e in AREAS]
    baselines.describe([*infos, EntityInfo(ALICE, "Alice")])
    baselines.watching([*AREAS, ALICE], DAY0 - timedelta(days=7))
    baselines.learn(Transition(DAY0, ALICE, "home"))
    for day in range(10):
        for transition in _day(day):
            baselines.learn(transition)
        baselines.advance(at(day, 23))
    for transition in _day(10):
        if transition.when <= at(10, 11):
            baselines.learn(transition)
    baselines.advance(at(10, 11.05))
    return baselines


async def _alice_out(hass: HomeAssistant, freezer: FrozenDateTimeFactory, hour: float) -> None:
    """The home set up at ``hour`` of the second Thursday, Alice out since 11:00."""
    freezer.move_to(at(10, hour))
    await hass.config.async_set_time_zone("UTC")
    put_in_area(hass, "Kitchen", BACK)
    put_in_area(hass, "Hall", HALL)
    put_in_area(hass, "Living", LIVING)
    put_in_area(hass, "Bedroom", BEDROOM)
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    hass.states.async_set(BACK, "off", {"device_class": "door"})
    for motion in (HALL, LIVING, BEDROOM):
        hass.states.async_set(motion, "off", {"device_class": "motion"})
    entry = MockConfigEntry(
        domain=DOMAIN, title="Home", options=monitor_options(**{CONF_INCLUDE_ENTITIES: WATCHED})
    )
    entry.add_to_hass(hass)
    stored = _lived_to_second_thursday().as_dict()
    await baseline_store(hass, entry.entry_id).async_save(stored)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()


async def _told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, *changes: tuple[str, str]
) -> set[str]:
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    for entity_id, state in changes:
        device_class = "door" if entity_id == BACK else "motion"
        hass.states.async_set(entity_id, state, {"device_class": device_class})
        await hass.async_block_till_done()
        freezer.tick(timedelta(seconds=20))
    freezer.tick(timedelta(minutes=2))
    await analyze(hass)
    await hass.async_block_till_done()
    return {e.data["rule"] for e in detected} & AWAY_RULES


async def test_his_usual_morning_while_alice_is_out_is_not_an_intrusion(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    await _alice_out(hass, freezer, 11.4)
    freezer.move_to(at(10, 11.5))
    assert await _told(hass, freezer, (LIVING, "on")) == set()


async def test_an_entry_at_an_hour_the_empty_home_never_showed_life_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    await _alice_out(hass, freezer, 19.9)
    freezer.move_to(at(10, 20))
    changes = [(BACK, "on"), (BACK, "off"), (HALL, "on"), (BEDROOM, "on")]
    assert await _told(hass, freezer, *changes)


def test_what_is_learned_survives_a_restart() -> None:
    baselines = _lived_to_second_thursday()
    stored = UntrackedLife.from_dict(baselines.untracked.as_dict(), UTC)
    assert stored.days == baselines.untracked.days
    assert stored.empty_days == baselines.untracked.empty_days
    assert stored.everyday_motion(LIVING, at(10, 11.5)) is not None
    assert stored.shown_life(baselines.away, at(10, 11.5), pets=False) is not None
    assert stored.shown_life(baselines.away, at(10, 20), pets=False) is None
    assert UntrackedLife.from_dict({"version": 99, "days": {}}, UTC).days == {}


def test_a_damaged_sensor_is_dropped_alone() -> None:
    hours = ["739650"] + [""] * 23
    stored = {"version": 1, "days": {LIVING: hours, HALL: ["x"] * 24, BEDROOM: hours[:3]}}
    life = UntrackedLife.from_dict(stored, UTC)
    assert list(life.days) == [LIVING]
    assert life.days[LIVING][0] == [739650.0]


def test_life_shown_while_empty_is_asked_afresh_once_more_is_learned() -> None:
    baselines = _lived_to_second_thursday()
    life, away = baselines.untracked, baselines.away
    assert life.shown_life(away, at(11, 20), pets=False) is None
    life.moved(HALL, at(10, 19.5), empty=True)  # seen about one evening the home was empty
    assert life.shown_life(away, at(11, 20), pets=False) == (1, 1)
    assert life.shown_life(away, at(11, 20), pets=True) is None  # with pets: their motion

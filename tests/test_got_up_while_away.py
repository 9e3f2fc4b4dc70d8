"""Getting out of bed while the phones are away is a sign of somebody inside, kept in the
away spell's record (core: ``AwayNormal.got_up``).

Alice (tracked) goes out at 07:00 every day; her mother, without a phone, sleeps in her
bed 22:00-06:00 (a bed sensor: lain on, learned). Today she stays in bed until 09:10 and
opens the bathroom door at 09:12. The window of an analysis at 11:00 no longer shows her
getting up: only the spell's record does. Before, it kept motion onsets and openings but
not a bed left, and her bathroom door was an opening into a home nobody was known to be
in (an entry, and her later motion "after an entry at an hour nothing comes in"). Guard:
the same door with nobody getting up before it is still from outside.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.somebody_in import opened_from_inside
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)
ALICE = "person.alice"
BED = "binary_sensor.gran_bed"
BATH = "binary_sensor.bathroom_door"
HALL = "binary_sensor.hall_motion"
AREAS = {BED: "Gran's room", BATH: "Bathroom", HALL: "Hall"}
CLASSES = {BED: "occupancy", BATH: "door", HALL: "motion"}


def at(day: int, hours: float) -> datetime:
    return DAY0 + timedelta(days=day, hours=hours)


def _t(when: datetime, entity_id: str, state: str) -> Transition:
    return Transition(when, entity_id, state, AREAS.get(entity_id))


def _learned(days: int) -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS]
    baselines.describe([*infos, EntityInfo(ALICE, "Alice")])
    baselines.watching([*AREAS, ALICE], DAY0 - timedelta(days=7))
    baselines.learn(_t(DAY0 - timedelta(hours=3), ALICE, "home"))
    baselines.learn(_t(DAY0 - timedelta(hours=2), BED, "on"))
    for day in range(days):
        for transition in (
            _t(at(day, 6), BED, "off"),
            _t(at(day, 6.1), HALL, "on"),
            _t(at(day, 6.15), BATH, "on"),
            _t(at(day, 6.16), BATH, "off"),
            _t(at(day, 6.2), HALL, "off"),
            _t(at(day, 7), ALICE, "not_home"),
            _t(at(day, 18), ALICE, "home"),
            _t(at(day, 22), BED, "on"),
        ):
            baselines.learn(transition)
        baselines.advance(at(day, 23))
    return baselines


def _door_from_inside(today: list[Transition]) -> bool:
    """Today learned until 11:00; the bathroom door at 09:12 judged on the window of
    10:00-11:00 (it does not reach back to the morning)."""
    baselines = _learned(8)
    for transition in today:
        baselines.learn(transition)
    baselines.advance(at(8, 11))
    states = [entity(e, "off", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS]
    states.append(entity(ALICE, "not_home"))
    window = build_window(states, environment(at(8, 11), persons_home=0), [], start=at(8, 10))
    return opened_from_inside(baselines, HomeView(window), at(8, 9.2), BATH) is not None


def test_her_bathroom_door_after_she_got_up_is_opened_from_inside() -> None:
    today = [
        _t(at(8, 7), ALICE, "not_home"),
        _t(at(8, 9 + 10 / 60), BED, "off"),
        _t(at(8, 9.2), BATH, "on"),
        _t(at(8, 9.21), BATH, "off"),
    ]
    assert _door_from_inside(today)


def test_the_door_with_nobody_getting_up_before_it_is_from_outside() -> None:
    today = [
        _t(at(8, 6), BED, "off"),  # up before Alice left, nothing since
        _t(at(8, 7), ALICE, "not_home"),
        _t(at(8, 9.2), BATH, "on"),
        _t(at(8, 9.21), BATH, "off"),
    ]
    assert not _door_from_inside(today)

"""A door aired as on every day while the trackers are away is no door left unsecured (set 24).

A grandmother without a tracker opens the balcony door at 08:30 and leaves it open about
an hour, every day, whoever is home. With the trackers away she sat still for twenty
minutes and the open door was told "left so by somebody who was inside; nobody moves
about now". Whoever opened it from inside is still in when nobody went out since, and the
door has stood open no longer than it does on most days: not told. Open longer than that,
or once somebody went out by the front door after opening it (the same grandmother off
to the hospital with the balcony door wide open), it is told; after such a going out
only motion that is not what moves here while the home is empty keeps the visit going.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)  # a Monday
ALICE = "person.alice"
BALCONY = "binary_sensor.balcony_door"
FRONT = "binary_sensor.front_door"
LOCK = "lock.front_door"
LIVING = "binary_sensor.living_motion"
AREAS = {BALCONY: "Balcony", FRONT: "Hall", LOCK: "Hall", LIVING: "Living"}
CLASSES = {BALCONY: "door", FRONT: "door", LOCK: None, LIVING: "motion"}
REST = {BALCONY: "off", FRONT: "off", LOCK: "locked", LIVING: "off"}


def at(day: int, hours: float) -> datetime:
    return DAY0 + timedelta(days=day, hours=hours)


def _blip(when: datetime, entity_id: str, on: str = "on", off: str = "off") -> list[Transition]:
    area = AREAS[entity_id]
    return [
        Transition(when, entity_id, on, area),
        Transition(when + timedelta(minutes=0.5), entity_id, off, area),
    ]


def _out_by_the_front(when: datetime) -> list[Transition]:
    return _blip(when, LOCK, "unlocked", "locked") + _blip(when + timedelta(seconds=5), FRONT)


def day_of_life(day: int) -> list[Transition]:
    """Alice out 07:00-17:00; the grandmother (no tracker) moves about the living room at
    her hours, airs the balcony door 08:30-09:40 and goes to the shop at 15:00."""
    events = [Transition(at(day, 7), ALICE, "not_home"), Transition(at(day, 17), ALICE, "home")]
    for hour in (*range(7, 12), *range(17, 22)):  # a person's hours, not a pet's
        events += _blip(at(day, hour + 0.1), LIVING)
    events += [
        Transition(at(day, 8.5), BALCONY, "on", "Balcony"),
        Transition(at(day, 8.5) + timedelta(minutes=70), BALCONY, "off", "Balcony"),
    ]
    events += _out_by_the_front(at(day, 15)) + _out_by_the_front(at(day, 15.75))
    return sorted(events)


def lived(days: int) -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS]
    baselines.describe([*infos, EntityInfo(ALICE, "Alice")])
    baselines.watching([*AREAS, ALICE], DAY0 - timedelta(days=7))
    baselines.learn(Transition(DAY0, ALICE, "home"))
    for day in range(days):
        for transition in day_of_life(day):
            baselines.learn(transition)
        baselines.advance(at(day, 23.9))
    return baselines


def _findings(baselines: HomeBaselines, now: datetime, today: list[Transition]) -> list[Finding]:
    for transition in today:
        if transition.when <= now:
            baselines.learn(transition)
    baselines.advance(now)
    start = now - timedelta(hours=2)
    shown = sorted(t for t in today if start <= t.when <= now)
    latest = {t.entity_id: t.state for t in today if t.when <= now}
    states = [
        entity(e, latest.get(e, REST[e]), area=AREAS[e], device_class=CLASSES[e]) for e in AREAS
    ]
    states.append(entity(ALICE, latest.get(ALICE, "not_home")))
    detector = CombinedDetector(baselines=lambda: baselines)
    window = build_window(states, environment(now, persons_home=0), shown, start=start)
    return [f for f in detector.findings(window) if f.rule == "entry_unsecured_while_away"]


def _today(day: int, after_opening: list[Transition]) -> list[Transition]:
    """Alice out at 07:00, the grandmother about until 08:29, the balcony door at 08:30."""
    return sorted(
        [
            Transition(at(day, 7), ALICE, "not_home"),
            *(t for h in range(7, 9) for t in _blip(at(day, h + 0.1), LIVING)),
            *_blip(at(day, 8.5) - timedelta(minutes=1), LIVING),
            Transition(at(day, 8.5), BALCONY, "on", "Balcony"),
            *after_opening,
        ]
    )


def test_the_door_aired_as_every_day_by_whoever_is_in_is_not_told() -> None:
    baselines = lived(10)
    today = _today(10, [])
    # 35 min after she opened it, nothing moved for 20 min: before, told as left so.
    assert _findings(baselines, at(10, 8.5) + timedelta(minutes=35), today) == []


def test_the_door_open_longer_than_on_most_days_is_told() -> None:
    baselines = lived(10)
    today = _today(10, [])
    (told,) = _findings(baselines, at(10, 8.5) + timedelta(minutes=100), today)
    assert told.reasoning.endswith("nobody moves about now."), told.reasoning


def test_the_door_left_open_by_whoever_then_went_out_is_told() -> None:
    baselines = lived(10)
    went = at(10, 8.5) + timedelta(minutes=3)
    today = _today(10, _out_by_the_front(went))
    (told,) = _findings(baselines, at(10, 8.5) + timedelta(minutes=25), today)
    assert "somebody went out at 08:33" in told.reasoning, told.reasoning

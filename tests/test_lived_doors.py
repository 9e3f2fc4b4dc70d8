"""A door somebody lives behind untracked, used at a different minute every day (core).

Alice (tracked) is out 09:00-18:00 every day. Her mother has no phone and lives in a
granny flat in the yard with its own door and motion sensor: she moves about in the
flat, then goes out and back through her door, once a day, at an hour that wanders from
10:10 to 15:50 and never comes within 90 min of 13:00 (no time-of-day habit for the
learners that ask minutes). Once ten days are learned, her door opening at 13:00, the
flat lived in this morning, is her day, not an intrusion. Guards, told as before: the
same door opened into a flat that stayed still since Alice left (a break-in), the front
door that nobody uses while the home is empty, and her door at 03:00.
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
FRONT = "binary_sensor.front_door"
HALL = "binary_sensor.hall_motion"
FLAT_DOOR = "binary_sensor.flat_door"
FLAT = "binary_sensor.flat_motion"
AREAS = {FRONT: "Hall", HALL: "Hall", FLAT_DOOR: "Flat", FLAT: "Flat"}
CLASSES = {FRONT: "door", HALL: "motion", FLAT_DOOR: "door", FLAT: "motion"}
ENTRY = "entry_unsecured_while_away"
# Her outing (minutes from 13:00), day by day.
WANDER = (-170, 130, -100, 100, -130, 170, -150, 150, -120, 120)
NOON = 13.0


def at(day: int, hours: float) -> datetime:
    return DAY0 + timedelta(days=day, hours=hours)


def _t(when: datetime, entity_id: str, state: str) -> Transition:
    return Transition(when, entity_id, state, AREAS.get(entity_id))


def _outing(when: datetime) -> list[Transition]:
    """Moving in the flat, out of her door, back 20 min later, moving again."""
    steps = [(0, FLAT, "on"), (2, FLAT, "off"), (3, FLAT_DOOR, "on"), (3.3, FLAT_DOOR, "off")]
    steps += [(23, FLAT_DOOR, "on"), (23.3, FLAT_DOOR, "off"), (24, FLAT, "on"), (26, FLAT, "off")]
    return [_t(when + timedelta(minutes=m), e, s) for m, e, s in steps]


def day_of_life(day: int) -> list[Transition]:
    events = [_t(at(day, 9), ALICE, "not_home"), _t(at(day, 18), ALICE, "home")]
    return sorted(events + _outing(at(day, NOON + WANDER[day % len(WANDER)] / 60)))


def lived(days: int) -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class=CLASSES.get(e)) for e in AREAS]
    baselines.describe([*infos, EntityInfo(ALICE, "Alice")])
    baselines.watching([*AREAS, ALICE], DAY0 - timedelta(days=7))
    baselines.learn(_t(DAY0, ALICE, "home"))
    for day in range(days):
        for transition in day_of_life(day):
            baselines.learn(transition)
        baselines.advance(at(day, 23))
    return baselines


def entry_findings(
    baselines: HomeBaselines, now: datetime, today: list[Transition]
) -> list[Finding]:
    """Today learned up to ``now``; the combined detector's entry findings then."""
    start = now - timedelta(hours=5)
    shown = sorted(t for t in today if t.when <= now)
    for transition in shown:
        baselines.learn(transition)
    baselines.advance(now)
    latest = {t.entity_id: t.state for t in shown}
    states = [
        entity(e, latest.get(e, "off"), area=AREAS[e], device_class=CLASSES[e]) for e in AREAS
    ]
    states.append(entity(ALICE, latest.get(ALICE, "not_home")))
    window = build_window(
        states, environment(now, persons_home=0), [t for t in shown if t.when >= start], start=start
    )
    detector = CombinedDetector(baselines=lambda: baselines)
    return [f for f in detector.findings(window) if f.rule == ENTRY]


def test_her_door_at_a_new_minute_with_the_flat_lived_in_is_not_told() -> None:
    """She moved about at 10:30, sat still (over an hour: nobody known inside to open it),
    and opens her door at 13:00, as she does in the middle of most days at some minute."""
    today = [_t(at(10, 9), ALICE, "not_home"), *_outing(at(10, 10.5))[:2]]
    today.append(_t(at(10, NOON), FLAT_DOOR, "on"))
    assert entry_findings(lived(10), at(10, NOON + 0.01), today) == []


def test_her_door_opened_into_a_flat_still_since_alice_left_is_told() -> None:
    today = [_t(at(10, 9), ALICE, "not_home"), _t(at(10, NOON), FLAT_DOOR, "on")]
    assert entry_findings(lived(10), at(10, NOON + 0.01), today)


def test_the_front_door_nobody_uses_while_empty_is_told_though_she_moves() -> None:
    # She moved about at 10:30; nothing moved for the last 2.5 h (nobody inside to open it).
    today = [_t(at(10, 9), ALICE, "not_home"), *_outing(at(10, 10.5))[:2]]
    today.append(_t(at(10, NOON), FRONT, "on"))
    assert entry_findings(lived(10), at(10, NOON + 0.01), today)


def test_her_door_at_night_while_alice_is_away_is_told() -> None:
    today = [_t(at(10, 1), ALICE, "not_home"), *_outing(at(10, 1.5))[:2]]
    today.append(_t(at(10, 3), FLAT_DOOR, "on"))
    assert entry_findings(lived(10), at(10, 3.01), today)

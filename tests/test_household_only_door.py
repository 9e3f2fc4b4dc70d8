"""A door only the tracked household uses is no untracked resident's way in (core).

Alice (tracked) is home until 14:40 and out until 19:00 every day. At 14:00, before she
leaves, she lets the dog out by the patio door and in again. Her mother, without a
phone, sits in the living room while Alice is out (motion at 15:30): the home shows life
while it is empty. The patio door is used near 15:10 on most days, but only ever with
Alice home: opened at 15:10 into the empty home it is an entry, not the mother's day
(set 44 b: a break-in by the patio door the dog goes out of after lunch). Guard, as
before: where the mother herself steps out by the patio door while Alice is out (at
17:30, another hour), the door is hers too, and its opening at 15:10 is her day.
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
PATIO = "binary_sensor.patio_door"
LIVING = "binary_sensor.living_motion"
AREAS = {FRONT: "Hall", PATIO: "Kitchen", LIVING: "Living"}
CLASSES = {FRONT: "door", PATIO: "door", LIVING: "motion"}
ENTRY = "entry_unsecured_while_away"
DAYS = 10


def at(day: int, hours: float) -> datetime:
    return DAY0 + timedelta(days=day, hours=hours)


def _t(when: datetime, entity_id: str, state: str) -> Transition:
    return Transition(when, entity_id, state, AREAS.get(entity_id))


def _open_and_shut(when: datetime, door: str, minutes: float = 0.3) -> list[Transition]:
    return [_t(when, door, "on"), _t(when + timedelta(minutes=minutes), door, "off")]


def _moves(when: datetime) -> list[Transition]:
    return [_t(when, LIVING, "on"), _t(when + timedelta(minutes=2), LIVING, "off")]


def _leaves(day: int) -> list[Transition]:
    """The dog out and in at 14:00, then Alice out by the front door at 14:40."""
    events = _moves(at(day, 13.9))
    events += _open_and_shut(at(day, 14.0), PATIO) + _open_and_shut(at(day, 14.1), PATIO)
    events += [*_open_and_shut(at(day, 14.66), FRONT), _t(at(day, 14.67), ALICE, "not_home")]
    return events


def day_of_life(day: int, *, mother_steps_out: bool) -> list[Transition]:
    events = _leaves(day) + _moves(at(day, 15.5))
    if mother_steps_out:  # into the yard and back, while Alice is out
        events += _moves(at(day, 17.45)) + _open_and_shut(at(day, 17.5), PATIO)
        events += _open_and_shut(at(day, 17.6), PATIO) + _moves(at(day, 17.62))
    events += [_t(at(day, 19), ALICE, "home"), *_open_and_shut(at(day, 19.01), FRONT)]
    return sorted(events)


def lived(*, mother_steps_out: bool) -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class=CLASSES.get(e)) for e in AREAS]
    baselines.describe([*infos, EntityInfo(ALICE, "Alice")])
    baselines.watching([*AREAS, ALICE], DAY0 - timedelta(days=7))
    baselines.learn(_t(DAY0, ALICE, "home"))
    for day in range(DAYS):
        for transition in day_of_life(day, mother_steps_out=mother_steps_out):
            baselines.learn(transition)
        baselines.advance(at(day, 23))
    return baselines


def entry_findings(baselines: HomeBaselines, now: datetime) -> list[Finding]:
    """Today (Alice out at 14:40, the patio door opened at 15:10) learned up to ``now``;
    the combined detector's entry findings then."""
    today = sorted([*_leaves(DAYS), _t(at(DAYS, 15 + 10 / 60), PATIO, "on")])
    start = now - timedelta(hours=5)
    for transition in today:
        baselines.learn(transition)
    baselines.advance(now)
    latest = {t.entity_id: t.state for t in today}
    states = [
        entity(e, latest.get(e, "off"), area=AREAS[e], device_class=CLASSES[e]) for e in AREAS
    ]
    states.append(entity(ALICE, latest.get(ALICE, "not_home")))
    window = build_window(
        states,
        environment(now, persons_home=0),
        [t for t in today if t.when >= start],
        start=start,
        phoneless_residents=1,
    )
    detector = CombinedDetector(baselines=lambda: baselines)
    return [f for f in detector.findings(window) if f.rule == ENTRY]


def test_the_households_own_door_opened_into_the_empty_home_is_told() -> None:
    found = entry_findings(lived(mother_steps_out=False), at(DAYS, 15 + 11 / 60))
    assert [f.evidence[0] for f in found] == [PATIO]


def test_a_door_the_mother_uses_while_the_home_is_empty_is_her_day() -> None:
    assert entry_findings(lived(mother_steps_out=True), at(DAYS, 15 + 11 / 60)) == []

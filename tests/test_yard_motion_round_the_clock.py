"""A sensor that keeps no person's hours, in a home never yet left empty (set 30).

A doorbell's motion in the yard (a dog, the street) fires day and night, whoever is home.
The household was never all out until Christmas morning, so nothing of the empty home was
learned, and the yard's motion at 10:46 was told as "seldom moves at 08-12 h while nobody
is home". What the home learns whoever is home (``UntrackedLife.round_the_clock``: nearly
every hour of the day and night on most days; people sleep) says it keeps no person's
hours: not told as an intrusion. Found by how it moves, not by its area's name ("Stoep"
matches no outdoor word). An intruder is still told: the yard's motion just before a door
opened is whoever went to that door; a sensor that keeps a person's hours still is told.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 12, 21, tzinfo=UTC)  # a Monday
ALICE = "person.alice"
YARD = "binary_sensor.front_door_motion"  # the doorbell's camera: the dog, the street
HALL = "binary_sensor.hall_motion"  # the household's hours only
DOOR = "binary_sensor.back_door"
AREAS = {YARD: "Stoep", HALL: "Hall", DOOR: "Kitchen"}
CLASSES = {YARD: "motion", HALL: "motion", DOOR: "door"}
AWAY_RULES = {"motion_while_away", "activity_while_away", "entry_unsecured_while_away"}


def at(day: int, hours: float) -> datetime:
    return DAY0 + timedelta(days=day, hours=hours)


def _blip(when: datetime, sensor: str, minutes: float = 2.0) -> list[Transition]:
    area = AREAS[sensor]
    return [
        Transition(when, sensor, "on", area),
        Transition(when + timedelta(minutes=minutes), sensor, "off", area),
    ]


def _day(day: int) -> list[Transition]:
    """Alice at home (never out: nothing learned of the empty home); the yard moves at
    every hour of the day and night, the hall at Alice's waking hours only."""
    events: list[Transition] = []
    for hour in range(24):
        events += _blip(at(day, hour + 0.4), YARD)
    for hour in range(7, 23):
        events += _blip(at(day, hour + 0.1), HALL)
    return events


def _lived(days: int) -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS]
    baselines.describe([*infos, EntityInfo(ALICE, "Alice")])
    baselines.watching([*AREAS, ALICE], DAY0 - timedelta(days=7))
    baselines.learn(Transition(DAY0, ALICE, "home"))
    for day in range(days):
        for transition in sorted(_day(day)):
            baselines.learn(transition)
        baselines.advance(at(day, 23.9))
    return baselines


def _away_findings(days: int, now: datetime, *spell: Transition) -> list[Finding]:
    """Alice out from 09:00 on day ``days`` (the first time), ``spell`` while she is."""
    baselines = _lived(days)
    start = now - timedelta(hours=3)
    morning = [t for t in _day(days) if t.when < at(days, 9)]
    shown = sorted(
        t
        for t in [*morning, Transition(at(days, 9), ALICE, "not_home"), *spell]
        if start <= t.when <= now
    )
    for transition in shown:
        baselines.learn(transition)
    baselines.advance(now)
    latest = {t.entity_id: t.state for t in shown}
    states = [
        entity(e, latest.get(e, "off"), area=AREAS[e], device_class=CLASSES[e]) for e in AREAS
    ]
    states.append(entity(ALICE, "not_home"))
    detector = CombinedDetector(baselines=lambda: baselines)
    window = build_window(states, environment(now, persons_home=0), shown, start=start)
    return [f for f in detector.findings(window) if f.rule in AWAY_RULES]


def test_the_yard_that_moves_at_every_hour_learned_whoever_is_home() -> None:
    baselines = _lived(4)
    assert baselines.untracked.round_the_clock(YARD, at(4, 10.8)) == (24, 4)
    assert baselines.untracked.round_the_clock(HALL, at(4, 10.8)) is None  # Alice sleeps
    assert _lived(2).untracked.round_the_clock(YARD, at(2, 10.8)) is None  # not yet learned


def test_the_yard_moving_the_first_time_the_home_is_empty_is_not_told() -> None:
    findings = _away_findings(4, at(4, 10.8), *_blip(at(4, 10.77), YARD))
    assert findings == [], [f.reasoning for f in findings]


def test_before_the_yard_is_learned_its_motion_while_empty_is_still_told() -> None:
    findings = _away_findings(2, at(2, 10.8), *_blip(at(2, 10.77), YARD))
    assert findings, "two days teach nothing of the yard: judged as before"


def test_the_hall_that_keeps_a_persons_hours_is_still_told() -> None:
    findings = _away_findings(4, at(4, 10.8), *_blip(at(4, 10.77), HALL))
    assert findings
    assert any(HALL in f.evidence for f in findings)


def test_an_intruder_through_the_yard_and_the_back_door_is_told() -> None:
    """The yard sees him, he forces the back door a minute later and walks into the hall:
    the yard's motion before the door is his, and told."""
    when = at(4, 10.5)
    intruder = [
        *_blip(when, YARD),
        Transition(when + timedelta(minutes=1), DOOR, "on", "Kitchen"),
        *_blip(when + timedelta(minutes=2), HALL),
    ]
    findings = _away_findings(4, when + timedelta(minutes=3), *intruder)
    assert any(YARD in f.evidence or DOOR in f.evidence for f in findings), findings

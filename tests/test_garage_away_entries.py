"""A garage door opened while nobody is home, asked as the entrance it is (core, no HA).

A weekday home: Alice out 08:00-17:00; the garage door opens for two minutes at 16:20
while nobody tracked is home (a car put away by the household before her phone says home,
a partner without a tracker). Once those days are learned, the garage opened at that hour
is how this home is used, as an entrance at a regular time is: not told while it is
used. The same garage opened at 03:00, or left open at its usual hour with nobody about,
is still told.
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
GARAGE = "binary_sensor.garage_door"
HALL = "binary_sensor.hall_motion"
AREAS = {GARAGE: "Garage", HALL: "Hall"}
CLASSES = {GARAGE: "garage_door", HALL: "motion"}
RULE = "garage_open_while_protected"


def at(day: int, hours: float) -> datetime:
    return DAY0 + timedelta(days=day, hours=hours)


def garage(day: int, hours: float, minutes: float = 2) -> list[Transition]:
    return [
        Transition(at(day, hours), GARAGE, "on", "Garage"),
        Transition(at(day, hours) + timedelta(minutes=minutes), GARAGE, "off", "Garage"),
    ]


def weekday(day: int) -> list[Transition]:
    """Out 08:00-17:00; the garage opened at 16:20 for 2 min; the hall moving at home."""
    events = [Transition(at(day, 8), ALICE, "not_home"), Transition(at(day, 17), ALICE, "home")]
    events += garage(day, 16 + 20 / 60)
    for hours in (7, 17.5, 19):
        events += [
            Transition(at(day, hours), HALL, "on", "Hall"),
            Transition(at(day, hours) + timedelta(minutes=1), HALL, "off", "Hall"),
        ]
    return sorted(events)


def lived(days: int) -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS]
    baselines.describe([*infos, EntityInfo(ALICE, "Alice")])
    baselines.watching([*AREAS, ALICE], DAY0 - timedelta(days=7))
    baselines.learn(Transition(DAY0, ALICE, "home"))
    for day in range(days):
        if day % 7 < 5:
            for transition in weekday(day):
                baselines.learn(transition)
        baselines.advance(at(day, 23))
    return baselines


def found(now: datetime, today: list[Transition]) -> list[Finding]:
    """The garage findings at ``now`` (window of 2 h), everybody out since 08:00."""
    baselines = lived(14)  # two weeks: Monday 16 March is day 14
    start = now - timedelta(hours=2)
    shown = sorted(t for t in [Transition(at(14, 8), ALICE, "not_home"), *today] if t.when <= now)
    latest = {t.entity_id: t.state for t in shown}
    states = [
        entity(e, latest.get(e, "off"), area=AREAS[e], device_class=CLASSES[e]) for e in AREAS
    ]
    states.append(entity(ALICE, "not_home"))
    window = build_window(
        states, environment(now, persons_home=0), [t for t in shown if t.when >= start], start=start
    )
    detector = CombinedDetector(baselines=lambda: baselines)
    return [f for f in detector.findings(window) if f.rule == RULE]


def test_the_garage_opened_at_its_usual_hour_while_away_is_not_told() -> None:
    opened = at(14, 16 + 25 / 60)
    assert found(opened + timedelta(seconds=10), garage(14, 16 + 25 / 60)) == []


def test_the_garage_opened_at_night_while_away_is_told() -> None:
    [finding] = found(at(14, 3) + timedelta(seconds=10), garage(14, 3))
    assert finding.subject == GARAGE
    assert (
        "It is never used at 03:00 with the home empty, in the days learned." in finding.reasoning
    )


def test_the_garage_left_open_at_its_usual_hour_with_nobody_about_is_told() -> None:
    opened = at(14, 16 + 25 / 60)
    [finding] = found(opened + timedelta(minutes=25), garage(14, 16 + 25 / 60, minutes=60))
    assert "nobody moves about" in finding.reasoning

"""A bed sensor turning on while every tracker is away is somebody lying down (core).

Alice (the only tracker) is home six days; the bed sensor holds ``on`` every night
(22:00-06:30), the hall moves at her hours. On the seventh day she goes out at noon and,
at 12:30, the bed sensor turns on (somebody without a phone lying down for a rest): no
intruder's first sign is a bed taken, so it is not told while away. The hall moving in the
empty home at that hour is still told, and so is a sensor never learned to hold for hours.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.held_on import lain_on
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)
ALICE = "person.alice"
BED = "binary_sensor.sleep_analyzer_in_bed"
HALL = "binary_sensor.hall_motion"
AREAS = {BED: "Bedroom", HALL: "Hall"}
CLASSES = {BED: "occupancy", HALL: "motion"}
MOTION_RULES = {"motion_while_away", "activity_while_away"}


def at(day: int, hours: float) -> datetime:
    return DAY0 + timedelta(days=day, hours=hours)


def _spell(when: datetime, sensor: str, minutes: float) -> list[Transition]:
    area = AREAS[sensor]
    return [
        Transition(when, sensor, "on", area),
        Transition(when + timedelta(minutes=minutes), sensor, "off", area),
    ]


def _lived(days: int, night: float = 8.5 * 60) -> HomeBaselines:
    """Alice home; the bed held ``night`` minutes from 22:00, the hall every hour."""
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS]
    baselines.describe([*infos, EntityInfo(ALICE, "Alice")])
    baselines.watching([*AREAS, ALICE], DAY0 - timedelta(days=7))
    baselines.learn(Transition(DAY0, ALICE, "home"))
    for day in range(days):
        events = _spell(at(day, 22) - timedelta(days=1), BED, night) if day else []
        for hour in range(7, 22):
            events += _spell(at(day, hour + 0.1), HALL, 1)
        for transition in sorted(events):
            baselines.learn(transition)
        baselines.advance(at(day, 23.9))
    return baselines


def _motion_findings(baselines: HomeBaselines, sensor: str) -> list[Finding]:
    """Alice out at noon, ``sensor`` on at 12:30; the findings at 12:32."""
    now = at(6, 12.5) + timedelta(minutes=2)
    shown = [
        *_spell(at(6, 7.1), HALL, 1),
        Transition(at(6, 12), ALICE, "not_home"),
        Transition(at(6, 12.5), sensor, "on", AREAS[sensor]),
    ]
    for transition in sorted(shown):
        baselines.learn(transition)
    baselines.advance(now)
    start = now - timedelta(hours=2)
    shown = sorted(t for t in shown if start <= t.when)
    states = [
        entity(e, "on" if e == sensor else "off", area=AREAS[e], device_class=CLASSES[e])
        for e in AREAS
    ]
    states.append(entity(ALICE, "not_home"))
    detector = CombinedDetector(baselines=lambda: baselines)
    window = build_window(states, environment(now, persons_home=0), shown, start=start)
    return [f for f in detector.findings(window) if f.rule in MOTION_RULES]


def test_a_bed_taken_while_away_is_not_told() -> None:
    baselines = _lived(6)
    assert lain_on(baselines, BED)
    assert not lain_on(baselines, HALL)
    assert _motion_findings(baselines, BED) == []


def test_the_hall_moving_then_is_still_told() -> None:
    findings = _motion_findings(_lived(6), HALL)
    assert findings
    assert all(HALL in f.evidence for f in findings)


def test_a_sensor_never_held_for_hours_is_still_told() -> None:
    baselines = _lived(6, night=90)  # held an hour and a half: no night's sleep learned
    assert not lain_on(baselines, BED)
    findings = _motion_findings(baselines, BED)
    assert findings
    assert all(BED in f.evidence for f in findings)

"""Water running or a heater on long, judged against how long it runs here (core, no HA).

A garden irrigation valve waters for an hour every morning from 06:00. The default limit
(45 min) finds that run; once a week of runs is learned it is this home's normal, while a
run of three hours (the valve stuck open) is still told and says what is usual here. A
switch named for a hot-water cylinder heats water: it is not water left running.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.role_words import name_role
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 5, 4, tzinfo=UTC)
VALVE = "valve.garden_irrigation"
AREA = "Garden"
HOUR = timedelta(hours=1)


def run(day: int, length: timedelta) -> list[Transition]:
    start = DAY0 + timedelta(days=day, hours=6)
    return [
        Transition(start, VALVE, "open", AREA),
        Transition(start + length, VALVE, "closed", AREA),
    ]


def learned(days: int) -> HomeBaselines:
    """Baselines that watched the valve water the garden an hour a morning for ``days``."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(VALVE, "Garden irrigation", area=AREA, device_class="water")])
    baselines.watching({VALVE: AREA}, DAY0)
    for day in range(days):
        for transition in run(day, HOUR):
            baselines.learn(transition)
    baselines.advance(DAY0 + timedelta(days=days))
    return baselines


def water_findings(baselines: HomeBaselines, day: int, length: timedelta) -> list[Finding]:
    """The combined detector's ``water_left_running`` findings just after today's run."""
    today = run(day, length)
    now = today[-1].when + timedelta(minutes=5)
    baselines.advance(now)
    detector = CombinedDetector()
    detector.baselines = lambda: baselines
    states = [entity(VALVE, "closed", area=AREA, device_class="water")]
    window = build_window(
        states, environment(now, persons_home=1), today, start=today[0].when - HOUR
    )
    return [f for f in detector.findings(window) if f.rule == "water_left_running"]


def test_the_default_limit_judges_a_valve_not_yet_learned() -> None:
    assert len(water_findings(learned(0), day=0, length=HOUR)) == 1


def test_an_hour_every_morning_is_not_water_left_running_once_learned() -> None:
    assert water_findings(learned(7), day=7, length=HOUR) == []


def test_a_run_far_longer_than_its_learned_runs_is_told_and_says_so() -> None:
    [finding] = water_findings(learned(7), day=7, length=3 * HOUR)
    assert "Here it runs at most 1 h 00 min at a time (learned from 7 runs)" in finding.reasoning


def test_a_hot_water_cylinder_heats_water_and_does_not_let_it_run() -> None:
    assert name_role("Hot water cylinder", "switch", None) is None
    assert name_role("Immersion heater", "switch", None) != "water"
    assert name_role("Garden tap", "switch", None) == "water"

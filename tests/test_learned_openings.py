"""Heating with an opening open, judged against how long that opening stays open here.

A generic "opening" sensor (ZHA and Zigbee2MQTT give door contacts this class) on a door
between rooms that stands open all day is how this home lives, not a window left open
while the heating runs; the same sensor open all day where it is open minutes a day is told.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 1, 5, tzinfo=UTC)
OPENING = "binary_sensor.lumi_lumi_sensor_magnet_aq2_opening"
CLIMATE = "climate.heat_pump"
RULE = "hvac_with_opening_open"


def _day(day: int, open_for: timedelta) -> list[Transition]:
    opened = DAY0 + timedelta(days=day, hours=7)
    return [
        Transition(opened, OPENING, "on", "Bathroom"),
        Transition(opened + open_for, OPENING, "off", "Bathroom"),
    ]


def _lived(days: int, open_for: timedelta) -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    baselines.describe(
        [
            EntityInfo(OPENING, "", area="Bathroom", device_class="opening"),
            EntityInfo(CLIMATE, "", area="Lounge"),
        ]
    )
    baselines.watching({OPENING: "Bathroom", CLIMATE: "Lounge"}, DAY0)
    for day in range(days):
        for transition in _day(day, open_for):
            baselines.learn(transition)
    baselines.advance(DAY0 + timedelta(days=days))
    return baselines


def _findings(baselines: HomeBaselines | None, day: int) -> list[Finding]:
    """At 20:00 of ``day``: the opening open since 07:00, the heat pump heating."""
    opened = DAY0 + timedelta(days=day, hours=7)
    now = DAY0 + timedelta(days=day, hours=20)
    today = [Transition(opened, OPENING, "on", "Bathroom")]
    if baselines is not None:
        for transition in today:
            baselines.learn(transition)
        baselines.advance(now)
    states = [
        entity(OPENING, "on", area="Bathroom", device_class="opening"),
        entity(
            CLIMATE,
            "heat",
            area="Lounge",
            hvac_action="heating",
            temperature=21.0,
            current_temperature=20.0,
        ),
    ]
    detector = CombinedDetector(baselines=(lambda: baselines) if baselines is not None else None)
    window = build_window(
        states, environment(now, persons_home=2), today, start=DAY0 + timedelta(days=day)
    )
    return [f for f in detector.findings(window) if f.rule == RULE]


def test_found_without_anything_learned() -> None:
    """The rule itself: heating while the opening is open."""
    (finding,) = _findings(None, day=7)
    assert finding.subject == OPENING


def test_an_opening_open_all_day_on_most_days_is_not_told() -> None:
    """Open 07:00-22:00 every day for a week: open since 07:00 today is usual here."""
    assert _findings(_lived(7, timedelta(hours=15)), day=7) == []


def test_the_same_opening_open_all_day_where_it_is_open_minutes_is_told() -> None:
    """Open 10 min a day for a week: open 13 h today is told, saying what is usual."""
    (finding,) = _findings(_lived(7, timedelta(minutes=10)), day=7)
    assert "On most days it is open at most 10 min" in finding.reasoning

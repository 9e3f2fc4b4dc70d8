"""A process thermometer at work: a kiln's probe judged by its own heat (core, no HA).

A kiln that fired to 948 °C before is at work at 960 °C on its way down from a higher top
(no new fire); a room's sensor that never reached process heat is judged as in any home.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import Transition

from .core_factories import entity, environment, steps, window

START = datetime(2026, 11, 26, 4, tzinfo=UTC)
KILN = "sensor.kiln_thermocouple"
FIRING = [20.0, 120.0, 430.0, 760.0, 948.0, 720.0, 420.0, 210.0, 95.0, 38.0, 20.0]


def _fired(tops: list[float]) -> HomeBaselines:
    """One firing a day for each top (readings an hour apart), ending days before START."""
    baselines = HomeBaselines(UTC)
    first = START - timedelta(days=len(tops) + 2)
    for day, top in enumerate(tops):
        for hour, value in enumerate(FIRING):
            when = first + timedelta(days=day, hours=hour)
            reading = value * top / 948.0 if value > 100 else value
            baselines.learn(Transition(when, KILN, f"{reading:.0f}", "Kiln room"))
    baselines.advance(START - timedelta(hours=12))
    return baselines


def _told(baselines: HomeBaselines, readings: list[float]) -> list[str]:
    detector = CombinedDetector()
    detector.baselines = lambda: baselines
    start = START - timedelta(minutes=30 * len(readings))
    transitions = steps(
        start, [(30.0 * i, KILN, f"{v:g}") for i, v in enumerate(readings)], "Kiln room"
    )
    state = entity(KILN, f"{readings[-1]:g}", area="Kiln room", device_class="temperature")
    found = detector.findings(window([state], environment(START), transitions))
    return [f.rule for f in found]


def test_a_kiln_over_the_impossible_line_is_still_told() -> None:
    """Not yet judged by its own top: the line is what tells a stalled firing today."""
    baselines = _fired([948.0, 1238.0, 948.0])
    assert "reading_outside_physical_range" in _told(baselines, [1100.0, 1180.0, 1235.0])


def test_a_kiln_cooling_from_a_top_not_settled_yet_is_no_fire() -> None:
    """The top (1,238 °C) is read before the window, its pending highest; the window reads
    only the way down."""
    baselines = _fired([948.0, 948.0, 948.0])
    top = START - timedelta(hours=3)
    baselines.learn(Transition(top, KILN, "1238", "Kiln room"))
    assert "room_heat_fire_risk" not in _told(baselines, [990.0, 960.0])


def test_a_kiln_cooling_from_its_top_is_no_fire() -> None:
    baselines = _fired([948.0, 948.0, 948.0])
    assert "room_heat_fire_risk" not in _told(baselines, [1238.0, 1100.0, 960.0])


def test_a_room_sensor_that_never_reached_process_heat_is_still_a_room() -> None:
    baselines = _fired([60.0, 60.0, 60.0])  # a sauna-warm room at most
    assert "room_heat_fire_risk" in _told(baselines, [200.0, 150.0, 120.0])


def test_a_flue_falling_from_a_chimney_fire_far_above_its_range_is_still_told() -> None:
    """Its range tops at 250 °C; 500 °C on the way down from 600 is still the fire."""
    baselines = _fired([250.0, 250.0, 250.0])
    assert "room_heat_fire_risk" in _told(baselines, [600.0, 550.0, 500.0])

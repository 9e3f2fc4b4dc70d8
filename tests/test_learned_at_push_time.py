"""A door's learned normal judges it as soon as it is learned, not only in windows that
began after that.

The learning gate holds a finding while the device is still learned and lets it through
the moment the learning ends; the finding must then have been judged by what was learned,
not by the default limit. Judged by the learning at the window's start, a door open for
an hour at its usual time was told as "left open" for the two hours after its learning
ended (a window of 2 h reaches back before it).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 1, 5, tzinfo=UTC)
DOOR = "binary_sensor.front_door"
RULE = "entry_left_open"


def _baselines() -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(DOOR, "", area="Hall", device_class="door")])
    baselines.watching({DOOR: "Hall"}, DAY0)
    return baselines


def _findings(open_for: timedelta, window_before: timedelta) -> tuple[list[Finding], bool]:
    """The door open each day at the same time for 2 h while learned; today open
    ``open_for`` at that time, judged just after its learning ended, in a window that
    began ``window_before`` the end of its learning."""
    baselines = _baselines()
    until = baselines.learning_until(DOOR)
    assert until is not None
    opened_today = until - timedelta(minutes=30)
    days = (opened_today - DAY0).days
    for day in range(days, 0, -1):
        opened = opened_today - timedelta(days=day)
        baselines.learn(Transition(opened, DOOR, "on", "Hall"))
        baselines.learn(Transition(opened + timedelta(hours=2), DOOR, "off", "Hall"))
    today = [Transition(opened_today, DOOR, "on", "Hall")]
    for transition in today:
        baselines.learn(transition)
    now = opened_today + open_for
    baselines.advance(now)
    window = build_window(
        [entity(DOOR, "on", area="Hall", device_class="door")],
        environment(now, persons_home=1),
        today,
        start=until - window_before,
    )
    detector = CombinedDetector(baselines=lambda: baselines)
    found = [f for f in detector.findings(window) if f.rule == RULE]
    return found, baselines.learning(DOOR, now)


def test_open_an_hour_at_its_usual_time_just_after_learning_is_not_told() -> None:
    found, learning = _findings(timedelta(minutes=60), window_before=timedelta(hours=1))
    assert not learning
    assert found == []


def test_open_far_longer_than_learned_just_after_learning_is_told_by_what_was_learned() -> None:
    (finding,) = _findings(timedelta(hours=9), window_before=timedelta(hours=1))[0]
    assert "still being learned" not in finding.reasoning

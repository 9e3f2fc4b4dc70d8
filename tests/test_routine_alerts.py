"""A generic alert this home lives with is told low: not at the default sensitivity (core).

Set 19: the Ukraine Alarm air-raid sensor (a ``binary_sensor`` of class ``safety``) went on
about 1.5 times a day and was pushed high every time (22 false alarms). A ``safety``,
``problem`` or ``tamper`` sensor that went on and cleared by itself on earlier days, with
nothing in the home following, is this home's routine signal; a septic pump's or a heat
pump's ``problem`` sensor that goes on only at its failure stays told high, and so does
smoke, however often it sounds.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.routine_alert_judge import (
    how_often,
    shown_not_pushed,
)
from custom_components.anomaly_monitor.core.baselines.routine_alerts import RoutineAlerts
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import (
    AnomalyType,
    EntityInfo,
    Finding,
    Severity,
    Transition,
)
from custom_components.anomaly_monitor.core.safety_floor import is_urgent
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 11, 16, tzinfo=UTC)
ANA = "person.ana"
ALERT = "binary_sensor.alert_status"
SMOKE = "binary_sensor.hall_detector"


def _told(
    device_class: str,
    days: int,
    per_day: int,
    *,
    smoke_after: bool = False,
    sensitivity: str = "high",
) -> list[Finding]:
    """The alert learned on ``per_day`` spells a day for ``days`` days, then on now."""
    baselines = HomeBaselines(UTC)
    baselines.describe(
        [EntityInfo(ALERT, "Alert", device_class=device_class),
         EntityInfo(SMOKE, "Hall detector", area="Hall", device_class="smoke"),
         EntityInfo(ANA, "Ana")]
    )  # fmt: skip
    baselines.watching([ALERT, SMOKE, ANA], DAY0)
    baselines.learn(Transition(DAY0, ANA, "home"))
    for day in range(days):
        for spell in range(per_day):
            on = DAY0 + timedelta(days=day, hours=3 + 7 * spell)
            baselines.learn(Transition(on, ALERT, "on"))
            if smoke_after:
                baselines.learn(Transition(on + timedelta(minutes=20), SMOKE, "on", "Hall"))
                baselines.learn(Transition(on + timedelta(minutes=50), SMOKE, "off", "Hall"))
            baselines.learn(Transition(on + timedelta(hours=1), ALERT, "off"))
            baselines.advance(on + timedelta(hours=1))
    now = DAY0 + timedelta(days=days, hours=10)
    shown = [Transition(now - timedelta(minutes=2), ALERT, "on")]
    baselines.learn(shown[0])
    baselines.advance(now)
    states = [
        entity(ALERT, "on", device_class=device_class),
        entity(SMOKE, "off", area="Hall", device_class="smoke"),
        entity(ANA, "home"),
    ]
    window = build_window(
        states, environment(now, persons_home=1), shown, start=now - timedelta(hours=1)
    )
    detector = CombinedDetector(sensitivity, baselines=lambda: baselines)
    return [f for f in detector.findings(window) if f.rule == "hazard_detected"]


def test_a_safety_alert_on_three_times_a_day_is_told_low_once_learned() -> None:
    (found,) = _told("safety", days=4, per_day=3)
    assert found.severity is Severity.LOW
    assert not is_urgent(found)
    # Said as a person would, and nothing of a push: at sensitivity high it is pushed.
    assert "It goes on about 3 times a day here and clears by itself" in found.reasoning
    assert "push" not in found.reasoning
    assert _told("safety", days=4, per_day=3, sensitivity="medium") == []  # shown at high only


def test_its_first_time_on_is_told_high() -> None:
    (found,) = _told("safety", days=0, per_day=0)
    assert is_urgent(found)
    assert found.reasoning.startswith("Unsafe state detected")  # HA shows it "Unsafe"


def test_how_often_is_said_as_a_person_would() -> None:
    assert [how_often(r) for r in (3.0, 2.0, 1.4, 1.0, 0.5, 0.3, 0.1)] == [
        "about 3 times a day",
        "about twice a day",
        "about once a day",
        "about once a day",
        "about once every 2 days",
        "about once every 3 days",
        "about once every 10 days",
    ]


def test_a_problem_sensor_on_only_at_a_failure_stays_high() -> None:
    # A septic pump's or a heat pump's alarm: on once before (a test), now at its failure.
    (found,) = _told("problem", days=1, per_day=1)
    assert is_urgent(found)


def test_one_day_of_spells_is_not_yet_routine() -> None:
    (found,) = _told("problem", days=1, per_day=3)
    assert is_urgent(found)


def test_an_alert_followed_by_a_hazard_of_the_home_is_no_routine() -> None:
    (found,) = _told("tamper", days=4, per_day=3, smoke_after=True)
    assert is_urgent(found)


def test_smoke_is_never_routine() -> None:
    alerts = RoutineAlerts(UTC)
    for day in range(5):
        for hour in (3, 10, 17):
            on = DAY0 + timedelta(days=day, hours=hour)
            alerts.state(SMOKE, "smoke", "on", on)
            alerts.state(SMOKE, "smoke", "off", on + timedelta(minutes=5))
    assert alerts.routine(SMOKE, DAY0 + timedelta(days=6)) is None


def _three_days_of_spells(*others: str) -> RoutineAlerts:
    """The alert on at 09:00 for an hour on three days; ``others`` on then, never off."""
    alerts = RoutineAlerts(UTC)
    for day in range(3):
        on = DAY0 + timedelta(days=day, hours=9)
        alerts.state(ALERT, "safety", "on", on)
        alerts.state(ALERT, "safety", "off", on + timedelta(hours=1))
        for other in others:
            alerts.state(other, "problem", "on", on)
    return alerts


def test_the_learned_spells_are_stored_and_read_back() -> None:
    alerts = _three_days_of_spells()
    now = DAY0 + timedelta(days=3)
    read = RoutineAlerts.from_dict(alerts.as_dict(), UTC)
    assert read.routine(ALERT, now) == alerts.routine(ALERT, now) == 1.0
    assert RoutineAlerts.from_dict({"x": {"cleared": ["bad", 3]}}, UTC).routine("x", now) is None


def test_diagnostics_count_the_alerts_told_as_routine() -> None:
    # Walk26: diagnostics said nothing of why an alert was told low; a count (no ids).
    alerts = _three_days_of_spells("binary_sensor.once")  # never cleared: no routine
    assert alerts.routine_count(DAY0 + timedelta(days=1)) == 0  # one earlier day only
    assert alerts.routine_count(DAY0 + timedelta(days=3)) == 1
    baselines = HomeBaselines(UTC)
    assert baselines.summary()["alerts_told_as_routine"] == 0


def test_a_routine_flag_is_typed_as_what_it_is() -> None:
    # Walk26: a boiler's daily problem flag read "Safety hazard (low)".
    (problem,) = _told("problem", days=4, per_day=3)
    assert problem.anomaly_type == AnomalyType.DEVICE_MALFUNCTION  # "Device fault"
    (tamper,) = _told("tamper", days=4, per_day=3)
    assert tamper.anomaly_type == AnomalyType.SECURITY
    (alert,) = _told("safety", days=4, per_day=3)
    assert alert.anomaly_type == AnomalyType.SAFETY_HAZARD  # an air-raid alert stays one
    # Its first time on is a hazard until the home shows it is routine.
    (first,) = _told("problem", days=1, per_day=1)
    assert first.anomaly_type == AnomalyType.SAFETY_HAZARD


def test_a_routine_alert_told_low_is_shown_not_pushed() -> None:
    assert shown_not_pushed("hazard_detected", "low")
    assert not shown_not_pushed("hazard_detected", "high")  # its first times: pushed
    assert not shown_not_pushed("movement_unusual_for_the_hour", "low")  # other low findings

"""A check's findings carry the rule name, type and severity its kind declares once."""

from __future__ import annotations

from custom_components.anomaly_monitor.core.finding_kind import FindingKind
from custom_components.anomaly_monitor.core.models import AnomalyType, Finding, Severity
from custom_components.anomaly_monitor.core.statistics.durations import ENTRY_LEFT_OPEN

KIND = FindingKind("water_left_running", AnomalyType.SAFETY_HAZARD, Severity.HIGH)


def test_a_kinds_finding_equals_the_finding_written_out() -> None:
    made = KIND.finding(
        evidence=("valve.kitchen",),
        reasoning="Water ran through valve.kitchen for 3 h.",
        recommendation="Close the valve.",
        magnitude=180.0,
    )
    assert made == Finding(
        rule="water_left_running",
        evidence=("valve.kitchen",),
        reasoning="Water ran through valve.kitchen for 3 h.",
        anomaly_type=AnomalyType.SAFETY_HAZARD,
        severity=Severity.HIGH,
        recommendation="Close the valve.",
        magnitude=180.0,
    )
    # The subject defaults to the first evidence entity, as for any finding.
    assert (
        made.signature
        == Finding(
            rule="water_left_running",
            evidence=("valve.kitchen",),
            reasoning="",
            anomaly_type=AnomalyType.SAFETY_HAZARD,
        ).signature
    )


def test_a_finding_may_raise_or_lower_its_kinds_usual_severity() -> None:
    made = KIND.finding(evidence=("valve.kitchen",), reasoning="x", severity=Severity.LOW)
    assert made.severity is Severity.LOW
    assert KIND.finding(evidence=("valve.kitchen",), reasoning="x").severity is Severity.HIGH


def test_the_rest_of_a_finding_passes_through() -> None:
    made = ENTRY_LEFT_OPEN.finding(
        evidence=("binary_sensor.front_door", "person.ann"),
        reasoning="x",
        subject="binary_sensor.front_door",
        context=("person.ann",),
        while_away=True,
        candidates=("binary_sensor.hall_motion",),
    )
    assert (made.rule, made.anomaly_type, made.severity) == (
        "entry_left_open",
        AnomalyType.SECURITY,
        Severity.MEDIUM,
    )
    assert made.context == ("person.ann",)
    assert made.while_away is True
    assert made.candidates == ("binary_sensor.hall_motion",)

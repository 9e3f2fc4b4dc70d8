"""Only a count of openings says an entry while away opened again (``entered_again``).

A duration's magnitude grows at every analysis: read as a count, the lock told unlocked
while the family was away was pushed again when a neighbour let herself in through the
told door, though the entry rules had judged her visit usual.
"""

from __future__ import annotations

from datetime import UTC, datetime

from custom_components.anomaly_monitor.anomalies.entered_again import entered_again
from custom_components.anomaly_monitor.anomalies.open_anomaly import OpenAnomaly
from custom_components.anomaly_monitor.core.models import AnomalyType, Finding, Severity

DOOR = "binary_sensor.front_door"
LOCK = "lock.front_door"
NOW = datetime(2027, 3, 22, 9, 46, tzinfo=UTC)


def _finding(rule: str, magnitude: float | None) -> Finding:
    return Finding(
        rule=rule,
        evidence=(DOOR, LOCK),
        reasoning="Front door is unlocked while nobody is home.",
        anomaly_type=AnomalyType.SECURITY,
        severity=Severity.HIGH,
        magnitude=magnitude,
        subject=DOOR,
        while_away=True,
    )


def _told_unlocked() -> OpenAnomaly:
    anomaly = OpenAnomaly.from_findings(
        [
            _finding("entry_unsecured_while_away", None),
            _finding("state_longer_than_usual", 1521.5),
        ],
        NOW,
    )
    anomaly.readings = {DOOR: "off", LOCK: "unlocked"}
    return anomaly


def test_a_longer_spell_is_no_second_opening() -> None:
    later = [_finding("state_longer_than_usual", 1620.2)]
    assert not entered_again(_told_unlocked(), {DOOR: "on", LOCK: "unlocked"}, later)


def test_a_second_arrival_counted_is_an_opening_again() -> None:
    later = [
        _finding("entry_unsecured_while_away", 2.0),
        _finding("state_longer_than_usual", 1620.2),
    ]
    assert entered_again(_told_unlocked(), {DOOR: "on", LOCK: "unlocked"}, later)
    assert not entered_again(_told_unlocked(), {DOOR: "off", LOCK: "unlocked"}, later)

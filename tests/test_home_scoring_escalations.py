"""The home benchmark counts a graver telling of one anomaly as an escalation, not a re-raise.

An entry while nobody is home (high), then motion inside (the same anomaly, critical,
``escalation: intrusion``) is one incident told once and then told graver, as HA's own
practice for alerts has it. Before session 18 the scorer counted every alarm after the
first as a re-raise; it still does for a second push at the same severity, or for another
anomaly about the same incident.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from benchmark_replay.home.observer import Alarm
from benchmark_replay.home.scoring import escalations

AT = datetime(2026, 1, 17, 2, 50, tzinfo=UTC)


def _alarm(minute: int, severity: str, escalation: str = "", anomaly_id: str = "a1") -> Alarm:
    return Alarm(
        when=AT + timedelta(minutes=minute),
        anomaly_id=anomaly_id,
        evidence=["binary_sensor.back_door"],
        severity=severity,
        anomaly_type="security",
        rule="entry_unsecured_while_away",
        reasoning="",
        recommendation="",
        escalation=escalation,
    )


def test_told_graver_is_an_escalation() -> None:
    assert escalations([_alarm(0, "high"), _alarm(1, "critical", "intrusion")]) == 1


def test_told_again_at_the_same_severity_is_no_escalation() -> None:
    # The push of 953f7ea: "intrusion" at the same severity, a second phone notification.
    assert escalations([_alarm(0, "high"), _alarm(1, "high", "intrusion")]) == 0
    # Opened again after it closed: a re-raise whatever the event says.
    assert escalations([_alarm(0, "high"), _alarm(12, "high", "reopened")]) == 0


def test_graver_but_another_anomaly_or_no_reason_is_no_escalation() -> None:
    # Another anomaly (a second notification) about the same incident.
    other = _alarm(1, "critical", "intrusion", anomaly_id="a2")
    assert escalations([_alarm(0, "high"), other]) == 0
    # The same anomaly told again graver without saying why: not counted as one.
    assert escalations([_alarm(0, "high"), _alarm(1, "critical")]) == 0
    # Graver only once: a third alarm at critical is a re-raise.
    told = [_alarm(0, "high"), _alarm(1, "critical", "intrusion"), _alarm(5, "critical", "graver")]
    assert escalations(told) == 1

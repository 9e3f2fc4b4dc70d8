"""An incident's words: each thing said once, whichever rules found it."""

from __future__ import annotations

from custom_components.anomaly_monitor.core.incidents import summary
from custom_components.anomaly_monitor.core.models import (
    HOME_SUBJECT,
    AnomalyType,
    Finding,
    Severity,
)

HALL = "binary_sensor.hall_motion"


def _finding(
    rule: str,
    reasoning: str,
    evidence: tuple[str, ...],
    context: tuple[str, ...] = (),
    anomaly_type: str = AnomalyType.OCCUPANCY_MISMATCH,
) -> Finding:
    return Finding(
        rule=rule,
        evidence=evidence,
        reasoning=reasoning,
        anomaly_type=anomaly_type,
        severity=Severity.HIGH,
        subject=HOME_SUBJECT,
        context=context,
    )


def test_two_rules_telling_the_same_motion_say_it_once() -> None:
    rule = _finding(
        "motion_while_away",
        "Motion in Hall while nobody is home.",
        (HALL, "lock.front_door"),
        context=("lock.front_door",),
    )
    statistic = _finding(
        "activity_while_away",
        "Motion was detected by binary_sensor.hall_motion while everyone tracked was away.",
        (HALL, "person.alice"),
        context=("person.alice",),
    )
    told = summary([rule, statistic])
    assert told.reasoning == "Motion in Hall while nobody is home."
    assert set(told.evidence) == {HALL, "lock.front_door", "person.alice"}


def test_what_another_device_or_kind_adds_is_still_said() -> None:
    rule = _finding("motion_while_away", "Motion in Hall while nobody is home.", (HALL,))
    more = _finding(
        "activity_while_away",
        "Motion was detected by hall and kitchen motion while everyone tracked was away.",
        (HALL, "binary_sensor.kitchen_motion"),
    )
    assert summary([rule, more]).reasoning.count("Motion") == 2
    door = _finding(
        "entry_unsecured_while_away",
        "Front door is open while nobody is home.",
        (HALL,),
        anomaly_type=AnomalyType.SECURITY,
    )
    assert "Front door is open" in summary([rule, door]).reasoning

"""The door somebody left by on the way to the room they lie still in is that stillness.

The grandmother opened her bedroom door at 03:00 and shut herself in the guest bathroom at
03:01, where she fell; "last seen in the guest bathroom" was told at 03:21 with the
bathroom's door as its evidence (the room has no motion sensor of its own: walk 42), and
"the bedroom door open for 49 min" at 03:49 was pushed as news, a second notification of
one fall (set 15, Lima). A door moved within minutes before somebody lay still in a room,
wherever it is, with somebody moving after it, is the way they went: the stillness's
answer, shown and not pushed. Not a door moved long before, nor one nothing moved after,
and not for a stillness of the whole home (no room of its own).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.anomalies.hazard_answer import answers_a_told_hazard
from custom_components.anomaly_monitor.anomalies.open_anomaly import OpenAnomaly
from custom_components.anomaly_monitor.core.models import EntityState

from .tracker_home import open_anomaly, state

SHUT_IN = datetime(2027, 7, 27, 8, 1, tzinfo=UTC)  # the bathroom door shut behind her
TOLD = SHUT_IN + timedelta(minutes=20)
BATH = "binary_sensor.guest_bathroom_door"
BEDROOM = "binary_sensor.grandmother_bedroom_door"
HALL_MOTION = "binary_sensor.hall_motion"


def _anomaly(rule: str, subject: str, evidence: list[str], kind: str) -> OpenAnomaly:
    return open_anomaly(rule, subject, evidence, kind, TOLD)


def _home(opened: datetime, walked_on: bool) -> dict[str, EntityState]:
    """The hall's motion last changed as its hold ran out after she passed (or before)."""
    hall = SHUT_IN + timedelta(minutes=2) if walked_on else opened - timedelta(minutes=30)
    return {
        BATH: state(BATH, "off", "Guest bathroom", "door", changed=SHUT_IN),
        BEDROOM: state(BEDROOM, "on", "Grandmother's bedroom", "door", changed=opened),
        HALL_MOTION: state(HALL_MOTION, "off", "Hall", "motion", changed=hall),
    }


def _answers(
    opened_before: float, rule: str = "still_in_room_far_longer", *, walked_on: bool = True
) -> str | None:
    """Whether the bedroom door, open since ``opened_before`` min before she shut herself
    in, told open far longer than usual 28 min after the stillness, is its answer."""
    still = _anomaly(rule, "home", [BATH], "safety_hazard")
    left = _anomaly("state_longer_than_usual", BEDROOM, [BEDROOM], "security")
    now = TOLD + timedelta(minutes=28)
    home = _home(SHUT_IN - timedelta(minutes=opened_before), walked_on)
    return answers_a_told_hazard(left, [still], now, home)


def test_the_door_she_left_by_a_minute_before_is_her_stillness() -> None:
    assert _answers(1) == "still_in_room_far_longer:home"


def test_a_door_moved_long_before_or_with_nobody_after_or_a_whole_home_stillness_is_told() -> None:
    assert _answers(20) is None  # long before she went: not the way she went
    assert _answers(1, walked_on=False) is None  # nothing moved after it: not hers
    assert _answers(1, "no_movement_while_home") is None  # no room of its own

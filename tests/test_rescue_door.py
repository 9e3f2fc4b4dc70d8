"""The door of the room somebody lay still in, opened as the stillness ended, is the rescue.

Fernanda fainted behind the bathroom door; "last seen in the bathroom" was told at 10:35.
Her mother came home at 11:49, the stillness was over, and at 11:52 she opened the
bathroom door and left it open while she called the ambulance: "the bathroom door stayed
open for 15 min" was told at 12:07 as news, a second notification of the same fall (set
35 c). A door of the hazard's room opened within ``RESPONSE`` after a stillness in a room
ended, and left open, answers it. Not one opened long after, not another room's door, and
not after a stillness of the whole home (no room of its own).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.anomalies.acknowledged_seen import seen_as
from custom_components.anomaly_monitor.anomalies.already_told import AlreadyTold
from custom_components.anomaly_monitor.anomalies.hazard_answer import answers_a_told_hazard
from custom_components.anomaly_monitor.anomalies.open_anomaly import OpenAnomaly
from custom_components.anomaly_monitor.core.models import EntityState

from .tracker_home import open_anomaly, state

TOLD = datetime(2027, 6, 21, 13, 35, 59, tzinfo=UTC)
OVER = TOLD + timedelta(minutes=71)
BATH = "binary_sensor.bathroom_door"
BED = "binary_sensor.bed_occupancy"
HALL = "binary_sensor.hall_motion"
FRONT = "binary_sensor.front_door"


def _anomaly(rule: str, subject: str, evidence: list[str], kind: str) -> OpenAnomaly:
    return open_anomaly(rule, subject, evidence, kind, TOLD)


def _stillness(rule: str = "still_in_room_far_longer") -> OpenAnomaly:
    told = _anomaly(rule, "home", [BATH, BED, HALL], "safety_hazard")
    told.ended = OVER.isoformat()
    return told


def _home(door: str, opened: datetime) -> dict[str, EntityState]:
    home = {
        BATH: state(BATH, "off", "Bathroom", "door", changed=TOLD - timedelta(minutes=21)),
        BED: state(BED, "off", "Bedroom", "occupancy", changed=TOLD - timedelta(minutes=25)),
        HALL: state(HALL, "off", "Hall", "motion", changed=OVER),
        FRONT: state(FRONT, "off", "Hall", "door", changed=OVER),
    }
    home[door] = state(door, "on", home[door].info.area, "door", changed=opened)
    return home


def _answers(door: str, opened_after: float, told: OpenAnomaly) -> str | None:
    opened = OVER + timedelta(minutes=opened_after)
    left = _anomaly("entry_left_open", door, [door], "security")
    now = opened + timedelta(minutes=15)
    return answers_a_told_hazard(left, [], now, _home(door, opened), ended=[told])


def test_the_bathroom_door_opened_as_the_stillness_ended_answers_it() -> None:
    told = _stillness()
    assert seen_as(told, OVER).in_a_room
    assert _answers(BATH, 3, told) == told.signature


def test_opened_long_after_or_another_rooms_door_or_a_whole_home_stillness_is_told() -> None:
    assert _answers(BATH, 40, _stillness()) is None  # long after: news
    assert _answers(FRONT, 3, _stillness()) is None  # not the room she lay in
    assert _answers(BATH, 3, _stillness("no_movement_while_home")) is None


def test_the_rescue_door_left_open_once_it_was_over_is_not_shown_on_its_own() -> None:
    """Walk 43: the WC door opened as whoever came found her (30 s before the analysis read
    the stillness over), left open: "WC door left open … Check that the door is closed" was
    shown on its own beside "Over: Possible fall in WC" (a part of an incident over stands
    alone). It starts acknowledged with the stillness; while the stillness is still told,
    it is shown in its notification as ever."""
    opened = OVER - timedelta(seconds=30)
    now = opened + timedelta(minutes=15)
    left = _anomaly("entry_left_open", BATH, [BATH], "security")
    told = _stillness()
    assert AlreadyTold().continues(left, [], now, _home(BATH, opened), ended=[told]) is True
    assert left.part_of == told.signature

    still_told = _anomaly("still_in_room_far_longer", "home", [BATH, BED, HALL], "safety_hazard")
    left = _anomaly("entry_left_open", BATH, [BATH], "security")
    assert AlreadyTold().continues(left, [still_told], now, _home(BATH, opened)) is False
    assert left.part_of == still_told.signature


def test_a_door_left_open_after_a_whole_home_stillness_is_still_shown() -> None:
    """Nobody moving anywhere has no room: the door left open after it is not its rescue."""
    opened = OVER + timedelta(minutes=3)
    left = _anomaly("entry_left_open", BATH, [BATH], "security")
    told = _stillness("no_movement_while_home")
    now = opened + timedelta(minutes=15)
    assert AlreadyTold().continues(left, [], now, _home(BATH, opened), ended=[told]) is not True

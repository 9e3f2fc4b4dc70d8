"""A graver finding that shows a told device is that incident become graver: one incident.

A bed not left by its morning hour is told (about the bed); minutes later nobody has moved
anywhere, the bed among the evidence: the stillness joins the bed's incident and is told
at once as graver (its escalation), not as a second incident. A bathroom door told open
far longer, then the person in the bathroom lying still (the door among its evidence):
the same. A graver finding that does not show the told device is a new incident.
"""

from __future__ import annotations

from datetime import timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.escalation import Escalation
from custom_components.anomaly_monitor.core.models import HOME_SUBJECT, Finding, Severity

BED = "binary_sensor.letto_nonno"
ROOM_MOTION = "binary_sensor.movimento_camera"
HALL_MOTION = "binary_sensor.movimento_corridoio"
BATH_DOOR = "binary_sensor.puerta_bano"
SMOKE = "binary_sensor.fumo_cucina"

NOT_UP = Finding(
    "routine_missed", (BED,), "Letto nonno is left by 06:45 on 13 of 13 mornings; not today.",
    "behavioural", Severity.MEDIUM, subject=BED,
)  # fmt: skip
NOBODY_MOVING = Finding(
    "no_movement_while_home", (BED, ROOM_MOTION, HALL_MOTION),
    "Someone is home, but no motion sensor has seen movement for 2 h 50 min.",
    "safety_hazard", Severity.HIGH, subject=HOME_SUBJECT,
)  # fmt: skip
DOOR_OPEN_LONG = Finding(
    "state_longer_than_usual", (BATH_DOOR,), "Puerta baño has been open for 10 min.",
    "security", Severity.MEDIUM, subject=BATH_DOOR,
)  # fmt: skip
STILL_IN_BATHROOM = Finding(
    "still_in_room_far_longer", (BATH_DOOR, HALL_MOTION),
    "Someone got out of bed and has been in Baño for 40 min.",
    "safety_hazard", Severity.HIGH, subject=HOME_SUBJECT,
)  # fmt: skip
SMOKE_FOUND = Finding(
    "hazard_detected", (SMOKE,), "Smoke detected in Cucina.",
    "safety_hazard", Severity.CRITICAL, subject=SMOKE,
)  # fmt: skip


async def test_the_stillness_showing_the_told_bed_escalates_its_incident(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "not-up")
    now = dt_util.utcnow()
    (bed,) = tracker.update([NOT_UP], now).opened
    changes = tracker.update([NOT_UP, NOBODY_MOVING], now + timedelta(minutes=13))
    # Told again at once, as the same incident become graver.
    assert [a.signature for a in changes.opened] == [bed.signature]
    assert list(tracker.open) == [bed.signature]
    assert bed.escalation == Escalation.GRAVER.value
    assert bed.severity == "high"
    assert set(bed.rules) == {"routine_missed", "no_movement_while_home"}


async def test_the_stillness_in_the_room_of_the_told_door_escalates_it(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "fall")
    now = dt_util.utcnow()
    (door,) = tracker.update([DOOR_OPEN_LONG], now).opened
    changes = tracker.update([DOOR_OPEN_LONG, STILL_IN_BATHROOM], now + timedelta(minutes=30))
    assert [a.signature for a in changes.opened] == [door.signature]
    assert door.escalation == Escalation.GRAVER.value
    # Later signs of the same stillness join it too (one incident key among its members).
    later = tracker.update(
        [DOOR_OPEN_LONG, STILL_IN_BATHROOM, NOBODY_MOVING], now + timedelta(minutes=60)
    )
    assert later.opened == []
    assert list(tracker.open) == [door.signature]


async def test_a_graver_finding_that_does_not_show_the_told_device_is_new(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "smoke")
    now = dt_util.utcnow()
    (bed,) = tracker.update([NOT_UP], now).opened
    (smoke,) = tracker.update([NOT_UP, SMOKE_FOUND], now + timedelta(minutes=5)).opened
    assert smoke.signature != bed.signature
    assert set(tracker.open) == {bed.signature, smoke.signature}
    assert bed.escalation == ""


async def test_a_finding_no_graver_than_the_told_one_does_not_join_it(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "same-rank")
    now = dt_util.utcnow()
    tracker.update([NOBODY_MOVING], now)
    # The door told after the stillness (milder): not made part of it by this notion.
    changes = tracker.update([NOBODY_MOVING, DOOR_OPEN_LONG], now + timedelta(minutes=5))
    assert len(changes.opened) == 1
    assert len(tracker.open) == 2

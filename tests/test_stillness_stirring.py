"""A told stillness stays one trouble while she only stirs where she lies.

Granny slid off her bed; "still in her room" was told. Her room's sensor sees her arm move
on the floor now and then: nothing else in the house moved, her bed is still empty. The
stillness is not over (told again after each stir, it was three notifications of one
fall). Her bed lain on again, another room's movement, or her room's sensor reading
movement now ends it as its rules let it; a cat on the porch (outside the house) and a
restart (every state set afresh, reading ``off``) do not.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.anomalies.ha_start import StartSpan
from custom_components.anomaly_monitor.anomalies.open_anomaly import OpenAnomaly
from custom_components.anomaly_monitor.anomalies.stillness_on import lies_still
from custom_components.anomaly_monitor.core.models import EntityState

from .core_factories import entity

TOLD = datetime(2027, 1, 21, 3, 24, tzinfo=UTC)
ROOM = "binary_sensor.granny_room_occupancy"
BED = "binary_sensor.granny_bed_occupancy"
HALL = "binary_sensor.hall_motion"
PORCH = "binary_sensor.porch_motion"
AREAS = {ROOM: "Granny room", BED: "Granny room", HALL: "Hall", PORCH: "Porch"}


def _told(rule: str = "still_in_room_far_longer", *evidence: str) -> OpenAnomaly:
    evidence = evidence or (BED, ROOM)
    return OpenAnomaly(
        signature=f"{rule}|home",
        rule=rule,
        subject="home",
        evidence=list(evidence),
        reasoning="Someone is home and was last seen in Granny room 40 min ago.",
        anomaly_type="safety_hazard",
        severity="high",
        recommendation="Check on the person in Granny room.",
        first_seen=TOLD.isoformat(),
        last_seen=TOLD.isoformat(),
        readings=dict.fromkeys(evidence, "off"),
    )


def _home(**changed: tuple[str, float]) -> dict[str, EntityState]:
    """Every sensor ``off`` since an hour before it was told, but those ``changed``
    (name: (state, minutes after it was told))."""
    names = {"room": ROOM, "bed": BED, "hall": HALL, "porch": PORCH}
    states = {}
    for name, entity_id in names.items():
        state, minutes = changed.get(name, ("off", -60.0))
        sensor = entity(entity_id, state, area=AREAS[entity_id], device_class="occupancy")
        states[entity_id] = replace(sensor, last_changed=TOLD + timedelta(minutes=minutes))
    return states


def test_stirring_where_she_lies_keeps_the_stillness_open() -> None:
    assert lies_still(_told(), _home())
    assert lies_still(_told(), _home(room=("off", 17)))  # an arm moved at 03:40, off again
    assert lies_still(_told(), _home(room=("off", 106), porch=("off", 100)))  # the porch cat


def test_back_in_bed_somebody_elsewhere_or_moving_now_ends_it() -> None:
    assert not lies_still(_told(), _home(bed=("on", 150)))  # lain on again
    assert not lies_still(_told(), _home(room=("off", 17), hall=("off", 150)))  # the hall
    assert not lies_still(_told(), _home(room=("on", 17)))  # her room reads movement now
    answered = _told()
    answered.acknowledged = True
    assert not lies_still(answered, _home(room=("off", 17)))


def test_a_restart_is_no_movement() -> None:
    start = StartSpan(TOLD + timedelta(minutes=50), TOLD + timedelta(minutes=51))
    restarted = _home(hall=("off", 50.5), room=("off", 50.5), bed=("off", 50.5))
    assert not lies_still(_told(), restarted)  # HA's start unknown: the hall "changed"
    assert lies_still(_told(), restarted, start)
    assert not lies_still(_told(), _home(hall=("on", 50.5)), start)  # moving as it started


def test_a_stillness_of_the_whole_home_ends_with_any_motion_since() -> None:
    """ "Nobody up yet" (every motion sensor its evidence) has no room where she lies: the
    kitchen's motion on and off again between two analyses is somebody up (walk 38)."""
    whole = _told("no_movement_while_home", BED, ROOM, HALL)
    assert lies_still(whole, _home())  # nothing moved since
    assert not lies_still(whole, _home(hall=("off", 130)))  # moved and off again: up
    assert not lies_still(whole, _home(room=("off", 17)))

"""A room's reading going off is held as a told problem's doing only when that problem
shows a device that can act on the room (``anomalies/reading_consequence``).

Walk of session 36: "Nobody up yet" (a safety hazard shown by the bedroom, hall and
kitchen motion sensors) was open when the fridge's thermometer left its band; the fridge
was held as a "Then:" line of the hazard, and acknowledging the hazard (the person was
fine) took the warm fridge off every screen. A motion sensor changes nothing in a room;
the fridge door left open does.
"""

from __future__ import annotations

from datetime import timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.models import HOME_SUBJECT, Severity

from .tracker_home import finding, outcome, state

FRIDGE_TEMP = "sensor.fridge_temperature"
FRIDGE_DOOR = "binary_sensor.fridge_door"
BEDROOM = "binary_sensor.bedroom_motion"
HALL = "binary_sensor.hall_motion"
KITCHEN = "binary_sensor.kitchen_motion"

NOBODY_UP = finding(
    "no_movement_while_home",
    (BEDROOM, HALL, KITCHEN),
    "safety_hazard",
    Severity.HIGH,
    subject=HOME_SUBJECT,
)
DOOR_OPEN = finding("state_longer_than_usual", FRIDGE_DOOR, "behavioral")
WARM = finding("reading_beyond_its_steady_band", FRIDGE_TEMP, "device_malfunction", magnitude=6.0)


def _home(still_since, warm_since, door: str = "off"):
    return {
        FRIDGE_TEMP: state(FRIDGE_TEMP, "12", "Kitchen", "temperature", "°C", changed=warm_since),
        FRIDGE_DOOR: state(FRIDGE_DOOR, door, "Kitchen", "door", changed=still_since),
        BEDROOM: state(BEDROOM, "off", "Bedroom", "motion", changed=still_since),
        HALL: state(HALL, "off", "Hall", "motion", changed=still_since),
        KITCHEN: state(KITCHEN, "off", "Kitchen", "motion", changed=still_since),
    }


async def test_a_warm_fridge_is_not_part_of_nobody_moving(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "walk36")
    now = dt_util.utcnow()
    home = _home(now - timedelta(hours=13), now - timedelta(minutes=75))
    assert outcome(tracker, [NOBODY_UP], now, home) == (["no_movement_while_home"], [])
    later = now + timedelta(minutes=5)
    # Its own notification, not a line under the hazard.
    assert outcome(tracker, [NOBODY_UP, WARM], later, home) == (
        ["reading_beyond_its_steady_band"],
        [],
    )
    fridge = tracker.open[WARM.signature]
    assert fridge.part_of == ""
    # The person was fine: the fridge is still in front of the homeowner.
    tracker.acknowledge(tracker.open[NOBODY_UP.signature].key)
    assert not tracker.open[WARM.signature].acknowledged


async def test_a_warm_fridge_is_part_of_its_door_left_open(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "walk36")
    now = dt_util.utcnow()
    home = _home(now - timedelta(hours=2), now - timedelta(minutes=75), door="on")
    assert outcome(tracker, [DOOR_OPEN], now, home) == (["state_longer_than_usual"], [])
    later = now + timedelta(minutes=5)
    assert outcome(tracker, [DOOR_OPEN, WARM], later, home) == (
        [],
        ["reading_beyond_its_steady_band"],
    )
    assert tracker.open[WARM.signature].part_of == DOOR_OPEN.signature


async def test_a_fridge_door_left_open_before_nobody_up_is_told(hass: HomeAssistant) -> None:
    """Walk 37 (C): the fridge door open since 90 min before "Nobody up yet" was told was
    held as the household's answer to it (a stillness of the whole home made every room
    its "own room"), and the warm fridge went in with it."""
    tracker = AnomalyTracker(hass, "walk37")
    now = dt_util.utcnow()
    home = _home(now - timedelta(hours=13), now - timedelta(minutes=75), door="on")
    home[FRIDGE_DOOR] = state(
        FRIDGE_DOOR, "on", "Kitchen", "door", changed=now - timedelta(minutes=90)
    )
    assert outcome(tracker, [NOBODY_UP], now, home) == (["no_movement_while_home"], [])
    later = now + timedelta(minutes=5)
    assert outcome(tracker, [NOBODY_UP, DOOR_OPEN], later, home) == (
        ["state_longer_than_usual"],
        [],
    )
    assert tracker.open[DOOR_OPEN.signature].part_of == ""


async def test_a_door_left_open_on_the_way_to_a_fall_is_part_of_it(hass: HomeAssistant) -> None:
    """Set 15 (Lima): the grandmother's bedroom door, opened at 03:00 on her way to the
    bathroom where she fell, is the fall's story: a stillness last seen in a room has that
    room, and the door opened before it was told is shown in it, not pushed."""
    bath = "binary_sensor.bathroom_motion"
    bedroom_door = "binary_sensor.bedroom_door"
    still = finding(
        "still_in_room_far_longer",
        (bath, HALL),
        "safety_hazard",
        Severity.HIGH,
        subject=HOME_SUBJECT,
    )
    door_open = finding("state_longer_than_usual", bedroom_door, "behavioral")
    tracker = AnomalyTracker(hass, "set15")
    now = dt_util.utcnow()
    home = {
        bath: state(bath, "off", "Hall", "motion", changed=now - timedelta(minutes=20)),
        HALL: state(HALL, "off", "Hall", "motion", changed=now - timedelta(minutes=21)),
        bedroom_door: state(
            bedroom_door, "on", "Hall", "door", changed=now - timedelta(minutes=21)
        ),
    }
    assert outcome(tracker, [still], now, home) == (["still_in_room_far_longer"], [])
    later = now + timedelta(minutes=28)
    opened, _ = outcome(tracker, [still, door_open], later, home)
    assert opened == []
    assert tracker.open[door_open.signature].part_of == still.signature

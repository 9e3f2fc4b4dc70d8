"""What makes two findings one trouble (``anomalies/same_trouble``): the rows added in
session 27, each with what stays news.

Set 15 (Lalitpur): the motor ran dry and the ground tank was empty from 19:00; both told
at 19:15 in the same second. Set 20 (Vilnius): the district heating failed; the child's
room below its band told at 04:20, the radiator valve heating without warming pushed at
09:00. Set 19 (Hamburg): gas told and acknowledged, the fitter let in at 20:10, "the lock
unlocked 20 min" pushed at 20:30. Shipped scenario 3: a fall told by one stillness rule,
then pushed by the other: a stillness told lasts while nothing has moved since.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.open_anomaly import (
    CLEAR_AFTER,
    DETECTOR_CLEAR_AFTER,
)
from custom_components.anomaly_monitor.anomalies.same_trouble import SAME_TROUBLE
from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.models import HOME_SUBJECT, EntityState, Severity

from .tracker_home import finding, outcome, state

MOTOR = "sensor.motor_power"
GROUND_TANK = "sensor.ground_tank_level"
CHILD_ROOM = "sensor.child_room_temperature"
VALVE = "climate.living_room_valve"
VALVE_TEMP = "sensor.living_room_valve_temperature"
GAS = "binary_sensor.bathroom_gas"
LOCK = "lock.front_door"
HALL_MOTION = "binary_sensor.hall_motion"
KITCHEN_MOTION = "binary_sensor.kitchen_motion"
FRONT_DOOR = "binary_sensor.front_door_contact"

BELOW_DRAW = finding("running_far_below_its_draw", MOTOR, "device_malfunction", magnitude=-195)
TANK_LOW = finding("reading_far_beyond_its_range", GROUND_TANK, "device_malfunction", magnitude=-46)
COLD_ROOM = finding(
    "reading_beyond_its_steady_band", CHILD_ROOM, "device_malfunction", magnitude=-0.5
)
NOT_WARMING = finding("heating_not_warming", (VALVE, VALVE_TEMP), "device_malfunction")
GAS_ON = finding("hazard_detected", GAS, "safety_hazard", Severity.CRITICAL)
LOCK_LONG = finding("state_longer_than_usual", LOCK, "security")
STILL_IN_HALL = finding("still_in_room_far_longer", HALL_MOTION, "safety_hazard", Severity.HIGH)
NO_MOVEMENT = finding(
    "no_movement_while_home",
    (HALL_MOTION, KITCHEN_MOTION),
    "safety_hazard",
    Severity.HIGH,
    subject=HOME_SUBJECT,
)


def _pump(motor: datetime, tank: datetime) -> dict[str, EntityState]:
    return {
        MOTOR: state(MOTOR, "420.0", "Pump room", "power", "W", changed=motor),
        GROUND_TANK: state(GROUND_TANK, "3", "Yard", None, "%", changed=tank),
    }


async def test_readings_of_one_onset_in_one_analysis_are_told_once(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "pump")
    onset = dt_util.utcnow()
    home = _pump(onset + timedelta(seconds=6), onset)
    now = onset + timedelta(minutes=15)
    assert outcome(tracker, [BELOW_DRAW, TANK_LOW], now, home) == (
        ["running_far_below_its_draw"],
        ["reading_far_beyond_its_range"],
    )
    tracker.acknowledge(tracker.open[BELOW_DRAW.signature].key)
    assert tracker.open[TANK_LOW.signature].acknowledged


async def test_another_moment_a_later_analysis_or_away_is_news(hass: HomeAssistant) -> None:
    onset = dt_util.utcnow()
    now = onset + timedelta(minutes=15)
    away_tank = finding(
        "reading_far_beyond_its_range", GROUND_TANK, "device_malfunction", while_away=True
    )
    cases = {
        "another moment": (_pump(onset, onset + timedelta(minutes=10)), TANK_LOW),
        "while away": (_pump(onset, onset), away_tank),
    }
    for name, (home, second) in cases.items():
        tracker = AnomalyTracker(hass, name)
        opened, shown = outcome(tracker, [BELOW_DRAW, second], now, home, not second.while_away)
        assert (sorted(opened), shown) == (
            sorted(["running_far_below_its_draw", "reading_far_beyond_its_range"]),
            [],
        ), name
    # Found by a later analysis: news, though both began together.
    tracker = AnomalyTracker(hass, "later")
    home = _pump(onset, onset)
    outcome(tracker, [BELOW_DRAW], now, home)
    later = now + timedelta(minutes=5)
    assert outcome(tracker, [BELOW_DRAW, TANK_LOW], later, home) == (
        ["reading_far_beyond_its_range"],
        [],
    )


def _flat(now: datetime, child: str = "18.6") -> dict[str, EntityState]:
    return {
        CHILD_ROOM: state(CHILD_ROOM, child, "Child room", "temperature", "°C", changed=now),
        VALVE: state(VALVE, "heat", "Living room", changed=now - timedelta(hours=6)),
        VALVE_TEMP: state(VALVE_TEMP, "18.2", "Living room", "temperature", "°C", changed=now),
    }


async def test_heating_failing_while_a_told_cold_room_lasts_is_that_heat_loss(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "district heating")
    cold = dt_util.utcnow()
    assert outcome(tracker, [COLD_ROOM], cold, _flat(cold)) == (
        ["reading_beyond_its_steady_band"],
        [],
    )
    later = cold + timedelta(hours=4, minutes=40)
    assert outcome(tracker, [COLD_ROOM, NOT_WARMING], later, _flat(later)) == (
        [],
        ["heating_not_warming"],
    )
    assert tracker.open[NOT_WARMING.signature].part_of == COLD_ROOM.signature


async def test_heating_failing_once_the_band_moved_on_and_the_room_still_cold_is_shown(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "still cold")
    cold = dt_util.utcnow()
    outcome(tracker, [COLD_ROOM], cold, _flat(cold))
    now = cold
    for _ in range(3):  # the band rule's window moved on: over, the room as cold
        now += CLEAR_AFTER
        outcome(tracker, [], now, _flat(now, child="18.1"))
    assert COLD_ROOM.signature in tracker.ended
    now += timedelta(hours=4)
    assert outcome(tracker, [NOT_WARMING], now, _flat(now, child="17.4")) == (
        [],
        ["heating_not_warming"],
    )


async def test_heating_failing_once_the_cold_room_is_over_is_news(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "over")
    cold = dt_util.utcnow()
    outcome(tracker, [COLD_ROOM], cold, _flat(cold))
    now = cold
    for _ in range(3):  # back in its band: no longer found, over past the hysteresis
        now += CLEAR_AFTER
        outcome(tracker, [], now, _flat(now, child="20.8"))
    assert COLD_ROOM.signature not in tracker.open
    now += timedelta(hours=1)
    assert outcome(tracker, [NOT_WARMING], now, _flat(now, child="20.8")) == (
        ["heating_not_warming"],
        [],
    )


def _hallway(gas: datetime, lock: datetime, *, gas_state: str = "on") -> dict[str, EntityState]:
    return {
        GAS: state(GAS, gas_state, "Bathroom", "gas", changed=gas),
        LOCK: state(LOCK, "unlocked", "Hallway", changed=lock),
    }


async def test_the_door_opened_while_an_acknowledged_hazard_lasts_is_its_handling(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "gas fitter")
    gas = dt_util.utcnow()
    fitter = gas + timedelta(minutes=30)
    outcome(tracker, [GAS_ON], gas, _hallway(gas, gas - timedelta(hours=3)))
    tracker.acknowledge(tracker.open[GAS_ON.signature].key)
    now = fitter + timedelta(minutes=20)
    assert outcome(tracker, [GAS_ON, LOCK_LONG], now, _hallway(gas, fitter)) == (
        [],
        ["state_longer_than_usual"],
    )


async def test_the_door_opened_after_the_gas_cleared_and_ended_is_its_handling(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "over")
    gas = dt_util.utcnow()
    outcome(tracker, [GAS_ON], gas, _hallway(gas, gas - timedelta(hours=3)))
    tracker.acknowledge(tracker.open[GAS_ON.signature].key)
    cleared = gas + timedelta(minutes=25)
    now = cleared
    for _ in range(3):  # a detector's hazard is over once clear this long
        home = _hallway(cleared, gas - timedelta(hours=3), gas_state="off")
        outcome(tracker, [], now, home)
        now += DETECTOR_CLEAR_AFTER / 2
    assert GAS_ON.signature not in tracker.open
    fitter = cleared + timedelta(minutes=5)
    now = fitter + timedelta(minutes=20)
    home = _hallway(cleared, fitter, gas_state="off")
    assert outcome(tracker, [LOCK_LONG], now, home) == ([], ["state_longer_than_usual"])


async def test_a_door_not_acknowledged_before_or_away_or_long_after_is_news(
    hass: HomeAssistant,
) -> None:
    gas = dt_util.utcnow()
    fitter = gas + timedelta(minutes=30)
    away_lock = finding("state_longer_than_usual", LOCK, "security", while_away=True)
    cases = {
        "not acknowledged": (False, fitter, LOCK_LONG),
        "unlocked before the gas": (True, gas - timedelta(minutes=20), LOCK_LONG),
        "nobody home": (True, fitter, away_lock),
        "an hour into it": (True, gas + timedelta(hours=1), LOCK_LONG),
    }
    for name, (acknowledge, lock, second) in cases.items():
        tracker = AnomalyTracker(hass, name)
        outcome(tracker, [GAS_ON], gas, _hallway(gas, lock if lock < gas else gas))
        if acknowledge:
            tracker.acknowledge(tracker.open[GAS_ON.signature].key)
        now = max(lock, fitter) + timedelta(minutes=20)
        home = not second.while_away
        found = outcome(tracker, [GAS_ON, second], now, _hallway(gas, lock), home)
        assert found == (["state_longer_than_usual"], []), name


async def test_a_break_in_or_a_new_hazard_during_an_acknowledged_hazard_is_pushed(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "pushed")
    gas = dt_util.utcnow()
    motion = "binary_sensor.living_motion"
    leak = "binary_sensor.kitchen_leak"
    home = {
        **_hallway(gas, gas - timedelta(hours=3)),
        motion: state(motion, "on", "Living room", "motion", changed=gas + timedelta(minutes=5)),
        leak: state(leak, "on", "Kitchen", "moisture", changed=gas + timedelta(minutes=5)),
    }
    outcome(tracker, [GAS_ON], gas, home, False)
    tracker.acknowledge(tracker.open[GAS_ON.signature].key)
    inside = finding("motion_while_away", motion, "security", Severity.HIGH, while_away=True)
    flood = finding("hazard_detected", leak, "safety_hazard", Severity.CRITICAL)
    now = gas + timedelta(minutes=10)
    opened, shown = outcome(tracker, [GAS_ON, inside, flood], now, home, False)
    assert (sorted(opened), shown) == (sorted(["motion_while_away", "hazard_detected"]), [])


def _still(last_move: datetime, door: datetime | None = None) -> dict[str, EntityState]:
    return {
        HALL_MOTION: state(HALL_MOTION, "off", "Hallway", "motion", changed=last_move),
        KITCHEN_MOTION: state(KITCHEN_MOTION, "off", "Kitchen", "motion", changed=last_move),
        FRONT_DOOR: state(FRONT_DOOR, "off", "Hallway", "door", changed=door or last_move),
    }


def _over(tracker: AnomalyTracker, now: datetime, home: dict[str, EntityState]) -> datetime:
    for _ in range(3):
        now += CLEAR_AFTER
        outcome(tracker, [], now, home)
    return now


async def test_a_told_stillness_lasts_while_nothing_moved_and_the_next_sign_joins_it(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "fall")
    fell = dt_util.utcnow()
    told = fell + timedelta(hours=1, minutes=25)
    home = _still(fell)
    assert outcome(tracker, [STILL_IN_HALL], told, home) == (["still_in_room_far_longer"], [])
    now = _over(tracker, told, home)  # its rule no longer finds it: she has not moved
    assert STILL_IN_HALL.signature in tracker.open
    assert outcome(tracker, [NO_MOVEMENT], now + timedelta(minutes=30), home) == ([], [])
    (fall,) = tracker.open.values()
    assert set(fall.rules) == {"still_in_room_far_longer", "no_movement_while_home"}


async def test_stillness_after_a_move_or_an_answer_is_told(hass: HomeAssistant) -> None:
    fell = dt_util.utcnow()
    told = fell + timedelta(hours=1, minutes=25)
    for name in ("moved", "door opened", "answered"):
        tracker = AnomalyTracker(hass, name)
        outcome(tracker, [STILL_IN_HALL], told, _still(fell))
        if name == "answered":
            tracker.acknowledge(tracker.open[STILL_IN_HALL.signature].key)
        moved = told + timedelta(minutes=10)
        home = {
            "moved": _still(moved),
            "door opened": _still(fell, door=moved),
            "answered": _still(fell),
        }[name]
        now = _over(tracker, told, home)
        assert STILL_IN_HALL.signature not in tracker.open, name
        found = outcome(tracker, [NO_MOVEMENT], now + timedelta(minutes=30), home)
        assert found == (["no_movement_while_home"], []), name


def test_only_the_rows_that_say_so_hold_a_hazard_or_somebody_inside() -> None:
    hazards = {row.name for row in SAME_TROUBLE if row.holds_a_hazard}
    inside = {row.name for row in SAME_TROUBLE if row.holds_somebody_inside}
    assert hazards == {"its heat", "the heat spell"}
    # A told hazard's answer holds somebody inside only when they were at the hazard before
    # the door opened (``at_the_hazard``; ``tests/test_at_the_hazard.py``); somebody come to
    # a told hazard's own room while it is found is its help (``at_the_hazard_room``).
    assert inside == {"the stay", "answer to a told hazard", "somebody at a told hazard"}

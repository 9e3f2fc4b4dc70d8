"""Nobody moving is answered by what the household does once it is told, not before.

"Nobody up yet" is a stillness of the whole home: no room is its own, and nothing done
before it was told answers it (nobody was moving; what changed then is the home's own,
or Home Assistant setting a state as it started). Walk of session 39 (C): the fridge
door, open since 09:49 and read afresh at HA's start two minutes before the hazard was
told, was folded into it as its answer ("Then:" line, answered with it); the front door
lock, unlocked since HA's start, was told an hour later as the over hazard's answer:
shown, never pushed. What the household does after it is told (the neighbour opening
the front door) stays its answer.
"""

from __future__ import annotations

from datetime import timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.models import HOME_SUBJECT, Severity

from .tracker_home import finding, outcome, state

FRIDGE_DOOR = "binary_sensor.fridge_door"
LOCK = "lock.front_door_lock"
FRONT_DOOR = "binary_sensor.front_door"
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
DOOR_LEFT_OPEN = finding("entry_left_open", FRIDGE_DOOR, "security")
LOCK_LONG = finding("state_longer_than_usual", LOCK, "security")
FRONT_OPENED = finding("entry_at_unusual_time", FRONT_DOOR, "security")


def _home(now, *, door_changed, lock_changed, motion="off", moved=None):
    still = now - timedelta(hours=12)
    return {
        FRIDGE_DOOR: state(FRIDGE_DOOR, "on", "Kitchen", "opening", changed=door_changed),
        LOCK: state(LOCK, "unlocked", "Hall", changed=lock_changed),
        FRONT_DOOR: state(FRONT_DOOR, "off", "Hall", "door", changed=still),
        BEDROOM: state(BEDROOM, "off", "Bedroom", "motion", changed=still),
        HALL: state(HALL, "off", "Hall", "motion", changed=still),
        KITCHEN: state(KITCHEN, motion, "Kitchen", "motion", changed=moved or still),
    }


async def test_a_door_read_afresh_before_nobody_up_is_told_is_its_own(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "walk39c")
    now = dt_util.utcnow()
    started = now - timedelta(minutes=2)  # HA's start: the door read "on" afresh
    home = _home(now, door_changed=started, lock_changed=now - timedelta(hours=12))
    opened, shown = outcome(tracker, [NOBODY_UP, DOOR_LEFT_OPEN], now, home)
    assert sorted(opened) == ["entry_left_open", "no_movement_while_home"]
    assert shown == []
    assert tracker.open[DOOR_LEFT_OPEN.signature].part_of == ""
    # The person is fine: the door is still in front of the homeowner.
    tracker.acknowledge(tracker.open[NOBODY_UP.signature].key)
    assert not tracker.open[DOOR_LEFT_OPEN.signature].acknowledged


async def test_a_lock_unlocked_before_nobody_up_is_told_is_pushed_once_it_is_over(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "walk39c")
    now = dt_util.utcnow()
    unlocked = now - timedelta(minutes=2)
    home = _home(now, door_changed=now - timedelta(hours=12), lock_changed=unlocked)
    assert outcome(tracker, [NOBODY_UP], now, home) == (["no_movement_while_home"], [])
    # Somebody up: the stillness is over (past its hysteresis), not answered.
    moved = now + timedelta(minutes=17)
    home = _home(now, door_changed=now - timedelta(hours=12), lock_changed=unlocked, moved=moved)
    for minutes in (18, 20, 22, 25):
        outcome(tracker, [], now + timedelta(minutes=minutes), home)
    assert NOBODY_UP.signature not in tracker.open
    # An hour after it was unlocked: far longer than usual, pushed on its own.
    later = now + timedelta(minutes=60)
    assert outcome(tracker, [LOCK_LONG], later, home) == (["state_longer_than_usual"], [])
    assert tracker.open[LOCK_LONG.signature].part_of == ""


async def test_the_front_door_opened_after_nobody_up_is_told_is_its_answer(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "stillness")
    now = dt_util.utcnow()
    home = _home(
        now, door_changed=now - timedelta(hours=12), lock_changed=now - timedelta(hours=12)
    )
    assert outcome(tracker, [NOBODY_UP], now, home) == (["no_movement_while_home"], [])
    later = now + timedelta(minutes=6)
    home[FRONT_DOOR] = state(FRONT_DOOR, "off", "Hall", "door", changed=now + timedelta(minutes=4))
    assert outcome(tracker, [NOBODY_UP, FRONT_OPENED], later, home) == (
        [],
        ["entry_at_unusual_time"],
    )

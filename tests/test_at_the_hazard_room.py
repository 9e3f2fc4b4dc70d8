"""Somebody come to the room of a told hazard while it still reads its hazard is its help.

A leak under the house told while every tracker is away; 40 minutes on, the housemate
without the app comes down to it: the motion by the wet floor, or the door of the leak's
room opened by the neighbour come to shut the valve, is shown as the leak's part, not
pushed. Motion or a door of another room, a door opened once the leak is over, a lock
unlocked, or motion spreading from the leak's room into the home are told as ever.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.models import EntityState, Severity, Transition

from .tracker_home import finding, state

LEAK = "binary_sensor.laundry_leak"
LAUNDRY_MOTION = "binary_sensor.laundry_motion"
LAUNDRY_DOOR = "binary_sensor.laundry_door"
LAUNDRY_LOCK = "lock.laundry_door"
HALL_MOTION = "binary_sensor.hall_motion"

LEAK_TOLD = finding("hazard_detected", LEAK, "safety_hazard", Severity.HIGH)
MOTION_AWAY = finding(
    "motion_while_away",
    LAUNDRY_MOTION,
    "occupancy_mismatch",
    Severity.HIGH,
    subject="home",
    while_away=True,
)
HALL_AWAY = finding(
    "motion_while_away", HALL_MOTION, "occupancy_mismatch", Severity.HIGH, while_away=True
)
DOOR_AWAY = finding(
    "entry_unsecured_while_away", LAUNDRY_DOOR, "security", Severity.HIGH, while_away=True
)
LOCK_AWAY = finding(
    "entry_unsecured_while_away", LAUNDRY_LOCK, "security", Severity.HIGH, while_away=True
)


def _home(
    now: datetime, leak: str = "on", hall_area: str = "Hall", lock_area: str = "Laundry"
) -> dict[str, EntityState]:
    return {
        LEAK: state(LEAK, leak, "Laundry", "moisture", changed=now),
        LAUNDRY_MOTION: state(LAUNDRY_MOTION, "on", "Laundry", "motion", changed=now),
        LAUNDRY_DOOR: state(LAUNDRY_DOOR, "on", "Laundry", "door", changed=now),
        LAUNDRY_LOCK: state(LAUNDRY_LOCK, "unlocked", lock_area, changed=now),
        HALL_MOTION: state(HALL_MOTION, "on", hall_area, "motion", changed=now),
    }


def _update(
    tracker: AnomalyTracker, findings: list, when: datetime, **home: str
) -> tuple[list[str], list[str]]:
    """One analysis at ``when``: the rules of the anomalies pushed, and of those shown."""
    entities = _home(when, **home)
    states = {e: s.state for e, s in entities.items()}
    transitions = [Transition(when, e, s.state) for e, s in entities.items() if e != LEAK]
    changes = tracker.update(
        findings, when, False, states=states, entities=entities, transitions=transitions
    )
    return sorted(a.rule for a in changes.opened), sorted(a.rule for a in changes.reopened)


def _leak_told(tracker: AnomalyTracker, now: datetime) -> None:
    pushed, _ = _update(tracker, [LEAK_TOLD], now)
    assert pushed == ["hazard_detected"]


async def test_home_wide_motion_by_the_wet_floor_is_told(hass: HomeAssistant) -> None:
    now = dt_util.utcnow()
    tracker = AnomalyTracker(hass, "motion_at_leak")
    _leak_told(tracker, now)
    later = now + timedelta(minutes=43)
    # Motion while away is one anomaly for the whole home: it is never held for one room
    # (it would grow the hall's motion next, walk 61), so it is told.
    pushed, _ = _update(tracker, [LEAK_TOLD, MOTION_AWAY], later)
    assert pushed == ["motion_while_away"]
    assert not tracker.open[MOTION_AWAY.signature].part_of


async def test_the_door_of_the_leak_s_room_is_its_help_acknowledged_with_it(
    hass: HomeAssistant,
) -> None:
    now = dt_util.utcnow()
    tracker = AnomalyTracker(hass, "door_at_leak")
    _leak_told(tracker, now)
    tracker.open[LEAK_TOLD.signature].acknowledged = True
    pushed, shown = _update(tracker, [LEAK_TOLD, DOOR_AWAY], now + timedelta(hours=4))
    assert (pushed, shown) == ([], ["entry_unsecured_while_away"])
    assert tracker.open[DOOR_AWAY.signature].acknowledged


async def test_another_room_a_lock_or_the_leak_over_is_told(hass: HomeAssistant) -> None:
    now = dt_util.utcnow()
    later = now + timedelta(minutes=43)
    elsewhere = AnomalyTracker(hass, "motion_elsewhere")
    _leak_told(elsewhere, now)
    assert _update(elsewhere, [LEAK_TOLD, HALL_AWAY], later)[0] == ["motion_while_away"]
    # The laundry's lock: a keyed entry is its own event.
    keyed = AnomalyTracker(hass, "lock_at_leak")
    _leak_told(keyed, now)
    assert _update(keyed, [LEAK_TOLD, LOCK_AWAY], later)[0] == ["entry_unsecured_while_away"]
    # The laundry door's contact gone offline: its own fault.
    offline = AnomalyTracker(hass, "offline_at_leak")
    _leak_told(offline, now)
    gone = finding("device_unavailable", LAUNDRY_DOOR, "device_malfunction")
    assert _update(offline, [LEAK_TOLD, gone], later)[0] == ["device_unavailable"]
    # The leak no longer found (dry): the door opened after it is news.
    dry = AnomalyTracker(hass, "door_after_leak")
    _leak_told(dry, now)
    _update(dry, [], now + timedelta(minutes=20), leak="off")
    assert _update(dry, [DOOR_AWAY], later, leak="off")[0] == ["entry_unsecured_while_away"]
    # Long past the leak's telling, a door is news however wet the floor still is.
    stale = AnomalyTracker(hass, "door_long_after")
    _leak_told(stale, now)
    for hours in range(2, 14, 2):
        _update(stale, [LEAK_TOLD], now + timedelta(hours=hours))
    pushed, _ = _update(stale, [LEAK_TOLD, DOOR_AWAY], now + timedelta(hours=14))
    assert pushed == ["entry_unsecured_while_away"]


async def test_motion_in_the_leak_s_room_and_beyond_is_told(hass: HomeAssistant) -> None:
    now = dt_util.utcnow()
    tracker = AnomalyTracker(hass, "motion_beyond")
    _leak_told(tracker, now)
    both = finding(
        "motion_while_away",
        (LAUNDRY_MOTION, HALL_MOTION),
        "occupancy_mismatch",
        Severity.HIGH,
        subject="home",
        while_away=True,
    )
    pushed, _ = _update(tracker, [LEAK_TOLD, both], now + timedelta(minutes=43))
    assert pushed == ["motion_while_away"]


async def test_an_intruder_in_by_the_leak_s_door_walking_on_is_told(hass: HomeAssistant) -> None:
    now = dt_util.utcnow()
    tracker = AnomalyTracker(hass, "in_by_the_leak")
    _leak_told(tracker, now)
    opened = now + timedelta(minutes=43)
    assert _update(tracker, [LEAK_TOLD, DOOR_AWAY], opened) == (
        [],
        ["entry_unsecured_while_away"],
    )
    pushed, _ = _update(tracker, [LEAK_TOLD, DOOR_AWAY, HALL_AWAY], opened + timedelta(minutes=2))
    assert pushed == ["entry_unsecured_while_away"]
    assert tracker.open[DOOR_AWAY.signature].escalation == "intrusion"


async def test_home_wide_activity_then_another_room_is_told(hass: HomeAssistant) -> None:
    """Walk 61 (a real hass): ``activity_while_away`` is one finding for the whole home.
    Held as the leak's part while it showed the laundry's motion, it grew the hall's
    motion two minutes later and nothing was told. It is told at once now, leak or not."""
    now = dt_util.utcnow()
    tracker = AnomalyTracker(hass, "home_wide_activity")
    _leak_told(tracker, now)
    laundry = finding(
        "activity_while_away",
        LAUNDRY_MOTION,
        "occupancy_mismatch",
        Severity.HIGH,
        subject="home",
        while_away=True,
    )
    pushed, _ = _update(tracker, [LEAK_TOLD, laundry], now + timedelta(minutes=3))
    assert pushed == ["activity_while_away"]
    assert not tracker.open[laundry.signature].part_of

"""An opening while a motion sensor reads "on" is accompanied (core, no HA).

An occupancy sensor held on through an evening (a party in the hall, a sensor that reports
"occupied" for as long as anybody is there) reports no new "on" when the door opens: the
door was opened by somebody it sees all the same.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.statistics.openings import unaccompanied_opening

from .core_factories import entity, environment, home, steps

EVENING = datetime(2025, 1, 20, 18, 0)
DOOR = "binary_sensor.front_door"
HALL = "binary_sensor.hall_occupancy"
KITCHEN = "binary_sensor.kitchen_motion"


def _evening(hall_held_on: bool) -> list:
    """Motion through the evening; the hall sensor held on 20:00-23:00 (or clear), and the
    front door opened for a guest at 21:40."""
    events: list[tuple[float, str, str]] = [(0, HALL, "off"), (0, DOOR, "off")]
    for minute in (10, 40, 70, 100):  # the kitchen sensor shows it works
        events += [(minute, KITCHEN, "on"), (minute + 2, KITCHEN, "off")]
    if hall_held_on:
        events += [(120, HALL, "on"), (300, HALL, "off")]
    events += [(220, DOOR, "on"), (221, DOOR, "off")]
    return steps(EVENING, sorted(events), area="Hall")


def _found(hall_held_on: bool) -> list:
    states = [
        entity(DOOR, "off", area="Hall", device_class="door"),
        entity(HALL, "off", area="Hall", device_class="occupancy"),
        entity(KITCHEN, "off", area="Kitchen", device_class="motion"),
    ]
    now = EVENING + timedelta(hours=5)
    return list(unaccompanied_opening(home(states, environment(now), _evening(hall_held_on))))


def test_a_door_opened_while_the_hall_reads_occupied_is_accompanied() -> None:
    assert _found(hall_held_on=True) == []


def test_a_door_opened_while_nothing_reads_occupied_is_told() -> None:
    [finding] = _found(hall_held_on=False)
    assert finding.evidence[0] == DOOR


def test_a_sensor_on_since_before_the_window_saw_the_opening() -> None:
    """Trick-or-treaters from 17:56: the hall reads "on" from before the window (its "on"
    is out of sight) until 19:25, the front door opens at 18:40; analysed at 20:00 with a
    2 h window, the door was opened while the hall read occupied. A sensor whose first
    change in the window is "on" (clear until then) still sees nothing before it."""
    start = EVENING  # the window's start: 18:00
    events: list[tuple[float, str, str]] = [(0, DOOR, "off")]
    for minute in (5, 31, 51, 75, 110):  # the kitchen sensor shows it works
        events += [(minute, KITCHEN, "on"), (minute + 1, KITCHEN, "off")]
    door = [(40, DOOR, "on"), (40.8, DOOR, "off")]
    states = [
        entity(DOOR, "off", area="Hall", device_class="door"),
        entity(HALL, "off", area="Hall", device_class="occupancy"),
        entity(KITCHEN, "off", area="Kitchen", device_class="motion"),
    ]
    now = start + timedelta(hours=2)

    def found(hall: list[tuple[float, str, str]]) -> list:
        transitions = steps(start, sorted([*events, *door, *hall]), area="Hall")
        return list(unaccompanied_opening(home(states, environment(now), transitions)))

    assert found([(85, HALL, "off")]) == []  # on since before the window: somebody there
    [finding] = found([(85, HALL, "on"), (86, HALL, "off")])  # clear until 19:25: unseen
    assert finding.evidence[0] == DOOR


def test_a_door_locked_right_after_it_opened_was_opened_by_somebody() -> None:
    """A dog-sitter leaves at 20:05 by the front door and locks it behind her a minute
    later; no motion sensor saw her go. The lock turned by hand is somebody at the door:
    not an opening nobody made. The same door opened unseen with its lock untouched is
    still told, and a window beside a lock is not accompanied by it."""
    start = EVENING
    lock = "lock.front_door"
    window_id = "binary_sensor.hall_window"
    events: list[tuple[float, str, str]] = [(0, DOOR, "off"), (0, window_id, "off")]
    events += [(0, HALL, "off")]
    for minute in (5, 15, 25, 35, 100):  # the kitchen sensor shows it works
        events += [(minute, KITCHEN, "on"), (minute + 1, KITCHEN, "off")]
    states = [
        entity(DOOR, "off", area="Hall", device_class="door"),
        entity(window_id, "off", area="Hall", device_class="window"),
        entity(lock, "locked", area="Hall"),
        entity(HALL, "off", area="Hall", device_class="occupancy"),
        entity(KITCHEN, "off", area="Kitchen", device_class="motion"),
    ]
    now = start + timedelta(hours=2)

    def found(extra: list[tuple[float, str, str]]) -> list[str]:
        transitions = steps(start, sorted([*events, *extra]), area="Hall")
        view = home(states, environment(now), transitions)
        return [f.evidence[0] for f in unaccompanied_opening(view)]

    door = [(65, DOOR, "on"), (65.4, DOOR, "off")]
    assert found([*door, (66, lock, "locked")]) == []
    assert found(door) == [DOOR]
    assert found([(65, window_id, "on"), (65.4, window_id, "off"), (66, lock, "locked")]) == [
        window_id
    ]


def test_a_sensor_with_no_class_going_on_with_the_door_saw_who_opened_it() -> None:
    """The cat let in at 21:40: the porch camera's motion trigger (no device class) goes
    on 6 s after the door. It saw whoever opened it: accompanied. The same trigger going on
    10 min later (a neighbour passing) says nothing of the opening: told."""
    camera = "binary_sensor.porch_cam_trigger"
    states = [
        entity(DOOR, "off", area="Hall", device_class="door"),
        entity(HALL, "off", area="Hall", device_class="occupancy"),
        entity(KITCHEN, "off", area="Kitchen", device_class="motion"),
        entity(camera, "off", area="Porch"),
    ]
    now = EVENING + timedelta(hours=5)

    def found(at: float) -> list:
        events = [*_evening(False), *steps(EVENING, [(at, camera, "on"), (at + 1, camera, "off")])]
        return list(unaccompanied_opening(home(states, environment(now), sorted(events))))

    assert found(220.1) == []
    [finding] = found(230)
    assert finding.evidence[0] == DOOR


def test_a_sensor_on_through_the_whole_window_saw_the_opening() -> None:
    """Guests all afternoon: the living room reads "on" from before the window to after
    it, no change of it in the window at all (so it is not among the window's changed
    entities); the hall's own sensor last moved at 18:01; the front door opens at 18:40
    for more guests. It was opened while the home read occupied. The living room clear
    (reading "off", no change) leaves the opening unseen, as before."""
    living = "binary_sensor.living_room_occupancy"
    start = EVENING
    events: list[tuple[float, str, str]] = [(0, DOOR, "off"), (0, HALL, "on"), (1, HALL, "off")]
    for minute in (5, 31, 51, 75, 110):  # the kitchen sensor shows it works
        events += [(minute, KITCHEN, "on"), (minute + 1, KITCHEN, "off")]
    events += [(40, DOOR, "on"), (40.8, DOOR, "off")]
    transitions = steps(start, sorted(events), area="Hall")
    now = start + timedelta(hours=2)

    def found(living_now: str) -> list:
        states = [
            entity(DOOR, "off", area="Hall", device_class="door"),
            entity(HALL, "off", area="Hall", device_class="occupancy"),
            entity(KITCHEN, "off", area="Kitchen", device_class="motion"),
            entity(living, living_now, area="Living Room", device_class="occupancy"),
        ]
        return list(unaccompanied_opening(home(states, environment(now), transitions)))

    assert found("on") == []
    [finding] = found("off")
    assert finding.evidence[0] == DOOR

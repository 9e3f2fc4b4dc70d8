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

"""A lock's findings name its entrance's door only when which door it keeps is known: the
door of its own device, else the only entry door of its area. A hall with the front and
the back door and one lock: the lock is its own subject, not the first door by id (walk
37: the front lock left unlocked titled "Back door shut far longer than usual"). Core,
no Home Assistant."""

from __future__ import annotations

from dataclasses import replace

from custom_components.anomaly_monitor.core.baselines.entrance_subject import (
    entrance_evidence,
    entrance_of,
)
from custom_components.anomaly_monitor.core.home import HomeView

from .core_factories import entity, window

LOCK = entity("lock.front_door_lock", "unlocked", area="Hall")
BACK = entity("binary_sensor.back_door", "off", area="Hall", device_class="door")
FRONT = entity("binary_sensor.front_door", "on", area="Hall", device_class="door")
WINDOW = entity("binary_sensor.hall_window", "on", area="Hall", device_class="window")


def _home(*states):  # type: ignore[no-untyped-def]
    return HomeView(window(states))


def test_one_entry_door_in_the_area_is_the_locks_entrance() -> None:
    home = _home(LOCK, FRONT, WINDOW)
    assert entrance_of(home, LOCK) == FRONT
    assert entrance_evidence(home, LOCK) == (
        ("lock.front_door_lock", "binary_sensor.front_door"),
        "binary_sensor.front_door",
    )


def test_two_entry_doors_in_the_area_leave_the_lock_its_own_subject() -> None:
    home = _home(LOCK, BACK, FRONT)
    assert entrance_of(home, LOCK) is None
    assert entrance_evidence(home, LOCK) == (("lock.front_door_lock",), "")


def test_the_door_of_the_locks_own_device_wins_wherever_it_sits() -> None:
    lock = replace(LOCK, info=replace(LOCK.info, device="nuki"))
    front = replace(FRONT, info=replace(FRONT.info, device="nuki", area=None))
    assert entrance_of(_home(lock, BACK, front), lock) == front


def test_a_contact_is_no_entrance_and_nothing_but_a_lock_has_one() -> None:
    assert entrance_of(_home(FRONT), FRONT) is None
    assert entrance_of(_home(LOCK, WINDOW), LOCK) is None

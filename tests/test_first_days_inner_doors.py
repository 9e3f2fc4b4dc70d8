"""The learning gate in a home's first days reads who is in from the home's own contacts
(``core.inner_uses``): an inner door used while every phone is away is somebody inside.

Day one, the grandmother (no phone) opens her room's door at 06:30 and 07:00; the parents
go out by the front door at 08:00. Somebody moves in the hall and she opens her door again
at 09:00; the helper, seen in the hall, goes out by the front door at 11:00. At 12:30 the
grandmother, resting since, opens her door and shuts it: nobody came in since everybody
left, her door is no way in, so whoever opened it was in all along. The same door opened in
a home where nothing was used since everybody left, a door the household went out by, or an
inner door opened with nobody about before it (a balcony door forced), is pushed at once.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.inner_uses import inner_contact
from custom_components.anomaly_monitor.core.learning_gate import held_while_learning
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.rules.security import ENTRY_UNSECURED_WHILE_AWAY

from .first_days_home import DAD, HALL, MUM, at, family_home

DOOR = "binary_sensor.front_door"
HER_DOOR = "binary_sensor.grandmother_door"
BALCONY = "binary_sensor.balcony_door"
LOCKED_DOOR = "binary_sensor.study_door"
STUDY_LOCK = "lock.study"


def _home() -> HomeBaselines:
    return family_home(
        [
            EntityInfo(DOOR, "Front door", area="Hall", device_class="door"),
            EntityInfo(HER_DOOR, "Room door", area="Her room", device_class="door"),
            EntityInfo(BALCONY, "Balcony door", area="Living", device_class="door"),
            EntityInfo(LOCKED_DOOR, "Study door", area="Study", device_class="door"),
            EntityInfo(STUDY_LOCK, "Study lock", area="Study"),
        ]
    )


def _use(baselines: HomeBaselines, when: datetime, door: str) -> None:
    """``door`` opened at ``when`` and shut half a minute later."""
    baselines.learn(Transition(when, door, "on"))
    baselines.learn(Transition(when + timedelta(seconds=30), door, "off"))


def _morning(baselines: HomeBaselines, *, her_door_after: bool = True) -> None:
    """Her door at 06:30 and 07:00, the balcony door as Dad leaves, both parents out by
    the front door at 08:00; the hall moves and her door at 09:00, the helper out by the
    front door at 11:00."""
    for hour in (6.5, 7.0, 7.5):
        _use(baselines, at(hour), HER_DOOR)
        _use(baselines, at(hour), LOCKED_DOOR)
    _use(baselines, at(7.9), BALCONY)
    _use(baselines, at(7.95), DOOR)
    baselines.learn(Transition(at(8), MUM, "not_home"))
    baselines.learn(Transition(at(8), DAD, "not_home"))
    if her_door_after:
        baselines.learn(Transition(at(8.9), HALL, "on", "Hall"))  # somebody about
        _use(baselines, at(9), HER_DOOR)
    baselines.learn(Transition(at(10.98), HALL, "on", "Hall"))
    _use(baselines, at(11), DOOR)


def _entry(door: str) -> Finding:
    return ENTRY_UNSECURED_WHILE_AWAY.finding(
        evidence=(door,),
        subject=door,
        while_away=True,
        reasoning="The door is open while nobody is home.",
    )


def _opened(baselines: HomeBaselines, door: str, when: datetime) -> datetime:
    baselines.learn(Transition(when, door, "on"))
    return when + timedelta(seconds=10)


def test_her_door_used_since_everybody_left_is_somebody_in_all_along() -> None:
    # Fails before: the helper's going out at 11:00 left "nobody inside", and the door
    # opened 90 min later with nothing moving before it was pushed as an entry.
    baselines = _home()
    _morning(baselines)
    now = _opened(baselines, HER_DOOR, at(12.5))
    assert inner_contact(baselines, HER_DOOR)
    assert baselines.learning(HER_DOOR, now)
    assert held_while_learning(_entry(HER_DOOR), baselines, now, someone_home=False)
    # A dog opens no door: with pets in the profile her door still shows her.
    assert held_while_learning(_entry(HER_DOOR), baselines, now, False, pets=True)


def test_her_door_with_nothing_used_since_everybody_left_is_pushed() -> None:
    baselines = _home()
    _morning(baselines, her_door_after=False)
    now = _opened(baselines, HER_DOOR, at(12.5))
    assert inner_contact(baselines, HER_DOOR)
    assert not held_while_learning(_entry(HER_DOOR), baselines, now, someone_home=False)


def test_a_door_the_household_went_out_by_or_with_a_lock_is_a_way_in() -> None:
    """The balcony door was opened as Dad left (a way the household comes and goes by), the
    study's door has a lock in its room: each opened at 12:30 is an entry, pushed at once,
    though her door showed somebody in at 09:00."""
    baselines = _home()
    _morning(baselines)
    assert not inner_contact(baselines, BALCONY)
    assert not inner_contact(baselines, LOCKED_DOOR)
    now = _opened(baselines, BALCONY, at(12.5))
    assert not held_while_learning(_entry(BALCONY), baselines, now, someone_home=False)
    locked = _home()
    _morning(locked)
    now = _opened(locked, LOCKED_DOOR, at(12.5))
    assert not held_while_learning(_entry(LOCKED_DOOR), locked, now, someone_home=False)


def test_an_entry_before_her_door_is_still_an_entry() -> None:
    """The front door forced at 10:00 with nobody seen inside since 08:00, then her door at
    10:20: whoever opened it may have come in by the front door; pushed."""
    baselines = _home()
    for hour in (6.5, 7.0):
        _use(baselines, at(hour), HER_DOOR)
    _use(baselines, at(7.95), DOOR)
    baselines.learn(Transition(at(8), MUM, "not_home"))
    baselines.learn(Transition(at(8), DAD, "not_home"))
    _use(baselines, at(10), DOOR)
    now = _opened(baselines, HER_DOOR, at(10 + 20 / 60))
    assert not held_while_learning(_entry(HER_DOOR), baselines, now, someone_home=False)


def test_an_inner_door_opened_with_nobody_about_is_an_entry_as_before() -> None:
    """The balcony door, opened twice on the first morning and never as anybody came or went,
    reads as inner by its use; forced at 11:20 with nothing seen since 08:00 it is an entry,
    and her door at 12:30 after it is pushed (whoever opened it may have come in then)."""
    baselines = _home()
    for hour in (6.5, 7.0):
        _use(baselines, at(hour), HER_DOOR)
        _use(baselines, at(hour + 0.2), BALCONY)
    _use(baselines, at(7.95), DOOR)
    baselines.learn(Transition(at(8), MUM, "not_home"))
    baselines.learn(Transition(at(8), DAD, "not_home"))
    assert inner_contact(baselines, BALCONY)
    now = _opened(baselines, BALCONY, at(11 + 20 / 60))
    assert not held_while_learning(_entry(BALCONY), baselines, now, someone_home=False)
    baselines.learn(Transition(at(11.4), BALCONY, "off"))
    baselines.learn(Transition(at(11.5), HALL, "on", "Hall"))
    later = _opened(baselines, HER_DOOR, at(12.5))
    assert not held_while_learning(_entry(HER_DOOR), baselines, later, someone_home=False)

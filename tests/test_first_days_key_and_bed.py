"""In a home's first days, two more signs that the household is in while its phones are out
(``core.first_days_passage``, ``core.cold_start_motion``).

- The live-in help was seen in the kitchen at 08:40, went out by the back door to the
  outdoor kitchen; at 10:02 the front door's lock is unlocked and the door opened (she lets
  the physiotherapist in): an entry with the key, in a home somebody was seen in since the
  phones left, waits for what follows. The same key turned in a home nobody moved in since
  everybody left is pushed at once.
- A bedbound grandmother's bed sensor has been on since before everybody left: the carer
  coming in by the back door (no lock) at 08:20 waits, and so does the motion after it.
- Where the homeowner says somebody lives here without a tracked phone, the front door
  opened with its key by day and shut again (the boy back from school, nothing seen inside
  since the phones left) waits, and so does the motion after it; opened with the key at
  night, or left unlocked, it is pushed.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.cold_start_motion import waits_for_life_while_away
from custom_components.anomaly_monitor.core.learning_gate import held_while_learning
from custom_components.anomaly_monitor.core.models import (
    AnomalyType,
    EntityInfo,
    Finding,
    Severity,
    Transition,
)
from custom_components.anomaly_monitor.core.rules.security import ENTRY_UNSECURED_WHILE_AWAY

DOOR, LOCK = "binary_sensor.front_door", "lock.front_door"
BACK = "binary_sensor.back_door"
KITCHEN = "binary_sensor.kitchen_motion"
BED = "binary_sensor.granny_bed"
MUM, DAD = "person.mum", "person.dad"
SET_UP = datetime(2026, 4, 6, 0, 0, tzinfo=UTC)


def _at(hours: float) -> datetime:
    return SET_UP + timedelta(hours=hours)


def _fresh(bed: bool = False) -> HomeBaselines:
    """Installed at midnight: both phones home, the doors shut and the front door locked;
    ``bed``: Granny in bed since before midnight."""
    baselines = HomeBaselines(UTC)
    baselines.describe(
        [
            EntityInfo(DOOR, "Front door", area="Hall", device_class="door"),
            EntityInfo(LOCK, "Front door", area="Hall"),
            EntityInfo(BACK, "Back door", area="Kitchen", device_class="door"),
            EntityInfo(KITCHEN, "Kitchen motion", area="Kitchen", device_class="motion"),
            EntityInfo(BED, "Granny's bed", area="Ben room", device_class="occupancy"),
            EntityInfo(MUM, "Mum"),
            EntityInfo(DAD, "Dad"),
        ]
    )
    baselines.watching([DOOR, LOCK, BACK, KITCHEN, BED, MUM, DAD], SET_UP)
    initial = [(MUM, "home"), (DAD, "home"), (DOOR, "off"), (BACK, "off"), (LOCK, "locked")]
    initial.append((BED, "on" if bed else "off"))
    for entity_id, state in initial:
        baselines.learn(Transition(SET_UP, entity_id, state))
    baselines.learn(Transition(_at(7.5), MUM, "not_home"))
    baselines.learn(Transition(_at(7.5), DAD, "not_home"))
    return baselines


def _front_entry() -> Finding:
    return ENTRY_UNSECURED_WHILE_AWAY.finding(
        evidence=(DOOR, LOCK),
        subject=DOOR,
        while_away=True,
        reasoning="Front door is unlocked while nobody is home.",
    )


def _back_entry() -> Finding:
    return ENTRY_UNSECURED_WHILE_AWAY.finding(
        evidence=(BACK,),
        subject=BACK,
        while_away=True,
        reasoning="Back door is open while nobody is home.",
    )


def _keyed_at(baselines: HomeBaselines, hours: float) -> datetime:
    unlocked = _at(hours)
    baselines.learn(Transition(unlocked, LOCK, "unlocked", "Hall"))
    baselines.learn(Transition(unlocked + timedelta(seconds=8), DOOR, "on", "Hall"))
    return unlocked + timedelta(seconds=10)


def test_a_key_turned_in_a_home_nobody_moved_in_is_pushed_at_once() -> None:
    baselines = _fresh()
    now = _keyed_at(baselines, 10 + 2 / 60)
    assert not held_while_learning(_front_entry(), baselines, now, someone_home=False)


def test_the_carer_coming_in_while_granny_lies_in_bed_waits() -> None:
    # Fails before: nothing moved inside since the phones left, so the carer's entry was
    # pushed at once (blind29 b, day one).
    baselines = _fresh(bed=True)
    opened = _at(8 + 20 / 60)
    baselines.learn(Transition(opened, BACK, "on", "Kitchen"))
    now = opened + timedelta(seconds=10)
    assert held_while_learning(_back_entry(), baselines, now, someone_home=False, pets=True)
    baselines.learn(Transition(opened + timedelta(seconds=30), BACK, "off", "Kitchen"))
    baselines.learn(Transition(opened + timedelta(seconds=40), KITCHEN, "on", "Kitchen"))
    motion = Finding(
        "motion_while_away",
        (KITCHEN,),
        "Motion in Kitchen while nobody is home.",
        AnomalyType.OCCUPANCY_MISMATCH,
        Severity.HIGH,
        while_away=True,
    )
    assert waits_for_life_while_away(motion, baselines, pets=True)
    # Without Granny in bed the same entry is pushed, and the motion after it too.
    empty = _fresh(bed=False)
    empty.learn(Transition(opened, BACK, "on", "Kitchen"))
    assert not held_while_learning(_back_entry(), empty, now, someone_home=False, pets=True)
    empty.learn(Transition(opened + timedelta(seconds=30), BACK, "off", "Kitchen"))
    assert not waits_for_life_while_away(motion, empty, pets=True)


def _motion() -> Finding:
    return Finding(
        "motion_while_away",
        (KITCHEN,),
        "Motion in Kitchen while nobody is home.",
        AnomalyType.OCCUPANCY_MISMATCH,
        Severity.HIGH,
        while_away=True,
    )


def test_a_key_turned_by_day_where_somebody_has_no_phone_is_theirs() -> None:
    # Fails before: nothing moved inside since the phones left, so the boy coming home
    # from school with the key was pushed at once (blind30 d, day one, 15:08).
    baselines = _fresh()
    now = _keyed_at(baselines, 15 + 8 / 60)
    entry = _front_entry()
    assert held_while_learning(entry, baselines, now, someone_home=False, phoneless=True)
    assert not held_while_learning(entry, baselines, now, someone_home=False)
    shut = now + timedelta(minutes=2)
    baselines.learn(Transition(shut, DOOR, "off", "Hall"))
    baselines.learn(Transition(shut + timedelta(seconds=30), LOCK, "locked", "Hall"))
    baselines.learn(Transition(shut + timedelta(minutes=1), KITCHEN, "on", "Kitchen"))
    later = shut + timedelta(minutes=1, seconds=10)
    assert held_while_learning(entry, baselines, later, someone_home=False, phoneless=True)
    assert waits_for_life_while_away(_motion(), baselines, phoneless=True)
    assert not waits_for_life_while_away(_motion(), baselines)


def test_a_key_turned_at_night_or_left_unlocked_is_pushed_all_the_same() -> None:
    night = _fresh()
    now = _keyed_at(night, 23.5)
    assert not held_while_learning(_front_entry(), night, now, someone_home=False, phoneless=True)
    left = _fresh()
    opened = _keyed_at(left, 15)
    left.learn(Transition(opened + timedelta(minutes=1), DOOR, "off", "Hall"))
    # the lock stays unlocked: past ``STANDS_OPEN`` it is no passage
    now = opened + timedelta(minutes=12)
    assert not held_while_learning(_front_entry(), left, now, someone_home=False, phoneless=True)

"""A contact used from inside (a fridge's door, class ``door``) is learned as no way in.

A home lived for ten days (core, no Home Assistant): Alice goes out by the front door at
08:00 and comes back at 17:00; the fridge and a cupboard (both ``door`` contacts in the
kitchen) are opened together at breakfast, lunch and dinner; the back door in the kitchen
lets the dog out three times a day, alone. Learned: the fridge is used from inside, the
front and back doors are not. The fridge opened three minutes after her phone said she
left (she was still shutting it) is not an entry into the empty home; the back door or
the front door opened then still is.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.used_from_inside import UsedFromInside
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)
ALICE = "person.alice"
FRONT = "binary_sensor.0x00158d0001a2b3c4_contact"
FRIDGE = "binary_sensor.0x00158d000450b2f6_contact"
CUPBOARD = "binary_sensor.0x00158d000450a1c3_contact"
BACK = "binary_sensor.0x00158d000450a9d9_contact"
HALL = "binary_sensor.hall_motion"
AREAS = {FRONT: "Hall", HALL: "Hall", FRIDGE: "Kitchen", CUPBOARD: "Kitchen", BACK: "Kitchen"}
CLASSES = {FRONT: "door", FRIDGE: "door", CUPBOARD: "door", BACK: "door", HALL: "motion"}


def at(day: int, hours: float) -> datetime:
    return DAY0 + timedelta(days=day, hours=hours)


def opened(when: datetime, contact: str, seconds: float = 20) -> list[Transition]:
    area = AREAS[contact]
    return [
        Transition(when, contact, "on", area),
        Transition(when + timedelta(seconds=seconds), contact, "off", area),
    ]


def day_of_life(day: int) -> list[Transition]:
    events: list[Transition] = []
    for hour in (7.0, 12.5, 18.5, 19.0):  # meals: a cupboard, then the fridge
        events += opened(at(day, hour), CUPBOARD)
        events += opened(at(day, hour) + timedelta(minutes=1), FRIDGE)
    for hour in (7.5, 17.5, 21.0):  # the dog out to the garden, alone
        events += opened(at(day, hour), BACK, seconds=30)
    events += opened(at(day, 8) - timedelta(minutes=2), FRONT)
    events += [Transition(at(day, 8), ALICE, "not_home")]
    events += [Transition(at(day, 17), ALICE, "home")]
    events += opened(at(day, 17) + timedelta(seconds=30), FRONT)
    return sorted(events)


def lived(days: int) -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS]
    baselines.describe([*infos, EntityInfo(ALICE, "Alice")])
    baselines.watching([*AREAS, ALICE], DAY0 - timedelta(days=7))
    baselines.learn(Transition(DAY0, ALICE, "home"))
    for day in range(days):
        for transition in day_of_life(day):
            baselines.learn(transition)
        baselines.advance(at(day, 23))
    return baselines


def entries(baselines: HomeBaselines, now: datetime, today: list[Transition]) -> list[Finding]:
    """The combined detector's ``entry_unsecured_while_away`` findings at ``now``."""
    start = now - timedelta(hours=5)
    shown = sorted(t for t in today if start <= t.when <= now)
    latest = {t.entity_id: t.state for t in shown}
    states = [
        entity(e, latest.get(e, "off"), area=AREAS[e], device_class=CLASSES[e]) for e in AREAS
    ]
    states.append(entity(ALICE, latest.get(ALICE, "not_home")))
    detector = CombinedDetector(baselines=lambda: baselines)
    window = build_window(states, environment(now, persons_home=0), shown, start=start)
    return [f for f in detector.findings(window) if f.rule == "entry_unsecured_while_away"]


def morning(day: int, contact: str) -> list[Transition]:
    """She leaves at 08:00; ``contact`` opens at 08:03 for 20 s."""
    today = [t for t in day_of_life(day) if t.when <= at(day, 8)]
    return today + opened(at(day, 8) + timedelta(minutes=3), contact)


def test_the_fridge_is_learned_used_from_inside_and_the_doors_are_not() -> None:
    learned = lived(10).inside
    assert learned.used_from_inside(FRIDGE)
    assert learned.used_from_inside(CUPBOARD)
    assert not learned.used_from_inside(FRONT)  # the way in and out
    assert not learned.used_from_inside(BACK)  # used alone, not with the kitchen's others


def test_not_known_in_the_first_days() -> None:
    assert not lived(2).inside.used_from_inside(FRIDGE)


def test_the_fridge_opened_as_she_leaves_is_no_entry_into_the_empty_home() -> None:
    baselines = lived(10)
    now = at(10, 8) + timedelta(minutes=3, seconds=10)
    assert entries(baselines, now, morning(10, FRIDGE)) == []


def test_the_back_door_or_front_door_opened_then_is_still_told() -> None:
    baselines = lived(10)
    now = at(10, 8) + timedelta(minutes=3, seconds=10)
    for door in (BACK, FRONT):
        found = entries(baselines, now, morning(10, door))
        assert [f.evidence[0] for f in found] == [door]


def test_stored_and_read_back_and_garbage_dropped() -> None:
    learned = lived(10).inside
    again = UsedFromInside.from_dict(learned.as_dict(), UTC)
    assert again.counts == learned.counts
    assert again.used_from_inside(FRIDGE)
    broken = {"version": 1, "contacts": {FRIDGE: [1, "x"], "": [1] * 6, BACK: [-1] * 6}}
    assert UsedFromInside.from_dict(broken, UTC).counts == {}
    assert UsedFromInside.from_dict("garbage", UTC).counts == {}

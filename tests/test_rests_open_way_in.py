"""An inner door that rests open is no way in; a door that rests shut still is (core).

A home lived for six days (core, no Home Assistant): Alice goes out by the front door at
08:00 and comes back at 17:00. The bathroom door stands open day and night and is shut
for a few minutes at each use (07:00, 13:00, 21:00), also while she is out: her mother,
who carries no phone, lives with her. On the seventh day, with Alice out, the bathroom
door is shut at 10:00 and reopened at 10:06: it rests open, so nobody came in through
it (it is open anyway), and it is not told. The front door, which rests shut, opened
then into the empty home is told as before.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.stands_open import stands_open
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)
ALICE = "person.alice"
FRONT = "binary_sensor.0x00158d0001a2b3c4_contact"
BATH = "binary_sensor.0x00158d000450b2f6_contact"
AREAS = {FRONT: "Hall", BATH: "Bathroom"}


def at(day: int, hours: float) -> datetime:
    return DAY0 + timedelta(days=day, hours=hours)


def door(when: datetime, contact: str, state: str) -> Transition:
    return Transition(when, contact, state, AREAS[contact])


def bathroom_used(when: datetime, minutes: float = 6) -> list[Transition]:
    """Shut behind whoever uses it, reopened as they come out."""
    return [door(when, BATH, "off"), door(when + timedelta(minutes=minutes), BATH, "on")]


def day_of_life(day: int) -> list[Transition]:
    events: list[Transition] = []
    for hour in (7.0, 13.0, 21.0):
        events += bathroom_used(at(day, hour))
    events += [door(at(day, 8) - timedelta(minutes=2), FRONT, "on")]
    events += [door(at(day, 8) - timedelta(minutes=1), FRONT, "off")]
    events += [Transition(at(day, 8), ALICE, "not_home")]
    events += [Transition(at(day, 17), ALICE, "home")]
    events += [
        door(
            at(
                day,
                17,
            )
            + timedelta(seconds=30),
            FRONT,
            "on",
        )
    ]
    events += [door(at(day, 17) + timedelta(seconds=60), FRONT, "off")]
    return sorted(events)


def lived(days: int) -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class="door") for e in AREAS]
    baselines.describe([*infos, EntityInfo(ALICE, "Alice")])
    baselines.watching([*AREAS, ALICE], DAY0 - timedelta(days=7))
    baselines.learn(Transition(DAY0, ALICE, "home"))
    baselines.learn(door(DAY0, BATH, "on"))
    baselines.learn(door(DAY0, FRONT, "off"))
    for day in range(days):
        for transition in day_of_life(day):
            baselines.learn(transition)
        baselines.advance(at(day, 23))
    return baselines


def entries(
    baselines: HomeBaselines, now: datetime, today: list[Transition], *, locked: bool = False
) -> list[Finding]:
    """The combined detector's ``entry_unsecured_while_away`` findings at ``now``, what
    happened ``today`` learned as it happened (a lock in the bathroom's area when
    ``locked``)."""
    for transition in sorted(today):
        baselines.learn(transition)
    start = now - timedelta(hours=5)
    shown = sorted(t for t in today if start <= t.when <= now)
    latest = {t.entity_id: t.state for t in shown}
    states = [entity(e, latest.get(e, "off"), area=AREAS[e], device_class="door") for e in AREAS]
    states.append(entity(ALICE, latest.get(ALICE, "not_home")))
    if locked:
        states.append(entity("lock.0x00158d0004aa0b1c", "unlocked", area=AREAS[BATH]))
    detector = CombinedDetector(baselines=lambda: baselines)
    window = build_window(states, environment(now, persons_home=0), shown, start=start)
    return [f for f in detector.findings(window) if f.rule == "entry_unsecured_while_away"]


def morning(day: int) -> list[Transition]:
    """Her day until she is out: the bathroom open since its 07:00 use."""
    return [t for t in day_of_life(day) if t.when <= at(day, 8)]


def test_the_bathroom_door_rests_open_and_the_front_door_rests_shut() -> None:
    baselines = lived(6)
    assert stands_open(baselines.durations, BATH)
    assert not stands_open(baselines.durations, FRONT)


def test_the_bathroom_door_reopened_while_she_is_out_is_no_way_in() -> None:
    baselines = lived(6)
    now = at(6, 10) + timedelta(minutes=6, seconds=10)
    assert entries(baselines, now, morning(6) + bathroom_used(at(6, 10))) == []


def test_the_bathroom_door_reopened_after_a_long_shut_is_still_told() -> None:
    """Shut for 40 min (somebody fainted behind it): no use of the room, news."""
    baselines = lived(6)
    today = bathroom_used(at(6, 10), minutes=40)
    now = at(
        6,
        10,
    ) + timedelta(minutes=40, seconds=10)
    found = entries(baselines, now, morning(6) + today)
    assert [f.evidence[0] for f in found] == [BATH]


def test_a_door_resting_open_with_a_lock_by_it_is_still_a_way_in() -> None:
    baselines = lived(6)
    now = at(6, 10) + timedelta(minutes=6, seconds=10)
    found = entries(baselines, now, morning(6) + bathroom_used(at(6, 10)), locked=True)
    assert [f.evidence[0] for f in found] == [BATH]


def test_the_front_door_opened_into_the_empty_home_is_still_told() -> None:
    baselines = lived(6)
    now = at(6, 10) + timedelta(seconds=10)
    found = entries(baselines, now, [*morning(6), door(at(6, 10), FRONT, "on")])
    assert [f.evidence[0] for f in found] == [FRONT]


def first_day(bath_at_set_up: str) -> HomeBaselines:
    """Set up at midnight, the bathroom door ``bath_at_set_up``; her first morning."""
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class="door") for e in AREAS]
    baselines.describe([*infos, EntityInfo(ALICE, "Alice")])
    baselines.watching([*AREAS, ALICE], DAY0)
    baselines.learn(Transition(DAY0, ALICE, "home"))
    baselines.seed_reading(BATH, bath_at_set_up, DAY0)
    if bath_at_set_up == "off":  # opened on waking, and left open
        baselines.learn(door(at(0, 6.5), BATH, "on"))
    return baselines


def test_in_the_first_hours_a_door_open_since_set_up_and_shut_only_briefly_rests_open() -> None:
    baselines = first_day("on")
    today = bathroom_used(at(0, 10))
    now = at(0, 10) + timedelta(minutes=6, seconds=10)
    assert entries(baselines, now, morning(0) + today) == []


def test_in_the_first_hours_a_door_shut_at_set_up_is_still_a_way_in() -> None:
    baselines = first_day("off")  # its shut night is not accounted: not open from the start
    today = bathroom_used(at(0, 10))
    now = at(0, 10) + timedelta(minutes=6, seconds=10)
    found = entries(baselines, now, morning(0) + today)
    assert [f.evidence[0] for f in found] == [BATH]


def test_in_the_first_hours_the_front_door_is_still_told() -> None:
    baselines = first_day("on")
    now = at(0, 10) + timedelta(seconds=10)
    found = entries(baselines, now, [*morning(0), door(at(0, 10), FRONT, "on")])
    assert [f.evidence[0] for f in found] == [FRONT]

"""The doors the household comes and goes by, learned; an inside door is no second way in.

A home lived for ten days (core, no Home Assistant): Alice, tracked, goes out by the front
door at 08:00 and comes back by it at 17:00; her grandmother, untracked, opens her room
door (a ``door`` contact, no lock) at 07:00 and 21:00; a carer lets herself in by the
front door at 14:00 on every day and leaves at 16:00. Learned: the front door is the
household's way, the grandmother's door never is (an inside door).

On the eleventh day the carer brings the grandmother to her room at 15:30 and leaves the
door open: that is whoever came in at 14:00 going about, not an entry at an hour nothing
comes in (told before). The same door opened at 15:30 with nobody come in before (the
first opening of the empty spell) is told as before: an inside door by this count may be a
back door the household never comes home by.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.household_ways import HouseholdWays
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)
ALICE = "person.alice"
FRONT = "binary_sensor.0x00158d0001a2b3c4_contact"
GRANNY = "binary_sensor.0x00158d000450c7e1_contact"
AREAS = {FRONT: "Hall", GRANNY: "Granny's room"}


def at(day: int, hours: float) -> datetime:
    return DAY0 + timedelta(days=day, hours=hours)


def opened(when: datetime, contact: str, seconds: float | None = 20) -> list[Transition]:
    area = AREAS[contact]
    events = [Transition(when, contact, "on", area)]
    if seconds is not None:
        events.append(Transition(when + timedelta(seconds=seconds), contact, "off", area))
    return events


def day_of_life(day: int, carer: bool = True) -> list[Transition]:
    events: list[Transition] = []
    events += opened(at(day, 7), GRANNY, seconds=90)
    events += opened(at(day, 21), GRANNY, seconds=90)
    events += opened(at(day, 8) - timedelta(minutes=2), FRONT)
    events += [Transition(at(day, 8), ALICE, "not_home")]
    if carer:
        events += opened(at(day, 14), FRONT)
        events += opened(at(day, 16), FRONT)
    events += [Transition(at(day, 17), ALICE, "home")]
    events += opened(at(day, 17) + timedelta(seconds=30), FRONT)
    return sorted(events)


def lived(days: int) -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class="door") for e in AREAS]
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
    states = [entity(e, latest.get(e, "off"), area=AREAS[e], device_class="door") for e in AREAS]
    states.append(entity(ALICE, latest.get(ALICE, "not_home")))
    detector = CombinedDetector(baselines=lambda: baselines)
    window = build_window(states, environment(now, persons_home=0), shown, start=start)
    return [f for f in detector.findings(window) if f.rule == "entry_unsecured_while_away"]


def afternoon(day: int, carer: bool) -> list[Transition]:
    """The day until 15:30, when the grandmother's door opens and stays open."""
    today = [t for t in day_of_life(day, carer) if t.when < at(day, 15.5)]
    return today + opened(at(day, 15.5), GRANNY, seconds=None)


def test_the_front_door_is_the_way_and_the_room_door_an_inside_door() -> None:
    ways = lived(10).ways
    assert ways.inside_door(GRANNY)
    assert not ways.inside_door(FRONT)
    assert not lived(2).ways.inside_door(GRANNY)  # too few days and comings


def test_the_room_door_opened_after_the_carer_came_in_is_not_told() -> None:
    baselines = lived(10)
    now = at(10, 15.5) + timedelta(seconds=10)
    assert entries(baselines, now, afternoon(10, carer=True)) == []


def test_the_room_door_as_the_first_opening_of_the_empty_spell_is_still_told() -> None:
    baselines = lived(10)
    now = at(10, 15.5) + timedelta(seconds=10)
    found = entries(baselines, now, afternoon(10, carer=False))
    assert [f.evidence[0] for f in found] == [GRANNY]


def test_stored_and_read_back_and_garbage_dropped() -> None:
    learned = lived(10).ways
    again = HouseholdWays.from_dict(learned.as_dict(), UTC)
    assert again.counts == learned.counts
    assert again.changes == learned.changes
    assert again.inside_door(GRANNY)
    broken = {"version": 1, "changes": 8, "contacts": {GRANNY: [1, "x", 0], "": [1, 1, 1]}}
    assert HouseholdWays.from_dict(broken, UTC).counts == {}
    assert HouseholdWays.from_dict({"version": 1, "changes": -1}, UTC).changes == 0
    assert HouseholdWays.from_dict("garbage", UTC).counts == {}

"""What happens here while nobody tracked is home, learned (core, no Home Assistant).

A synthetic home lived for ten days: Alice leaves 08:00 and comes back 17:00 on weekdays;
the dog moves in the living room every hour while she is out; a dog-walker lets herself
in at 12:00 on weekdays (lock, front door, hall motion) for half an hour. Once learned,
none of it is told; the same entry at 03:00, motion after a forced back door, or motion on
a sensor that never moves while the home is empty, is; at cold start an entry into the
empty home is told and pushed at once; "false alarm" widens the learned normal.
"""

from __future__ import annotations

from collections.abc import Callable
import dataclasses
from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.away_normal import AwayNormal
from custom_components.anomaly_monitor.core.baselines.away_teaching import (
    forget_away_false_alarm,
    teach_away_false_alarm,
)
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.learning_gate import not_held
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)  # a Monday
ALICE = "person.alice"
DOOR = "binary_sensor.front_door"
LOCK = "lock.front_door"
HALL = "binary_sensor.hall_motion"
LIVING = "binary_sensor.living_motion"
BEDROOM = "binary_sensor.bedroom_motion"
BACK = "binary_sensor.back_door"
AREAS = {DOOR: "Hall", LOCK: "Hall", HALL: "Hall", LIVING: "Living", BEDROOM: "Bedroom"}
WINDOW = "binary_sensor.living_window"
AREAS[BACK] = "Kitchen"
AREAS[WINDOW] = "Living"
CLASSES = {DOOR: "door", HALL: "motion", LIVING: "motion", BEDROOM: "motion", BACK: "door"}
CLASSES[WINDOW] = "window"
AWAY_RULES = {"motion_while_away", "activity_while_away", "entry_unsecured_while_away"}
ENTRY_RULE = {"entry_unsecured_while_away"}


def at(day: int, hours: float) -> datetime:
    return DAY0 + timedelta(days=day, hours=hours)


def visit(day: int, hours: float, *, motion: tuple[str, ...] = (HALL,)) -> list[Transition]:
    """Somebody with a key: unlock, door open 30 s, locked behind them, hall motion."""
    start = at(day, hours)
    events = [
        (0.0, LOCK, "unlocked"),
        (0.2, DOOR, "on"),
        (0.7, DOOR, "off"),
        (0.8, LOCK, "locked"),
        (1.0, HALL, "on"),
        (3.0, HALL, "off"),
    ]
    events += [(4.0 + 2 * i, sensor, "on") for i, sensor in enumerate(motion[1:])]
    events += [(5.0 + 2 * i, sensor, "off") for i, sensor in enumerate(motion[1:])]
    return [Transition(start + timedelta(minutes=m), e, s, AREAS.get(e)) for m, e, s in events]


def day_of_life(day: int) -> list[Transition]:
    """A weekday: out 08:00-17:00, the dog on the move hourly, the walker at 12:00."""
    events = [Transition(at(day, 8), ALICE, "not_home"), Transition(at(day, 17), ALICE, "home")]
    for hour in range(9, 17):
        events += [
            Transition(at(day, hour + 0.25), LIVING, "on", "Living"),
            Transition(at(day, hour + 0.3), LIVING, "off", "Living"),
        ]
    events += visit(day, 12)
    events += visit(day, 12.5)  # and out again
    return sorted(events)


def lived(days: int, life: Callable[[int], list[Transition]] = day_of_life) -> HomeBaselines:
    """The baselines after ``days`` days, each lived as ``life`` says."""
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class=CLASSES.get(e)) for e in AREAS]
    baselines.describe([*infos, EntityInfo(ALICE, "Alice")])
    baselines.watching([*AREAS, ALICE], DAY0 - timedelta(days=7))
    baselines.learn(Transition(DAY0, ALICE, "home"))
    baselines.learn(Transition(DAY0, LOCK, "locked", "Hall"))
    for day in range(days):
        for transition in life(day):
            baselines.learn(transition)
        baselines.advance(at(day, 23))
    return baselines


def analyse(
    baselines: HomeBaselines,
    now: datetime,
    today: list[Transition],
    *,
    door: str = "off",
    profile: str = "",
) -> list[Finding]:
    """The combined detector's away findings at ``now``, the window of 5 h before it
    (``profile``: the household profile the homeowner wrote)."""
    start = now - timedelta(hours=5)
    shown = sorted(t for t in today if start <= t.when <= now)
    latest = {t.entity_id: t.state for t in shown}
    states = [
        entity(
            e,
            latest.get(e, "locked" if e == LOCK else "off"),
            area=AREAS[e],
            device_class=CLASSES.get(e),
        )
        for e in AREAS
    ]
    states = [
        s if s.entity_id != DOOR else entity(DOOR, door, area="Hall", device_class="door")
        for s in states
    ]
    states.append(entity(ALICE, latest.get(ALICE, "not_home")))
    detector = CombinedDetector(baselines=lambda: baselines)
    window = build_window(states, environment(now, persons_home=0), shown, start=start)
    window = dataclasses.replace(window, profile=profile)
    return [f for f in detector.findings(window) if f.rule in AWAY_RULES]


def test_the_walker_and_the_dog_at_their_times_are_not_told() -> None:
    baselines = lived(10)
    today = day_of_life(10)
    assert analyse(baselines, at(10, 12.1), today) == []  # the walker inside
    assert analyse(baselines, at(10, 10.5), today) == []  # the dog alone
    # The door stands open as she comes in: usual at her time.
    assert analyse(baselines, at(10, 12) + timedelta(seconds=20), today, door="on") == []


def test_the_same_entry_at_night_is_told_and_says_so() -> None:
    baselines = lived(10)
    today = [Transition(at(10, 2), ALICE, "not_home"), *visit(10, 3, motion=(HALL, BEDROOM))]
    findings = analyse(baselines, at(10, 3.1), today)
    assert {f.rule for f in findings} >= {"activity_while_away"}
    assert any("03:00" in f.reasoning and "nothing" in f.reasoning for f in findings)


def test_motion_after_a_door_never_used_while_away_is_told_even_where_the_dog_moves() -> None:
    baselines = lived(10)
    back = [
        Transition(at(10, 10.4), BACK, "on", "Kitchen"),
        Transition(at(10, 10.41), BACK, "off", "Kitchen"),
        Transition(at(10, 10.42), LIVING, "on", "Living"),  # then somebody walks in
    ]
    findings = analyse(baselines, at(10, 10.5), sorted([*day_of_life(10), *back]))
    assert any(f.rule == "activity_while_away" for f in findings)


def test_where_the_dog_moves_motion_after_a_window_opened_is_told() -> None:
    """A window levered open, then the dog's sensor moves (the intruder): told, and the
    walker's regular visit an hour before does not make the window hers."""
    baselines = lived(10)
    window = [
        Transition(at(10, 13.5), WINDOW, "on", "Living"),
        Transition(at(10, 13.55), LIVING, "on", "Living"),
    ]
    findings = analyse(baselines, at(10, 13.6), sorted([*day_of_life(10), *window]))
    assert any(WINDOW in f.evidence and "13:30" in f.reasoning for f in findings)


def test_a_sensor_that_never_moves_while_away_is_told() -> None:
    baselines = lived(10)
    bedroom = [Transition(at(10, 10.45), BEDROOM, "on", "Bedroom")]
    findings = analyse(baselines, at(10, 10.5), sorted([*day_of_life(10), *bedroom]))
    told = [f for f in findings if f.rule == "motion_while_away"]
    assert told
    assert "seldom moves" in told[0].reasoning


def test_at_cold_start_an_entry_into_the_empty_home_is_pushed_at_once() -> None:
    baselines = lived(0)
    baselines.watching([*AREAS, ALICE], at(0, 7))  # set up this morning
    baselines.usual.since.clear()
    baselines.watching([*AREAS, ALICE], at(0, 7))
    findings = analyse(baselines, at(0, 12.1), day_of_life(0))
    assert {f.rule for f in findings} >= {"activity_while_away"}
    pushed = not_held(findings, baselines, at(0, 12.1), someone_home=False)
    assert [f.signature for f in pushed] == [f.signature for f in findings]


def test_a_false_alarm_teaches_the_time_and_removing_it_forgets() -> None:
    baselines = lived(10)
    today = [Transition(at(10, 2), ALICE, "not_home"), *visit(10, 3)]
    told = analyse(baselines, at(10, 3.1), today)
    assert told
    for finding in told:
        teach_away_false_alarm(
            baselines, finding.rule, finding.evidence, finding.context, at(10, 3)
        )
    assert analyse(baselines, at(10, 3.1), today) == []
    for finding in told:
        forget_away_false_alarm(baselines, finding.rule, finding.evidence)
    assert analyse(baselines, at(10, 3.1), today) != []


def test_at_cold_start_a_false_alarm_teaches_the_time_of_the_next_spells() -> None:
    """A fresh install, no day lived empty yet: the walker's entry marked a false alarm is
    not told at her time on the next day (the mark covered one spell only), an entry at
    03:00 is."""
    baselines = lived(0)
    baselines.watching([*AREAS, ALICE], at(0, 7))  # set up this morning
    baselines.usual.since.clear()
    baselines.watching([*AREAS, ALICE], at(0, 7))
    told = analyse(baselines, at(0, 12.1), day_of_life(0), door="on")
    assert any(f.rule == "entry_unsecured_while_away" for f in told)
    for finding in told:
        teach_away_false_alarm(
            baselines, finding.rule, finding.evidence, finding.context, at(0, 12)
        )
    again = [Transition(at(1, 8), ALICE, "not_home"), *visit(1, 12.1)]
    assert not [
        f for f in analyse(baselines, at(1, 12.2), again, door="on") if f.rule in ENTRY_RULE
    ]
    night = [Transition(at(1, 1), ALICE, "not_home"), *visit(1, 3)]
    assert [f for f in analyse(baselines, at(1, 3.1), night, door="on") if f.rule in ENTRY_RULE]


def test_the_stored_form_reads_back_and_garbage_is_dropped() -> None:
    baselines = lived(5)
    stored = baselines.away.as_dict()
    again = AwayNormal.from_dict(stored, UTC)
    assert again.as_dict() == stored
    assert again.regular_entry(DOOR, at(5, 12)) == baselines.away.regular_entry(DOOR, at(5, 12))
    assert again.regular_entry(DOOR, at(5, 12)) is not None
    broken = {**stored, "entries": {DOOR: "1,x"}, "away_days": ["1"]}
    damaged = AwayNormal.from_dict(broken, UTC)
    assert damaged.entries == {}
    assert damaged.motion == again.motion
    assert AwayNormal.from_dict({"version": 99}, UTC).as_dict() == AwayNormal(UTC).as_dict()

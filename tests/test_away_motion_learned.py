"""Motion while away that this home shows is not a person's (sets 3, 8 and 11).

- A sensor that keeps a person's hours, never seen moving while the home is empty, is
  told. (Taking a sensor that moves round the clock for a pet was tried and reverted: set
  10's break-in during mass was told only by the dogs' veranda sensor.)
- A door sensor that dropped out and came back in the state it had (open before, open
  after) was used by nobody: motion after it was told as following "a time nothing
  usually comes in", from a bedroom door that never moved (set 3).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.moves_whenever_empty import (
    moves_whenever_empty,
)
from custom_components.anomaly_monitor.core.baselines.opening_uses import uses
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.window import build_window

from . import test_away_keyholders as keyed, test_away_normal as normal
from .core_factories import entity, environment

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)  # a Monday
ALICE = "person.alice"
DOG = "binary_sensor.living_motion"  # where the dog sleeps and walks, day and night
HALL = "binary_sensor.hall_motion"  # Alice's hours only
DOOR = "binary_sensor.front_door"
BEDROOM = "binary_sensor.bedroom_door"
AREAS = {DOG: "Living", HALL: "Hall", DOOR: "Hall", BEDROOM: "Bedroom"}
CLASSES = {DOG: "motion", HALL: "motion", DOOR: "door", BEDROOM: "door"}
MOTION_RULES = {"motion_while_away", "activity_while_away"}


def at(day: int, hours: float) -> datetime:
    return DAY0 + timedelta(days=day, hours=hours)


def _blip(when: datetime, sensor: str, minutes: float = 1.0) -> list[Transition]:
    area = AREAS[sensor]
    return [
        Transition(when, sensor, "on", area),
        Transition(when + timedelta(minutes=minutes), sensor, "off", area),
    ]


def _day(day: int) -> list[Transition]:
    """Alice at home all day (never out long: nothing learned of the empty home); the dog
    moves every hour of the day and night, the hall at Alice's hours only."""
    events: list[Transition] = []
    for hour in range(24):
        events += _blip(at(day, hour + 0.3), DOG)
    for hour in range(7, 22):
        events += _blip(at(day, hour + 0.1), HALL)
    return events


def _lived(days: int) -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS]
    baselines.describe([*infos, EntityInfo(ALICE, "Alice")])
    baselines.watching([*AREAS, ALICE], DAY0 - timedelta(days=7))
    baselines.learn(Transition(DAY0, ALICE, "home"))
    for day in range(days):
        for transition in sorted(_day(day)):
            baselines.learn(transition)
        baselines.advance(at(day, 23.9))
    return baselines


def _motion_findings(
    baselines: HomeBaselines, now: datetime, shown: list[Transition], open_doors: set[str]
) -> list[Finding]:
    start = now - timedelta(hours=2)
    shown = sorted(t for t in shown if start <= t.when <= now)
    for transition in shown:
        baselines.learn(transition)
    baselines.advance(now)
    latest = {t.entity_id: t.state for t in shown}
    states = [
        entity(
            e,
            latest.get(e, "on" if e in open_doors else "off"),
            area=AREAS[e],
            device_class=CLASSES[e],
        )
        for e in AREAS
    ]
    states.append(entity(ALICE, "not_home"))
    detector = CombinedDetector(baselines=lambda: baselines)
    window = build_window(states, environment(now, persons_home=0), shown, start=start)
    return [f for f in detector.findings(window) if f.rule in MOTION_RULES]


def _out_at_noon(*extra: Transition) -> tuple[HomeBaselines, list[Transition]]:
    baselines = _lived(6)
    morning = [t for t in _day(6) if t.when < at(6, 12)]
    spell = [Transition(at(6, 12), ALICE, "not_home"), *extra]
    return baselines, sorted([*morning, *spell])


def test_the_hall_that_keeps_a_persons_hours_is_still_told() -> None:
    baselines, today = _out_at_noon(*_blip(at(6, 12.5), HALL))
    findings = _motion_findings(baselines, at(6, 12.52), today, set())
    assert findings
    assert all("seldom moves" in f.reasoning for f in findings), [f.reasoning for f in findings]


def test_a_door_back_from_a_dropout_as_it_was_is_no_use() -> None:
    began = at(6, 12)
    back = [
        Transition(began + timedelta(minutes=5), BEDROOM, "unavailable", "Bedroom"),
        Transition(began + timedelta(minutes=12), BEDROOM, "on", "Bedroom"),
    ]
    states = [entity(BEDROOM, "on", area="Bedroom", device_class="door")]
    home = HomeView(build_window(states, environment(began + timedelta(minutes=13)), back))
    assert uses(home, BEDROOM, frozenset({"on"})) == []
    # Closed before the dropout and open after it: opened meanwhile.
    closed = [Transition(began, BEDROOM, "off", "Bedroom"), *back]
    home = HomeView(build_window(states, environment(began + timedelta(minutes=13)), closed))
    assert uses(home, BEDROOM, frozenset({"on"})) == [began + timedelta(minutes=12)]


def test_motion_after_a_door_back_from_a_dropout_is_not_told_as_after_an_entry() -> None:
    baselines, today = _out_at_noon(
        Transition(at(6, 12.2), BEDROOM, "unavailable", "Bedroom"),
        Transition(at(6, 12.4), BEDROOM, "on", "Bedroom"),
        *_blip(at(6, 12.5), DOG),
    )
    findings = _motion_findings(baselines, at(6, 12.52), today, {BEDROOM})
    assert all(BEDROOM not in f.evidence for f in findings), [f.reasoning for f in findings]
    assert all("used at" not in f.reasoning for f in findings), [f.reasoning for f in findings]


def _analyse_with_back_door(
    baselines: HomeBaselines, now: datetime, today: list[Transition]
) -> list[Finding]:
    """``test_away_normal.analyse`` with the back door (no lock) watched too."""
    start = now - timedelta(hours=5)
    shown = sorted(t for t in today if start <= t.when <= now)
    latest = {t.entity_id: t.state for t in shown}
    areas = {**normal.AREAS, normal.BACK: "Kitchen"}
    states = [
        entity(
            e,
            latest.get(e, "locked" if e == normal.LOCK else "off"),
            area=areas[e],
            device_class=normal.CLASSES.get(e),
        )
        for e in areas
    ]
    states.append(entity(normal.ALICE, latest.get(normal.ALICE, "not_home")))
    detector = CombinedDetector(baselines=lambda: baselines)
    window = build_window(states, environment(now, persons_home=0), shown, start=start)
    return [f for f in detector.findings(window) if f.rule in MOTION_RULES]


def _back_door_then(*after: Transition) -> list[Transition]:
    day = keyed.NEXT_TUESDAY
    return sorted(
        [
            Transition(normal.at(day, 8), normal.ALICE, "not_home"),
            Transition(normal.at(day, 9.3), normal.BACK, "on", "Kitchen"),
            Transition(normal.at(day, 9.31), normal.BACK, "off", "Kitchen"),
            *after,
            Transition(normal.at(day, 9.45), normal.HALL, "on", "Hall"),
        ]
    )


def test_the_back_door_then_the_key_at_the_keyholders_time_is_one_arrival() -> None:
    """The cleaner opens the back door (the bins), then the front door with her key at her
    time, within a passage: the back door is hers, and the hall motion after it too."""
    baselines = keyed.lived(keyed.NEXT_TUESDAY)
    day = keyed.NEXT_TUESDAY
    today = _back_door_then(*keyed.visit(day, 9.35))
    # Before: "Back Door was used at 09:18 before it, a time nothing usually comes in".
    assert _analyse_with_back_door(baselines, normal.at(day, 9.46), today) == []


def test_the_back_door_alone_then_motion_is_still_told() -> None:
    baselines = keyed.lived(keyed.NEXT_TUESDAY)
    day = keyed.NEXT_TUESDAY
    findings = _analyse_with_back_door(baselines, normal.at(day, 9.46), _back_door_then())
    assert findings
    assert any(normal.BACK in f.evidence for f in findings)


def _grandmother_at_home(day: int) -> list[Transition]:
    """Alice out 08:00-15:30; her mother (no tracker) in her bedroom at 09, 11, 13 and 15."""
    events = [
        Transition(normal.at(day, 8), normal.ALICE, "not_home"),
        Transition(normal.at(day, 15.5), normal.ALICE, "home"),
    ]
    for hour in (9, 11, 13, 15):
        events += [
            Transition(normal.at(day, hour), normal.BEDROOM, "on", "Bedroom"),
            Transition(normal.at(day, hour + 0.05), normal.BEDROOM, "off", "Bedroom"),
        ]
    return sorted(events)


def test_the_grandmother_who_moves_whenever_the_home_is_empty_is_not_told_at_a_new_hour() -> None:
    """The home was only ever empty in the morning and early afternoon: the first evening
    it is, her room moving at 17:30 (past the hour in which a sign shows who stayed in as
    Alice left) is what moves whenever it is empty. Before: "seldom moves at 16-20 h while
    nobody is home"."""
    for sensor, told in ((normal.BEDROOM, False), (normal.HALL, True)):
        baselines = normal.lived(10, _grandmother_at_home)
        today = [
            Transition(normal.at(10, 15), normal.BEDROOM, "on", "Bedroom"),
            Transition(normal.at(10, 15.05), normal.BEDROOM, "off", "Bedroom"),
            Transition(normal.at(10, 16), normal.ALICE, "not_home"),
            Transition(normal.at(10, 17.5), sensor, "on", normal.AREAS[sensor]),
        ]
        for transition in today:
            baselines.learn(transition)
        baselines.advance(normal.at(10, 17.52))
        findings = normal.analyse(baselines, normal.at(10, 17.52), today)
        # The hall never moved while the home was empty: still told.
        assert bool(findings) is told, (sensor, [f.reasoning for f in findings])


def test_a_sensor_still_in_one_empty_part_keeps_hours() -> None:
    def mornings_only(day: int) -> list[Transition]:
        return [
            t
            for t in _grandmother_at_home(day)
            if t.entity_id != normal.BEDROOM or t.when.hour < 12
        ]

    baselines = normal.lived(10, mornings_only)
    assert moves_whenever_empty(baselines.away, normal.BEDROOM, normal.at(10, 17)) is None
    lived_in = normal.lived(10, _grandmother_at_home)
    assert moves_whenever_empty(lived_in.away, normal.BEDROOM, normal.at(10, 17)) == (20, 20)

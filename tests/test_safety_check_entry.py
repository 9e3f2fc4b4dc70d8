"""An entrance opened in the empty home, judged by a safety check as by an analysis.

A safety check judges the current states only (no transitions: it costs the same in a
storm of events), and it is what tells an entry into the empty home at once. The away
judge asks when the entrance was used, by whom and whether anybody moves about; from a
window without transitions it saw no use at all, and told the flatmate without a phone
coming home at his usual hour (sets 2 and 5) as if nothing were learned, to be judged
usual by the next analysis, minutes after the push. The baselines learn every change
before a check reads them and keep the away spell's openings and motion
(``spell_record``): the check reads those. A tracker's flicker (``unknown`` for minutes,
then away again) is no return home either, though the window starts a new empty span
after it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)  # a Monday
ALICE = "person.alice"
DOOR = "binary_sensor.front_door"
HALL = "binary_sensor.hall_motion"
AREAS = {DOOR: "Hall", HALL: "Hall"}
CLASSES = {DOOR: "door", HALL: "motion"}


def at(day: int, hours: float) -> datetime:
    return DAY0 + timedelta(days=day, hours=hours)


def _visit(when: datetime) -> list[Transition]:
    """The flatmate without a phone comes in and moves about the hall."""
    return [
        Transition(when, DOOR, "on", "Hall"),
        Transition(when + timedelta(minutes=0.5), DOOR, "off", "Hall"),
        Transition(when + timedelta(minutes=1), HALL, "on", "Hall"),
        Transition(when + timedelta(minutes=3), HALL, "off", "Hall"),
    ]


def day_of_life(day: int) -> list[Transition]:
    """Alice out 09:00-18:00 on weekdays; the flatmate home at 14:30 on each of them."""
    if day % 7 >= 5:
        return []
    events = [Transition(at(day, 9), ALICE, "not_home"), Transition(at(day, 18), ALICE, "home")]
    return sorted([*events, *_visit(at(day, 14.5))])


def lived(days: int) -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS]
    baselines.describe([*infos, EntityInfo(ALICE, "Alice")])
    baselines.watching([*AREAS, ALICE], DAY0 - timedelta(days=7))
    baselines.learn(Transition(DAY0, ALICE, "home"))
    for day in range(days):
        for transition in day_of_life(day):
            baselines.learn(transition)
        baselines.advance(at(day, 23.9))
    return baselines


def _told(
    baselines: HomeBaselines, now: datetime, today: list[Transition], *, events: bool
) -> list[Finding]:
    """The baselines learn today up to ``now``; the window shows the events or (a safety
    check's) the states only."""
    for transition in today:
        if transition.when <= now:
            baselines.learn(transition)
    baselines.advance(now)
    start = now - timedelta(hours=2)
    shown = sorted(t for t in today if start <= t.when <= now)
    latest = {t.entity_id: t.state for t in today if t.when <= now}
    states = [
        entity(e, latest.get(e, "off"), area=AREAS[e], device_class=CLASSES[e]) for e in AREAS
    ]
    states.append(entity(ALICE, latest.get(ALICE, "not_home")))
    detector = CombinedDetector(baselines=lambda: baselines)
    window = build_window(
        states, environment(now, persons_home=0), shown if events else [], start=start
    )
    return [f for f in detector.findings(window) if f.rule == "entry_unsecured_while_away"]


def test_the_flatmate_at_his_hour_is_not_told_by_the_safety_check() -> None:
    baselines = lived(9)  # two weeks of weekdays but today's (day 9, a Wednesday)
    today = [Transition(at(9, 9), ALICE, "not_home"), *_visit(at(9, 14.6))]
    opened = at(9, 14.6) + timedelta(seconds=10)
    # Before, the check saw no use of the door and told it; the analysis did not.
    assert _told(baselines, opened, today, events=False) == []
    assert _told(lived(9), opened, today, events=True) == []


def test_the_same_door_at_three_in_the_morning_is_told_by_the_safety_check() -> None:
    baselines = lived(9)
    today = [Transition(at(9, 1), ALICE, "not_home"), *_visit(at(9, 3))]
    (finding,) = _told(baselines, at(9, 3) + timedelta(seconds=10), today, events=False)
    assert "It is never used at 03:00" in finding.reasoning


def test_a_trackers_flicker_does_not_make_the_flatmate_an_intruder() -> None:
    baselines = lived(9)
    today = [
        Transition(at(9, 13), ALICE, "not_home"),  # out later today: in the window
        Transition(at(9, 14.4), ALICE, "unknown"),  # the phone lost its fix for minutes
        Transition(at(9, 14.5), ALICE, "not_home"),
        *_visit(at(9, 14.525)),  # 14:31:30
    ]
    # Before, the window's new empty span began after its leaving grace, without the door.
    assert _told(baselines, at(9, 14.525) + timedelta(seconds=10), today, events=True) == []

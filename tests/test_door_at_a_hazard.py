"""A door opened while a hazard is under way in the home is somebody answering it.

Set 33 c: water on the bathroom floor while only an untracked grandmother and her carer
were in; the carer opened the bathroom door to shut the valve, and the everyday motion in
the hall two hours later was told "after an entry at a time nothing comes in". Set 53 c:
gas in the kitchen, the neighbour with a key in by the front door twenty minutes later,
told as an entry on top of the gas. A door opened while a detector of the home reads its
hazard is no entry; the same door opened without a hazard, or once it is over, still is.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.at_a_hazard import (
    ANSWER_REACH,
    opened_at_a_hazard,
)
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)  # a Monday
ALICE = "person.alice"
DOG = "binary_sensor.living_motion"  # the dog, day and night
HALL = "binary_sensor.hall_motion"  # Alice's hours only
DOOR = "binary_sensor.front_door"
BATH = "binary_sensor.bathroom_door"
LEAK = "binary_sensor.bathroom_leak"
KITCHEN_LEAK = "binary_sensor.kitchen_leak"
AREAS = {
    DOG: "Living",
    HALL: "Hall",
    DOOR: "Hall",
    BATH: "Bathroom",
    LEAK: "Bathroom",
    KITCHEN_LEAK: "Kitchen",
}
CLASSES = {
    DOG: "motion",
    HALL: "motion",
    DOOR: "door",
    BATH: "door",
    LEAK: "moisture",
    KITCHEN_LEAK: "moisture",
}
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
    """Alice home all day; the dog moves every hour, the hall at Alice's hours; the
    bathroom door used morning and evening only."""
    events: list[Transition] = []
    for hour in range(24):
        events += _blip(at(day, hour + 0.3), DOG)
    for hour in range(7, 22):
        events += _blip(at(day, hour + 0.1), HALL)
    events += _blip(at(day, 7.5), BATH) + _blip(at(day, 21.5), BATH)
    return events


def _lived(days: int) -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS]
    baselines.describe([*infos, EntityInfo(ALICE, "Alice")])
    baselines.watching([*AREAS, ALICE], DAY0 - timedelta(days=7))
    baselines.learn(Transition(DAY0, ALICE, "home"))
    for transition in (Transition(DAY0, LEAK, "off"), Transition(DAY0, KITCHEN_LEAK, "off")):
        baselines.learn(transition)
    for day in range(days):
        for transition in sorted(_day(day)):
            baselines.learn(transition)
        baselines.advance(at(day, 23.9))
    return baselines


def _motion_findings(
    now: datetime, *extra: Transition, rules: frozenset[str] = frozenset(MOTION_RULES)
) -> list[Finding]:
    """Alice out at noon on day 6; ``extra`` happens in the empty home; analysed at ``now``
    over the last two hours (the baselines learned everything before)."""
    baselines = _lived(6)
    morning = [t for t in _day(6) if t.when < at(6, 12)]
    everything = sorted([*morning, Transition(at(6, 12), ALICE, "not_home"), *extra])
    for transition in everything:
        baselines.learn(transition)
    baselines.advance(now)
    start = now - timedelta(hours=2)
    shown = [t for t in everything if start <= t.when <= now]
    latest = {t.entity_id: t.state for t in everything if t.entity_id in AREAS}
    states = [
        entity(e, latest.get(e, "off"), area=AREAS[e], device_class=CLASSES[e]) for e in AREAS
    ]
    states.append(entity(ALICE, "not_home"))
    detector = CombinedDetector(baselines=lambda: baselines)
    window = build_window(states, environment(now, persons_home=0), shown, start=start)
    return [f for f in detector.findings(window) if f.rule in rules]


def _cites_the_bathroom_door(findings: list[Finding]) -> bool:
    return any(BATH in f.evidence or "Bathroom" in f.reasoning for f in findings)


# The leak begins, the bathroom door is opened to it, the hall moves twelve minutes later.
_LEAK = (
    Transition(at(6, 12.1), LEAK, "on", "Bathroom"),
    *_blip(at(6, 12.3), BATH, 5),
    Transition(at(6, 12.6), LEAK, "off", "Bathroom"),
)
_NOW = at(6, 12.51)
_LATER = _blip(at(6, 12.5), HALL)


def test_the_door_opened_without_a_hazard_is_an_entry_before_the_motion() -> None:
    findings = _motion_findings(_NOW, *_blip(at(6, 12.3), BATH, 5), *_LATER)
    assert _cites_the_bathroom_door(findings), [f.reasoning for f in findings]


def test_the_door_of_the_leaking_room_opened_to_it_is_no_entry() -> None:
    findings = _motion_findings(_NOW, *_LEAK, *_LATER)
    assert not _cites_the_bathroom_door(findings), [f.reasoning for f in findings]


def test_a_hazard_in_another_room_answers_for_the_door_while_it_lasts() -> None:
    """The kitchen leaking, the bathroom door opened: whoever came answers it. Opened once
    the kitchen is dry again, it is an entry as before. (Before: an entry, as any door of
    another room than the hazard's.)"""
    elsewhere = [
        Transition(t.when, KITCHEN_LEAK, t.state, "Kitchen") if t.entity_id == LEAK else t
        for t in _LEAK
    ]
    findings = _motion_findings(_NOW, *elsewhere, *_LATER)
    assert not _cites_the_bathroom_door(findings), [f.reasoning for f in findings]
    dry_first = (
        Transition(at(6, 12.1), KITCHEN_LEAK, "on", "Kitchen"),
        Transition(at(6, 12.2), KITCHEN_LEAK, "off", "Kitchen"),
        *_blip(at(6, 12.3), BATH, 5),
    )
    findings = _motion_findings(_NOW, *dry_first, *_LATER)
    assert _cites_the_bathroom_door(findings), [f.reasoning for f in findings]


def test_a_detector_on_for_long_answers_no_more() -> None:
    began = at(6, 12.1)
    opened = began + ANSWER_REACH + timedelta(minutes=5)
    changes = [Transition(began, LEAK, "on", "Bathroom"), *_blip(opened, BATH)]
    baselines = _lived(1)
    for transition in changes:
        baselines.learn(transition)
    states = [entity(e, "off", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS]
    states = [
        s if s.entity_id != LEAK else entity(LEAK, "on", area="Bathroom", device_class="moisture")
        for s in states
    ]
    now = opened + timedelta(minutes=2)
    home = HomeView(build_window(states, environment(now), changes, start=began))
    assert not opened_at_a_hazard(baselines, home, BATH, opened)
    assert opened_at_a_hazard(baselines, home, BATH, began + timedelta(minutes=10))
    assert not opened_at_a_hazard(baselines, home, LEAK, began + timedelta(minutes=10))


def test_the_onset_before_the_window_is_known_from_the_baselines() -> None:
    """A window that begins after the leak began (only its end shows) or that carries the
    current states only: the baselines' last spell of the detector answers."""
    began, opened, dry = at(6, 12.1), at(6, 12.3), at(6, 12.6)
    baselines = _lived(1)
    for transition in (Transition(began, LEAK, "on", "Bathroom"), *_blip(opened, BATH)):
        baselines.learn(transition)
    baselines.learn(Transition(dry, LEAK, "off", "Bathroom"))
    states = [entity(e, "off", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS]
    now = at(6, 14.4)
    later = [Transition(dry, LEAK, "off", "Bathroom")]
    for shown in (later, []):
        home = HomeView(
            build_window(states, environment(now), shown, start=now - timedelta(hours=2))
        )
        assert opened_at_a_hazard(baselines, home, BATH, opened)
        assert not opened_at_a_hazard(baselines, home, BATH, dry + timedelta(minutes=5))
        assert opened_at_a_hazard(baselines, home, DOOR, opened)  # another room's door too


def test_the_front_door_opened_to_a_leak_is_not_told_as_an_entry() -> None:
    """The bathroom leaking in the empty home, the front door opened and left open eleven
    minutes later (the neighbour with a key, the plumber): no entry while away is told on
    top of the leak. The same door opened with nothing leaking is told."""
    entry = frozenset({"entry_unsecured_while_away"})
    leak = (Transition(at(6, 12.1), LEAK, "on", "Bathroom"),)
    opened = (Transition(at(6, 12.3), DOOR, "on", "Hall"),)
    assert _motion_findings(at(6, 12.35), *leak, *opened, rules=entry) == []
    assert _motion_findings(at(6, 12.35), *opened, rules=entry)

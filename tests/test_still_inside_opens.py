"""Guests asleep or still for hours, then out of the door: not an entry into the empty home.

Set blind5's ski cabin: weekend guests (no trackers) came in with the keypad on Friday,
slept, had breakfast until 08:30 and went out skiing by the mudroom door at 09:27; the
door was told as "open while nobody is home" because nobody had moved within the hour
before it. Nothing opened since they came in, nobody went out: whoever opens the door is
somebody already inside (``somebody_in.opened_by_still_inside``), up to a night's stillness
(``STILL_INSIDE``). A door opened after the home stood empty and quiet is still told.
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
DOOR = "binary_sensor.side_door"
HALL = "binary_sensor.hall_motion"
LIVING = "binary_sensor.living_motion"
LOCK = "lock.side_door"
AREAS = {DOOR: "Hall", HALL: "Hall", LIVING: "Living", LOCK: "Hall"}
CLASSES = {DOOR: "door", HALL: "motion", LIVING: "motion", LOCK: ""}


def at(day: int, hours: float) -> datetime:
    return DAY0 + timedelta(days=day, hours=hours)


def _blip(when: datetime, sensor: str, minutes: float = 0.5) -> list[Transition]:
    return [
        Transition(when, sensor, "on", AREAS[sensor]),
        Transition(when + timedelta(minutes=minutes), sensor, "off", AREAS[sensor]),
    ]


def _day(day: int) -> list[Transition]:
    """Alice out 09:00-17:00 (the door as she goes and comes), about at home otherwise."""
    events = [
        *_blip(at(day, 8.95), DOOR),
        Transition(at(day, 9), ALICE, "not_home"),
        *_blip(at(day, 16.95), DOOR),
        Transition(at(day, 17), ALICE, "home"),
    ]
    for hour in [7, 8, *range(17, 22)]:
        events += _blip(at(day, hour + 0.2), HALL) + _blip(at(day, hour + 0.6), LIVING)
    return sorted(events)


def _lived(days: int) -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class=CLASSES[e] or None) for e in AREAS]
    baselines.describe([*infos, EntityInfo(ALICE, "Alice")])
    baselines.watching([*AREAS, ALICE], DAY0 - timedelta(days=7))
    baselines.learn(Transition(DAY0, ALICE, "home"))
    for day in range(days):
        for transition in _day(day):
            baselines.learn(transition)
        baselines.advance(at(day, 23.9))
    return baselines


def _told(day: int, spell: list[Transition], now: datetime) -> list[Finding]:
    """The entry findings at ``now``, the day's events learned live up to it."""
    baselines = _lived(day)
    today = sorted([*(t for t in _day(day) if t.when < at(day, 9.5)), *spell])
    for transition in today:
        if transition.when <= now:
            baselines.learn(transition)
    baselines.advance(now)
    start = now - timedelta(hours=2)
    shown = [t for t in today if start <= t.when <= now]
    latest = {LOCK: "locked"} | {t.entity_id: t.state for t in today if t.when <= now}
    states = [
        entity(e, latest.get(e, "off"), area=AREAS[e], device_class=CLASSES[e] or None)
        for e in AREAS
    ]
    states.append(entity(ALICE, "not_home"))
    window = build_window(states, environment(now, persons_home=0), shown, start=start)
    findings = CombinedDetector(baselines=lambda: baselines).findings(window)
    return [f for f in findings if f.rule == "entry_unsecured_while_away"]


def _guests(door_at: float) -> list[Transition]:
    """Guests in by the door at 10:00 while Alice is away, about until 13:00, then still;
    the door again at ``door_at`` (hours)."""
    events = _blip(at(10, 10), DOOR)
    for hour in (10.1, 10.6, 11.3, 12.0, 12.5, 13.0):
        events += _blip(at(10, hour), HALL if hour % 1 else LIVING)
    return sorted([*events, Transition(at(10, door_at), DOOR, "on", "Hall")])


def test_guests_still_for_two_hours_open_the_door_themselves() -> None:
    now = at(10, 15) + timedelta(minutes=1)
    assert _told(10, _guests(15), now) == []


def test_a_door_opened_after_a_longer_stillness_than_a_night_is_told() -> None:
    now = at(10, 22) + timedelta(minutes=1)  # nine hours after the last sign
    (finding,) = _told(10, _guests(22), now)
    assert "while nobody is home" in finding.reasoning


def test_a_door_opened_into_the_quiet_empty_home_is_told() -> None:
    now = at(10, 15) + timedelta(minutes=1)
    spell = [Transition(at(10, 15), DOOR, "on", "Hall")]
    (finding,) = _told(10, spell, now)
    assert "while nobody is home" in finding.reasoning


def test_friends_in_with_the_lock_open_sitting_still_keep_it_theirs() -> None:
    """Set blind2's cottage: friends unlock at 13:00, carry their bags in (the door again
    at 13:06, from inside), sit still from 13:40; at 14:05 the lock is theirs to lock."""
    spell = sorted(
        [
            Transition(at(10, 13), LOCK, "unlocked", "Hall"),
            *_blip(at(10, 13) + timedelta(seconds=10), DOOR),
            *_blip(at(10, 13) + timedelta(seconds=40), HALL),
            *_blip(at(10, 13.1), DOOR),  # the bags, from inside
            *_blip(at(10, 13.2), LIVING),
            *_blip(at(10, 13.4), LIVING),
            *_blip(at(10, 13.66), HALL),
        ]
    )
    assert _told(10, spell, at(10, 14.1)) == []


def test_the_lock_left_open_by_whoever_went_out_is_told() -> None:
    spell = sorted(
        [
            Transition(at(10, 13), LOCK, "unlocked", "Hall"),
            *_blip(at(10, 13) + timedelta(seconds=10), DOOR),
            *_blip(at(10, 13.2), LIVING),
            *_blip(at(10, 13.4), HALL),
            *_blip(at(10, 13.5), DOOR),  # out, the lock left open
        ]
    )
    (finding,) = _told(10, spell, at(10, 14.1))
    assert "is unlocked" in finding.reasoning

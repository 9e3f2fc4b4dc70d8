"""A second entry into the empty home is somebody else, whatever moved in between (set 10).

Two break-ins went unheard because an earlier entry of the same away spell had been told:

- the neighbour fed the cat at 19:00 (told), the cat moved about all evening, and the
  burglar who opened the flat door at 23:40 was taken for "the same stay" (the cat's
  motion kept the neighbour's visit going for hours);
- the kitchen door opened at 09:05 with nobody coming in (told), the dogs on the veranda
  set off its sensor, and the kitchen door forced at 09:23 was taken for whoever came in
  at 09:05 "going about", and joined the still-open 09:05 incident without a word.

What a person who came in does is keep moving inside; what a dog on the veranda does is
move at every hour of the day and night, whoever is home (``UntrackedLife.round_the_clock``,
learned). So motion that keeps no person's hours is no visitor between two entries, the
second entry from outside counts as one more (``judge_entry``'s magnitude) and is told as
"opened again" though the first one's incident is still open, and a stay told for an
entry holds a later entry only within ``STAY_GAP`` of its last entrance sign.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.away_stay import STAY_GAP
from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.untracked_life import UntrackedLife
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import (
    HOME_SUBJECT,
    AnomalyType,
    EntityInfo,
    Finding,
    Severity,
    Transition,
)
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)  # a Monday
ALICE = "person.alice"
DOOR = "binary_sensor.kitchen_door"
KITCHEN = "binary_sensor.kitchen_motion"
LIVING = "binary_sensor.living_motion"
PORCH = "binary_sensor.porch_motion"
AREAS = {DOOR: "Kitchen", KITCHEN: "Kitchen", LIVING: "Living", PORCH: "Porch"}
CLASSES = {DOOR: "door", KITCHEN: "motion", LIVING: "motion", PORCH: "motion"}


def at(day: int, hours: float) -> datetime:
    return DAY0 + timedelta(days=day, hours=hours)


def _blip(when: datetime, sensor: str, minutes: float = 0.5) -> list[Transition]:
    area = AREAS[sensor]
    return [
        Transition(when, sensor, "on", area),
        Transition(when + timedelta(minutes=minutes), sensor, "off", area),
    ]


def day_of_life(day: int) -> list[Transition]:
    """Alice home but for 09:00-11:00; the kitchen and the living room at her hours
    (07:00-22:00), the kitchen door early and late; the dogs on the porch every hour of
    the day and night."""
    events = [Transition(at(day, 9), ALICE, "not_home"), Transition(at(day, 11), ALICE, "home")]
    for hour in range(24):
        events += _blip(at(day, hour + 0.4), PORCH)
    for hour in [*range(7, 9), *range(11, 22)]:
        events += _blip(at(day, hour + 0.1), KITCHEN) + _blip(at(day, hour + 0.7), LIVING)
    for hour in (7.0, 18.0):
        events += _blip(at(day, hour), DOOR)
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
        baselines.advance(at(day, 23.9))
    return baselines


def _entries(baselines: HomeBaselines, now: datetime, today: list[Transition]) -> list[Finding]:
    start = now - timedelta(hours=2)
    shown = sorted(t for t in today if start <= t.when <= now)
    latest = {t.entity_id: t.state for t in shown}
    states = [
        entity(e, latest.get(e, "off"), area=AREAS[e], device_class=CLASSES[e]) for e in AREAS
    ]
    states.append(entity(ALICE, latest.get(ALICE, "not_home")))
    detector = CombinedDetector(baselines=lambda: baselines)
    window = build_window(states, environment(now, persons_home=0), shown, start=start)
    return [f for f in detector.findings(window) if f.rule == "entry_unsecured_while_away"]


def test_a_sensor_that_moves_at_every_hour_keeps_no_persons_hours() -> None:
    life = UntrackedLife(UTC)
    for day in range(5):
        for hour in range(24):
            life.moved(PORCH, at(day, hour + 0.4), empty=False)
        for hour in range(7, 23):  # a person's day: asleep at night
            life.moved(KITCHEN, at(day, hour + 0.1), empty=False)
    assert life.round_the_clock(PORCH, at(5, 10)) == (24, 5)
    assert life.round_the_clock(KITCHEN, at(5, 10)) is None
    assert UntrackedLife(UTC).round_the_clock(PORCH, at(5, 10)) is None  # nothing learned


def test_a_door_forced_after_the_dogs_moved_is_a_second_entry() -> None:
    baselines = lived(10)
    morning = [t for t in day_of_life(10) if t.when < at(10, 9)]
    spell = [
        Transition(at(10, 9), ALICE, "not_home"),
        *_blip(at(10, 9) + timedelta(minutes=45), DOOR),  # nobody came in
        *_blip(at(10, 9) + timedelta(minutes=50), PORCH),  # the dogs
        Transition(at(10, 10) + timedelta(minutes=55), DOOR, "on", "Kitchen"),  # forced
        Transition(at(10, 10) + timedelta(minutes=55.3), KITCHEN, "on", "Kitchen"),
    ]
    today = sorted([*morning, *spell])
    (first,) = _entries(baselines, at(10, 9) + timedelta(minutes=45.2), today)
    assert first.magnitude is None  # the first entry of the spell
    # Before, the dogs between them were the 09:45 visitor going about: not told.
    (second,) = _entries(baselines, at(10, 10) + timedelta(minutes=55.5), today)
    assert second.magnitude == 2.0, second.reasoning  # one more entry from outside


def _away(rule: str, entity_id: str, kind: AnomalyType, subject: str = "") -> Finding:
    return Finding(
        rule,
        (entity_id,),
        f"{rule}: {entity_id}.",
        kind,
        Severity.HIGH,
        subject=subject or entity_id,
        while_away=True,
    )


def _door(magnitude: float | None = None) -> Finding:
    finding = _away("entry_unsecured_while_away", DOOR, AnomalyType.SECURITY)
    return replace(finding, magnitude=magnitude)


def _motion(sensor: str) -> Finding:
    return _away("motion_while_away", sensor, AnomalyType.OCCUPANCY_MISMATCH, HOME_SUBJECT)


def _activity(count: float) -> Finding:
    finding = _away("activity_while_away", PORCH, AnomalyType.OCCUPANCY_MISMATCH, HOME_SUBJECT)
    # The judge cites the entrance used before the motion (``away_judge``).
    return replace(finding, magnitude=count, subject=DOOR, evidence=(PORCH, DOOR))


def _over(tracker: AnomalyTracker, start: datetime) -> datetime:
    now = start
    for _ in range(3):
        now += timedelta(minutes=2)
        tracker.update([], now)
    assert tracker.open == {}
    return now


async def test_an_entry_hours_after_the_last_one_is_told_though_the_cat_moved(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "home")
    now = dt_util.utcnow()
    assert len(tracker.update([_door()], now).opened) == 1  # the neighbour, told
    entered = now = _over(tracker, now)
    # The cat moves about every 40 minutes all evening: shown as the stay's, not told.
    for _ in range(7):
        now += timedelta(minutes=40)
        assert tracker.update([_motion(LIVING)], now).opened == []
        now = _over(tracker, now)
    assert now + timedelta(minutes=10) - entered > STAY_GAP
    # The learned normal counts the burglar's opening as a second entry from outside.
    burglar = tracker.update([_door(2.0)], now + timedelta(minutes=10))
    assert len(burglar.opened) == 1


async def test_the_visitors_door_again_within_the_stay_is_still_the_stay(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "home")
    now = dt_util.utcnow()
    assert len(tracker.update([_door()], now).opened) == 1
    now = _over(tracker, now)
    now += timedelta(hours=1)
    assert tracker.update([_motion(LIVING)], now).opened == []
    now = _over(tracker, now)
    out = tracker.update([_door()], now + timedelta(hours=1))
    assert out.opened == []  # going out within the stay
    assert len(out.reopened) == 1


async def test_a_second_entry_joining_an_incident_led_by_motion_is_told(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "home")
    now = dt_util.utcnow()
    opened = tracker.update([_door(), _activity(1.0)], now, states={DOOR: "on", PORCH: "on"}).opened
    assert len(opened) == 1
    # The door closed; the dogs' motion keeps the incident open and leads it now.
    for minute in (2, 10, 17):
        changes = tracker.update(
            [_activity(1.0)], now + timedelta(minutes=minute), states={DOOR: "off", PORCH: "on"}
        )
        assert changes.opened == []
    # The door forced 18 minutes later: one more entry from outside, told again.
    forced = tracker.update(
        [_door(2.0), _activity(1.0)], now + timedelta(minutes=18), states={DOOR: "on", PORCH: "on"}
    )
    assert len(forced.opened) == 1
    assert forced.opened[0].escalation == "reopened"

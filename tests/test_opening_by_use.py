"""An ``opening`` contact (ZHA's class for every contact) is known by how it is used.

A home lived for ten days (core, no Home Assistant), every contact of class ``opening`` and
named by its maker only: Alice opens the street gate (alone in the patio) for a minute
as she leaves at 08:00 and as she comes back at 17:00; the fridge (alone in the kitchen)
is opened three times in a row at each meal; the kitchen window (in the living room) is
opened for an airing of 40 min each afternoon. The front door's lock and its contact sit in
the hall.

Learned: the gate and the fridge are shut after each use, the window is not. Left
open, the gate and the fridge are told (``entry_left_open``), the window is not; before
anything is learned none of them is (today's behaviour).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.used_from_inside import UsedFromInside
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment
from .test_used_from_inside import DAY0, at

ALICE = "person.alice"
GATE = "binary_sensor.lumi_lumi_sensor_magnet_aq2_opening"
FRIDGE = "binary_sensor.lumi_lumi_sensor_magnet_aq2_opening_2"
WINDOW = "binary_sensor.lumi_lumi_sensor_magnet_aq2_opening_3"
FRONT = "binary_sensor.lumi_lumi_sensor_magnet_aq2_opening_4"
LOCK = "lock.nuki_smart_lock"
AREAS = {GATE: "Patio", FRIDGE: "Kitchen", WINDOW: "Living", FRONT: "Hall", LOCK: "Hall"}
CONTACTS = (GATE, FRIDGE, WINDOW, FRONT)


def opened(when: datetime, contact: str, seconds: float = 20) -> list[Transition]:
    area = AREAS[contact]
    return [
        Transition(when, contact, "on", area),
        Transition(when + timedelta(seconds=seconds), contact, "off", area),
    ]


def day_of_life(day: int) -> list[Transition]:
    events: list[Transition] = []
    for hour in (7.0, 12.5, 19.0):  # meals: the fridge three times in a row
        for minute in (0, 1, 3):
            events += opened(at(day, hour) + timedelta(minutes=minute), FRIDGE, seconds=15)
    events += opened(at(day, 15), WINDOW, seconds=40 * 60)  # the afternoon's airing
    for hour, presence in ((8.0, "not_home"), (17.0, "home")):
        events += opened(at(day, hour) - timedelta(minutes=3), GATE, seconds=60)
        events += opened(at(day, hour) - timedelta(minutes=1), FRONT, seconds=30)
        events += [Transition(at(day, hour), ALICE, presence)]
    return sorted(events)


def lived(days: int) -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class="opening") for e in CONTACTS]
    baselines.describe([*infos, EntityInfo(LOCK, "", area="Hall"), EntityInfo(ALICE, "Alice")])
    baselines.watching([*AREAS, ALICE], DAY0 - timedelta(days=7))
    baselines.learn(Transition(DAY0, ALICE, "home"))
    for day in range(days):
        for transition in day_of_life(day):
            baselines.learn(transition)
        baselines.advance(at(day, 23))
    return baselines


def left_open(baselines: HomeBaselines, day: int, contact: str, minutes: float) -> list[Finding]:
    """The combined detector's ``entry_left_open`` findings ``minutes`` after ``contact``
    was opened at 21:00 on ``day`` (Alice home since 17:00) and left open."""
    now = at(day, 21) + timedelta(minutes=minutes)
    today = [t for t in day_of_life(day) if t.when <= at(day, 20)]
    today += [Transition(at(day, 21), contact, "on", AREAS[contact])]
    start = now - timedelta(hours=5)
    shown = sorted(t for t in today if start <= t.when <= now)
    latest = {t.entity_id: t.state for t in shown}
    states = [
        entity(e, latest.get(e, "off"), area=AREAS[e], device_class="opening") for e in CONTACTS
    ]
    states += [entity(LOCK, "locked", area="Hall"), entity(ALICE, "home")]
    detector = CombinedDetector(baselines=lambda: baselines)
    window = build_window(states, environment(now, persons_home=1), shown, start=start)
    return [f for f in detector.findings(window) if f.rule == "entry_left_open"]


def test_the_gate_and_the_fridge_are_shut_after_use() -> None:
    learned = lived(10).inside
    assert learned.shut_after_use(GATE)
    assert learned.shut_after_use(FRIDGE)
    assert not learned.shut_after_use(WINDOW)  # long stays: aired, not passed through


def test_nothing_is_known_in_the_first_days() -> None:
    learned = lived(2).inside
    assert not learned.shut_after_use(GATE)
    assert not learned.shut_after_use(FRIDGE)


def test_the_gate_and_the_fridge_left_open_are_told() -> None:
    baselines = lived(10)
    for contact in (GATE, FRIDGE):
        found = left_open(baselines, 10, contact, minutes=50)
        assert [f.evidence[0] for f in found] == [contact]


def test_the_window_aired_as_every_day_is_not_a_door_left_open() -> None:
    assert left_open(lived(10), 10, WINDOW, minutes=50) == []


def test_before_anything_is_learned_nothing_changes() -> None:
    baselines = lived(2)
    for contact in (GATE, FRIDGE):
        assert left_open(baselines, 2, contact, minutes=50) == []


def test_a_gate_left_open_does_not_unlearn_itself() -> None:
    """Three brief openings on three days, then one left open: still a door shut after
    use while it stands open (the stay under way is no stay yet)."""
    learned = UsedFromInside(UTC)
    for day in range(3):
        learned.opened(GATE, at(day, 7.9), "Patio")
        learned.closed(GATE, at(day, 7.9) + timedelta(seconds=90))
        learned.presence(at(day, 8))
    learned.opened(GATE, at(3, 7.7), "Patio")
    assert learned.shut_after_use(GATE)

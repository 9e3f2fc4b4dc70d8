"""On a cold start, the home itself shows somebody inside before a door opens (core).

A home set up at midnight (core, no Home Assistant): Alice, the only one with a tracker,
goes out by the front door at 08:00; her mother, who carries no phone, stays home. She
sits still for long spells that the hall's motion sensor does not see; the bathroom door
rests open (open since it was first watched) and is shut for a few minutes at each use;
the kitchen cupboard is opened in bursts of looks while she cooks. Nothing of the home's
life while Alice is out is learned yet, so the away judge is not asked; what the home
shows is:

- the bathroom door shut and reopened at 16:40 is a person (a pet does not shut doors):
  the front door opened at 17:08 is opened by her, not an entry; opened more than an hour
  after it, with nothing seen since, it is told as before;
- the cupboard's looks at noon are nobody coming in: the front door opened at 12:36 with
  her moving in the hall just before is not told because of them;
- what happened before Alice's tracker left (her mother's bedroom door opened at 06:40) is
  no use of the empty home: the back door opened two minutes after the departure, with
  her moving just before, is not told because of it.

An opening of a home where nobody showed inside is told as before; so is one with only
the garden camera moving just before (``outdoor_areas``: whoever it saw is about the grounds).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)
ALICE = "person.alice"
FRONT = "binary_sensor.0x00158d0001a2b3c4_contact"
BACK = "binary_sensor.0x00158d000450a9d9_contact"
BATH = "binary_sensor.0x00158d000450b7e1_contact"
CUPBOARD = "binary_sensor.0x00158d000450a1c3_contact"
BEDROOM = "binary_sensor.0x00158d000450c2f4_contact"
HALL = "binary_sensor.0x54ef441000a3c7d2_occupancy"
CAMERA = "binary_sensor.c3tn_bd7c9e_motion"
AREAS = {
    FRONT: "Hall",
    BACK: "Utility",
    BATH: "Bathroom",
    CUPBOARD: "Kitchen",
    BEDROOM: "Bedroom",
    HALL: "Hall",
    CAMERA: "Back garden",
}
CLASSES = {HALL: "occupancy", CAMERA: "motion"}


def at(hours: float, minutes: float = 0) -> datetime:
    return DAY0 + timedelta(hours=hours, minutes=minutes)


def change(when: datetime, entity_id: str, state: str) -> Transition:
    return Transition(when, entity_id, state, AREAS[entity_id])


def opened(when: datetime, entity_id: str, seconds: float = 25) -> list[Transition]:
    return [
        change(when, entity_id, "on"),
        change(when + timedelta(seconds=seconds), entity_id, "off"),
    ]


def moved(when: datetime) -> list[Transition]:
    return opened(when, HALL, seconds=90)


def departure() -> list[Transition]:
    """The bathroom used at 07:00, Alice out by the front door at 08:00, her mother in
    the hall just before."""
    return [
        *_bathroom_used(at(7)),
        *moved(at(7, 55)),
        *opened(at(7, 58), FRONT),
        Transition(at(8), ALICE, "not_home"),
    ]


def entries(today: list[Transition], now: datetime) -> list[str]:
    """The ``entry_unsecured_while_away`` findings' first entity at ``now`` (a home set up
    at midnight: everything of ``today`` up to ``now`` learned as it happened)."""
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class=CLASSES.get(e, "door")) for e in AREAS]
    baselines.describe([*infos, EntityInfo(ALICE, "Alice")])
    baselines.watching([*AREAS, ALICE], DAY0)
    baselines.learn(Transition(DAY0, ALICE, "home"))
    for entity_id in AREAS:
        baselines.seed_reading(entity_id, "on" if entity_id == BATH else "off", DAY0)
    events = sorted(t for t in today if t.when <= now)
    for transition in events:
        baselines.learn(transition)
    start = now - timedelta(hours=5)
    shown = [t for t in events if start <= t.when]
    latest = {e: "on" if e == BATH else "off" for e in AREAS}
    latest |= {t.entity_id: t.state for t in events if t.entity_id in AREAS}
    states = [
        entity(e, latest[e], area=AREAS[e], device_class=CLASSES.get(e, "door")) for e in AREAS
    ]
    states.append(entity(ALICE, "not_home"))
    detector = CombinedDetector(baselines=lambda: baselines)
    window = build_window(states, environment(now, persons_home=0), shown, start=start)
    found: list[Finding] = detector.findings(window)
    return [f.evidence[0] for f in found if f.rule == "entry_unsecured_while_away"]


def _bathroom_used(when: datetime) -> list[Transition]:
    return [change(when, BATH, "off"), change(when + timedelta(minutes=5), BATH, "on")]


def _afternoon(front_at: datetime) -> list[Transition]:
    """The bathroom used at 16:35-16:40, nothing else seen, the front door opened."""
    return [
        *departure(),
        *_bathroom_used(at(16, 35)),
        change(front_at, FRONT, "on"),
    ]


def test_a_door_opened_half_an_hour_after_the_bathroom_was_used_is_opened_from_inside() -> None:
    now = at(17, 8) + timedelta(seconds=10)
    assert entries(_afternoon(at(17, 8)), now) == []


def test_a_door_opened_long_after_anybody_showed_inside_is_told() -> None:
    now = at(17, 50) + timedelta(seconds=10)
    assert entries(_afternoon(at(17, 50)), now) == [FRONT]


def test_the_cupboards_looks_are_nobody_coming_in() -> None:
    looks = [t for k in range(3) for t in opened(at(12, 2 + 1.5 * k), CUPBOARD, seconds=18)]
    today = [
        *departure(),
        *looks,
        *moved(at(12, 35)),
        change(at(12, 36), FRONT, "on"),
    ]
    assert entries(today, at(12, 36) + timedelta(seconds=10)) == []


def test_what_happened_before_the_tracker_left_is_no_use_of_the_empty_home() -> None:
    today = [
        *opened(at(6, 40), BEDROOM, seconds=60),
        *departure(),
        change(at(8, 2), BACK, "on"),
    ]
    assert entries(today, at(8, 2) + timedelta(seconds=10)) == []


def test_a_door_opened_into_a_home_where_nobody_showed_is_told() -> None:
    today = [
        *_bathroom_used(at(7)),
        *opened(at(7, 58), FRONT),
        Transition(at(8), ALICE, "not_home"),
        change(at(10), BACK, "on"),
    ]
    assert entries(today, at(10) + timedelta(seconds=10)) == [BACK]


def test_a_trackers_flicker_is_nobody_leaving() -> None:
    """In by the back door at 10:00 with nobody seen inside, out by the front door at
    10:11: Alice's phone reporting unknown and away again meanwhile is no departure that
    would make the back door's opening the household's."""
    today = [
        *departure(),
        change(at(10), BACK, "on"),
        Transition(at(10, 5), ALICE, "unknown"),
        Transition(at(10, 8), ALICE, "not_home"),
        *moved(at(10, 10)),
        change(at(10, 11), FRONT, "on"),
    ]
    assert FRONT in entries(today, at(10, 11) + timedelta(seconds=10))


def test_the_garden_camera_before_the_back_door_is_nobody_inside() -> None:
    """Nobody showed inside since Alice and her mother went out; at 09:59 the garden camera
    sees somebody, at 10:00 the back door opens: told. The hall moving then: not told."""
    out = [*_bathroom_used(at(7)), *opened(at(7, 58), FRONT), Transition(at(8), ALICE, "not_home")]
    now = at(10) + timedelta(seconds=10)
    garden = [*out, *opened(at(9, 59), CAMERA, seconds=40), change(at(10), BACK, "on")]
    assert entries(garden, now) == [BACK]
    hall = [*out, *opened(at(9, 59), HALL, seconds=40), change(at(10), BACK, "on")]
    assert entries(hall, now) == []

"""A room's door learned from use is a sign of somebody inside, not a way in (core).

A home lived for six days (core, no Home Assistant): Alice, the only phone, goes out by the
front door at 08:00 and comes back at 17:00. Her mother, who carries no phone, uses the
bathroom at 02:30, 07:00, 13:00 and 21:00: its door rests shut and is opened and shut
again within 20 s at each passage, also while Alice is out. The bathroom door is then a
room's door (used at night on every night, never at a coming or going); the front door,
the way Alice comes and goes, is not; nor is a back door used by day only, a bathroom door
with a lock in its area, or any door of a home whose ways in are not known.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.inner_signs import ROOM_DOOR, inner_kind
from custom_components.anomaly_monitor.core.baselines.room_doors import room_door
from custom_components.anomaly_monitor.core.baselines.somebody_in import inside_now
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)
ALICE = "person.alice"
FRONT = "binary_sensor.0x00158d0001a2b3c4_contact"
BATH = "binary_sensor.0x00158d000450b2f6_contact"
BACK = "binary_sensor.sonoff_1000a1b2c3_contact"
LOCK = "lock.0x00158d0004aa0b1c"
AREAS = {FRONT: "Hall", BATH: "Bathroom", BACK: "Yard"}


def at(day: int, hours: float) -> datetime:
    return DAY0 + timedelta(days=day, hours=hours)


def passage(when: datetime, contact: str) -> list[Transition]:
    """Opened and shut behind whoever passes, 20 s later."""
    return [
        Transition(when, contact, "on", AREAS[contact]),
        Transition(when + timedelta(seconds=20), contact, "off", AREAS[contact]),
    ]


def day_of_life(day: int, *, front: bool = True, night: bool = True) -> list[Transition]:
    events: list[Transition] = []
    for hour in (2.5, 7.0, 13.0, 21.0) if night else (7.0, 13.0, 21.0):
        events += passage(at(day, hour), BATH)
    events += passage(at(day, 11), BACK)  # the yard, by day only
    if front:
        events += passage(at(day, 8) - timedelta(minutes=2), FRONT)
        events += passage(at(day, 17), FRONT)
    events += [Transition(at(day, 8), ALICE, "not_home"), Transition(at(day, 17), ALICE, "home")]
    return sorted(events)


def lived(
    days: int = 6,
    *,
    lock_in_bathroom: bool = False,
    front: bool = True,
    nights: int | None = None,
) -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class="door") for e in AREAS]
    if lock_in_bathroom:
        infos.append(EntityInfo(LOCK, "", area=AREAS[BATH]))
    baselines.describe([*infos, EntityInfo(ALICE, "Alice")])
    baselines.watching([*AREAS, ALICE], DAY0)
    baselines.learn(Transition(DAY0, ALICE, "home"))
    for contact, area in AREAS.items():
        baselines.learn(Transition(DAY0, contact, "off", area))
    for day in range(days):
        used_at_night = nights is None or day < nights
        for transition in day_of_life(day, front=front, night=used_at_night):
            baselines.learn(transition)
        baselines.advance(at(day, 23))
    return baselines


def view(
    baselines: HomeBaselines, today: list[Transition], now: datetime, *, lock: bool = False
) -> HomeView:
    for transition in sorted(today):
        baselines.learn(transition)
    start = now - timedelta(hours=5)
    shown = sorted(t for t in today if start <= t.when <= now)
    latest = {t.entity_id: t.state for t in shown}
    states = [entity(e, latest.get(e, "off"), area=AREAS[e], device_class="door") for e in AREAS]
    states.append(entity(ALICE, latest.get(ALICE, "not_home")))
    if lock:
        states.append(entity(LOCK, "locked", area=AREAS[BATH]))
    window = build_window(states, environment(now, persons_home=0), shown, start=start)
    return HomeView(window)


def morning(day: int) -> list[Transition]:
    return [t for t in day_of_life(day) if t.when <= at(day, 8)]


def test_the_bathroom_door_is_a_room_door_and_the_front_door_is_not() -> None:
    baselines = lived()
    home = view(baselines, morning(6), at(6, 9))
    assert room_door(baselines, home, BATH, home.end)
    assert not room_door(baselines, home, FRONT, home.end)


def test_a_back_door_used_by_day_only_stays_a_way_in() -> None:
    baselines = lived()
    home = view(baselines, morning(6), at(6, 9))
    assert not room_door(baselines, home, BACK, home.end)


def test_a_door_used_on_few_nights_is_not_known_as_a_room_door() -> None:
    baselines = lived(nights=2)
    home = view(baselines, morning(6), at(6, 9))
    assert not room_door(baselines, home, BATH, home.end)


def test_a_door_with_a_lock_in_its_area_stays_a_way_in() -> None:
    baselines = lived(lock_in_bathroom=True)
    home = view(baselines, morning(6), at(6, 9), lock=True)
    assert not room_door(baselines, home, BATH, home.end)


def test_with_no_way_in_known_no_door_is_a_room_door() -> None:
    """Alice's comings and goings show on no contact: nothing tells the doors apart."""
    baselines = lived(front=False)
    home = view(baselines, [], at(6, 9))
    assert not room_door(baselines, home, BATH, home.end)


def test_its_passage_while_alice_is_out_shows_somebody_inside() -> None:
    baselines = lived()
    today = morning(6) + passage(at(6, 10), BATH)
    home = view(baselines, today, at(6, 10) + timedelta(minutes=1))
    assert inner_kind(baselines, BATH, home.end, home) == ROOM_DOOR
    assert inside_now(baselines, home) is not None


def test_a_back_door_passage_while_alice_is_out_shows_nobody_inside() -> None:
    baselines = lived()
    today = morning(6) + passage(at(6, 10), BACK)
    home = view(baselines, today, at(6, 10) + timedelta(minutes=1))
    assert inner_kind(baselines, BACK, home.end, home) is None
    assert inside_now(baselines, home) is None

"""The last one going out by a door without a lock shows nobody inside (core).

A home lived in while the trackers are away, learned for six days: Alice goes out by the
street door at 08:00 and comes back at 17:00; her mother, who carries no phone, moves in
the living room at 08:20 and 08:40 while Alice is out. The street door has no lock of its
own (no ``way_out``), so a use of it from inside reads as somebody in. On the seventh
day the mother moves at 08:20 and goes out by the street door at 08:30: nothing moves
after it. Within ``INSIDE_REACH`` of the door she may still be in (a door is also opened
to take in a parcel); after it, nobody is: the door was the last one going out. When she
moves again after the door (she only let the postman in), she is still in however long
she then sits still, as before. Her spell of motion under way as she opened the door,
ending a minute after it (the sensor's hold running out), is no sign that she stayed.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.lived_while_away import lived_while_away
from custom_components.anomaly_monitor.core.baselines.somebody_in import inside_now
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)
ALICE = "person.alice"
STREET = "binary_sensor.0x00158d0001a2b3c4_contact"
LIVING = "binary_sensor.0x00158d0002c4d5e6_occupancy"
BEDROOM = "binary_sensor.0x00158d0003f7a8b9_occupancy"
AREAS = {STREET: "Hall", LIVING: "Living Room", BEDROOM: "Bedroom"}
CLASSES = {STREET: "door", LIVING: "occupancy", BEDROOM: "occupancy"}


def at(day: int, hours: float) -> datetime:
    return DAY0 + timedelta(days=day, hours=hours)


def seen(when: datetime, entity_id: str, minutes: float = 1) -> list[Transition]:
    """A door opened and shut, or a spell of motion."""
    return [
        Transition(when, entity_id, "on", AREAS[entity_id]),
        Transition(when + timedelta(minutes=minutes), entity_id, "off", AREAS[entity_id]),
    ]


def alice_out(day: int) -> list[Transition]:
    return [
        *seen(at(day, 8) - timedelta(minutes=2), STREET),
        Transition(at(day, 8), ALICE, "not_home"),
    ]


def day_of_life(day: int) -> list[Transition]:
    """Alice up in her bedroom at 07:00, out 08:00-17:00; her mother in the living room."""
    events = seen(at(day, 7), BEDROOM) + alice_out(day)
    events += seen(at(day, 8 + 20 / 60), LIVING) + seen(at(day, 8 + 40 / 60), LIVING)
    events += [Transition(at(day, 17), ALICE, "home"), *seen(at(day, 17), STREET)]
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
        baselines.advance(at(day, 23))
    return baselines


def home_at(baselines: HomeBaselines, today: list[Transition], now: datetime) -> HomeView:
    """What happened ``today`` learned as it happened, and the window at ``now``."""
    for transition in sorted(today):
        if transition.when <= now:
            baselines.learn(transition)
    start = now - timedelta(hours=5)
    shown = sorted(t for t in today if start <= t.when <= now)
    latest = {t.entity_id: t.state for t in shown}
    states = [
        entity(e, latest.get(e, "off"), area=AREAS[e], device_class=CLASSES[e]) for e in AREAS
    ]
    states.append(entity(ALICE, "not_home"))
    window = build_window(states, environment(now, persons_home=0), shown, start=start)
    return HomeView(window)


def went_out_by_the_door(moved_after: bool) -> list[Transition]:
    today = [*alice_out(6), *seen(at(6, 8 + 20 / 60), LIVING), *seen(at(6, 8.5), STREET)]
    if moved_after:
        today += seen(at(6, 8.5) + timedelta(minutes=4), LIVING)
    return sorted(today)


def test_the_home_is_lived_in_while_alice_is_out() -> None:
    baselines = lived(6)
    assert lived_while_away(baselines, home_at(baselines, alice_out(6), at(6, 8.1)))


def test_just_after_the_door_she_may_still_be_in() -> None:
    baselines = lived(6)
    home = home_at(baselines, went_out_by_the_door(moved_after=False), at(6, 9))
    inside = inside_now(baselines, home)
    assert inside is not None
    assert inside.last_sign == at(6, 8.5)


def test_nothing_moving_long_after_the_door_is_nobody_inside() -> None:
    baselines = lived(6)
    home = home_at(baselines, went_out_by_the_door(moved_after=False), at(6, 10))
    assert inside_now(baselines, home) is None


def test_moving_after_the_door_she_stayed_in() -> None:
    baselines = lived(6)
    home = home_at(baselines, went_out_by_the_door(moved_after=True), at(6, 10))
    inside = inside_now(baselines, home)
    assert inside is not None
    assert inside.last_sign > at(6, 8.5)


def test_a_spell_ending_after_the_door_is_no_sign_she_stayed() -> None:
    baselines = lived(6)
    today = [*alice_out(6), *seen(at(6, 8.5) - timedelta(minutes=1), LIVING, minutes=2)]
    today = sorted([*today, *seen(at(6, 8.5), STREET)])
    assert inside_now(baselines, home_at(baselines, today, at(6, 10))) is None

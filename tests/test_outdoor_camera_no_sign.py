"""A camera over the yard is no sign of somebody inside (core, ``outdoor_areas``).

Alice goes out at 08:00 and comes back at 17:00; her mother, who carries no phone, moves
in the living room while Alice is out, and the yard camera sees the neighbours at the gate
(learned for six days: the home is lived in while the trackers are away). On the seventh
day they go out together by the street door at 07:58: nothing moves inside for hours. At
11:19 the yard camera sees somebody, at 11:20 the bedroom window opens. Nobody inside
showed since they left: the window is opened from outside (an entry), whatever the yard
camera saw. The same motion in the living room (the mother, who stayed after all) shows
somebody inside, who opened it, as before. A home where only the yard camera moved while
the trackers were out is not lived in while they are away.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.lived_while_away import lived_while_away
from custom_components.anomaly_monitor.core.baselines.somebody_in import opened_from_inside
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, Transition
from custom_components.anomaly_monitor.core.outdoor_areas import outdoor_area
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)
ALICE = "person.alice"
STREET = "binary_sensor.0x00158d0001a2b3c4_contact"
LIVING = "binary_sensor.0x00158d0002c4d5e6_occupancy"
CAMERA = "binary_sensor.c3tn_bd7c9e_motion"
WINDOW = "binary_sensor.0x00158d0004d1e2f3_contact"
CLASSES = {STREET: "door", LIVING: "occupancy", CAMERA: "motion", WINDOW: "window"}


def _areas(camera_area: str) -> dict[str, str]:
    return {STREET: "Hall", LIVING: "Living Room", CAMERA: camera_area, WINDOW: "Bedroom"}


def at(day: int, hours: float) -> datetime:
    return DAY0 + timedelta(days=day, hours=hours)


def seen(when: datetime, entity_id: str, areas: dict[str, str]) -> list[Transition]:
    """A door or window opened and shut, or a spell of motion, of a minute."""
    area = areas[entity_id]
    return [
        Transition(when, entity_id, "on", area),
        Transition(when + timedelta(minutes=1), entity_id, "off", area),
    ]


def _out(day: int, areas: dict[str, str]) -> list[Transition]:
    return [
        *seen(at(day, 8) - timedelta(minutes=2), STREET, areas),
        Transition(at(day, 8), ALICE, "not_home"),
    ]


def _day(day: int, areas: dict[str, str], mother: bool) -> list[Transition]:
    events = seen(at(day, 7.5), LIVING, areas) + _out(day, areas)
    events += seen(at(day, 10), CAMERA, areas) + seen(at(day, 13), CAMERA, areas)
    if mother:
        events += seen(at(day, 9), LIVING, areas) + seen(at(day, 12), LIVING, areas)
    events += [Transition(at(day, 17), ALICE, "home"), *seen(at(day, 17), STREET, areas)]
    return sorted(events)


def _learned(areas: dict[str, str], mother: bool = True) -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=areas[e], device_class=CLASSES[e]) for e in areas]
    baselines.describe([*infos, EntityInfo(ALICE, "Alice")])
    baselines.watching([*areas, ALICE], DAY0 - timedelta(days=7))
    baselines.learn(Transition(DAY0, ALICE, "home"))
    for day in range(6):
        for transition in _day(day, areas, mother):
            baselines.learn(transition)
        baselines.advance(at(day, 23))
    return baselines


def _home(
    baselines: HomeBaselines, areas: dict[str, str], today: list[Transition], now: datetime
) -> HomeView:
    for transition in sorted(today):
        if transition.when <= now:
            baselines.learn(transition)
    start = now - timedelta(hours=5)
    shown = sorted(t for t in today if start <= t.when <= now)
    latest = {t.entity_id: t.state for t in shown}
    states = [
        entity(e, latest.get(e, "off"), area=areas[e], device_class=CLASSES[e]) for e in areas
    ]
    states.append(entity(ALICE, "not_home"))
    window = build_window(states, environment(now, persons_home=0), shown, start=start)
    return HomeView(window)


WINDOW_OPENS = at(6, 11 + 20 / 60)


def _louvres_out(seen_by: str, areas: dict[str, str]) -> list[Transition]:
    """Everybody out together at 07:58, then nothing until 11:19 (``seen_by``) and the
    bedroom window at 11:20."""
    today = [*seen(at(6, 7.5), LIVING, areas), *_out(6, areas)]
    today += seen(WINDOW_OPENS - timedelta(minutes=1), seen_by, areas)
    today.append(Transition(WINDOW_OPENS, WINDOW, "on", areas[WINDOW]))
    return sorted(today)


def test_the_yard_camera_before_the_window_is_nobody_inside() -> None:
    areas = _areas("Yard")
    baselines = _learned(areas)
    home = _home(
        baselines, areas, _louvres_out(CAMERA, areas), WINDOW_OPENS + timedelta(seconds=10)
    )
    assert opened_from_inside(baselines, home, WINDOW_OPENS, WINDOW) is None


def test_the_same_camera_in_a_room_shows_somebody_inside() -> None:
    """A motion sensor in a room (its area not named a place outside) is a sign, as before."""
    areas = _areas("Spare room")
    baselines = _learned(areas)
    home = _home(
        baselines, areas, _louvres_out(CAMERA, areas), WINDOW_OPENS + timedelta(seconds=10)
    )
    assert opened_from_inside(baselines, home, WINDOW_OPENS, WINDOW) is not None


def test_the_mother_moving_before_the_window_opened_it() -> None:
    areas = _areas("Yard")
    baselines = _learned(areas)
    home = _home(
        baselines, areas, _louvres_out(LIVING, areas), WINDOW_OPENS + timedelta(seconds=10)
    )
    inside = opened_from_inside(baselines, home, WINDOW_OPENS, WINDOW)
    assert inside is not None
    assert inside.last_sign == WINDOW_OPENS - timedelta(minutes=1)


@pytest.mark.parametrize(("camera_area", "lived"), [("Back garden", False), ("Study", True)])
def test_only_the_yard_camera_moving_while_out_is_no_home_lived_in(
    camera_area: str, lived: bool
) -> None:
    areas = _areas(camera_area)
    baselines = _learned(areas, mother=False)
    home = _home(baselines, areas, _out(6, areas), at(6, 8.1))
    assert lived_while_away(baselines, home) is lived


@pytest.mark.parametrize(
    ("area", "outside"),
    [
        ("Yard", True),
        ("Back garden", True),
        ("Driveway", True),
        ("Jardín", True),
        ("Patio", False),  # a colonial house's heart
        ("Courtyard", False),
        ("Balcony", False),
        ("Gardening room", False),  # whole words only
        ("Living Room", False),
    ],
)
def test_outdoor_area_names(area: str, outside: bool) -> None:
    assert outdoor_area(area) is outside

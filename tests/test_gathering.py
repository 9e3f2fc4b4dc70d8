"""A door open while people are gathered at home is in use, not "left open" (core, no HA).

The street door is opened for a minute at 08:00 and 18:00 every day; the living room's
and the patio's presence sensors are on a few minutes at a time. On a feast afternoon the
relatives come at 13:00: both rooms held on from 13:05, and at 14:00 the door is opened
to watch a procession go by. At 14:35 (open 35 min) two rooms have been held on for an
hour and a half, far longer than ever: a gathering, and the door is not told. With one
room held (somebody watching television) it is told as before, and once the rooms clear
it is told again.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.gathering import gathered
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)
DOOR = "binary_sensor.tuya_contact_1"  # ids that say nothing
LIVING = "binary_sensor.aqara_presence_2"
PATIO = "binary_sensor.aqara_presence_3"
AREAS = {DOOR: "Entry", LIVING: "Living room", PATIO: "Patio"}
CLASSES = {DOOR: "door", LIVING: "occupancy", PATIO: "occupancy"}
FEAST_DAY = 10


def at(day: int, hours: float, entity_id: str, state: str) -> Transition:
    return Transition(DAY0 + timedelta(days=day, hours=hours), entity_id, state, AREAS[entity_id])


def everyday(days: range) -> list[Transition]:
    """The door a minute at 08:00 and 18:00; each room 3 min at 12:00 and 19:00."""
    moments = [(DOOR, h, 1 / 60) for h in (8.0, 18.0)]
    moments += [(room, h, 3 / 60) for room in (LIVING, PATIO) for h in (12.0, 19.0)]
    return [
        at(day, hours + shift, entity_id, state)
        for day in days
        for entity_id, hours, held in moments
        for shift, state in ((0.0, "on"), (held, "off"))
    ]


def _view(minutes: float, held: tuple[str, ...], cleared: float | None = None):
    """The feast day ``minutes`` after the door opened at 14:00; the ``held`` rooms on
    from 13:05 (until ``cleared`` minutes past 14:00, when given)."""
    baselines = HomeBaselines(UTC)
    baselines.describe(EntityInfo(e, "", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS)
    baselines.watching(AREAS, DAY0 - timedelta(days=7))
    today = [t for t in everyday(range(FEAST_DAY, FEAST_DAY + 1)) if t.when.hour < 12]
    today += [at(FEAST_DAY, 13 + 5 / 60, room, "on") for room in held]
    today.append(at(FEAST_DAY, 14.0, DOOR, "on"))
    if cleared is not None:
        today += [at(FEAST_DAY, 14 + cleared / 60, room, "off") for room in held]
    today.sort()
    now = DAY0 + timedelta(days=FEAST_DAY, hours=14, minutes=minutes)
    for transition in sorted(everyday(range(FEAST_DAY))) + today:
        baselines.learn(transition)
    baselines.advance(now)
    on = {room for room in held if cleared is None}
    states = [entity(DOOR, "on", area=AREAS[DOOR], device_class="door")]
    states += [
        entity(room, "on" if room in on else "off", area=AREAS[room], device_class="occupancy")
        for room in (LIVING, PATIO)
    ]
    window = build_window(states, environment(now), today, start=DAY0 + timedelta(days=FEAST_DAY))
    return baselines, window


def _told(minutes: float, held: tuple[str, ...], cleared: float | None = None) -> list[str]:
    baselines, window = _view(minutes, held, cleared)
    detector = CombinedDetector(baselines=lambda: baselines)
    return [f.rule for f in detector.findings(window) if DOOR in f.evidence]


def test_a_door_open_while_two_rooms_are_held_is_not_left_open() -> None:
    # Fails before: told at 20 min as "seldom open here".
    assert "entry_left_open" not in _told(35, (LIVING, PATIO))


def test_one_room_held_is_no_gathering() -> None:
    assert "entry_left_open" in _told(35, (LIVING,))


def test_once_the_rooms_clear_the_door_is_told() -> None:
    assert "entry_left_open" in _told(60, (LIVING, PATIO), cleared=30)


def test_gathered_needs_two_rooms_held_longer_than_ever_and_somebody_home() -> None:
    baselines, window = _view(35, (LIVING, PATIO))
    home = HomeView(window)
    assert gathered(home, baselines, home.end)
    away = build_window(window.snapshot, environment(home.end, persons_home=0), window.transitions)
    assert not gathered(HomeView(away), baselines, home.end)

"""A place kept at its own temperature, judged by how long it ever stayed away from it
(core, no Home Assistant): a milk tank kept at 3-4 °C that warm milk and its wash take to
15 and 31 °C for half an hour at a time; its refrigeration failing leaves it at 15-16 °C
for hours. The ids and names say nothing of what the sensors measure."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.kept_levels import (
    reading_held_far_longer_than_ever,
)
from custom_components.anomaly_monitor.core.baselines.level_spells import LevelSpells
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState

from .core_factories import entity
from .test_baselines_long_stays import since, view

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)
TANK = "sensor.node_7f_temperature"
ROOM = "sensor.living_temperature"
INFOS = [
    EntityInfo(TANK, "", area="Dairy", device_class="temperature", unit="°C"),
    EntityInfo(ROOM, "", area="Living", device_class="temperature", unit="°C"),
]
# Morning milking, cooled back within three hours (minutes after 06:00, °C).
MILKING = ((25, "14.8"), (60, "11.2"), (95, "8.9"), (140, "5.9"), (185, "4.1"), (230, "3.7"))
# Every second day the tank is emptied and washed at 10:40.
WASH = ((0, "9.5"), (10, "31.0"), (40, "14.0"), (160, "10.5"), (400, "3.6"))


def _days(days: int) -> HomeBaselines:
    """``days`` days of milkings and washes; the living room swings 17-23 °C all day
    (its warm evenings last hours)."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    readings: list[tuple[datetime, str, str]] = []
    for number in range(days):
        day = DAY0 + timedelta(days=number)
        readings += [(day + timedelta(hours=6, minutes=m), TANK, v) for m, v in MILKING]
        if number % 2 == 0:
            wash = day + timedelta(hours=10, minutes=40)
            readings += [(wash + timedelta(minutes=m), TANK, v) for m, v in WASH]
        for hour in range(24):
            room = 23.0 if 17 <= hour < 23 else 17.0 + hour % 3
            readings.append((day + timedelta(hours=hour), ROOM, f"{room:g}"))
    readings.sort()
    moment, index = DAY0, 0
    until = DAY0 + timedelta(days=days)
    while moment <= until:
        while index < len(readings) and readings[index][0] <= moment:
            when, entity_id, state = readings[index]
            baselines.observe(when, entity_id, state)
            index += 1
        baselines.advance(moment)
        moment += timedelta(minutes=5)
    return baselines


def _tank(state: str, changed: datetime) -> EntityState:
    return since(entity(TANK, state, area="Dairy", device_class="temperature", unit="°C"), changed)


def test_a_tank_left_warm_far_longer_than_ever_is_told() -> None:
    """The refrigeration does not start after milking: 14.9 °C from 06:25, 15.6 from 07:00.
    At 07:15 (50 min) not yet; at 08:00 (95 min at or above 14.9, the wash's 31 °C was
    the only spell that high, 30 min) told. Before: no check judged how long it held."""
    baselines = _days(6)
    day = DAY0 + timedelta(days=6)
    baselines.observe(day + timedelta(hours=6, minutes=25), TANK, "14.9")
    baselines.observe(day + timedelta(hours=7), TANK, "15.6")
    baselines.advance(day + timedelta(hours=7, minutes=15))
    warm = _tank("15.6", day + timedelta(hours=7))
    early = view(day + timedelta(hours=7, minutes=15), warm)
    assert list(reading_held_far_longer_than_ever(early, baselines)) == []
    baselines.advance(day + timedelta(hours=8))
    [finding] = reading_held_far_longer_than_ever(view(day + timedelta(hours=8), warm), baselines)
    assert finding.rule == "reading_held_far_longer_than_ever"
    assert finding.evidence == (TANK,)
    assert "at or above 14.9 °C since 06:25" in finding.reasoning
    assert "never stayed there longer than 30 min" in finding.reasoning


def test_its_usual_milkings_and_washes_and_a_warm_living_room_are_not_told() -> None:
    """The day's own milking and wash, and a living room warm all evening (a room: its
    typical level is a room's, never judged here)."""
    baselines = _days(6)
    day = DAY0 + timedelta(days=6)
    for minutes, value in MILKING[:2]:
        baselines.observe(day + timedelta(hours=6, minutes=minutes), TANK, value)
    wash = day + timedelta(hours=10, minutes=40)
    for minutes, value in WASH[:4]:
        baselines.observe(wash + timedelta(minutes=minutes), TANK, value)
    baselines.observe(day + timedelta(hours=14), ROOM, "24.5")
    now = day + timedelta(hours=14, minutes=30)
    baselines.advance(now)
    states = (
        _tank("10.5", wash + timedelta(minutes=160)),
        since(
            entity(ROOM, "24.5", area="Living", device_class="temperature", unit="°C"),
            day + timedelta(hours=14),
        ),
    )
    assert list(reading_held_far_longer_than_ever(view(now, *states), baselines)) == []


def test_a_cold_start_is_silent() -> None:
    """Two days learned: the typical level is not known yet, nothing is judged."""
    baselines = _days(2)
    day = DAY0 + timedelta(days=2)
    baselines.observe(day + timedelta(hours=6, minutes=25), TANK, "15.6")
    baselines.advance(day + timedelta(hours=10))
    warm = _tank("15.6", day + timedelta(hours=6, minutes=25))
    assert (
        list(reading_held_far_longer_than_ever(view(day + timedelta(hours=10), warm), baselines))
        == []
    )


def test_spells_learn_the_longest_at_each_level_and_survive_storage() -> None:
    spells = LevelSpells()
    for minutes, value in ((0, 3.6), (30, 15.0), (60, 12.0), (120, 3.6), (600, 31.0), (610, 3.6)):
        spells.reading(TANK, value, DAY0 + timedelta(minutes=minutes))
    stored = LevelSpells.from_dict(spells.as_dict())
    for learned in (spells, stored):
        above = learned.sides[TANK][0]
        assert above.longest(15.0) == 30 * 60  # 15 for 30 min (31 for 10 only)
        assert above.longest(12.0) == 90 * 60  # at or above 12 from 00:30 to 02:00
        assert above.longest(20.0) == 10 * 60
        assert above.longest(40.0) is None  # never that high
    assert LevelSpells.from_dict({TANK: [[[1, "x"]], []], 3: []}).sides == {}


def test_a_damaged_stored_front_is_learned_anew() -> None:
    assert LevelSpells.from_dict({TANK: "15:1800 12:600|x"}).sides == {}
    assert LevelSpells.from_dict({TANK: "12:600 15:1800|"}).sides == {}  # not a front
    assert LevelSpells.from_dict({TANK: "12:5400 15:1800|-3.6:9000"}).sides[TANK][1].front == [
        [-3.6, 9000.0]
    ]


KILN = "sensor.node_3c_temperature"
# A firing (hours after its start, °C): climbs to 948 °C and cools for a day and a half.
FIRING = (
    (0, 16.0), (1, 120.0), (2, 260.0), (3, 430.0), (4, 610.0), (5.3, 760.0), (6.5, 880.0),
    (7.3, 948.0), (9.7, 720.0), (14, 420.0), (19, 210.0), (26, 95.0), (34, 38.0), (40, 16.0),
)  # fmt: skip


def test_a_kiln_cold_through_a_weekend_away_is_resting_not_failing() -> None:
    """Fired every second day for eight days, then not for three: its probe at 16 °C that
    long is the kiln at rest (its typical hour is far above any room's, so the check
    judges it, and the low side is what a kept-hot place failing looks like). Before:
    told as 'what keeps it at its temperature may have stopped'."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(KILN, "", area="Kiln", device_class="temperature", unit="°C")])
    for start in range(0, 8 * 24, 48):
        for hours, value in FIRING:
            when = DAY0 + timedelta(hours=start + hours)
            baselines.observe(when, KILN, f"{value:g}")
            baselines.advance(when)
    now = DAY0 + timedelta(days=11)
    for hour in range(8 * 24 + 1, 11 * 24, 6):
        baselines.advance(DAY0 + timedelta(hours=hour))
    baselines.advance(now)
    cold = since(entity(KILN, "16", area="Kiln", device_class="temperature", unit="°C"), now)
    assert list(reading_held_far_longer_than_ever(view(now, cold), baselines)) == []

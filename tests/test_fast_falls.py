"""A stored level falling far faster than it ever fell (core, no Home Assistant): an oil
tank's level (no device class, in %) that moves a point twice a day is siphoned from 61 to
9 % in half an hour at night; a water tank that falls ten points at every shower is not
told for its showers. The ids and names say nothing of what the sensors measure."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.fast_falls import (
    level_falling_far_faster_than_ever,
)
from custom_components.anomaly_monitor.core.baselines.level_falls import LevelFalls
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState

from .core_factories import entity
from .test_baselines_long_stays import since, view

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)
OIL = "sensor.ultrasonic_4c_level"
WATER = "sensor.tank_b2_level"
INFOS = [
    EntityInfo(OIL, "", area="Yard", unit="%"),
    EntityInfo(WATER, "", area="Roof", unit="%"),
]


def _days(days: int) -> HomeBaselines:
    """The oil reads 60 at 05:00 and 61 at 10:00, 60 at 15:00 and 61 at 20:00; the water
    tank falls 86 -> 75 at 07:00 (showers) and is pumped back to 95 at 18:00."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    for number in range(days):
        day = DAY0 + timedelta(days=number)
        for hour, entity_id, value in (
            (5, OIL, "60"),
            (7, WATER, "86"),
            (7.2, WATER, "75"),
            (10, OIL, "61"),
            (15, OIL, "60"),
            (18, WATER, "95"),
            (20, OIL, "61"),
        ):
            baselines.observe(day + timedelta(hours=hour), entity_id, value)
        baselines.advance(day + timedelta(hours=23))
    return baselines


def _level(entity_id: str, state: str, changed: datetime) -> EntityState:
    return since(entity(entity_id, state, area="Yard", unit="%"), changed)


def test_an_oil_tank_siphoned_at_night_is_told() -> None:
    """61 % since 20:00; 48 at 02:55, 31 at 03:05, 9 at 03:25: told once the reading has
    held (03:31), naming the level. Before: nothing judged how fast it fell."""
    baselines = _days(5)
    night = DAY0 + timedelta(days=5, hours=2, minutes=55)
    for minutes, value in ((0, "48"), (10, "31"), (30, "9")):
        baselines.observe(night + timedelta(minutes=minutes), OIL, value)
    drained = _level(OIL, "9", night + timedelta(minutes=30))
    assert (
        list(
            level_falling_far_faster_than_ever(
                view(night + timedelta(minutes=32), drained), baselines
            )
        )
        == []
    )
    [finding] = level_falling_far_faster_than_ever(
        view(night + timedelta(minutes=36), drained), baselines
    )
    assert finding.rule == "level_falling_far_faster_than_ever"
    assert finding.evidence == (OIL,)
    assert "fell from 61% to 9%" in finding.reasoning
    assert "never fell more than 1% in 1 h" in finding.reasoning


def test_the_usual_showers_and_a_cold_start_are_not_told() -> None:
    baselines = _days(5)
    showers = DAY0 + timedelta(days=5, hours=7)
    baselines.observe(showers, WATER, "86")
    baselines.observe(showers + timedelta(minutes=12), WATER, "74")
    now = showers + timedelta(minutes=30)
    tank = _level(WATER, "74", showers + timedelta(minutes=12))
    assert list(level_falling_far_faster_than_ever(view(now, tank), baselines)) == []
    young = _days(2)
    night = DAY0 + timedelta(days=2, hours=3)
    young.observe(night, OIL, "9")
    drained = _level(OIL, "9", night)
    assert (
        list(
            level_falling_far_faster_than_ever(view(night + timedelta(minutes=30), drained), young)
        )
        == []
    )


def test_falls_settle_and_survive_storage() -> None:
    falls = LevelFalls()
    falls.reading(OIL, 61.0, DAY0)
    falls.reading(OIL, 48.0, DAY0 + timedelta(minutes=90))  # the span's start held 61
    assert falls.fall_now(OIL) == (13.0, 61.0)
    assert falls.largest(OIL) == (0.0, DAY0)  # pending: not its normal yet
    falls.reading(OIL, 48.0, DAY0 + timedelta(hours=8))
    stored = LevelFalls.from_dict(falls.as_dict())
    assert stored.largest(OIL) == (13.0, DAY0)
    assert LevelFalls.from_dict({OIL: [1, 2, "x", 4], 5: [1, 2, 3, 4]}).learned == {}


def test_a_level_that_never_moved_has_no_normal_to_fall_from() -> None:
    """A tank read at 38 % for days without a change, then 3 %: no fall was ever learned,
    so nothing says how fast it falls (the prior stays silent)."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    baselines.observe(DAY0, OIL, "38")
    baselines.advance(DAY0 + timedelta(days=5))
    now = DAY0 + timedelta(days=5, hours=4)
    baselines.observe(now, OIL, "3")
    drained = _level(OIL, "3", now)
    assert (
        list(
            level_falling_far_faster_than_ever(
                view(now + timedelta(minutes=20), drained), baselines
            )
        )
        == []
    )

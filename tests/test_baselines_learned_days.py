"""daily_profile_shift and sensor_drifting judged on the learned days when the window holds
hours (core, no Home Assistant); never on days learned from the window itself."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
import math

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.learned_days import (
    learned_drift,
    learned_profile_shift,
)
from custom_components.anomaly_monitor.core.baselines.reference import day_by_day
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState, Transition

from .core_factories import entity, environment, window

DAY0 = datetime(2026, 1, 5, tzinfo=UTC)
BATH, HALL = "sensor.device_1", "sensor.device_2"  # two humidity sensors, neutral ids
STUDY, LIVING = "sensor.device_3", "sensor.device_4"  # two temperature sensors
HUMIDITY = {"device_class": "humidity", "unit": "%"}
TEMPERATURE = {"device_class": "temperature", "unit": "°C"}
INFOS = [
    EntityInfo(BATH, "", area="Bathroom", **HUMIDITY),
    EntityInfo(HALL, "", area="Hallway", **HUMIDITY),
    EntityInfo(STUDY, "", area="Study", **TEMPERATURE),
    EntityInfo(LIVING, "", area="Living room", **TEMPERATURE),
]
KINDS = {BATH: HUMIDITY, HALL: HUMIDITY, STUDY: TEMPERATURE, LIVING: TEMPERATURE}

type Reading = Callable[[str, int, int], float]


def usual(entity_id: str, day: int, hour: int) -> float:
    """A daily cycle: humidity 55 ± 5 %RH, temperature 19 ± 1 °C."""
    cycle = math.sin((hour - 6) / 24 * 2 * math.pi)
    return 55 + 5 * cycle if KINDS[entity_id] is HUMIDITY else 19 + cycle


def learned(days: int, reading: Reading = usual, outdoor: Reading | None = None) -> HomeBaselines:
    """``days`` days of hourly readings of the four sensors (and the outdoor temperature)."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    for day in range(days):
        for hour in range(24):
            when = DAY0 + timedelta(days=day, hours=hour)
            for entity_id in KINDS:
                baselines.observe(when, entity_id, f"{reading(entity_id, day, hour):.1f}")
            if outdoor is not None:
                baselines.outdoor(outdoor("", day, hour), when)
    baselines.advance(DAY0 + timedelta(days=days))
    return baselines


def view(
    baselines: HomeBaselines,
    now: datetime,
    hours: float = 2.0,
    *,
    climate_in: str | None = None,
    outdoor: float = 5.0,
) -> HomeView:
    """The window of the last ``hours``, as the live home's monitor builds it."""
    start = now - timedelta(hours=hours)
    states: list[EntityState] = []
    transitions = []
    for info in INFOS:
        hours_of = day_by_day(baselines, info.entity_id)
        last = list(hours_of.values())[-1][-1][1]
        kind = KINDS[info.entity_id]
        states.append(entity(info.entity_id, f"{last:.1f}", area=info.area, **kind))
        transitions.append(Transition(start, info.entity_id, f"{last:.1f}", area=info.area))
    if climate_in is not None:
        states.append(entity("climate.device_5", "heat", area=climate_in))
    env = environment(now, outdoor_temperature=outdoor)
    built = window(states, env, transitions)
    return HomeView(built)


def rules(found: object) -> list[tuple[str, tuple[str, ...]]]:
    return [(f.rule, f.evidence) for f in found]  # type: ignore[attr-defined]


def damp_bathroom(entity_id: str, day: int, hour: int) -> float:
    """From day 9 the bathroom reads 6 %RH more at every hour (a damp wall)."""
    return usual(entity_id, day, hour) + (6.0 if entity_id == BATH and day >= 9 else 0.0)


def test_a_shift_that_came_to_stay_is_told_from_the_learned_days() -> None:
    baselines = learned(12, damp_bathroom)
    now = DAY0 + timedelta(days=12)
    (finding,) = learned_profile_shift(view(baselines, now), baselines)
    assert finding.rule == "daily_profile_shift"
    assert finding.evidence == (BATH,)
    assert "Since 2026-01-14" in finding.reasoning
    assert "12 days learned" in finding.reasoning
    assert finding.magnitude is not None
    assert 5.0 <= finding.magnitude <= 7.0


def test_no_shift_or_one_the_home_shares_is_not_told() -> None:
    now = DAY0 + timedelta(days=12)
    plain = learned(12)
    assert list(learned_profile_shift(view(plain, now), plain)) == []

    def wet_week(entity_id: str, day: int, hour: int) -> float:
        shared = 6.0 if KINDS[entity_id] is HUMIDITY and day >= 9 else 0.0
        return usual(entity_id, day, hour) + shared

    both = learned(12, wet_week)
    assert list(learned_profile_shift(view(both, now), both)) == []


def test_a_window_holding_the_days_leaves_them_to_the_window_statistic() -> None:
    """A replayed sample: its baselines learned the window itself, and a window of days is
    the window statistic's to judge; either way nothing here."""
    baselines = learned(12, damp_bathroom)
    now = DAY0 + timedelta(days=12)
    assert list(learned_profile_shift(view(baselines, now, hours=12 * 24), baselines)) == []


def test_a_heated_room_or_one_back_to_normal_is_not_told() -> None:
    def warm_study(entity_id: str, day: int, hour: int) -> float:
        return usual(entity_id, day, hour) + (2.0 if entity_id == STUDY and day >= 9 else 0.0)

    baselines = learned(12, warm_study)
    now = DAY0 + timedelta(days=12)
    assert rules(learned_profile_shift(view(baselines, now), baselines)) == [
        ("daily_profile_shift", (STUDY,))
    ]
    assert list(learned_profile_shift(view(baselines, now, climate_in="Study"), baselines)) == []

    def back(entity_id: str, day: int, hour: int) -> float:
        return damp_bathroom(entity_id, day, hour) - (
            6.0 if entity_id == BATH and day >= 11 and hour >= 20 else 0.0
        )

    dried = learned(12, back)
    assert list(learned_profile_shift(view(dried, now), dried)) == []


def creeping_study(entity_id: str, day: int, hour: int) -> float:
    """The study's sensor reads 0.3 °C more every day (miscalibrating)."""
    return usual(entity_id, day, hour) + (0.3 * day if entity_id == STUDY else 0.0)


def test_a_sensor_drifting_day_after_day_is_told_from_the_learned_days() -> None:
    baselines = learned(10, creeping_study)
    now = DAY0 + timedelta(days=10, hours=2)
    (finding,) = learned_drift(view(baselines, now), baselines)
    assert finding.rule == "sensor_drifting"
    assert finding.evidence == (STUDY,)
    assert "went up on nearly every one of the 10 days learned" in finding.reasoning
    assert LIVING in finding.reasoning
    assert finding.magnitude is not None
    assert 2.5 <= finding.magnitude <= 2.9


def test_a_drift_the_weather_shares_or_learned_from_the_window_is_not_told() -> None:
    def spring(_: str, day: int, hour: int) -> float:
        return 5.0 + 0.5 * day + math.sin((hour - 9) / 24 * 2 * math.pi)

    now = DAY0 + timedelta(days=10, hours=2)
    warming = learned(10, creeping_study, outdoor=spring)
    assert list(learned_drift(view(warming, now), warming)) == []
    baselines = learned(10, creeping_study)
    assert list(learned_drift(view(baselines, now, hours=10 * 24 + 2), baselines)) == []
    four = learned(4, creeping_study)
    assert list(learned_drift(view(four, DAY0 + timedelta(days=4, hours=2)), four)) == []


def test_warm_again_after_a_cold_week_is_a_return_not_a_new_level() -> None:
    """Days 3-9 cold (a week away, the heating set back), warm again from day 10: against
    the days before it the return reads 2.5 °C higher, but those days read it before."""

    def week_away(entity_id: str, day: int, hour: int) -> float:
        cold = entity_id == STUDY and 3 <= day < 10
        return usual(entity_id, day, hour) - (2.5 if cold else 0.0)

    baselines = learned(13, week_away)
    now = DAY0 + timedelta(days=13)
    assert list(learned_profile_shift(view(baselines, now), baselines)) == []


def test_a_heated_room_warming_up_is_no_drift() -> None:
    baselines = learned(10, creeping_study)
    now = DAY0 + timedelta(days=10, hours=2)
    assert list(learned_drift(view(baselines, now, climate_in="Study"), baselines)) == []


def test_what_the_days_say_is_computed_again_once_an_hour_closes() -> None:
    """The statistic's result is kept between analyses until one of the sensor's hours
    closes: the same baselines, learning on, tell the shift once its days are there."""
    baselines = learned(9)
    now = DAY0 + timedelta(days=9)
    assert list(learned_profile_shift(view(baselines, now), baselines)) == []
    for day in range(9, 12):
        for hour in range(24):
            when = DAY0 + timedelta(days=day, hours=hour)
            for entity_id in KINDS:
                value = damp_bathroom(entity_id, day, hour)
                baselines.observe(when, entity_id, f"{value:.1f}")
    baselines.advance(DAY0 + timedelta(days=12))
    later = DAY0 + timedelta(days=12)
    assert rules(learned_profile_shift(view(baselines, later), baselines)) == [
        ("daily_profile_shift", (BATH,))
    ]

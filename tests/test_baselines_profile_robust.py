"""reading_off_its_hours in a real home's weather (core, no Home Assistant): the margin
follows the hour's own spread, a home that moves together is not a fault, nor a room that
cools with a cold snap outside, but a room at risk of frost is told whatever the cause."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.profile_departure import (
    reading_off_its_hours,
)
from custom_components.anomaly_monitor.core.baselines.profile_drift import (
    reading_drifting_from_its_hours,
)
from custom_components.anomaly_monitor.core.home import HomeView

from .core_factories import entity, environment, window
from .test_baselines_hour_profiles import BEDROOM, DAY0, INFOS, LIVING, STUDY, usual

DAYS = 10
DAY = DAY0 + timedelta(days=DAYS)


def learned(sunny: bool = False, outdoor: float | None = None) -> HomeBaselines:
    """``DAYS`` days of the three room sensors every 30 min (their daily cycle); with
    ``sunny``, the study's afternoons read 19, 21 or 23 °C by the day (the sun); with
    ``outdoor``, the weather's temperature is learned too (steady)."""
    baselines = HomeBaselines(DAY0.tzinfo)
    baselines.describe(INFOS)
    for step in range(DAYS * 48):
        when = DAY0 + timedelta(minutes=30 * step)
        for sensor in (STUDY, BEDROOM, LIVING):
            value = usual(when.hour) + (step % 3) * 0.1
            if sunny and sensor == STUDY and 12 <= when.hour < 18:
                value = 19.0 + 2.0 * ((step // 48) % 3)
            baselines.observe(when, sensor, f"{value:.1f}")
        if outdoor is not None:
            baselines.outdoor(outdoor, when)
    baselines.advance(DAY)
    return baselines


def live(
    baselines: HomeBaselines, hours: float, readings: dict[str, float], outdoor: float | None
) -> datetime:
    """From 09:00 on ``DAY``: usual readings until then, then ``readings`` for ``hours``."""
    for step in range(18 + int(hours * 2) + 1):
        when = DAY + timedelta(minutes=30 * step)
        moved = when >= DAY + timedelta(hours=9)
        for sensor in (STUDY, BEDROOM, LIVING):
            value = readings.get(sensor) if moved else None
            baselines.observe(when, sensor, f"{value or usual(when.hour):.1f}")
        if outdoor is not None:
            baselines.outdoor(outdoor if moved else 5.0, when)
    end = DAY + timedelta(hours=9 + hours)
    baselines.advance(end)
    return end + timedelta(minutes=5)


def judge(
    baselines: HomeBaselines, now: datetime, study: float, bedroom: float, outdoor: float = 5.0
) -> list[str]:
    states = [
        entity(STUDY, f"{study}", area="Study", device_class="temperature", unit="°C"),
        entity(BEDROOM, f"{bedroom}", area="Bedroom", device_class="temperature", unit="°C"),
    ]
    env = replace(environment(now), outdoor_temperature=outdoor)
    return [f.reasoning for f in reading_off_its_hours(HomeView(window(states, env)), baselines)]


def test_the_margin_follows_the_hours_own_spread() -> None:
    """A sunny study's afternoons vary 19-23 °C: 25.5 °C is 2.5 above the warmest, beyond
    the 2 °C floor but within twice the hour's spread (about 3.3 °C): not told; 27.5 is."""
    baselines = learned(sunny=True)
    now = live(baselines, 5, {STUDY: 25.5}, None)
    assert judge(baselines, now, 25.5, 19.0) == []
    hot = learned(sunny=True)
    now = live(hot, 5, {STUDY: 27.5}, None)
    [reasoning] = judge(hot, now, 27.5, 19.0)
    assert "by more than 3.3 °C" in reasoning
    # A steady sensor's margin is the floor: 2.5 °C beyond every day is told.
    steady = learned()
    now = live(steady, 5, {STUDY: 21.6}, None)
    [reasoning] = judge(steady, now, 21.6, 19.0)
    assert "by more than 2.0 °C" in reasoning


def test_a_home_that_moves_together_is_not_a_fault() -> None:
    """The study 3 °C colder for five hours: the bedroom 1.2 °C colder too (still within
    its band, it cools more slowly): the home moved, not told. With the bedroom only 0.5
    colder the study is alone, and told."""
    baselines = learned()
    now = live(baselines, 5, {STUDY: 16.0, BEDROOM: 17.9}, None)
    assert judge(baselines, now, 16.0, 17.9) == []
    alone = learned()
    now = live(alone, 5, {STUDY: 16.0, BEDROOM: 18.6}, None)
    [reasoning] = judge(alone, now, 16.0, 18.6)
    assert "0 of the 1 other temperature sensors moved that way" in reasoning


def test_a_room_cooling_with_a_cold_snap_is_not_a_fault() -> None:
    """The study alone 3 °C colder, outside -5 °C for five hours where it was 5 °C at those
    hours every day learned: the weather. Outside as usual: told."""
    baselines = learned(outdoor=5.0)
    now = live(baselines, 5, {STUDY: 16.0}, -5.0)
    assert judge(baselines, now, 16.0, 19.0, outdoor=-5.0) == []
    usual_day = learned(outdoor=5.0)
    now = live(usual_day, 5, {STUDY: 16.0}, 5.0)
    assert judge(usual_day, now, 16.0, 19.0, outdoor=5.0)
    # A warmer room is not explained by a colder day.
    warm = learned(outdoor=5.0)
    now = live(warm, 5, {STUDY: 23.0}, -5.0)
    assert judge(warm, now, 23.0, 19.0, outdoor=-5.0)


def test_a_room_at_risk_of_frost_is_told_whatever_the_cause() -> None:
    baselines = learned(outdoor=5.0)
    now = live(baselines, 5, {STUDY: 2.5, BEDROOM: 15.0}, -12.0)
    [reasoning] = judge(baselines, now, 2.5, 15.0, outdoor=-12.0)
    assert "risk of frost" in reasoning


def test_the_drift_check_knows_the_weather_and_the_home_too() -> None:
    """reading_drifting_from_its_hours (the CUSUM) shares the explanation: the study
    creeping down with a cold snap outside, or with the bedroom 1.2 °C colder, is not
    told; on an ordinary day, alone, it is."""
    ordinary = learned(outdoor=5.0)
    now = live(ordinary, 5, {STUDY: 17.5}, 5.0)
    assert drifting(ordinary, now, 17.5, 19.0, outdoor=5.0)
    cold = learned(outdoor=5.0)
    now = live(cold, 5, {STUDY: 17.5}, -5.0)
    assert drifting(cold, now, 17.5, 19.0, outdoor=-5.0) == []
    together = learned(outdoor=5.0)
    now = live(together, 5, {STUDY: 17.5, BEDROOM: 17.8}, 5.0)
    assert drifting(together, now, 17.5, 17.8, outdoor=5.0) == []


def drifting(
    baselines: HomeBaselines, now: datetime, study: float, bedroom: float, outdoor: float
) -> list[str]:
    states = [
        entity(STUDY, f"{study}", area="Study", device_class="temperature", unit="°C"),
        entity(BEDROOM, f"{bedroom}", area="Bedroom", device_class="temperature", unit="°C"),
    ]
    env = replace(environment(now), outdoor_temperature=outdoor)
    home = HomeView(window(states, env))
    return [f.rule for f in reading_drifting_from_its_hours(home, baselines)]

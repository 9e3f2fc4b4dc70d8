"""A load's hours known from a few runs alike (core, ``off_hours_runs``).

A water heater switched on by a timer at 22:00 for 95 min, four evenings learned, stuck on
from 12:50 (set 25 as replayed: told only past three times its run). Runs all about as long
(a timer, a thermostat set the same each time) say the hour they belong to from three runs;
a run begun hours from every one of them, in an empty room, is told once it outlasts every
run the load made (its own length, never the two-hour ceiling of a routine known from a
week: an EV charger's 2 h 44 sessions are not cut at 2 h).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.off_hours_runs import (
    left_on_outside_its_hours,
    off_hours_run_due,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition

from .core_factories import entity, environment, window
from .test_baselines_long_stays import since, view

MONDAY = datetime(2027, 1, 11, tzinfo=UTC)
BOILER = "switch.sonoff_1000c4d2e9"
MOTION = "binary_sensor.0x00158d0004a1b2c3_occupancy"


def _learned(lengths: list[float], hour: int = 22) -> HomeBaselines:
    """One run a day at ``hour``:00-ish, of each length in minutes."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(BOILER, "", area="Bathroom")])
    for day, minutes in enumerate(lengths):
        start = MONDAY + timedelta(days=day, hours=hour, minutes=3 * day)
        baselines.observe(start, BOILER, "on")
        baselines.observe(start + timedelta(minutes=minutes), BOILER, "off")
    return baselines


def _on(
    baselines: HomeBaselines,
    start: datetime,
    minutes: float,
    *motion: Transition,
    outdoor: float = 12.0,
) -> list[Finding]:
    baselines.observe(start, BOILER, "on")
    boiler = since(entity(BOILER, "on", area="Bathroom"), start)
    sensor = entity(MOTION, "off", area="Bathroom", device_class="occupancy")
    now = start + timedelta(minutes=minutes)
    home = HomeView(window([boiler, sensor], environment(now, outdoor_temperature=outdoor), motion))
    return list(left_on_outside_its_hours(home, baselines))


def test_four_runs_alike_say_the_hour_and_the_length() -> None:
    """Four evenings of 95 min from 22:00; on at 12:50 with nobody in the room: not at
    94 min, told at 96 (learned from 4 runs); due at 95."""
    baselines = _learned([95, 95, 95, 95])
    start = MONDAY + timedelta(days=4, hours=12, minutes=50)
    assert _on(baselines, start, 94) == []
    boiler = since(entity(BOILER, "on", area="Bathroom"), start)
    assert off_hours_run_due(view(start + timedelta(minutes=94), boiler), baselines) == (
        start + timedelta(minutes=95)
    )
    [finding] = _on(baselines, start, 96)
    assert finding.rule == "left_on_past_its_routine"
    assert "only ever switched on between 22:00 and 23:00 (learned from 4 runs)" in (
        finding.reasoning
    )


def test_a_few_runs_alike_wait_their_own_length_not_the_ceiling() -> None:
    """Three sessions of 164 min from 10:00 (a car charged each morning); one begun at
    21:30: not told at 2 h 20 nor at 2 h 43 (the ceiling is for a routine known from a
    week), told at 2 h 45."""
    baselines = _learned([164, 164, 160], hour=10)
    start = MONDAY + timedelta(days=3, hours=21, minutes=30)
    assert _on(baselines, start, 140) == []
    assert _on(baselines, start, 163) == []
    assert len(_on(baselines, start, 165)) == 1


def test_runs_of_every_length_two_runs_or_somebody_in_the_room_are_not_told() -> None:
    """Four runs of 30, 95, 60 and 95 min (a person's use: not alike): not told at 3 h;
    two runs alike: not told; four alike with somebody moving in the room: not told."""
    start = MONDAY + timedelta(days=4, hours=12, minutes=50)
    assert _on(_learned([30, 95, 60, 95]), start, 180) == []
    assert _on(_learned([95, 95]), MONDAY + timedelta(days=2, hours=12), 180) == []
    moved = Transition(start + timedelta(minutes=30), MOTION, "on", "Bathroom")
    assert _on(_learned([95, 95, 95, 95]), start, 180, moved) == []


def test_a_few_runs_say_nothing_of_a_weather_unlike_their_days() -> None:
    """Four mornings of 170 min from 04:00 (a block heater's timer), the weather -20 to
    -23 °C at 20:00 on the days learned; plugged in at 20:00 at -43 °C (a cold snap): not
    told at 3 h; at -21 °C (a night like the others) told."""

    def learned() -> HomeBaselines:
        baselines = _learned([170, 170, 170, 170], hour=4)
        for hour in range(5 * 24):
            when = MONDAY + timedelta(hours=hour)
            baselines.outdoor(-20.0 - (hour // 24) % 4, when)
        baselines.advance(MONDAY + timedelta(days=4, hours=20))
        return baselines

    start = MONDAY + timedelta(days=4, hours=20)
    assert _on(learned(), start, 180, outdoor=-43.0) == []
    assert len(_on(learned(), start, 180, outdoor=-21.0)) == 1

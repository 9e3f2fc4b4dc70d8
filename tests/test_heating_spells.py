"""A heating element drawing far longer than it ever heats within a run (core).

Set 14: a washing machine on a Shelly plug heats its water for 15 min of each 75-min wash;
its thermostat stuck, it drew 2 kW for three hours, never told (the whole run judged at
three times 75 min, and only once ten runs were known). Its heating spells, learned apart
from its runs, are a part of each run: an hour of heating is told. A heater, whose runs
are its heating, is judged as before.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.long_runs import (
    appliance_running_far_longer,
    running_far_longer_due,
)
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding

from .core_factories import entity
from .test_baselines_long_stays import since, view

MONDAY = datetime(2027, 1, 11, tzinfo=UTC)
WASHER = "sensor.shellyplug_s_3ce90e6f1a2b_power"


def _learned(steps: tuple[tuple[float, str], ...], runs: int) -> HomeBaselines:
    """``runs`` runs a day apart at 09:30, each ``steps`` of (minutes, watts), then idle."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(WASHER, "", area="Bath", device_class="power", unit="W")])
    for n in range(runs):
        at = MONDAY + timedelta(days=n, hours=9, minutes=30)
        for minutes, watts in steps:
            baselines.observe(at, WASHER, watts)
            at += timedelta(minutes=minutes)
        baselines.observe(at, WASHER, "0.5")
    return baselines


def _heating(baselines: HomeBaselines, minutes: float) -> list[Finding]:
    start = MONDAY + timedelta(days=12, hours=14, minutes=30)
    baselines.observe(start, WASHER, "2050")
    state = since(entity(WASHER, "2050", device_class="power", unit="W", area="Bath"), start)
    return list(
        appliance_running_far_longer(view(start + timedelta(minutes=minutes), state), baselines)
    )


WASH = ((15, "2000"), (50, "300"), (10, "420"))


def test_a_washer_heating_an_hour_is_told_by_its_heating_spells() -> None:
    baselines = _learned(WASH, 6)
    assert _heating(baselines, 59) == []
    [finding] = _heating(baselines, 61)
    assert finding.rule == "appliance_running_far_longer"
    assert "heats (draws 1000 W or more) for at most 15 min (learned from 6 heating spells)" in (
        finding.reasoning
    )


def test_the_limit_is_when_the_glue_analyses() -> None:
    baselines = _learned(WASH, 6)
    start = MONDAY + timedelta(days=12, hours=14, minutes=30)
    baselines.observe(start, WASHER, "2050")
    state = since(entity(WASHER, "2050", device_class="power", unit="W", area="Bath"), start)
    due = running_far_longer_due(view(start + timedelta(minutes=10), state), baselines)
    assert due == start + timedelta(hours=1)


def test_few_washes_or_a_heater_whose_runs_are_its_heating_are_not_judged_so() -> None:
    """Four washes: too few. A heater's six runs of 60 min at 2 kW: its heating is its
    run (judged as runs, from ten): nothing at 3 h."""
    assert _heating(_learned(WASH, 4), 120) == []
    assert _heating(_learned(((60, "2000"),), 6), 180) == []

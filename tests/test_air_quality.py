"""Air unhealthy to breathe, far beyond what this home's sensor read (core, no HA).

Set 14's Upwey house: bushfire smoke drawn in by an evaporative cooler took indoor PM2.5
from 5 to 260 µg/m³; no check judged an air-quality device class, so it was never told.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from homeassistant.core import HomeAssistant, State

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.air_quality import (
    HOLD_MINUTES,
    air_unhealthy_due,
    air_unhealthy_far_beyond_its_range,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding

from .core_factories import entity, environment, home, steps
from .helpers import setup_monitor

DAY0 = datetime(2027, 1, 18, tzinfo=UTC)
PM = "sensor.living_particulate_matter"


def _learned(days: int, daily: list[float]) -> HomeBaselines:
    """``daily`` readings, one an hour from 08:00, on each of ``days`` days."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(PM, "", device_class="pm25", unit="µg/m³", area="Living")])
    baselines.watching([PM], DAY0)
    baselines.observe(DAY0, PM, "5")
    for day in range(days):
        for hour, value in enumerate(daily):
            when = DAY0 + timedelta(days=day, hours=8 + hour)
            baselines.observe(when, PM, f"{value:g}")
    return baselines


def _view(
    baselines: HomeBaselines, day: int, readings: list[tuple[float, str]], at: float
) -> HomeView:
    start = DAY0 + timedelta(days=day, hours=14)
    transitions = steps(start, [(m, PM, v) for m, v in readings if m <= at])
    for t in transitions:
        baselines.observe(t.when, t.entity_id, t.state)
    state = entity(PM, transitions[-1].state, area="Living", device_class="pm25", unit="µg/m³")
    return home([state], environment(start + timedelta(minutes=at)), transitions)


def _told(
    baselines: HomeBaselines, day: int, readings: list[tuple[float, str]], at: float
) -> list[Finding]:
    return list(air_unhealthy_far_beyond_its_range(_view(baselines, day, readings, at), baselines))


SMOKE = [(0.0, "38"), (15.0, "96"), (40.0, "171"), (80.0, "262")]


def test_smoke_far_beyond_a_steady_sensor_is_told() -> None:
    """A sensor steady at 5 since set-up (read all along), then 38 and 96 µg/m³."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(PM, "", device_class="pm25", unit="µg/m³", area="Living")])
    baselines.watching([PM], DAY0)
    baselines.observe(DAY0, PM, "5")
    assert not _told(baselines, 3, SMOKE, at=0)  # 38: far beyond, but not unhealthy yet
    (finding,) = _told(baselines, 3, SMOKE, at=15)
    assert finding.rule == "air_unhealthy_far_beyond_its_range"
    assert finding.evidence == (PM,)


def test_the_cooking_this_home_does_every_day_is_not_told() -> None:
    """Searing under the sensor: 110 µg/m³ each evening, learned; 96 is its normal."""
    daily = [4.0, 6.0, 12.0, 110.0, 30.0, 8.0]
    assert not _told(_learned(3, daily), 3, [(0.0, "90"), (15.0, "96")], at=30)
    assert _told(_learned(3, daily), 3, SMOKE, at=80)  # 262: far beyond even that


def test_a_sensor_read_under_two_days_is_not_judged() -> None:
    baselines = _learned(1, [4.0, 6.0])
    assert not _told(baselines, 0, SMOKE, at=80)


def test_one_unhealthy_reading_is_told_when_its_hold_ends() -> None:
    """Set 28: bush-fire smoke blown in at 15:30, one reading of 64 µg/m³ (the sensor
    sends only changes) until 185 at 15:38. Not told at its first reading (a stray one is
    not), but the analysis then names the end of its hold, when it is told: not at the
    next periodic analysis, nor only because a smoke alarm went off at 15:40."""
    steady = _learned(3, [11.0, 14.0, 18.0, 12.0])
    readings = [(0.0, "64"), (8.0, "185")]
    start = DAY0 + timedelta(days=3, hours=14)
    assert not _told(steady, 3, readings, at=0)
    assert air_unhealthy_due(_view(steady, 3, readings, 0), steady) == start + timedelta(
        minutes=HOLD_MINUTES
    )
    assert _told(steady, 3, readings, at=HOLD_MINUTES + 0.1)
    # Told by then: nothing to wait for.
    assert air_unhealthy_due(_view(steady, 3, readings, HOLD_MINUTES + 0.1), steady) is None
    # Air this home breathes (its cooking learned): no timer.
    cooking = _learned(3, [4.0, 6.0, 12.0, 110.0, 30.0, 8.0])
    assert air_unhealthy_due(_view(cooking, 3, [(0.0, "90")], 0), cooking) is None


async def test_the_watcher_asks_for_an_analysis_as_air_turns_unhealthy(
    hass: HomeAssistant,
) -> None:
    """The analysis that sets the hold's timer runs as the air enters the band, not at the
    next periodic one; a reading inside the band already is no news to the watcher."""
    entry = await setup_monitor(hass)
    watcher = entry.runtime_data.coordinator.watcher
    attributes = {"device_class": "pm25", "unit_of_measurement": "µg/m³"}

    def reading(value: str) -> State:
        return State(PM, value, attributes)

    assert watcher._is_significant(reading("64"), "15")  # into the unhealthy band
    assert watcher._is_significant(reading("64"), None)
    assert not watcher._is_significant(reading("185"), "64")  # within it: its timer runs
    assert not watcher._is_significant(reading("40"), "15")  # poor, not unhealthy
    assert not watcher._is_significant(reading("20"), "64")  # clearing

"""Air unhealthy to breathe, far beyond what this home's sensor read (core, no HA).

Set 14's Upwey house: bushfire smoke drawn in by an evaporative cooler took indoor PM2.5
from 5 to 260 µg/m³; no check judged an air-quality device class, so it was never told.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.air_quality import (
    air_unhealthy_far_beyond_its_range,
)
from custom_components.anomaly_monitor.core.models import EntityInfo

from .core_factories import entity, environment, home, steps

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


def _told(baselines: HomeBaselines, day: int, readings: list[tuple[float, str]], at: float):
    start = DAY0 + timedelta(days=day, hours=14)
    transitions = steps(start, [(m, PM, v) for m, v in readings if m <= at])
    for t in transitions:
        baselines.observe(t.when, t.entity_id, t.state)
    state = entity(PM, transitions[-1].state, area="Living", device_class="pm25", unit="µg/m³")
    view = home([state], environment(start + timedelta(minutes=at)), transitions)
    return list(air_unhealthy_far_beyond_its_range(view, baselines))


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

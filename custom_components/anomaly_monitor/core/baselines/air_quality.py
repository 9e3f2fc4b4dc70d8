"""Air unhealthy to breathe, far beyond anything this home's air-quality sensor read.

An indoor PM2.5 sensor reads a few µg/m³ most of the day and up to a hundred or more for
the minutes a pan is seared under it: what it read over the days learned is this home's
air, cooking included. Bushfire smoke pulled in by an evaporative cooler, a wood stove
backdrafting, a smouldering fire: the air stays at levels that harm anyone breathing it,
far beyond anything the sensor read before. No air-quality device class had a check:
such a reading was never told (set 14, Upwey: 5 → 260 µg/m³ while a grandfather with a
heart condition and a child were home).

Told when the reading is at or above the level at which the air is unhealthy for
everybody (``unhealthy_air.UNHEALTHY``: the US EPA's "unhealthy" breakpoints, the same
for every home) *and* far beyond the sensor's learned range (``far_beyond_range.far_limits``), every
reading far beyond it for ``HOLD_MINUTES`` or ``READINGS_BEYOND`` readings in a row. A
home whose sensor sits by the stove and reads 150 µg/m³ every evening learned that: not
told. Known by device class only; a sensor read for fewer than ``MIN_DAYS`` days is not
judged (no range yet; read means watched, ``cold_places.days_read``).

Told when the hold is met, not at the next periodic analysis: a reading entering the
unhealthy band is analysed at once (``live.watcher``) and the analysis sets a timer for
the end of its hold (``air_unhealthy_due``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, EntityState, Finding, Severity
from ..unhealthy_air import unhealthy_level
from .clock import local
from .cold_places import days_read
from .far_beyond_range import READINGS_BEYOND, far_limits, readings_beyond
from .home_baselines import HomeBaselines
from .long_stays import duration_text
from .reference import UsualRange, usual_range

MIN_DAYS = 2.0
# Every reading that high for this long (one stray reading is not told); air quality
# harms within the hour, so shorter than a tank level's hold.
HOLD_MINUTES = 5.0

AIR_UNHEALTHY_FAR_BEYOND_ITS_RANGE = FindingKind(
    "air_unhealthy_far_beyond_its_range", AnomalyType.SAFETY_HAZARD, Severity.HIGH
)


@dataclass(frozen=True, slots=True)
class _Unhealthy:
    """An air-quality sensor reading unhealthy air far beyond its range, since ``since``."""

    sensor: EntityState
    level: float
    usual: UsualRange
    days: float
    since: datetime
    readings: int

    def held(self, now: datetime) -> bool:
        """Long enough (or read often enough) to tell: one stray reading is not."""
        minutes = (now - self.since).total_seconds() / 60
        return minutes >= HOLD_MINUTES or self.readings >= READINGS_BEYOND


def _unhealthy(home: HomeView, baselines: HomeBaselines) -> Iterator[_Unhealthy]:
    for sensor in home.of("sensor"):
        level = unhealthy_level(sensor.info.device_class)
        current = sensor.number
        if level is None or current is None or current < level:
            continue
        usual = usual_range(baselines, sensor.entity_id, home.end)
        if (
            usual is None
            or (days := days_read(baselines, sensor.entity_id, home, usual)) < MIN_DAYS
        ):
            continue  # watched that long: a sensor steady since set-up has been read all along
        far = far_limits(usual.lowest, usual.highest)[1]
        if current < far:
            continue
        # Held far beyond its range (smoke thickening: 38, then 96 µg/m³), unhealthy now.
        since, readings = readings_beyond(home, sensor, float("-inf"), far)
        if since is not None:
            yield _Unhealthy(sensor, level, usual, days, since, readings)


def air_unhealthy_due(home: HomeView, baselines: HomeBaselines | None) -> datetime | None:
    """The moment, after now, that such a reading will have held ``HOLD_MINUTES``: the
    glue analyses then (set 28: smoke blown in at 15:30, one reading of 64 µg/m³ until
    15:38; told at the next analysis, 15:40, only because a smoke alarm went off)."""
    if baselines is None:
        return None
    hold = timedelta(minutes=HOLD_MINUTES)
    due = [
        u.since + hold
        for u in _unhealthy(home, baselines)
        if not u.held(home.end) and u.since + hold > home.end
    ]
    return min(due, default=None)


def air_unhealthy_far_beyond_its_range(
    home: HomeView, baselines: HomeBaselines
) -> Iterator[Finding]:
    """An air-quality sensor reads unhealthy air far beyond its learned range.

    Magnitude: how far above the learned highest (its unit).
    """
    now = home.end
    for found in _unhealthy(home, baselines):
        if not found.held(now):
            continue
        sensor, usual, level, since = found.sensor, found.usual, found.level, found.since
        current = sensor.number
        assert current is not None
        unit = f" {sensor.info.unit}" if sensor.info.unit else ""
        name = sensor.info.name or sensor.entity_id
        where = f" in {sensor.info.area}" if sensor.info.area else ""
        yield AIR_UNHEALTHY_FAR_BEYOND_ITS_RANGE.finding(
            evidence=(sensor.entity_id,),
            reasoning=f"{name}{where} reads {current:g}{unit}: air unhealthy to breathe "
            f"(from {level:g}{unit}), far above anything it read in the {found.days:.0f} days "
            f"learned ({usual.lowest:g}–{usual.highest:g}{unit}); so since "
            f"{local(since, home.env.zone):%H:%M} ({duration_text(now - since)}).",
            recommendation="Find the source (smoke from outside drawn in by a cooler or an "
            "open window, a stove, something smouldering): close windows, switch off "
            "anything drawing outside air, and get people out of the smoke.",
            magnitude=round(current - usual.highest, 2),
        )

"""A stored level falling far faster than it ever fell: drained, siphoned, leaking.

A heating-oil tank's level moves a point with the tank's temperature and falls a point a
day; at three in the morning it falls from 61 to 9 % in half an hour (siphoned into drums).
No line is crossed that a rule could know (a tank may be run low on purpose), but this
tank never fell that fast: its largest fall within an hour (``LevelFalls``) was a point.

Told when the level now is at least ``FACTOR`` times its largest learned fall below the
highest of the last hour, and that fall is at least ``SHARE`` of the level's learned
scale (its highest reading: a tank at 61 % falling by 6 points or more), held
``HOLD`` (a single bad echo that comes straight back is ``reading_spike``'s). HA's
vocabulary only (``level_falls.is_level``: the stored-volume class, or no class with a
share or volume unit). Cold start: silent until the sensor has been read ``MIN_DAYS``
and has fallen at all (a level that never moved has shown no normal to compare with).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity
from .clock import local
from .home_baselines import HomeBaselines
from .level_falls import SPAN, is_level
from .reference import usual_range

MIN_DAYS = 3.0
FACTOR = 3.0
SHARE = 0.1
HOLD = timedelta(minutes=5)

LEVEL_FALLING_FAR_FASTER = FindingKind(
    "level_falling_far_faster_than_ever", AnomalyType.SECURITY, Severity.MEDIUM
)


def level_falling_far_faster_than_ever(
    home: HomeView, baselines: HomeBaselines
) -> Iterator[Finding]:
    """A stored level fell within the last hour far more than it ever did.

    Magnitude: the fall (in the sensor's unit).
    """
    now = home.end
    for sensor in home.of("sensor"):
        info = sensor.info
        current = sensor.number
        if current is None or not is_level("sensor", info.device_class, info.unit):
            continue
        learned = baselines.falls.largest(sensor.entity_id)
        fall_now = baselines.falls.fall_now(sensor.entity_id)
        if learned is None or fall_now is None:
            continue
        largest, first = learned
        if now - first < timedelta(days=MIN_DAYS) or largest <= 0:
            continue  # cold start: silent until it has been seen to fall at all
        if sensor.last_changed is not None and now - sensor.last_changed < HOLD:
            continue
        usual = usual_range(baselines, sensor.entity_id, now)
        if usual is None:
            continue
        _, highest = fall_now
        fall = highest - current
        scale = max(abs(usual.highest), abs(usual.lowest))
        if fall < FACTOR * largest or fall < SHARE * scale or fall <= 0:
            continue
        unit = f" {info.unit}" if info.unit and info.unit != "%" else (info.unit or "")
        since = (
            f" since {local(sensor.last_changed, home.env.zone):%H:%M}"
            if (sensor.last_changed)
            else ""
        )
        yield LEVEL_FALLING_FAR_FASTER.finding(
            evidence=(sensor.entity_id,),
            reasoning=f"{info.name or sensor.entity_id} fell from {highest:g}{unit} to "
            f"{current:g}{unit} within the hour (reading {current:g}{unit}{since}); in the "
            f"days learned it never fell more than {largest:g}{unit} in "
            f"{int(SPAN.total_seconds() // 3600)} h: something is draining it (a leak, a "
            "siphon, a tap or valve left open).",
            recommendation="Check the tank and its pipes, valves and fill point.",
            magnitude=round(fall, 2),
        )

"""One room's humidity climbing for days while the home's other rooms stay where they were.

A room dries out between showers and cooking: its humidity has a daily floor. When that
floor, and the room's typical level, rise day after day and stay up, something keeps
adding water (a leaking pipe in the wall, a dripping trap, damp coming through). Weather
and the heating season move every room of a home together; a shower lifts a bathroom's
peaks for an hour, not its floor for days. So a rise is judged against the home's other
humidity sensors: a room that moved alone. A home with one humidity sensor is not judged
(nothing tells a damp room from a damp week).

The baseline is each sensor's own first day in the window (in a SmartBench replay, the
sample's own trace); the later days are compared with it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from datetime import date
from statistics import median

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity
from .daily_profile import local_readings

# Days the sensors must cover: a first day as the baseline, then at least two more.
MIN_DAYS = 3
# Readings per day on average: a sensor that reports through the day (hourly or more).
MIN_READINGS_PER_DAY = 12
# Percentage points the room's daily floor and daily median must rise (the later days'
# median against the first day), and rise beyond every other room's rise.
FLOOR_RISE = 10.0
LEVEL_RISE = 8.0


def _rises(home: HomeView, sensor: str) -> tuple[float, float] | None:
    """(floor rise, level rise) of a humidity sensor: its later days against its first."""
    days: dict[date, list[float]] = defaultdict(list)
    for local, value in local_readings(home, sensor):
        days[local.date()].append(value)
    if len(days) < MIN_DAYS:
        return None
    if sum(len(v) for v in days.values()) < MIN_READINGS_PER_DAY * len(days):
        return None
    order = sorted(days)
    floors = [min(days[d]) for d in order]
    levels = [median(days[d]) for d in order]
    return median(floors[1:]) - floors[0], median(levels[1:]) - levels[0]


HUMIDITY_RISING_ALONE = FindingKind(
    "humidity_rising_alone", AnomalyType.ENVIRONMENTAL_CONFLICT, Severity.MEDIUM
)


def humidity_rising_alone(home: HomeView) -> Iterator[Finding]:
    """A room's humidity floor and level rose for days while the other rooms' did not.

    Magnitude: the rise of its daily median (percentage points) against its first day.
    """
    rises: dict[str, tuple[float, float]] = {}
    for sensor in home.history:
        if home.domain(sensor) != "sensor" or home.device_class(sensor) != "humidity":
            continue
        if (found := _rises(home, sensor)) is not None:
            rises[sensor] = found
    if len(rises) < 2:
        return
    for sensor, (floor, level) in rises.items():
        if floor < FLOOR_RISE or level < LEVEL_RISE:
            continue
        peers = [rise for other, rise in rises.items() if other != sensor]
        if floor - max(p[0] for p in peers) < FLOOR_RISE:
            continue
        if level - max(p[1] for p in peers) < LEVEL_RISE:
            continue
        yield HUMIDITY_RISING_ALONE.finding(
            evidence=(sensor,),
            reasoning=f"{sensor} has risen about {level:.0f} points over the days (its "
            f"driest reading of the day up {floor:.0f}) while the home's other humidity "
            f"sensors stayed level: something keeps adding water to that room.",
            recommendation="Look for a leak or damp in that room (pipes in the walls, under "
            "the sink or bath, the floor).",
            magnitude=level,
        )

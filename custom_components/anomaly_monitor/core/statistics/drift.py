"""Slow drift: a sensor whose daily level moves one way day after day, alone in the home.

A miscalibrating thermometer or hygrometer creeps a few tenths a day. Weather and
seasons move a home's level too, but they move every sensor of that quantity together;
a drift is one sensor's daily level climbing (or falling) on nearly every day while the
home's other sensors of the same device class and unit stay level. Without such a peer
the two cannot be told apart, so a lone sensor is not judged here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from datetime import date
from statistics import median

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity
from ..temperatures import share_of_level
from .daily_profile import values_by_day
from .levels import LEVEL_DEVICE_CLASSES

MIN_DAYS = 5
MIN_READINGS_PER_DAY = 4
# Kendall's tau of the daily medians: 0.9 is "nearly every day higher than the days before".
MIN_TREND = 0.9
# The total change must be a visible share of the level (a few tenths on 21 °C is noise).
MIN_CHANGE_SHARE = 0.05
# A peer whose own trend reaches this tau in the same direction moved with the home.
PEER_TREND = 0.5


def kendall_tau(values: list[float]) -> float:
    """Rank correlation of ``values`` with time: +1 always rising, -1 always falling."""
    n = len(values)
    if n < 2:
        return 0.0
    score = 0
    for i in range(n):
        for j in range(i + 1, n):
            score += (values[j] > values[i]) - (values[j] < values[i])
    return score / (n * (n - 1) / 2)


def daily_medians(home: HomeView, entity_id: str) -> dict[date, float]:
    """Each full-enough day's median reading."""
    days = values_by_day(home, entity_id)
    return {d: median(v) for d, v in days.items() if len(v) >= MIN_READINGS_PER_DAY}


def sensor_drifting(home: HomeView) -> Iterator[Finding]:
    """One sensor's daily level moved one way nearly every day; its peers stayed level.

    Magnitude: the change of the daily median from the first to the last day, in the
    sensor's unit (negative downwards).
    """
    groups: dict[tuple[str, str | None], list[str]] = defaultdict(list)
    for entity_id in home.history_of("sensor"):
        device_class = home.device_class(entity_id)
        if device_class not in LEVEL_DEVICE_CLASSES:
            continue
        state = home.info(entity_id)
        groups[(device_class, state.info.unit if state else None)].append(entity_id)
    for members in groups.values():
        if len(members) < 2:
            continue
        levels = {m: daily_medians(home, m) for m in members}
        trends = {m: kendall_tau(list(v.values())) for m, v in levels.items()}
        for entity_id in members:
            series = list(levels[entity_id].values())
            if len(series) < MIN_DAYS or abs(trends[entity_id]) < MIN_TREND:
                continue
            change = series[-1] - series[0]
            unit = state.info.unit if (state := home.info(entity_id)) else None
            if abs(change) < share_of_level(MIN_CHANGE_SHARE, median(series), unit):
                continue
            peers = [m for m in members if m != entity_id and len(levels[m]) >= MIN_DAYS]
            if not peers:
                continue
            if any(trends[p] * change > 0 and abs(trends[p]) >= PEER_TREND for p in peers):
                continue  # the home moved, not the sensor
            yield drift_finding(entity_id, f"{len(series)} days", change, peers)


SENSOR_DRIFTING = FindingKind("sensor_drifting", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM)


def drift_finding(entity_id: str, days: str, change: float, peers: list[str]) -> Finding:
    """What ``sensor_drifting`` tells (``days``: over which days, in words)."""
    direction = "up" if change > 0 else "down"
    return SENSOR_DRIFTING.finding(
        evidence=(entity_id,),
        reasoning=f"{entity_id}'s daily level went {direction} on nearly every one "
        f"of {days}, by {abs(change):.3g} in all, while "
        f"{', '.join(peers)} stayed level: the sensor is drifting.",
        recommendation=f"Check or recalibrate {entity_id}.",
        magnitude=change,
    )

"""Levels over days: a sensor that moved to a new regime and stayed there.

A numeric sensor's earlier readings are its baseline. When its recent readings lie
almost all outside everything it read before, the quantity (or the sensor) changed.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity
from ..temperatures import share_of_level
from .timeline import numeric_series

# Quantities measured continuously in a home (not counters, not states).
LEVEL_DEVICE_CLASSES = frozenset(
    {"temperature", "humidity", "carbon_dioxide", "moisture", "pressure", "voltage", "illuminance"}
)
# The baseline must cover at least one whole daily cycle (rooms warm, dry and fill with
# people on a daily rhythm), and the new regime must last a good part of the window.
MIN_BASELINE = timedelta(days=1)
MIN_READINGS = 20
SPLITS = (0.3, 0.4, 0.5, 0.6, 0.7)
# Share of recent readings outside the whole earlier range that makes a new regime.
OUTSIDE_SHARE = 0.9
# ...and by at least this many earlier inter-quartile ranges (median to median).
SHIFT_SPREADS = 3.0


def _quartiles(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    n = len(ordered)
    return ordered[n // 4], ordered[n // 2], ordered[(3 * n) // 4]


def _shift(series: list[tuple[datetime, float]]) -> tuple[datetime, float, float] | None:
    """Where the readings left their earlier range for good: (when, before, after)."""
    start, end = series[0][0], series[-1][0]
    for fraction in SPLITS:
        cut = start + (end - start) * fraction
        if cut - start < MIN_BASELINE:
            continue  # (first: a live window's two hours never hold a day's baseline)
        before = [v for t, v in series if t < cut]
        after = [v for t, v in series if t >= cut]
        if len(before) < MIN_READINGS // 2 or len(after) < MIN_READINGS // 2:
            continue
        low, high = min(before), max(before)
        outside_high = sum(1 for v in after if v > high) / len(after)
        outside_low = sum(1 for v in after if v < low) / len(after)
        q1, centre, q3 = _quartiles(before)
        _, recent, _ = _quartiles(after)
        spread = max(q3 - q1, 0.01 * abs(centre), 1e-6)
        if max(outside_high, outside_low) < OUTSIDE_SHARE:
            continue
        if abs(recent - centre) < SHIFT_SPREADS * spread:
            continue
        # A daily cycle or a slow trend drifts out of range gradually; a new regime sits
        # further beyond the old range than that range is wide.
        if min(abs(recent - high), abs(recent - low)) < high - low:
            continue
        return cut, centre, recent
    return None


LEVEL_SHIFT = FindingKind("level_shift", AnomalyType.BEHAVIOURAL, Severity.MEDIUM)


def level_shift(home: HomeView) -> Iterator[Finding]:
    """A sensor's readings moved for days to a level it never read before in the window.

    Magnitude: the shift of the median reading, in the sensor's unit (negative downwards).
    """
    for entity_id in home.history_of("sensor", *LEVEL_DEVICE_CLASSES):
        series = numeric_series(home, entity_id)
        if len(series) < MIN_READINGS:
            continue
        found = _shift(series)
        if found is None:
            continue
        when, before, after = found
        yield LEVEL_SHIFT.finding(
            evidence=(entity_id,),
            reasoning=f"{entity_id} read around {before:g} before {when:%Y-%m-%d} and around "
            f"{after:g} since, outside everything it read earlier.",
            recommendation="Check what changed in that room, or recalibrate the sensor.",
            magnitude=after - before,
        )


# Two sensors of one quantity in one room read alike; their gap may not grow by more
# than this share of the level (plus the gap's own early spread) before one is wrong.
TWIN_GAP_SHARE = 0.15
TWIN_MIN_READINGS = 12
TWIN_PAIRING = timedelta(minutes=30)


def _gaps(
    first: list[tuple[datetime, float]], second: list[tuple[datetime, float]]
) -> list[tuple[float, float, float]]:
    """(first, second, first - second) for readings of both taken close together."""
    pairs: list[tuple[float, float, float]] = []
    index = 0
    for when, value in first:
        while index + 1 < len(second) and second[index + 1][0] <= when:
            index += 1
        nearest = second[index : index + 2]
        other_when, other = min(nearest, key=lambda reading: abs(reading[0] - when))
        if abs(other_when - when) <= TWIN_PAIRING:
            pairs.append((value, other, value - other))
    return pairs


TWIN_SENSORS_DISAGREE = FindingKind(
    "twin_sensors_disagree", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def twin_sensors_disagree(home: HomeView) -> Iterator[Finding]:
    """Two sensors of the same quantity in one room drifted apart: one is miscalibrated.

    Magnitude: how much their gap changed (late minus early), in the sensors' unit.
    """
    groups: dict[tuple[str, str], list[str]] = {}
    for entity_id in home.history_of("sensor"):
        device_class = home.device_class(entity_id)
        area = home.area(entity_id)
        if device_class in LEVEL_DEVICE_CLASSES and area is not None:
            groups.setdefault((area, device_class), []).append(entity_id)
    for members in groups.values():
        if len(members) != 2:
            continue  # with three or more, a majority view would be needed
        series = [numeric_series(home, m) for m in members]
        if min(len(s) for s in series) < TWIN_MIN_READINGS:
            continue
        pairs = _gaps(series[0], series[1])
        if len(pairs) < TWIN_MIN_READINGS:
            continue
        third = len(pairs) // 3
        early, late = pairs[:third], pairs[-third:]
        q1, early_gap, q3 = _quartiles([g for _, _, g in early])
        _, late_gap, _ = _quartiles([g for _, _, g in late])
        level = _quartiles([a for a, _, _ in early])[1]
        unit = state.info.unit if (state := home.info(members[0])) else None
        if abs(late_gap - early_gap) < share_of_level(TWIN_GAP_SHARE, level, unit) + 3 * (q3 - q1):
            continue
        # The one that moved away from its own early level is the faulty one.
        moved = [
            abs(_quartiles([p[i] for p in late])[1] - _quartiles([p[i] for p in early])[1])
            for i in (0, 1)
        ]
        culprit = members[0] if moved[0] >= moved[1] else members[1]
        yield TWIN_SENSORS_DISAGREE.finding(
            evidence=(culprit,),
            reasoning=f"{members[0]} and {members[1]} measure the same room; their gap went "
            f"from {early_gap:+.1f} to {late_gap:+.1f}, and {culprit} is the one that moved.",
            recommendation=f"Check or recalibrate {culprit}.",
            magnitude=late_gap - early_gap,
        )

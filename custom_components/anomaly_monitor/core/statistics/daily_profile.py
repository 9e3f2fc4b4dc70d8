"""A sensor's daily profile, learned from its own earlier days, and a lasting departure from it.

Rooms warm, dry out and fill with CO2 on a daily rhythm, and a house meter follows the
household's day. A plain range test sees that rhythm as noise; comparing each reading
with what the same sensor read *at the same hour* on the earlier days removes it. A new
regime shows as residuals that sit on one side, day after day, far beyond the scatter
the baseline days had around their own hourly profile: a hidden leak that keeps a wall
damp, a CO2 sensor drifting, a load that came to stay.

The baseline is the sensor's own history before the change (in a SmartBench replay, the
sample's own trace before it); no other home or sample is involved.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from itertools import repeat
from operator import attrgetter, itemgetter
from statistics import median

from ..finding_kind import FindingKind
from ..home import HomeView
from ..home_clock import on_home_clock
from ..models import AnomalyType, Finding, Severity
from ..temperatures import share_of_level
from .levels import LEVEL_DEVICE_CLASSES
from .timeline import numeric_series

# Quantities sampled through the day (not counters): the level classes, and power, whose
# house-level profile follows the household's day.
PROFILE_DEVICE_CLASSES = LEVEL_DEVICE_CLASSES | {"power"}
# At least two whole baseline days (two readings per hour of the profile) and two days
# of the new regime: one odd day is weather or a visit, not a regime.
MIN_BASELINE_DAYS = 2
MIN_REGIME_DAYS = 2
# A sensor that reports through the day: on average this many readings a day. Event-
# driven states (a meter that reports only when a consumer switches) have no profile.
MIN_READINGS_PER_DAY = 6
MIN_REGIME_READINGS = 20
# Share of the later readings on one side of their hour's baseline, and the distance of
# their median from it in baseline scatters (median absolute residual of the baseline
# days, at least 2 % of the level: sensors quantise).
ONE_SIDED_SHARE = 0.85
SCATTERS = 4.0
SCATTER_FLOOR_SHARE = 0.02
# A peer of the same device class and unit that departed the same way within this many
# days means the whole home moved (a heat wave, the heating season), not one room.
PEER_DAYS = 1
# Long traces (a year of hourly readings) try this many change days at most (analysis cost).
MAX_CUTS = 24


def local_time(home: HomeView, when: datetime) -> datetime:
    """``when`` on the home's clock (the hour of day a daily rhythm follows)."""
    return on_home_clock(when, home.env.zone)


def local_readings(home: HomeView, entity_id: str) -> list[tuple[datetime, float]]:
    """Every numeric reading at its time on the home's clock, oldest first.

    Converted once per analysis and shared by the daily statistics (read only).
    """
    return home.shared(f"local readings of {entity_id}", lambda: _on_home_clock(home, entity_id))


def _on_home_clock(home: HomeView, entity_id: str) -> list[tuple[datetime, float]]:
    series = numeric_series(home, entity_id)  # a fresh list: ours
    zones = set(map(_ZONE, map(_TIME, series)))
    # The watcher records every reading on the home's clock already: one zone for all, and
    # ``on_home_clock`` keeps a time as it is by its zone alone (no reading converted).
    if len(zones) == 1 and on_home_clock(series[0][0], home.env.zone) is series[0][0]:
        return series
    return [(local_time(home, when), value) for when, value in series]


def readings_by_day(home: HomeView, entity_id: str) -> dict[date, list[tuple[int, float]]]:
    """The window's readings of ``entity_id`` per local day, as (hour, value); once per
    analysis (shared: read only)."""
    return home.shared(f"readings by day of {entity_id}", lambda: _by_day(home, entity_id))


def _by_day(home: HomeView, entity_id: str) -> dict[date, list[tuple[int, float]]]:
    readings = local_readings(home, entity_id)
    days: dict[date, list[tuple[int, float]]] = defaultdict(list)
    runs = day_runs(home, entity_id)
    if runs is None:
        for local, value in readings:
            days[local.date()].append((local.hour, value))
        return days
    for day, first, until in runs:  # each hour of a day a run too (bisected)
        pairs, start = days[day], first
        while start < until:
            local = readings[start][0]
            hour = local.replace(minute=0, second=0, microsecond=0) + _HOUR
            stop = bisect_left(readings, hour, start, until, key=_TIME)
            values = map(_VALUE, readings[start:stop])
            pairs += zip(repeat(local.hour, stop - start), values, strict=True)
            start = stop
    return days


def day_runs(home: HomeView, entity_id: str) -> list[tuple[date, int, int]] | None:
    """Each local day of ``local_readings`` as (day, first index, index past its last),
    oldest first; None where the readings' clock does not allow it (shared: read only).

    On one fixed offset (or naive times) local time rises with the readings, so a day is
    a run of them found by bisection rather than read one by one: most windows are two
    hours of a live home, whose days the daily statistics need only count."""
    return home.shared(f"day runs of {entity_id}", lambda: _day_runs(home, entity_id))


def _day_runs(home: HomeView, entity_id: str) -> list[tuple[date, int, int]] | None:
    readings = local_readings(home, entity_id)
    if not _one_clock(readings):
        return None
    runs: list[tuple[date, int, int]] = []
    start, end = 0, len(readings)
    while start < end:
        first = readings[start][0]
        until = bisect_left(readings, _next_midnight(first), start, end, key=_TIME)
        runs.append((first.date(), start, until))
        start = until
    return runs


def day_count(home: HomeView, entity_id: str) -> int:
    """How many local days hold readings of ``entity_id``."""
    runs = day_runs(home, entity_id)
    return len(runs) if runs is not None else len(readings_by_day(home, entity_id))


def values_by_day(home: HomeView, entity_id: str) -> dict[date, list[float]]:
    """The window's readings of ``entity_id`` per local day (a fresh dict)."""
    readings = local_readings(home, entity_id)
    runs = day_runs(home, entity_id)
    if runs is not None:
        return {day: list(map(_VALUE, readings[start:until])) for day, start, until in runs}
    days: dict[date, list[float]] = defaultdict(list)
    for local, value in readings:
        days[local.date()].append(value)
    return days


def _one_clock(readings: Sequence[tuple[datetime, float]]) -> bool:
    """Every reading on one fixed offset (or every one naive): local time rises with time."""
    zones = set(map(_ZONE, map(_TIME, readings)))
    if len(zones) != 1:
        return False
    zone = zones.pop()
    return zone is None or type(zone) is timezone


def _next_midnight(local: datetime) -> datetime:
    return datetime.combine(local.date() + _DAY, datetime.min.time(), local.tzinfo)


_TIME = itemgetter(0)
_VALUE = itemgetter(1)
_ZONE = attrgetter("tzinfo")
_HOUR = timedelta(hours=1)
_DAY = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class HourSides:
    """One hour of the day against each cut, in the cuts' order: its profile (the median of
    its readings before the cut; None without any), its readings from the cut on, and how
    many of those lie above and below the profile (0, 0, 0 without a profile). Tuples of
    numbers: the garbage collector stops tracking them (64 sensors × 24 hours are kept)."""

    values: tuple[float, ...]  # the hour's readings, in day order
    centre: tuple[float | None, ...]
    later: tuple[int, ...]
    above: tuple[int, ...]
    below: tuple[int, ...]
    # Per cut where the later readings lie on one side: (the distances of the readings
    # before it from the profile, the residuals of those from it on); taken when asked.
    residuals: dict[int, tuple[tuple[float, ...], tuple[float, ...]]] = field(default_factory=dict)

    def residuals_at(self, position: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """(distances before the cut, residuals from it on) at the cut ``position``."""
        kept = self.residuals.get(position)
        centre = self.centre[position]
        if kept is None and centre is not None:
            split = len(self.values) - self.later[position]
            kept = self.residuals[position] = (
                tuple(abs(value - centre) for value in self.values[:split]),
                tuple(value - centre for value in self.values[split:]),
            )
        return kept or ((), ())


def hour_sides(readings: Sequence[tuple[int, float]], cuts: Sequence[int]) -> HourSides:
    """``readings``: one hour's (day, value), in day order; ``cuts``: days, ascending (a
    day's position among the window's days, or a learned day's ordinal).

    Counted on sorted values: a reading above its profile is a positive residual."""
    days = [day for day, _ in readings]
    values = tuple(value for _, value in readings)
    every = sorted(values)
    total = len(every)
    centres: list[float | None] = []
    laters: list[int] = []
    aboves: list[int] = []
    belows: list[int] = []
    before: list[float] = []  # the readings before the cut, sorted
    for cut in cuts:
        split = bisect_left(days, cut)
        if split > len(before):
            before += values[len(before) : split]
            before.sort()
        count = len(before)
        if not count:
            centres.append(None)
            laters.append(0)
            aboves.append(0)
            belows.append(0)
            continue
        middle = count // 2  # statistics.median's arithmetic, on sorted values
        centre = before[middle] if count % 2 else (before[middle - 1] + before[middle]) / 2
        later = total - count
        centres.append(centre)
        laters.append(later)
        aboves.append(later + bisect_right(before, centre) - bisect_right(every, centre))
        belows.append(bisect_left(every, centre) - bisect_left(before, centre))
    return HourSides(values, tuple(centres), tuple(laters), tuple(aboves), tuple(belows))


def departure_cuts(day_count: int) -> list[int]:
    """The positions of the days a new regime may begin on (at most ``MAX_CUTS``)."""
    cuts = range(MIN_BASELINE_DAYS, day_count - MIN_REGIME_DAYS + 1)
    return list(cuts[:: max(1, len(cuts) // MAX_CUTS)])


def profile_departure(
    days: dict[date, list[tuple[int, float]]], unit: str | None = None
) -> tuple[date, float, float] | None:
    """The first day from which readings left their hourly profile for good.

    Returns (first day of the new regime, median residual, baseline scatter), or None.
    """
    order = sorted(days)
    cuts = departure_cuts(len(order))
    by_hour: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for position, day in enumerate(order):
        for hour, value in days[day]:
            by_hour[hour].append((position, value))
    sides = {hour: hour_sides(readings, cuts) for hour, readings in by_hour.items()}
    return first_departure(order, cuts, sides, unit)


def first_departure(
    order: Sequence[date],
    cuts: Sequence[int],
    sides: Mapping[int, HourSides],
    unit: str | None = None,
) -> tuple[date, float, float] | None:
    """``profile_departure`` from its hours' sides (``cuts``: positions in ``order``).

    A cut's one-sidedness is the sum of its hours' counts; the residuals and their medians
    are taken only where it passes: most cuts of most sensors fail it, and a fortnight of
    64 room sensors is judged again whenever their hours close (``learned_days_kept.py``).
    """
    hours = list(sides.values())
    laters = [sum(column) for column in zip(*(side.later for side in hours), strict=True)]
    aboves = [sum(column) for column in zip(*(side.above for side in hours), strict=True)]
    belows = [sum(column) for column in zip(*(side.below for side in hours), strict=True)]
    for position, (cut, later) in enumerate(zip(cuts, laters, strict=False)):
        if later < MIN_REGIME_READINGS:
            continue
        if max(aboves[position] / later, belows[position] / later) < ONE_SIDED_SHARE:
            continue
        residuals: list[float] = []
        for side in hours:
            residuals += side.residuals_at(position)[1]
        shift = median(residuals)
        profile = [centre for side in hours if (centre := side.centre[position]) is not None]
        level = median(abs(v) for v in profile)  # the readings' unit (``unit``)
        floor = max(share_of_level(SCATTER_FLOOR_SHARE, level, unit), 1e-6)
        if abs(shift) < SCATTERS * floor:
            continue  # (before the baseline's larger median)
        baseline: list[float] = []  # each reading before the cut: its distance from its hour
        for side in hours:
            baseline += side.residuals_at(position)[0]
        scatter = max(median(baseline), floor)
        if abs(shift) >= SCATTERS * scatter:
            return order[cut], shift, scatter
    return None


def home_moved(
    entity_id: str,
    since: date,
    shift: float,
    found: dict[str, tuple[date, float, float]],
    groups: dict[tuple[str | None, str | None], list[str]],
) -> bool:
    """Another sensor of the same quantity left its profile the same way within a day:
    weather or the season moved the home, not this sensor's room."""
    for members in groups.values():
        if entity_id not in members:
            continue
        for peer in members:
            if peer == entity_id or peer not in found:
                continue
            peer_since, peer_shift, _ = found[peer]
            if peer_shift * shift > 0 and abs((peer_since - since).days) <= PEER_DAYS:
                return True
    return False


def daily_profile_shift(home: HomeView) -> Iterator[Finding]:
    """A sensor reads, hour for hour, far from its own earlier days, and stays there.

    Magnitude: the median departure from the hourly baseline, in the sensor's unit
    (negative downwards).
    """
    found: dict[str, tuple[date, float, float]] = {}
    groups: dict[tuple[str | None, str | None], list[str]] = defaultdict(list)
    for entity_id in home.history_of("sensor", *PROFILE_DEVICE_CLASSES):
        device_class = home.device_class(entity_id)
        if day_count(home, entity_id) < MIN_BASELINE_DAYS + MIN_REGIME_DAYS:
            continue  # (counted without sorting the readings into hours)
        days = readings_by_day(home, entity_id)
        if len(days) < MIN_BASELINE_DAYS + MIN_REGIME_DAYS:
            continue
        if sum(len(v) for v in days.values()) < MIN_READINGS_PER_DAY * len(days):
            continue
        state = home.info(entity_id)
        groups[(device_class, state.info.unit if state else None)].append(entity_id)
        departure = profile_departure(days, state.info.unit if state else None)
        if departure is not None:
            found[entity_id] = departure
    for entity_id, (since, shift, scatter) in found.items():
        if home_moved(entity_id, since, shift, found, groups):
            continue
        serving = _serving_the_room(home, entity_id)
        yield shift_finding(entity_id, (since, shift, scatter), (entity_id, *serving))


DAILY_PROFILE_SHIFT = FindingKind("daily_profile_shift", AnomalyType.BEHAVIOURAL, Severity.MEDIUM)


def shift_finding(
    entity_id: str,
    departure: tuple[date, float, float],
    evidence: tuple[str, ...],
    learned: str = "",
) -> Finding:
    """What ``daily_profile_shift`` tells (``learned``: what its days were, when not the
    window's own)."""
    since, shift, scatter = departure
    direction = "higher" if shift > 0 else "lower"
    return DAILY_PROFILE_SHIFT.finding(
        evidence=evidence,
        reasoning=f"Since {since:%Y-%m-%d}, {entity_id} reads about {abs(shift):g} "
        f"{direction} than it did at the same hours on the days before (its usual "
        f"scatter is {scatter:.2g}{learned}): a change that came to stay.",
        recommendation="Check what changed in that room (damp, ventilation, a new load), "
        "or recalibrate the sensor.",
        magnitude=shift,
    )


def _serving_the_room(home: HomeView, sensor: str) -> list[str]:
    """For a thermometer: the climate units of its area and the area's power meters.

    A room's temperature that left its daily profile and stayed has two suspects, the
    thermometer and what heats or cools the room (a valve stuck, a unit failing, running
    more or less than it did); the unit and what it draws are where a homeowner looks
    next. Other device classes, and rooms without a climate unit, name the sensor alone.
    """
    area = home.area(sensor)
    if home.device_class(sensor) != "temperature" or area is None:
        return []
    units = [e for e in home.history if home.domain(e) == "climate" and home.area(e) == area]
    if not units:
        return []
    meters = [
        e
        for e in home.history
        if home.domain(e) == "sensor" and home.device_class(e) == "power" and home.area(e) == area
    ]
    return units + meters

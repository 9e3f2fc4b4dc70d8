"""What a room sensor's learned days say, kept until one of its hours closes.

``learned_days.py`` judges ``daily_profile_shift`` and ``sensor_drifting`` on each profiled
sensor's learned fortnight (``reference.day_by_day``). An analysis runs every few minutes
and an hour closes once an hour, so what the days say is kept per sensor until one of its
hours closes. Then every profiled sensor's hour closes at once (64 of them in a busy home),
so ``profile_departure`` is not run again on each fortnight: each hour of the day keeps its
counts against the cut days while its days are unchanged (``daily_profile.hour_sides``),
and the one hour that closed is counted again. ``count_ahead`` fills all of it where the
event loop does not wait (in the executor, after the recorder's history is learned or the
stored baselines are loaded); the analyses, which run in the event loop, then pay one hour
per sensor. The results are those of ``profile_departure`` on ``day_by_day``, exactly.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from statistics import median
from weakref import WeakKeyDictionary

from ..statistics.daily_profile import (
    MIN_BASELINE_DAYS,
    MIN_REGIME_DAYS,
    HourSides,
    departure_cuts,
    hour_sides,
)
from .departure_cuts_kept import DepartureCuts
from .home_baselines import OUTDOOR, HomeBaselines
from .hour_profiles import HourProfiles
from .reference import day_by_day

# A learned day with this many hours is a whole day (its median is no half-day's).
WHOLE_DAY_HOURS = 20

type Days = dict[date, list[tuple[int, float]]]


type HourDays = tuple[tuple[int, float], ...]  # one hour's (day ordinal, mean), oldest first


@dataclass(slots=True)
class _Learned:
    """What a sensor's learned days say, brought up to date when one of its hours closes."""

    stamp: tuple[object, ...]  # each hour's newest (day, mean): it changes as the hour closes
    hours: list[HourDays]  # each hour's days as ``days`` holds them
    days: Days
    levels: dict[date, float]  # each whole day's median hour
    # Each hour's counts against the cut days (``hour_sides``), while both are unchanged.
    cut_days: list[int] = field(default_factory=list)
    sides: dict[int, tuple[HourDays, HourSides]] = field(default_factory=dict)
    summed: DepartureCuts | None = None  # the sides summed per cut (``departure_cuts_kept``)
    departure: tuple[date, float, float] | None = None
    departed: bool = False  # the departure was computed for these days
    closed: int = -1  # ``HourProfiles.closed`` when last brought up to date


# Per learned profiles (one home's; gone with them): sensor -> what its days say.
_MEMO: WeakKeyDictionary[HourProfiles, dict[str, _Learned]] = WeakKeyDictionary()


def _level(values: list[tuple[int, float]]) -> float | None:
    return median(v for _, v in values) if len(values) >= WHOLE_DAY_HOURS else None


def _learned(baselines: HomeBaselines, entity_id: str) -> _Learned:
    """The sensor's learned days, and what was computed from them: brought up to date only
    once one of its hours has closed (an analysis runs every few minutes, an hour closes
    once an hour), and then only the days that hour changed."""
    profiles = baselines.profiles
    memo = _MEMO.setdefault(profiles, {})
    kept = memo.get(entity_id)
    if kept is not None and kept.closed == profiles.closed:
        return kept  # no hour of any sensor closed since
    learned = profiles.hours.get(entity_id)
    hours: Sequence[Sequence[tuple[int, float]]] = learned if learned is not None else ()
    # Each hour's newest day, read without unpacking the hour (``HourDays.newest``).
    stamp = tuple(learned.newest(hour) for hour in range(len(learned))) if learned else ()
    if kept is None or len(kept.hours) != len(hours):
        days = day_by_day(baselines, entity_id)
        levels = {day: level for day, v in days.items() if (level := _level(v)) is not None}
        kept = memo[entity_id] = _Learned(stamp, [tuple(v) for v in hours], days, levels)
    elif kept.stamp != stamp:
        # Only hours whose newest day changed changed (days come at the end, go with one).
        moved = [
            h for h, newest in enumerate(stamp) if h >= len(kept.stamp) or newest != kept.stamp[h]
        ]
        _bring_up_to_date(kept, hours, moved)
        kept.stamp, kept.departed, kept.departure = stamp, False, None
    kept.closed = profiles.closed
    return kept


def _bring_up_to_date(
    kept: _Learned, hours: Sequence[Sequence[tuple[int, float]]], moved: list[int]
) -> None:
    """Apply what changed in the ``moved`` hours' days (one hour when it closes: its newest
    day gained it, the day a fortnight before lost it) to the days and their levels."""
    changed: set[int] = set()
    for hour in moved:
        values, seen = hours[hour], kept.hours[hour]
        if len(values) == len(seen) and (not seen or values[-1] == seen[-1]):
            continue  # an hour's days only grow at the end and drop at the start
        now = tuple(values)
        for ordinal, mean in set(seen) - set(now):
            kept.days[date.fromordinal(ordinal)].remove((hour, mean))
            changed.add(ordinal)
        for ordinal, mean in set(now) - set(seen):
            insort(kept.days.setdefault(date.fromordinal(ordinal), []), (hour, mean))
            changed.add(ordinal)
        kept.hours[hour] = now
    for day in [date.fromordinal(ordinal) for ordinal in changed]:
        if not kept.days[day]:
            del kept.days[day]
        if (level := _level(kept.days.get(day, []))) is not None:
            kept.levels[day] = level
        else:
            kept.levels.pop(day, None)
    if list(kept.days) != sorted(kept.days):  # a new day is the newest: never, but be sure
        kept.days = dict(sorted(kept.days.items()))
    kept.levels = {day: kept.levels[day] for day in kept.days if day in kept.levels}


def _departure(kept: _Learned) -> tuple[date, float, float] | None:
    """``profile_departure`` of the learned days, each hour's sides kept while it holds and
    summed per cut as they change (``departure_cuts_kept``)."""
    order = list(kept.days)  # oldest first
    cuts = departure_cuts(len(order))
    cut_days = [order[cut].toordinal() for cut in cuts]
    if cut_days != kept.cut_days or kept.summed is None:  # a day came or went: count again
        kept.cut_days, kept.sides, kept.summed = cut_days, {}, DepartureCuts(len(cuts))
    summed = kept.summed
    for hour, values in enumerate(kept.hours):
        known = kept.sides.get(hour)
        if not values:
            if known is not None:
                del kept.sides[hour]
                summed.put(hour, None)
            continue
        if known is None or known[0] is not values:  # the hour's days changed
            known = kept.sides[hour] = (values, hour_sides(values, cut_days))
            summed.put(hour, known[1])
    return summed.first_departure(order, cuts)


def learned_departure(
    baselines: HomeBaselines, entity_id: str
) -> tuple[Days, tuple[date, float, float] | None]:
    """The sensor's learned days and where they departed from their profile, if they did."""
    kept = _learned(baselines, entity_id)
    if not kept.departed:
        if len(kept.days) >= MIN_BASELINE_DAYS + MIN_REGIME_DAYS:
            kept.departure = _departure(kept)
        kept.departed = True
    return kept.days, kept.departure


def daily_levels(baselines: HomeBaselines, entity_id: str) -> dict[date, float]:
    """Each whole learned day's median hour."""
    return _learned(baselines, entity_id).levels


def count_ahead(baselines: HomeBaselines) -> None:
    """Compute what every profiled sensor's learned days say now (``learned_profile_shift``
    and ``learned_drift`` then find it kept): run it where the event loop does not wait."""
    for entity_id in list(baselines.profiles.hours):
        if entity_id != OUTDOOR:
            learned_departure(baselines, entity_id)
        daily_levels(baselines, entity_id)
    daily_levels(baselines, OUTDOOR)  # the drift asks the weather's days, learned or not

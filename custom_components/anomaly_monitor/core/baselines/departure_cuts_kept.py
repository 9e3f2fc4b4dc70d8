"""``first_departure``'s per-cut sums and sorted residuals for one sensor, kept across its hours.

When a profiled sensor's hour closes, one of its 24 hours changes (``learned_days_kept``),
yet ``first_departure`` summed every hour's counts at every cut again and, at each cut
where the later readings lie on one side, joined every hour's residuals and sorted them for
their median (the largest part of an hour's close: 64 sensors, ~2 one-sided cuts each).
Here the sums are kept and the one hour's sides taken out and put in; a one-sided cut's
residuals (and its baseline's distances) are kept sorted once first asked, the changed hour's
values taken out and put in by bisection. The medians of the kept sorted values are those
``statistics.median`` takes of the joined lists: the same floats (a tie of 0.0 and -0.0 may
swap signs, and a shift of zero never passes). The result is ``first_departure``'s, exactly.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Sequence
from datetime import date
from operator import add, sub
from statistics import median

from ..statistics.daily_profile import (
    MIN_REGIME_READINGS,
    ONE_SIDED_SHARE,
    SCATTER_FLOOR_SHARE,
    SCATTERS,
    HourSides,
)
from ..temperatures import share_of_level


def _median_of_sorted(values: list[float]) -> float:
    """``statistics.median`` of values already sorted (its arithmetic)."""
    count = len(values)
    middle = count // 2
    if count % 2:
        return values[middle]
    return (values[middle - 1] + values[middle]) / 2


def _take_out(kept: list[float], values: Sequence[float]) -> None:
    for value in values:
        del kept[bisect_left(kept, value)]


def _put_in(kept: list[float], values: Sequence[float]) -> None:
    for value in values:
        insort(kept, value)


class DepartureCuts:
    """One sensor's hours against the same cut days (``hour_sides``), summed per cut."""

    __slots__ = ("_above", "_below", "_distances", "_later", "_residuals", "sides")

    def __init__(self, cut_count: int) -> None:
        self.sides: dict[int, HourSides] = {}  # hour of the day -> its sides, counted in
        self._later = [0] * cut_count
        self._above = [0] * cut_count
        self._below = [0] * cut_count
        # Per one-sided cut asked: every hour's residuals from it on, and the distances of
        # the readings before it from their hour's profile, sorted.
        self._residuals: dict[int, list[float]] = {}
        self._distances: dict[int, list[float]] = {}

    def put(self, hour: int, side: HourSides | None) -> None:
        """The hour's sides are now ``side`` (None: the hour has no days)."""
        old = self.sides.pop(hour, None)
        if old is not None:
            self._count(old, -1)
            for position, kept in self._residuals.items():
                _take_out(kept, old.residuals_at(position)[1])
                _take_out(self._distances[position], old.residuals_at(position)[0])
        if side is not None:
            self.sides[hour] = side
            self._count(side, 1)
            for position, kept in self._residuals.items():
                _put_in(kept, side.residuals_at(position)[1])
                _put_in(self._distances[position], side.residuals_at(position)[0])

    def _count(self, side: HourSides, sign: int) -> None:
        step = add if sign > 0 else sub  # (element-wise in C: 64 sensors close each hour)
        self._later = list(map(step, self._later, side.later))
        self._above = list(map(step, self._above, side.above))
        self._below = list(map(step, self._below, side.below))

    def _sorted_at(self, position: int) -> tuple[list[float], list[float]]:
        kept = self._residuals.get(position)
        if kept is None:
            residuals: list[float] = []
            distances: list[float] = []
            for side in self.sides.values():
                before, later = side.residuals_at(position)
                distances += before
                residuals += later
            residuals.sort()
            distances.sort()
            kept = self._residuals[position] = residuals
            self._distances[position] = distances
        return kept, self._distances[position]

    def first_departure(
        self, order: Sequence[date], cuts: Sequence[int], unit: str | None = None
    ) -> tuple[date, float, float] | None:
        """``daily_profile.first_departure`` of the hours put in (``cuts``: positions in
        ``order``, the cuts their sides were counted against)."""
        for position, cut in enumerate(cuts):
            later = self._later[position]
            if later < MIN_REGIME_READINGS:
                continue
            if max(self._above[position] / later, self._below[position] / later) < ONE_SIDED_SHARE:
                continue
            residuals, distances = self._sorted_at(position)
            shift = _median_of_sorted(residuals)
            profile = [
                centre
                for side in self.sides.values()
                if (centre := side.centre[position]) is not None
            ]
            level = median(abs(v) for v in profile)  # the readings' unit (``unit``)
            floor = max(share_of_level(SCATTER_FLOOR_SHARE, level, unit), 1e-6)
            if abs(shift) < SCATTERS * floor:
                continue  # (before the baseline's larger median)
            scatter = max(_median_of_sorted(distances), floor)
            if abs(shift) >= SCATTERS * scatter:
                return order[cut], shift, scatter
        return None

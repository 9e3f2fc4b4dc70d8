"""One room sensor's learned hours: each hour of the day's means of its last days, packed.

``HourProfiles`` keeps, per sensor, 24 hours x ``DAYS_KEPT`` (day, mean) pairs. Held as
24 deques of tuples of an int and a float that is ~45 kB a sensor, nearly 3 MB for the 64
sensors profiled in a busy home, most of the learning's memory. Here they are two flat
arrays per sensor (day ordinals, means; each hour's days oldest first in its own
``DAYS_KEPT`` slots), ~5 kB a sensor. Read as before: ``hours[hour]`` is a tuple of
(day, mean) pairs, oldest first; iterating gives the 24 hours in order.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from typing import overload

HOURS = 24
# One hour's days: (day ordinal, mean) pairs, oldest first.
type DayMeans = tuple[tuple[int, float], ...]


class HourDays(Sequence[DayMeans]):
    """Per local hour of the day: (day ordinal, mean) of at most ``kept`` days, oldest first."""

    __slots__ = ("_counts", "_days", "_kept", "_means")

    def __init__(self, kept: int) -> None:
        self._kept = kept
        self._days = array("i", bytes(4 * HOURS * kept))
        self._means = array("d", bytes(8 * HOURS * kept))
        self._counts = bytearray(HOURS)

    def add(self, hour: int, day: int, mean: float) -> bool:
        """The mean of ``hour`` on ``day``: a newer day is appended (the oldest dropped
        beyond ``kept``), the newest day again (a DST change's repeated hour) is replaced,
        an older one ignored. Whether it was kept."""
        base, count = hour * self._kept, self._counts[hour]
        if count and self._days[base + count - 1] == day:
            self._means[base + count - 1] = mean
            return True
        if count and day < self._days[base + count - 1]:
            return False
        if count == self._kept:  # drop the oldest: shift the hour's slots by one
            end = base + count
            self._days[base : end - 1] = self._days[base + 1 : end]
            self._means[base : end - 1] = self._means[base + 1 : end]
            count -= 1
        self._days[base + count] = day
        self._means[base + count] = mean
        self._counts[hour] = count + 1
        return True

    def newest(self, hour: int) -> tuple[int, float] | None:
        """The newest (day, mean) of ``hour``, or None before it was learned."""
        count = self._counts[hour]
        if not count:
            return None
        slot = hour * self._kept + count - 1
        return self._days[slot], self._means[slot]

    @overload
    def __getitem__(self, hour: int) -> DayMeans: ...

    @overload
    def __getitem__(self, hour: slice) -> list[DayMeans]: ...

    def __getitem__(self, hour: int | slice) -> DayMeans | list[DayMeans]:
        if isinstance(hour, slice):
            return [self[index] for index in range(HOURS)[hour]]
        if not -HOURS <= hour < HOURS:
            raise IndexError(hour)
        hour %= HOURS
        base = hour * self._kept
        end = base + self._counts[hour]
        return tuple(zip(self._days[base:end], self._means[base:end], strict=True))

    def __len__(self) -> int:
        return HOURS

    def __iter__(self) -> Iterator[DayMeans]:
        return (self[hour] for hour in range(HOURS))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HourDays):
            return NotImplemented
        return list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"HourDays({list(self)!r})"

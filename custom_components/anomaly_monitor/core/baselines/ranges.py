"""The typical range of each numeric sensor: mean, spread, lowest and highest seen.

A running mean and (population) variance, exact until ``MEMORY`` readings and then
exponentially weighted with that memory (older readings weigh less), so a sensor that
moved to a new room or season settles to its new normal. Bounded to ``MAX_ENTITIES`` sensors.

A new highest or lowest *settles*: a reading beyond everything learned is held apart (the
pending highest, the pending lowest) until ``SETTLE`` after the excursion ended (a reading
back within the range; ``SETTLE_MAX`` after it began at most), so a check asking "is it
beyond its learned range now?" compares the reading with what the sensor read before it,
not with itself (the live stream is learned before each analysis): a glucose monitor's
first night hypo is judged against the days before it, on either side, and a tank filling
all day past its usual top (79 % at 07:00, 93 % at noon, 100 % at night) is not taught by
its own rise. When the sensor was first learned is kept too: a range learned over an
afternoon is no range.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
import math
from typing import Any

MAX_ENTITIES = 400
MEMORY = 5_000
SETTLE = timedelta(hours=6)
SETTLE_MAX = timedelta(hours=24)
_SETTLE_S = SETTLE.total_seconds()
_SETTLE_MAX_S = SETTLE_MAX.total_seconds()
# [count, mean, variance, lowest, highest, first seen, pending highest, pending since,
#  pending lowest, pending since, back under the highest since, back over the lowest since]
#  (times in epoch seconds; 0 = unknown / nothing pending).
_STORED = (5, 8, 10, 12)
# Per side: (learned extreme, pending extreme, pending since, back within since).
_HIGH = (4, 6, 7, 10)
_LOW = (3, 8, 9, 11)


class NumericRanges:
    """Per numeric entity: [count, mean, variance, lowest, highest, since, pending highest,
    since, pending lowest, since, back since (high), back since (low)]."""

    def __init__(self) -> None:
        self.stats: dict[str, list[float]] = {}

    def reading(self, entity_id: str, value: float, when: datetime | None = None) -> None:
        """A finite reading of ``entity_id`` (at ``when``, if known)."""
        if not math.isfinite(value):
            return
        stats = self.stats.get(entity_id)
        if stats is None:
            if len(self.stats) >= MAX_ENTITIES:
                return
            first = [1.0, value, 0.0, value, value, _seconds(when), value, 0.0, value, 0.0]
            first += [0.0, 0.0]
            self.stats[entity_id] = first
            return
        count = min(stats[0] + 1, MEMORY)
        weight = 1 / count
        delta = value - stats[1]
        stats[1] += weight * delta
        stats[2] = (1 - weight) * (stats[2] + weight * delta * delta)
        stats[0] = count
        # The time is read only while an excursion is pending or as one begins (rarely: a
        # reading nearly always lies within the range already learned).
        if not stats[7] and not stats[9] and stats[3] <= value <= stats[4]:
            return
        _extend(stats, _LOW, value, when, below=True)
        _extend(stats, _HIGH, value, when, below=False)

    def usual(
        self, entity_id: str, now: datetime | None = None
    ) -> tuple[int, float, float, float, float] | None:
        """(readings, mean, standard deviation, lowest, highest), or None.

        With ``now``, an excursion that has not settled (``_settled``) is not part of it yet.
        """
        stats = self.stats.get(entity_id)
        if stats is None:
            return None
        count, mean, variance, low, high = stats[:5]
        at = now.timestamp() if now is not None else 0.0
        if stats[7] and _settled(stats, _HIGH, at):
            high = max(high, stats[6])
        if stats[9] and _settled(stats, _LOW, at):
            low = min(low, stats[8])
        return int(count), mean, math.sqrt(variance), low, high

    def pending_highest(self, entity_id: str) -> float | None:
        """The highest of an excursion above the range not settled yet (None: none)."""
        stats = self.stats.get(entity_id)
        return stats[6] if stats is not None and stats[7] else None

    def since(self, entity_id: str) -> datetime | None:
        """When ``entity_id`` was first learned, if known."""
        stats = self.stats.get(entity_id)
        if stats is None or not stats[5]:
            return None
        return datetime.fromtimestamp(stats[5], UTC)

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable form."""
        return {entity: [round(v, 4) for v in stats] for entity, stats in self.stats.items()}

    @classmethod
    def from_dict(cls, data: object) -> NumericRanges:
        """Rebuild from stored data; anything malformed is dropped."""
        ranges = cls()
        if not isinstance(data, Mapping):
            return ranges
        for entity, stats in list(data.items())[:MAX_ENTITIES]:
            if not isinstance(entity, str) or len(entity) > 255 or not isinstance(stats, list):
                continue
            if len(stats) not in _STORED or not all(_finite(v) for v in stats):
                continue
            values = [float(v) for v in stats]
            if len(values) == 5:  # stored before the first-seen time was kept
                values += [0.0, values[4], 0.0]
            if len(values) == 8:  # stored before a new lowest settled
                values += [values[3], 0.0]
            if len(values) == 10:  # stored before an excursion's end was kept
                values += [values[7], values[9]]  # as over when it began (settles as before)
            count, mean, variance, low, high, since, pending, pending_since = values[:8]
            pending_low, low_since, back_high, back_low = values[8:]
            lowest, highest = min(low, pending_low), max(high, pending)
            if not (1 <= count <= MEMORY and variance >= 0 and lowest <= mean <= highest):
                continue
            if since < 0 or pending_since < 0 or (pending_since and pending < high):
                continue
            if low_since < 0 or (low_since and pending_low > low):
                continue
            if min(back_high, back_low) < 0:
                continue
            ranges.stats[entity] = values
        return ranges


def _settled(stats: list[float], side: tuple[int, int, int, int], now: float) -> bool:
    """Whether the pending excursion on ``side`` is learned by ``now`` (0: no time, at once):
    ``SETTLE`` after a reading came back within the range, ``SETTLE_MAX`` after it began."""
    _, _, since, back = side
    if not now:
        return True
    return (bool(stats[back]) and now - stats[back] >= _SETTLE_S) or now - stats[
        since
    ] >= _SETTLE_MAX_S


def _extend(
    stats: list[float],
    side: tuple[int, int, int, int],
    value: float,
    when: datetime | None,
    *,
    below: bool,
) -> None:
    """Fold a settled excursion on ``side`` into the learned extreme, and hold ``value``
    apart when it lies beyond it (learned at once without a time)."""
    learned, pending, since, back = side
    beyond = value < stats[learned] if below else value > stats[learned]
    if stats[since]:
        now = _seconds(when)
        if _settled(stats, side, now):
            pick = min if below else max
            stats[learned] = pick(stats[learned], stats[pending])
            stats[since] = stats[back] = 0.0
            beyond = value < stats[learned] if below else value > stats[learned]
        elif not beyond and not stats[back]:
            stats[back] = now  # the excursion is over: it settles from now
    if not beyond:
        return
    now = _seconds(when)
    if not now:  # no time: learned at once
        stats[learned] = value
        return
    if not stats[since]:
        stats[pending], stats[since] = value, now
    else:
        stats[pending] = min(stats[pending], value) if below else max(stats[pending], value)
    stats[back] = 0.0  # beyond again: not over


def _finite(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)


def _seconds(when: datetime | None) -> float:
    """``when`` in epoch seconds; 0.0 (unknown) without a time or a time zone."""
    return when.timestamp() if when is not None and when.tzinfo is not None else 0.0

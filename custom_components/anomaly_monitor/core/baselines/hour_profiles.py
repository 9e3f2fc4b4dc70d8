"""What each room sensor usually reads at each hour of the day, day by day.

For numeric sensors of the classes that describe a room (temperature, humidity, carbon
dioxide, moisture), the time-weighted mean of every local hour is kept per day (a reading
holds until the next one, as HA's state does): ``DAYS_KEPT`` days per hour of the day.
The daily cycle (heating in the evening, a shower's humidity at 07:00) is then part of
the normal, and a reading can be judged against what *this* sensor read at the same hours
on the other days. An hour is kept only when at least half of it had a readable value.

Bounded: ``MAX_ENTITIES`` sensors, 24 × ``DAYS_KEPT`` values each. After a gap in the
record (HA stopped) longer than ``MAX_CATCH_UP``, the gap is not accounted.

Stored compactly (``as_dict``): per sensor its first day and one line of text, per hour
of the day the offset of the hour's first day and its means over consecutive days in
tenths, each the difference from the day before (``packed.py``): 64 sensors × 24 hours ×
14 days are ~70 kB in HA's indented ``Store`` file instead of ~1.4 MB as (day, mean)
pairs, every number on its own line. The older form (``hours``) is still read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime, timedelta, tzinfo
import math
from typing import Any, TypeVar

from .clock import ONE_HOUR, format_time, hour_start, parse_time, slot_of
from .hour_days import HourDays
from .packed import pack_tenths, unpack_tenths
from .stored_values import is_stored_number, stored_day_value

# Device classes whose readings describe a room and follow a daily cycle.
PROFILED_CLASSES = frozenset({"temperature", "humidity", "carbon_dioxide", "moisture"})
# How a homeowner names what each profiled class reads.
READING_WORDS = {
    "temperature": "temperature",
    "humidity": "humidity",
    "carbon_dioxide": "CO2 level",
    "moisture": "moisture",
}
MAX_ENTITIES = 64
# The outdoor temperature's profile (not an entity id: it has no dot), kept beyond the cap:
# a home with 64 room sensors profiled still learns its weather.
OUTDOOR = "outdoor"
DAYS_KEPT = 14
MAX_CATCH_UP = timedelta(hours=36)
# An hour with less readable time than this is not kept (seconds).
MIN_COVERED = 1800.0
# Stored means are tenths (0.1 °C, 0.1 %, 0.1 ppm): finer is the sensors' noise; a stored
# mean beyond this is refused.
MAX_VALUE = 1e7
# Stored: days older than this before an hour's newest are dropped (a gap of weeks in the
# record would otherwise store weeks of empty days).
MAX_SPAN = 4 * DAYS_KEPT

# Per hour of the day, (day ordinal, mean) of its closed hours (``hour_days.py``).
type HourValues = HourDays
# One sensor's hour: its own mean if closed, the same hour's other days, and what checks
# derived from those (``derived``).
type SameHour = tuple[float | None, tuple[float, ...], dict[str, Any]]
# Same-hour answers kept while no hour closes (a bound, not a policy: ~10 hours x 65 sensors
# are asked per analysis).
SAME_HOURS_KEPT = 4096

_T = TypeVar("_T")


class HourProfiles:
    """Per sensor: the mean of each local hour, for the last ``DAYS_KEPT`` days."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.hours: dict[str, HourValues] = {}
        # Per sensor: [value or None, since, start of the open hour, value-seconds, seconds].
        self._open: dict[str, list[Any]] = {}
        # Per (sensor, hour): the hour's stored text, kept while its days are unchanged (an
        # hour gains a day once a day: a save re-packs a few hours, not every one).
        self._packed: dict[tuple[str, int], tuple[Any, int, str]] = {}
        # How many hours have closed: what is computed from ``hours`` stays true while this
        # stays (``learned_days_kept``: an analysis every few minutes, an hour once an hour).
        self.closed = 0
        # ``same_hour``'s answers and what checks derived from them, while ``closed`` is
        # ``_same_closed``: an analysis every few minutes asks the same sensors' same hours.
        self._same: dict[tuple[str, datetime], SameHour] = {}
        self._same_closed = 0

    def reading(self, entity_id: str, value: float | None, when: datetime) -> None:
        """``entity_id`` reads ``value`` (None: unreadable) from ``when`` on."""
        state = self._open.get(entity_id)
        if state is None:
            if value is None or (len(self._open) >= MAX_ENTITIES and entity_id != OUTDOOR):
                return
            self._open[entity_id] = [value, when, hour_start(when), 0.0, 0.0]
            return
        if when < state[1]:
            return  # out of order: already accounted
        self._accumulate(entity_id, state, when)
        state[0] = value if value is None or math.isfinite(value) else None

    def seed(self, entity_id: str, value: float, since: datetime) -> None:
        """A first reading, unless the sensor is already followed."""
        if entity_id not in self._open:
            self.reading(entity_id, value, since)

    def advance(self, now: datetime) -> None:
        """Time passed without readings: account it for every sensor."""
        for entity_id, state in self._open.items():
            if now > state[1]:
                self._accumulate(entity_id, state, now)

    def _accumulate(self, entity_id: str, state: list[Any], until: datetime) -> None:
        value, since, start = state[0], state[1], state[2]
        gap = until - since
        if gap > MAX_CATCH_UP:  # a gap in the record: start again
            self._close(entity_id, state)
            state[1], state[2], state[3], state[4] = until, hour_start(until), 0.0, 0.0
            return
        moment = since
        while moment < until:
            boundary = start + ONE_HOUR
            end = min(until, boundary)
            if value is not None:
                # Within one hour (nearly every reading) the span is the gap already taken.
                span = gap if moment is since and end is until else end - moment
                seconds = span.total_seconds()
                state[3] += value * seconds
                state[4] += seconds
            if end == boundary:
                self._close(entity_id, state)
                start = boundary
                state[2], state[3], state[4] = start, 0.0, 0.0
            moment = end
        state[1] = until

    def _close(self, entity_id: str, state: list[Any]) -> None:
        if state[4] < MIN_COVERED:
            return
        _, hour, day = slot_of(state[2], self.zone)
        hours = self.hours.get(entity_id)
        if hours is None:
            hours = self.hours[entity_id] = HourDays(DAYS_KEPT)
        mean = round(state[3] / state[4], 1)  # rounded once here (as stored), not at every save
        if hours.add(hour, day, mean):  # a newer day, or the repeated hour of a DST change
            self.closed += 1

    def same_hour(self, entity_id: str, start: datetime) -> tuple[float | None, list[float]]:
        """(the mean of the hour beginning at ``start`` if closed, the same hour's other days)."""
        own, others, _ = self._same_hour(entity_id, start)
        return own, list(others)  # a fresh list: callers may edit theirs

    def derived(
        self, entity_id: str, start: datetime, name: str, compute: Callable[[tuple[float, ...]], _T]
    ) -> _T:
        """``compute(others)`` of ``same_hour``'s other days, computed once while no hour
        closes (``name`` tells one derived value from another; ``compute`` must be pure)."""
        _, others, kept = self._same_hour(entity_id, start)
        if name not in kept:
            kept[name] = compute(others)
        return kept[name]  # type: ignore[no-any-return]

    def _same_hour(self, entity_id: str, start: datetime) -> SameHour:
        """``same_hour``, kept until an hour closes (only a closing hour changes ``hours``)."""
        if self._same_closed != self.closed or len(self._same) >= SAME_HOURS_KEPT:
            self._same.clear()
            self._same_closed = self.closed
        key = (entity_id, start)
        found = self._same.get(key)
        if found is None:
            hours = self.hours.get(entity_id)
            if hours is None:
                found = (None, (), {})
            else:
                _, hour, day = slot_of(start, self.zone)
                own = [value for d, value in hours[hour] if d == day]
                others = tuple(value for d, value in hours[hour] if d != day)
                found = ((own[0] if own else None), others, {})
            self._same[key] = found
        return found

    def days_learned(self, entity_id: str) -> int:
        """How many different days taught this sensor something."""
        hours = self.hours.get(entity_id)
        return len({day for values in hours for day, _ in values}) if hours else 0

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable, compact form (the open hour's partial sums are not kept).

        ``days``: per sensor ``[first day, text]``, the text ``;``-separated per hour of
        the day, each ``offset:tenths`` (the offset of the hour's first day from the first
        day; ``packed.pack_tenths`` over consecutive days, '' for a day without the hour)
        or '' for an hour not learned yet.
        """
        return {
            "days": {entity: self._compact(entity, hours) for entity, hours in self.hours.items()},
            "open": {
                entity: [state[0], format_time(state[1])] for entity, state in self._open.items()
            },
        }

    def _compact(self, entity: str, hours: HourValues) -> list[Any]:
        """``[first day, text]`` (see ``as_dict``)."""
        packed: list[tuple[int, str] | None] = []
        for hour, values in enumerate(hours):
            if not values:
                packed.append(None)
                continue
            signature = (len(values), values[0], values[-1])
            cached = self._packed.get((entity, hour))
            if cached is None or cached[0] != signature:
                cached = (signature, *_pack_hour(values))
                self._packed[entity, hour] = cached
            packed.append(cached[1:])
        first = min((item[0] for item in packed if item is not None), default=0)
        parts = ["" if item is None else f"{item[0] - first}:{item[1]}" for item in packed]
        return [first, ";".join(parts)]

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> HourProfiles:
        """Rebuild from stored data (the compact form, or the older (day, mean) pairs);
        anything malformed is dropped, never raised."""
        profiles = cls(zone)
        if not isinstance(data, Mapping):
            return profiles
        compact, pairs = data.get("days"), data.get("hours")
        stored = compact if isinstance(compact, Mapping) else pairs
        parse = _expand if isinstance(compact, Mapping) else _pairs
        if isinstance(stored, Mapping):
            for entity, per_hour in _capped(stored):
                if not isinstance(entity, str) or len(entity) > 255:
                    continue
                kept = parse(per_hour)
                if kept is not None:
                    profiles.hours[entity] = kept
        opened = data.get("open")
        if isinstance(opened, Mapping):
            for entity, pair in _capped(opened):
                if not isinstance(entity, str) or len(entity) > 255:
                    continue
                if not isinstance(pair, list) or len(pair) != 2:
                    continue
                value, since = pair[0], parse_time(pair[1])
                if since is None or not (value is None or is_stored_number(value)):
                    continue
                reading = None if value is None else float(value)
                profiles._open[entity] = [reading, since, hour_start(since), 0.0, 0.0]
        return profiles


def _capped(stored: Mapping[Any, Any]) -> list[tuple[Any, Any]]:
    """The first ``MAX_ENTITIES`` sensors stored, and the outdoor temperature's."""
    items = list(stored.items())
    kept = [item for item in items if item[0] != OUTDOOR][:MAX_ENTITIES]
    return kept + [item for item in items if item[0] == OUTDOOR][:1]


def _pack_hour(values: tuple[tuple[int, float], ...]) -> tuple[int, str]:
    """(the first day kept, its means over consecutive days as ``pack_tenths`` text)."""
    newest = values[-1][0]
    kept = [(day, mean) for day, mean in values if day > newest - MAX_SPAN]
    begin = kept[0][0]
    row: list[float | None] = [None] * (newest - begin + 1)
    for day, mean in kept:
        row[day - begin] = mean
    return begin, pack_tenths(row)


def _expand(stored: object) -> HourValues | None:
    """The compact form back into (day, mean) pairs per hour; None when malformed."""
    if not isinstance(stored, list) or len(stored) != 2:
        return None
    first, text = stored
    if isinstance(first, bool) or not isinstance(first, int) or not 1 <= first <= 3_652_059:
        return None
    if not isinstance(text, str) or len(text) > 24 * 20 * (MAX_SPAN + 2):
        return None
    parts = text.split(";")
    if len(parts) != 24:
        return None
    kept = HourDays(DAYS_KEPT)
    for hour, part in enumerate(parts):
        if not part:
            continue
        offset, _, series = part.partition(":")
        if not offset.isascii() or not offset.isdigit() or len(offset) > 4:
            return None
        values = unpack_tenths(series, MAX_SPAN, MAX_VALUE)
        if values is None:
            return None
        begin = first + int(offset)
        if begin + len(values) > 3_652_059:
            return None
        for index, value in enumerate(values):
            if value is not None:
                kept.add(hour, begin + index, value)
    return kept


def _pairs(per_hour: object) -> HourValues | None:
    """The older stored form: per hour a list of [day, mean]; None when malformed."""
    if not isinstance(per_hour, list) or len(per_hour) != 24:
        return None
    kept = HourDays(DAYS_KEPT)
    for hour, values in enumerate(per_hour):
        for item in values[-DAYS_KEPT:] if isinstance(values, list) else []:
            pair = stored_day_value(item)
            newest = kept.newest(hour)
            if pair is not None and (newest is None or pair[0] > newest[0]):
                kept.add(hour, *pair)
    return kept

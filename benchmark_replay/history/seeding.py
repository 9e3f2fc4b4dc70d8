"""A replay that starts in the middle of a history, as a monitor set up at that moment.

The parallel replay (``parallel.py``) cuts a history into parts by time; every part but
the first begins where HA would have had the recorded states, and a monitor set up then
would learn the recorder's days before it (``CONF_HISTORY_DAYS``) on start. Here the
recorder is the recorded file itself: :func:`states_before` gives each entity's newest
row before the cut, and :class:`RecordedLearning` gives the monitor's baseline keeper
those days' rows the way the recorder's history reader would (``recorder/rows.py``), a
few hours at a time, consecutive repeats dropped as HA's minimal response drops them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from homeassistant.core import HomeAssistant

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.home_baselines import OUTDOOR
from custom_components.anomaly_monitor.core.baselines.learned_days_kept import count_ahead
from custom_components.anomaly_monitor.live.context_builder import outdoor_celsius
from custom_components.anomaly_monitor.recorder.history_learning import CHUNK
from custom_components.anomaly_monitor.recorder.rows import (
    Row,
    learn_rows,
    recorded_row,
    thermometer_units,
)

from .records import HistorySource, ReadStats, Record


@dataclass(slots=True)
class StatesAt:
    """Each entity's newest row before two moments (the cut, and the learning's start)."""

    cut: dict[str, Record]
    learning_start: dict[str, Record]


def states_before(source: HistorySource, cut: datetime, learning_start: datetime) -> StatesAt:
    """One pass over the rows before ``cut`` (not counted in the report's read rows)."""
    newest: dict[str, Record] = {}
    at_learning_start: dict[str, Record] | None = None
    for record in _uncounted(source, None, cut):
        if at_learning_start is None and record.when >= learning_start:
            at_learning_start = dict(newest)
        newest[record.entity_id] = record
    return StatesAt(newest, newest.copy() if at_learning_start is None else at_learning_start)


def _uncounted(
    source: HistorySource, start: datetime | None, end: datetime | None
) -> Iterator[Record]:
    """The source's rows, its read statistics left as they were (the part counts them)."""
    counted, source.stats = source.stats, ReadStats()
    try:
        yield from source.records(start, end)
    finally:
        source.stats = counted


class RecordedLearning:
    """The keeper's ``LearnHistory``: the recorded file's rows in place of the recorder's."""

    def __init__(
        self, hass: HomeAssistant, source: HistorySource, at_start: dict[str, Record]
    ) -> None:
        self.hass = hass
        self.source = source
        self.at_start = at_start  # each entity's state when the learned days begin
        self.rows = 0
        self._wanted: set[str] = set()
        self._weather: str | None = None
        self._units: dict[str, str] = {}
        self._home_unit = ""

    async def __call__(
        self,
        baselines: HomeBaselines,
        start: datetime,
        end: datetime,
        entity_ids: list[str],
        weather: str | None,
    ) -> None:
        """Learn ``[start, end)`` of ``entity_ids`` (and the weather's temperature) a
        ``CHUNK`` at a time, each chunk as one recorder query gives it: every entity's
        state at the chunk's start first (``include_start_time_state``), then its rows,
        a repeated state dropped but for thermometers (read with their attributes)."""
        self._wanted, self._weather = set(entity_ids), weather
        self._units = thermometer_units(self.hass, entity_ids)
        self._home_unit = self.hass.config.units.temperature_unit
        current = {e: r for e, r in self.at_start.items() if r.when < start}
        chunk_start = start
        rows, last = self._chunk_begins(current, chunk_start)
        for record in _uncounted(self.source, start, end):
            while record.when >= chunk_start + CHUNK:
                self._learn(baselines, rows)
                chunk_start += CHUNK
                rows, last = self._chunk_begins(current, chunk_start)
            current[record.entity_id] = record
            if record.when == chunk_start:
                continue  # neither before a query's start nor after it: HA reads it not
            if (row := self._row(record, record.when)) is None:
                continue
            if row[1] not in self._units and last.get(row[1]) == row[2]:
                continue  # the recorder's minimal response drops a repeated state
            last[row[1]] = row[2]
            rows.append(row)
        while chunk_start + CHUNK < end:
            self._learn(baselines, rows)
            chunk_start += CHUNK
            rows, _ = self._chunk_begins(current, chunk_start)
        self._learn(baselines, rows)
        count_ahead(baselines)

    def _chunk_begins(
        self, current: dict[str, Record], moment: datetime
    ) -> tuple[list[Row], dict[str, str]]:
        """A chunk's first rows: each entity's state at its start, dated then."""
        rows = [row for r in current.values() if (row := self._row(r, moment)) is not None]
        return rows, {entity: state for _, entity, state in rows if entity != OUTDOOR}

    def _row(self, record: Record, when: datetime) -> Row | None:
        """The row the recorder's reader makes of ``record`` (None: it reads none)."""
        if record.entity_id == self._weather:
            temperature = (
                outdoor_celsius(record.attributes, self._home_unit) if record.attributes else None
            )
            return None if temperature is None else (when, OUTDOOR, f"{temperature:g}")
        if record.entity_id not in self._wanted:
            return None
        unit = self._units.get(record.entity_id)
        return recorded_row(record.entity_id, when, record.state, record.attributes, unit)

    def _learn(self, baselines: HomeBaselines, rows: list[Row]) -> None:
        rows.sort(key=lambda row: row[0])
        self.rows += len(rows)
        learn_rows(baselines, rows)


def learning_start(first_row: datetime, days: int) -> datetime:
    """When the days a monitor set up at ``first_row`` learns on start begin."""
    return first_row - timedelta(days=days)

"""The History panel's "Download data" CSV (``entity_id,state,last_changed``), streamed.

HA writes it one entity after another, each in time order. The reader indexes the file
once (where each time-ordered run of rows begins) and merges the runs by time, reading
each from its own position, so the whole file is never in memory. A row that cannot be
read is counted and skipped.
"""

from __future__ import annotations

from collections.abc import Iterator
import csv
from datetime import UTC, datetime
import heapq
import io
from pathlib import Path
from typing import Any

from .records import HistoryError, ReadStats, Record, valid_entity_id

HEADER = ["entity_id", "state", "last_changed"]
# More interleaved runs than this is a file in no useful order (one handle each).
MAX_RUNS = 2_000
MAX_STATE_LENGTH = 255


def parse_time(text: str) -> datetime | None:
    """An ISO time as HA writes it (``2026-11-30T10:00:00.000Z``); naive means UTC."""
    try:
        parsed = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).astimezone(UTC)


class HistoryCsv:
    """One CSV file, read-only."""

    def __init__(self, path: Path, restart_times: list[datetime] | None = None) -> None:
        self.path = path
        self.stats = ReadStats()
        self._restarts = sorted(restart_times or [])
        if not path.is_file():
            raise HistoryError(f"{path}: no such CSV file")
        with path.open(encoding="utf-8", newline="") as handle:
            first = handle.readline()
        header = [c.strip().lower() for c in next(csv.reader([first]), [])]
        if header[:3] != HEADER:
            raise HistoryError(
                f"{path}: not a History CSV (the first line must be {','.join(HEADER)}, "
                f"found {first.strip()[:80]!r})"
            )
        self._runs: list[int] | None = None  # byte offsets where a time-ordered run begins

    def _index(self) -> list[int]:
        """Offsets of the runs (a row earlier than the one before begins a new run)."""
        if self._runs is not None:
            return self._runs
        runs: list[int] = []
        previous: datetime | None = None
        with self.path.open("rb") as handle:
            offset = len(handle.readline())
            for line in handle:
                row = _split(line)
                when = parse_time(row[2]) if row is not None and len(row) >= 3 else None
                if when is not None:
                    if previous is None or when < previous:
                        runs.append(offset)
                        if len(runs) > MAX_RUNS:
                            raise HistoryError(
                                f"{self.path}: rows are in no order HA writes (more than "
                                f"{MAX_RUNS} runs); sort the file by last_changed"
                            )
                    previous = when
                offset += len(line)
        self._runs = runs
        return runs

    def span(
        self, start: datetime | None, end: datetime | None
    ) -> tuple[datetime, datetime] | None:
        """The first and last row's time in the range (None: no row): one pass reading
        only the times, as the index does (``--jobs`` cuts the range by them)."""
        first: datetime | None = None
        last: datetime | None = None
        with self.path.open("rb") as handle:
            handle.readline()
            for line in handle:
                row = _split(line)
                when = parse_time(row[2]) if row is not None and len(row) >= 3 else None
                if when is None or (start is not None and when < start):
                    continue
                if end is not None and when >= end:
                    continue
                first = when if first is None else min(first, when)
                last = when if last is None else max(last, when)
        return None if first is None or last is None else (first, last)

    def count(self, start: datetime | None, end: datetime | None) -> int | None:
        """Unknown without a second pass (the progress bar then counts rows read)."""
        return None

    def records(self, start: datetime | None, end: datetime | None) -> Iterator[Record]:
        """The rows in the range, merged from every run in time order."""
        runs = self._index()
        handles = [self.path.open("rb") for _ in runs]
        try:
            streams = [
                self._run(h, offset, end_offset, start, end)
                for h, offset, end_offset in zip(handles, runs, [*runs[1:], None], strict=True)
            ]
            for _, _, record in heapq.merge(*streams):
                self.stats.rows += 1
                yield record
        finally:
            for handle in handles:
                handle.close()

    def _run(
        self,
        handle: Any,
        offset: int,
        end_offset: int | None,
        start: datetime | None,
        end: datetime | None,
    ) -> Iterator[tuple[datetime, int, Record]]:
        handle.seek(offset)
        position = offset
        for line in handle:
            if end_offset is not None and position >= end_offset:
                return
            here = position
            position += len(line)
            record = self._record(line, here)
            if record is None:
                continue
            if (start is not None and record.when < start) or (
                end is not None and record.when >= end
            ):
                continue
            yield record.when, here, record

    def _record(self, line: bytes, offset: int) -> Record | None:
        where = f"byte {offset}"
        row = _split(line)
        if row is None:
            self.stats.skip("not UTF-8 CSV", where)
            return None
        if not any(cell.strip() for cell in row):
            return None  # a blank line
        if len(row) < 3:
            self.stats.skip("fewer than 3 columns", f"{where}: {row!r}")
            return None
        entity_id, state, stamp = row[0].strip(), row[1], row[2]
        when = parse_time(stamp)
        if when is None:
            self.stats.skip("no valid last_changed", f"{where}: {stamp!r}")
            return None
        if not valid_entity_id(entity_id):
            self.stats.skip("no valid entity id", f"{where}: {entity_id!r}")
            return None
        if len(state) > MAX_STATE_LENGTH:
            self.stats.skip("no valid state", f"{where} ({entity_id})")
            return None
        return Record(when, entity_id, state, None)

    def restarts(self, start: datetime | None, end: datetime | None) -> list[datetime]:
        """The CSV does not say when HA restarted: the context YAML may list the moments."""
        return [
            t for t in self._restarts if (start is None or t > start) and (end is None or t < end)
        ]

    def entity_attributes(self) -> dict[str, dict[str, Any]]:
        """The CSV has no attributes (the context YAML gives names, classes and units)."""
        return {}


def _split(line: bytes) -> list[str] | None:
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return None
    try:
        return next(csv.reader(io.StringIO(text)), [])
    except csv.Error:
        return None

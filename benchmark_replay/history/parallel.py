"""A history replayed in parts by time, one process each (``--jobs N``).

Python runs one analysis at a time per process, so a long history on a machine with
several cores is cut into ``N`` spans of equal time. The first part is the ordinary
replay; every later part is a monitor set up at its cut with the recorded states and
learned days before it (``seeding.py``), as a homeowner who installed it then would
have had. What it cannot carry over from the part before: the anomalies open at the cut
and the window's changes before it, so the hours after a cut may differ from one
sequential run (``docs/history_replay.md`` says by how much on the scale benchmark).
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import datetime
import multiprocessing
from pathlib import Path
from typing import Any

from ..home.observer import Alarm, Observations
from ..wall_clock import wall_clock
from .home_context import HomeContext
from .records import MAX_BAD_EXAMPLES, HistoryError, HistorySource, ReadStats
from .runner import HistoryRecord, HistoryRun

MAX_JOBS = 16


@dataclass(frozen=True, slots=True)
class SourceFile:
    """Where the rows are, to open again in a part's own process."""

    path: Path
    csv: bool = False  # a History CSV, else a recorder database
    restarts: tuple[datetime, ...] = ()  # a CSV's restarts (its YAML's)

    def open(self) -> HistorySource:
        """The history source of this file."""
        if self.csv:
            from .history_csv import HistoryCsv

            return HistoryCsv(self.path, restart_times=list(self.restarts))
        from .recorder_db import RecorderDatabase

        return RecorderDatabase(self.path)


@dataclass(frozen=True, slots=True)
class Part:
    """One process's share: where its rows are and which span it replays."""

    file: SourceFile
    context: HomeContext
    options: dict[str, Any]
    start: datetime | None
    end: datetime | None
    config_dir: Path | None
    seeded: bool


def cuts(
    source: HistorySource, start: datetime | None, end: datetime | None, jobs: int
) -> list[tuple[datetime | None, datetime | None]]:
    """``jobs`` spans of equal time covering the range's rows: ``[(start, end), ...]``."""
    span = getattr(source, "span", None)
    bounds = span(start, end) if span is not None else None
    if bounds is None:
        raise HistoryError("--jobs needs rows in the range")
    first, last = bounds
    step = (last - first) / jobs
    moments = [first + step * i for i in range(1, jobs)]
    return list(zip([start, *moments], [*moments, end], strict=True))


def run_parts(
    file: SourceFile,
    source: HistorySource,
    context: HomeContext,
    options: dict[str, Any],
    *,
    start: datetime | None,
    end: datetime | None,
    config_dir: Path | None,
    jobs: int,
) -> HistoryRecord:
    """Replay the parts side by side; their records and read statistics as one."""
    started = wall_clock()
    parts = [
        Part(file, context, dict(options), a, b, config_dir, seeded=i > 0)
        for i, (a, b) in enumerate(cuts(source, start, end, min(jobs, MAX_JOBS)))
    ]
    # A fresh interpreter per part: the replay freezes the clocks of its whole process.
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=len(parts), mp_context=spawn) as pool:
        results = list(pool.map(_replay_part, parts))
    record = merged([r for r, _ in results])
    for _, stats in results:
        add_stats(source.stats, stats)
    record.wall_s = wall_clock() - started
    return record


def _replay_part(part: Part) -> tuple[HistoryRecord, ReadStats]:
    source = part.file.open()
    run = HistoryRun(
        source,
        part.context,
        part.options,
        start=part.start,
        end=part.end,
        config_dir=part.config_dir,
        progress=False,
        seeded=part.seeded,
    )
    return run.run(), source.stats


def merged(records: list[HistoryRecord]) -> HistoryRecord:
    """The parts' records, in time order, as one run's.

    An anomaly still open when a part ends is told again by the next part's new monitor
    (it finds the door open): that repeat is left out, as one run would not tell it twice.
    """
    whole = HistoryRecord()
    for part in records:
        seen = part.seen
        carried = still_open(whole.seen)
        whole.seen.alarms += [a for a in seen.alarms if not _told_again(a, carried, seen)]
        whole.seen.cleared += seen.cleared
        whole.seen.notices += seen.notices
        whole.seen.visible = seen.visible  # what is on screen at the end: the last part's
        whole.seen.restarts += seen.restarts
        whole.first = whole.first or part.first
        whole.last = part.last or whole.last
        whole.rows += part.rows
        whole.skipped_own += part.skipped_own
        whole.entities |= part.entities
        whole.restarts += part.restarts
        whole.timer_steps += part.timer_steps
        whole.cpu_s += part.cpu_s
        # Is the work split evenly, and does each core stay busy (CPU near wall)?
        whole.parts.append(
            {"rows": part.rows, "wall_s": round(part.wall_s, 1), "cpu_s": round(part.cpu_s, 1)}
        )
        whole.error = whole.error or part.error
    return whole


def still_open(seen: Observations) -> set[str]:
    """The anomalies told and not cleared since."""
    told = {a.anomaly_id: a.when for a in seen.alarms}
    for cleared in seen.cleared:
        if cleared.anomaly_id in told and cleared.when >= told[cleared.anomaly_id]:
            del told[cleared.anomaly_id]
    return set(told)


def _told_again(alarm: Alarm, carried: set[str], seen: Observations) -> bool:
    """``alarm`` is the new part's first telling of an anomaly open across the cut."""
    if alarm.anomaly_id not in carried:
        return False
    before = [
        *(a.when for a in seen.alarms if a.anomaly_id == alarm.anomaly_id),
        *(c.when for c in seen.cleared if c.anomaly_id == alarm.anomaly_id),
    ]
    return alarm.when <= min(before)


def add_stats(total: ReadStats, part: ReadStats) -> None:
    """One part's read statistics added to the whole's."""
    total.rows += part.rows
    total.bad.update(part.bad)
    room = MAX_BAD_EXAMPLES - len(total.examples)
    total.examples += part.examples[: max(room, 0)]

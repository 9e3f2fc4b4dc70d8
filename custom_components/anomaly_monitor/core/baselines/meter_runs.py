"""Each power meter's recent runs: when each began and how long it drew without a break.

``MeterHours`` knows at which hours a meter draws, day by day; it cannot say that tonight's
run *stopped part-way*: a run that began at 22:15 and fell idle at 02:55 has drawn at
every hour from 22 to 02, as on the nights before. The runs themselves say it: the
nights before, the run that began at about 22:15 went on until 07:30. Per meter, the last
``KEPT`` runs of at least ``MIN_KEPT`` (a fridge's 20-minute compressor runs are its cycle,
``cycles.py``'s) and the last run of any length, each as (start, minutes). A run is a
running spell (``power.RUNNING``) from idle to idle; a spell a drop of the meter cut (no
state: a radio drop, HA stopped) is no run learned, and what follows the drop is no run
that stopped (the drop may have been the stop, or the record's).

No role, no name: a dialysis cycler, a pool pump on a timer, a night-tariff water heater
and an EV charger are all "a meter whose runs began at about this time and lasted this
long". Bounded (``MAX_METERS`` × ``KEPT``); stored as one packed string per meter,
untrusted when read back.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

from .packed import pack, unpack
from .stored_values import stored_entity_id, stored_items

MAX_METERS = 96
KEPT = 14
MIN_KEPT = timedelta(minutes=30)
_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)
# Minutes since 2000 that a stored run may begin at (to the year 2190).
_MAX_MINUTE = 100_000_000.0
_MAX_MINUTES = 7 * 24 * 60.0


class Run(NamedTuple):
    """One run: when it began, and when it fell idle."""

    start: datetime
    end: datetime

    @property
    def length(self) -> timedelta:
        """How long it drew."""
        return self.end - self.start


def _minute(when: datetime) -> int:
    return int((when - _EPOCH).total_seconds() // 60)


def _at(minute: float) -> datetime:
    return _EPOCH + timedelta(minutes=minute)


class MeterRuns:
    """Per power meter: the run under way and the last runs it made; O(1) per reading."""

    def __init__(self) -> None:
        self.began: dict[str, datetime] = {}  # the run under way, since when
        self.idle: set[str] = set()  # meters last read idle: their next run's start is known
        self.runs: dict[str, deque[Run]] = {}  # the last runs of at least MIN_KEPT
        self.last: dict[str, Run] = {}  # the last run of any length

    def reading(self, entity_id: str, running: bool | None, when: datetime) -> None:
        """The meter reads running, idle, or nothing (``None``: a drop) from ``when`` on."""
        if running is None:
            self.began.pop(entity_id, None)  # a run a drop cut is not learned
            self.last.pop(entity_id, None)
            self.idle.discard(entity_id)
            return
        if running:
            if entity_id in self.idle:  # a run begun from idle: its start is known
                self.idle.discard(entity_id)
                self.began[entity_id] = when
            return
        since = self.began.pop(entity_id, None)
        if len(self.idle) < MAX_METERS:
            self.idle.add(entity_id)
        if since is None or when <= since:
            return
        run = Run(since, when)
        self.last[entity_id] = run
        if run.length >= MIN_KEPT and run.length <= timedelta(minutes=_MAX_MINUTES):
            self.runs.setdefault(entity_id, deque(maxlen=KEPT)).append(run)

    def seed_idle(self, entity_id: str) -> None:
        """The meter reads idle now (at set-up or a restart), no run known under way."""
        if entity_id not in self.began and len(self.idle) < MAX_METERS:
            self.idle.add(entity_id)

    def before(self, entity_id: str, run: Run) -> list[Run]:
        """The runs kept that ended before ``run`` began."""
        return [r for r in self.runs.get(entity_id, ()) if r.end <= run.start]

    def learned(self) -> int:
        """Meters with runs kept (for diagnostics)."""
        return len(self.runs)

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable form: per meter "start,minutes,..." (minutes since 2000)."""
        return {
            "runs": {e: _packed(runs) for e, runs in self.runs.items()},
            "last": {e: _packed((run,)) for e, run in self.last.items()},
            "began": {e: _minute(when) for e, when in self.began.items()},
            "idle": sorted(self.idle),
        }

    @classmethod
    def from_dict(cls, data: object) -> MeterRuns:
        """Rebuild from stored data; anything malformed is dropped, never raised."""
        runs = cls()
        if not isinstance(data, Mapping):
            return runs
        for entity, text in stored_items(data.get("runs"), MAX_METERS):
            if stored_entity_id(entity) and (parsed := _unpacked(text)):
                runs.runs[entity] = deque(parsed[-KEPT:], maxlen=KEPT)
        for entity, text in stored_items(data.get("last"), MAX_METERS):
            if stored_entity_id(entity) and (parsed := _unpacked(text)) and len(parsed) == 1:
                runs.last[entity] = parsed[0]
        for entity, minute in stored_items(data.get("began"), MAX_METERS):
            if (
                stored_entity_id(entity)
                and isinstance(minute, int)
                and not isinstance(minute, bool)
                and 0 <= minute <= _MAX_MINUTE
            ):
                runs.began[entity] = _at(minute)
        idle = data.get("idle")
        if isinstance(idle, list):
            runs.idle = {e for e in idle[:MAX_METERS] if stored_entity_id(e)}
        return runs


def _packed(runs: Iterable[Run]) -> str:
    return pack([n for r in runs for n in (_minute(r.start), _minute(r.end) - _minute(r.start))], 0)


def _unpacked(text: object) -> list[Run] | None:
    if not isinstance(text, str) or not text:
        return None
    count = text.count(",") + 1
    if count % 2 or count > 2 * KEPT:
        return None
    numbers = unpack(text, count, 0.0, _MAX_MINUTE)
    if numbers is None:
        return None
    pairs = zip(numbers[::2], numbers[1::2], strict=True)
    return [Run(_at(s), _at(s + m)) for s, m in pairs if 0 < m <= _MAX_MINUTES]

"""The tracker's file: its open, dismissed, ended and past anomalies and the marks, read
back (every damaged part dropped, said once in the log) and written (``store.py`` holds the
format and its migrations).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from ..core.feedback import FalseAlarms
from .already_told import AlreadyTold
from .open_anomaly import OpenAnomaly
from .store import StoredData, load_anomalies, load_marks, warn_once

type Kept = tuple[
    dict[str, OpenAnomaly], dict[str, OpenAnomaly], dict[str, OpenAnomaly], dict[str, OpenAnomaly]
]


@dataclass(frozen=True, slots=True)
class Restored:
    """What the file held: (open, dismissed, ended, past), the marks, what was told."""

    kept: Kept
    false_alarms: FalseAlarms
    already_told: AlreadyTold


def restore(data: object, name: str) -> Restored | None:
    """The tracker's state from its file's ``data`` (None: no file, or no mapping)."""
    if data is None:
        return None
    if not isinstance(data, Mapping):
        warn_once(name, ["the file holds no mapping"])
        return None
    warnings: list[str] = []
    kept = tuple(
        _by_signature(load_anomalies(data, key, warnings))
        for key in ("open", "dismissed", "ended", "past")
    )
    restored = Restored(
        (kept[0], kept[1], kept[2], kept[3]),
        load_marks(data, warnings),
        AlreadyTold.from_stored(data.get("already_told"), warnings),
    )
    warn_once(name, warnings)
    return restored


def stored_data(kept: Kept, false_alarms: FalseAlarms, already_told: AlreadyTold) -> StoredData:
    """The file's form of the tracker's state."""
    marks = [false_alarms[s] for s in sorted(false_alarms)]
    open_, dismissed, ended, past = kept
    return {
        "open": [asdict(a) for a in open_.values()],
        "dismissed": [asdict(a) for a in dismissed.values()],
        "ended": [asdict(a) for a in ended.values()],
        "past": [asdict(a) for a in past.values()],
        "false_alarms": [m.signature for m in marks],
        "false_alarm_marks": [m.as_dict() for m in marks],
        "already_told": already_told.as_dict(),
    }


def _by_signature(items: list[dict[str, Any]]) -> dict[str, OpenAnomaly]:
    return {item["signature"]: OpenAnomaly.from_stored(item) for item in items}

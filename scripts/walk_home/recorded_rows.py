"""The walks' probes read a walked hass's recorder: every state row in time order, and the
entities a presence or entry probe feeds to ``HomeBaselines``."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
import sqlite3

_FED_DOMAINS = ("binary_sensor", "lock", "person", "device_tracker")


def recorded_rows(config: Path) -> list[tuple[datetime, str, str]]:
    """(when, entity id, state) of every row of ``config``'s recorder, oldest first."""
    db = sqlite3.connect(config / "home-assistant_v2.db")
    try:
        return [
            (datetime.fromtimestamp(t, UTC), e, s)
            for t, e, s in db.execute(
                "select s.last_updated_ts, m.entity_id, s.state from states s"
                " join states_meta m using(metadata_id) order by s.last_updated_ts"
            )
        ]
    finally:
        db.close()


def fed_ids(rows: list[tuple[datetime, str, str]], skip: set[str] = frozenset()) -> list[str]:
    """The doors, motion, locks, persons and trackers among ``rows`` (not the monitor's own
    sensor, nor ``skip``), sorted."""
    seen = {e for _, e, _ in rows if e.split(".")[0] in _FED_DOMAINS}
    return sorted(seen - {"binary_sensor.anomaly_monitor_anomaly"} - skip)

"""Home Assistant's recorder database (``home-assistant_v2.db``), read-only and streamed.

The current schema: ``states`` (one row per written state, its time in ``last_updated_ts``),
``states_meta`` (entity ids), ``state_attributes`` (attribute sets shared between rows, as
JSON) and ``recorder_runs`` (one row per time HA ran). The file is opened with SQLite's
``mode=ro``: nothing is ever written to it, not even by a crash of the replay. Rows come in
pages of :data:`PAGE` and attribute sets through a small cache, so memory does not grow with
the database.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from datetime import UTC, datetime
import json
from pathlib import Path
import sqlite3
from typing import Any
from urllib.parse import quote

from .records import HistoryError, ReadStats, Record, valid_entity_id

# Schema versions this reader knows: 41 brought ``states_meta``; 53 is HA 2026.x's.
# A newer version may have moved what is read here: refused with a clear error, not guessed.
MIN_SCHEMA = 41
MAX_SCHEMA = 53
PAGE = 5_000
ATTRIBUTE_CACHE = 4_096  # attribute sets kept parsed (a home repeats a few thousand)
MAX_STATE_LENGTH = 255  # HA's own limit
# Seconds to wait for a writer's lock before saying the database is locked.
LOCK_TIMEOUT = 2.0
REQUIRED = {
    "states": {"state", "last_updated_ts", "metadata_id", "attributes_id"},
    "states_meta": {"metadata_id", "entity_id"},
    "state_attributes": {"attributes_id", "shared_attrs"},
    "schema_changes": {"schema_version"},
}
# The three attributes the registry context falls back on.
CONTEXT_ATTRIBUTES = ("friendly_name", "device_class", "unit_of_measurement")


def _utc(stamp: float) -> datetime:
    return datetime.fromtimestamp(stamp, UTC)


class RecorderDatabase:
    """One recorder database file, open read-only for the life of this object."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.stats = ReadStats()
        if not path.is_file():
            raise HistoryError(f"{path}: no such database file")
        uri = f"file:{quote(str(path.resolve()))}?mode=ro"
        try:
            self._db = sqlite3.connect(uri, uri=True, timeout=LOCK_TIMEOUT)
        except sqlite3.Error as err:
            raise HistoryError(f"{path}: cannot open the database read-only ({err})") from err
        try:
            self.schema_version = self._check_schema()
        except sqlite3.OperationalError as err:
            self._db.close()
            raise HistoryError(self._explain(err)) from err
        except sqlite3.DatabaseError as err:
            self._db.close()
            raise HistoryError(f"{path}: not a readable SQLite database ({err})") from err
        except HistoryError:
            self._db.close()
            raise
        self._attributes: OrderedDict[int, dict[str, Any] | None] = OrderedDict()

    def close(self) -> None:
        """Close the connection (the file was never written)."""
        self._db.close()

    def _explain(self, err: sqlite3.OperationalError) -> str:
        text = str(err)
        if "locked" in text:
            return (
                f"{self.path}: the database is locked by another program (is Home Assistant "
                "writing to it? copy the file, or stop HA, and try again)"
            )
        return f"{self.path}: cannot read the database ({text})"

    def _check_schema(self) -> int:
        """The recorder's schema version; a clear error for anything else."""
        tables = {
            name: {column[1] for column in self._db.execute(f"PRAGMA table_info({name})")}
            for name in REQUIRED
        }
        missing = [name for name, columns in tables.items() if not columns]
        if missing:
            raise HistoryError(
                f"{self.path}: not a Home Assistant recorder database "
                f"(no table {', '.join(missing)})"
            )
        row = self._db.execute("SELECT MAX(schema_version) FROM schema_changes").fetchone()
        version = row[0] if row else None
        if not isinstance(version, int):
            raise HistoryError(f"{self.path}: the recorder's schema version is not recorded")
        if not MIN_SCHEMA <= version <= MAX_SCHEMA:
            raise HistoryError(
                f"{self.path}: recorder schema version {version} is unknown to this reader "
                f"(it reads {MIN_SCHEMA}-{MAX_SCHEMA}); nothing was read"
            )
        for name, needed in REQUIRED.items():
            if lacking := needed - tables[name]:
                raise HistoryError(
                    f"{self.path}: table {name} lacks {', '.join(sorted(lacking))} "
                    f"(schema {version})"
                )
        return version

    @staticmethod
    def _range(start: datetime | None, end: datetime | None) -> tuple[str, list[float]]:
        where, args = [], []
        if start is not None:
            where.append("s.last_updated_ts >= ?")
            args.append(start.timestamp())
        if end is not None:
            where.append("s.last_updated_ts < ?")
            args.append(end.timestamp())
        return (" WHERE " + " AND ".join(where)) if where else "", args

    def count(self, start: datetime | None, end: datetime | None) -> int | None:
        """Rows in the range (an index scan)."""
        where, args = self._range(start, end)
        try:
            return int(
                self._db.execute(f"SELECT COUNT(*) FROM states s{where}", args).fetchone()[0]
            )
        except sqlite3.DatabaseError as err:
            raise HistoryError(f"{self.path}: cannot count the states ({err})") from err

    def span(
        self, start: datetime | None, end: datetime | None
    ) -> tuple[datetime, datetime] | None:
        """The first and last row's time in the range (None: no row)."""
        where, args = self._range(start, end)
        try:
            first, last = self._db.execute(
                f"SELECT MIN(s.last_updated_ts), MAX(s.last_updated_ts) FROM states s{where}", args
            ).fetchone()
        except sqlite3.DatabaseError as err:
            raise HistoryError(f"{self.path}: cannot read the states ({err})") from err
        if not isinstance(first, int | float) or not isinstance(last, int | float):
            return None
        return _utc(float(first)), _utc(float(last))

    def records(self, start: datetime | None, end: datetime | None) -> Iterator[Record]:
        """Every state row in the range, in the order HA wrote them."""
        where, args = self._range(start, end)
        query = (
            "SELECT s.state_id, m.entity_id, s.state, s.last_updated_ts, s.attributes_id "
            f"FROM states s LEFT JOIN states_meta m ON m.metadata_id = s.metadata_id{where} "
            "ORDER BY s.last_updated_ts, s.state_id"
        )
        try:
            cursor = self._db.execute(query, args)
            while page := cursor.fetchmany(PAGE):
                for state_id, entity_id, state, stamp, attributes_id in page:
                    record = self._record(state_id, entity_id, state, stamp, attributes_id)
                    if record is not None:
                        self.stats.rows += 1
                        yield record
        except sqlite3.OperationalError as err:
            raise HistoryError(self._explain(err)) from err
        except sqlite3.DatabaseError as err:
            raise HistoryError(
                f"{self.path}: the database is damaged after {self.stats.rows} rows ({err})"
            ) from err

    def _record(
        self, state_id: int, entity_id: Any, state: Any, stamp: Any, attributes_id: Any
    ) -> Record | None:
        where = f"state_id {state_id}"
        if not isinstance(entity_id, str) or not valid_entity_id(entity_id):
            self.stats.skip("no valid entity id", f"{where}: {entity_id!r}")
            return None
        if not isinstance(stamp, int | float):
            self.stats.skip("no time", f"{where} ({entity_id})")
            return None
        if not isinstance(state, str) or len(state) > MAX_STATE_LENGTH:
            self.stats.skip("no valid state", f"{where} ({entity_id})")
            return None
        attributes = self._attributes_of(attributes_id, where)
        return Record(_utc(float(stamp)), entity_id, state, attributes or {})

    def _attributes_of(self, attributes_id: Any, where: str) -> dict[str, Any] | None:
        if not isinstance(attributes_id, int):
            return None
        cache = self._attributes
        if attributes_id in cache:
            cache.move_to_end(attributes_id)
            return cache[attributes_id]
        row = self._db.execute(
            "SELECT shared_attrs FROM state_attributes WHERE attributes_id = ?", (attributes_id,)
        ).fetchone()
        parsed: dict[str, Any] | None = None
        try:
            value = json.loads(row[0]) if row and row[0] else {}
            parsed = value if isinstance(value, dict) else None
        except (TypeError, ValueError):
            parsed = None
        if parsed is None:
            self.stats.skip("unreadable attributes (state kept)", f"{where}")
        cache[attributes_id] = parsed
        if len(cache) > ATTRIBUTE_CACHE:
            cache.popitem(last=False)
        return parsed

    def restarts(self, start: datetime | None, end: datetime | None) -> list[datetime]:
        """When HA started again (``recorder_runs``; none if the table is absent)."""
        try:
            rows = self._db.execute("SELECT start FROM recorder_runs ORDER BY start").fetchall()
        except sqlite3.DatabaseError:
            return []
        starts = sorted(t for (value,) in rows if (t := _parse_run_time(value)) is not None)
        first = starts[0] if starts else None
        return [
            t
            for t in starts
            if t != first and (start is None or t > start) and (end is None or t < end)
        ]

    def entity_attributes(self) -> dict[str, dict[str, Any]]:
        """Each entity's newest name, device class and unit, from its newest state row."""
        query = (
            "SELECT m.entity_id, a.shared_attrs FROM states_meta m "
            "JOIN states s ON s.state_id = (SELECT MAX(state_id) FROM states "
            "WHERE metadata_id = m.metadata_id AND attributes_id IS NOT NULL) "
            "JOIN state_attributes a ON a.attributes_id = s.attributes_id"
        )
        found: dict[str, dict[str, Any]] = {}
        try:
            rows = self._db.execute(query).fetchall()
        except sqlite3.DatabaseError as err:
            raise HistoryError(f"{self.path}: cannot read the entities ({err})") from err
        for entity_id, shared in rows:
            try:
                attributes = json.loads(shared) if shared else {}
            except (TypeError, ValueError):
                continue
            if isinstance(entity_id, str) and isinstance(attributes, dict):
                found[entity_id] = {k: attributes[k] for k in CONTEXT_ATTRIBUTES if k in attributes}
        return found


def _parse_run_time(value: Any) -> datetime | None:
    """``recorder_runs.start``: a naive UTC text (``2026-11-30 10:00:00.123456``)."""
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)

"""A synthetic recorder database with HA's own schema (its SQLAlchemy tables), for the
scale benchmark and the readers' tests: ``days`` of ``entities`` entities, written as the
recorder writes them (``states`` + ``states_meta`` + ``state_attributes``, one run per
restart), in a few seconds per million rows; and a config folder with their rooms."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
import json
from pathlib import Path
import random
import sqlite3

BATCH = 50_000
# (domain, device class, unit, states or None for a number, changes a day) — a home's mix
# of devices, ~110 rows per entity and day on average (90 days x 300 entities ~ 3 M rows).
KINDS = (
    ("binary_sensor", "motion", None, ("off", "on"), 80),
    ("binary_sensor", "door", None, ("off", "on"), 10),
    ("binary_sensor", "window", None, ("off", "on"), 4),
    ("sensor", "temperature", "°C", None, 144),
    ("sensor", "humidity", "%", None, 144),
    ("sensor", "power", "W", None, 480),
    ("light", None, None, ("off", "on"), 12),
    ("switch", None, None, ("off", "on"), 8),
)


def create_schema(path: Path) -> int:
    """An empty recorder database with the installed HA's schema; its version."""
    from homeassistant.components.recorder.db_schema import SCHEMA_VERSION, Base
    from sqlalchemy import create_engine

    engine = create_engine(f"sqlite:///{path}")
    Base.metadata.create_all(engine)
    engine.dispose()
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO schema_changes (schema_version, changed) VALUES (?, ?)",
            (SCHEMA_VERSION, datetime.now(UTC).isoformat(sep=" ")),
        )
    return int(SCHEMA_VERSION)


type Spec = tuple[str, dict[str, str], tuple[str, ...] | None, int]


def _entities(count: int) -> list[Spec]:
    found: list[Spec] = []
    for index in range(count):
        domain, device_class, unit, states, rate = KINDS[index % len(KINDS)]
        name = f"{device_class or domain} {index}"
        attributes = {"friendly_name": name.capitalize()}
        if device_class:
            attributes["device_class"] = device_class
        if unit:
            attributes["unit_of_measurement"] = unit
            attributes["state_class"] = "measurement"
        found.append((f"{domain}.{name.replace(' ', '_')}", attributes, states, rate))
    return found


def write_history(path: Path, days: int, entities: int, seed: int = 0) -> int:
    """Fill a fresh database; how many state rows were written."""
    create_schema(path)
    rng = random.Random(seed)
    start = datetime(2026, 9, 1, tzinfo=UTC)
    specs = _entities(entities)
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=OFF")
    db.execute("PRAGMA synchronous=OFF")
    for metadata_id, (entity_id, attributes, _, _) in enumerate(specs, start=1):
        db.execute(
            "INSERT INTO states_meta (metadata_id, entity_id) VALUES (?, ?)",
            (metadata_id, entity_id),
        )
        db.execute(
            "INSERT INTO state_attributes (attributes_id, hash, shared_attrs) VALUES (?, ?, ?)",
            (metadata_id, metadata_id, json.dumps(attributes)),
        )
    db.execute(
        "INSERT INTO recorder_runs (start, end, closed_incorrect, created) VALUES (?, ?, 0, ?)",
        (_naive(start), _naive(start + timedelta(days=days)), _naive(start)),
    )
    rows = 0
    batch: list[tuple[object, ...]] = []
    for when, metadata_id, state in _changes(rng, start, days, specs):
        stamp = when.timestamp()
        batch.append((state, stamp, stamp, metadata_id, metadata_id))
        if len(batch) >= BATCH:
            rows += _insert(db, batch)
    rows += _insert(db, batch)
    db.commit()
    db.close()
    return rows


def _naive(when: datetime) -> str:
    return when.replace(tzinfo=None).isoformat(sep=" ")


def _insert(db: sqlite3.Connection, batch: list[tuple[object, ...]]) -> int:
    db.executemany(
        "INSERT INTO states (state, last_updated_ts, last_reported_ts, metadata_id, attributes_id) "
        "VALUES (?, ?, ?, ?, ?)",
        batch,
    )
    count = len(batch)
    batch.clear()
    return count


def _changes(
    rng: random.Random,
    start: datetime,
    days: int,
    specs: list[Spec],
) -> Iterator[tuple[datetime, int, str]]:
    """Time-ordered changes, a day at a time (the day's rows are sorted in memory)."""
    last: dict[int, str] = {}
    for day in range(days):
        day_start = start + timedelta(days=day)
        moments = []
        for metadata_id, (_, _, states, rate) in enumerate(specs, start=1):
            for _ in range(rate):
                moments.append((rng.random() * 86400, metadata_id, states))
        moments.sort(key=lambda m: m[0])
        for seconds, metadata_id, states in moments:
            if states is None:
                state = f"{20 + rng.gauss(0, 2):.1f}"  # calm readings, no outliers
            else:
                state = states[1] if last.get(metadata_id) == states[0] else states[0]
            last[metadata_id] = state
            yield day_start + timedelta(seconds=seconds), metadata_id, state


def write_config(folder: Path, entities: int, per_room: int = 10) -> Path:
    """An HA config folder whose ``.storage`` puts the entities in rooms of ``per_room``
    (a real home's areas: the rules look for a door's lock and motion in its room)."""
    storage = folder / ".storage"
    storage.mkdir(parents=True, exist_ok=True)
    rooms = (entities + per_room - 1) // per_room
    areas = [{"id": f"room_{r}", "name": f"Room {r}"} for r in range(rooms)]
    registry = [
        {
            "entity_id": entity_id,
            "area_id": f"room_{index // per_room}",
            "platform": "synthetic",
            "original_name": attributes["friendly_name"],
            "original_device_class": attributes.get("device_class"),
            "unit_of_measurement": attributes.get("unit_of_measurement"),
        }
        for index, (entity_id, attributes, _, _) in enumerate(_entities(entities))
    ]
    for key, data in (
        ("core.area_registry", {"areas": areas}),
        ("core.entity_registry", {"entities": registry}),
    ):
        (storage / key).write_text(json.dumps({"version": 1, "key": key, "data": data}))
    return folder

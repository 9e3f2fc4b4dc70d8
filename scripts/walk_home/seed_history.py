"""Days of a lived-in routine written into the walk home's recorder (``walk.py seed``).

Run with HA stopped, after one start made the database (``walk.py start``, ``onboard``,
``stop``): the rows go in as the recorder writes them (``states`` + ``states_meta`` +
``state_attributes``), in the home's own time zone. Every day: up at 07:00 (hall motion),
the bedroom window open 07:30-07:50, out at 08:30 through the front door (unlocked,
opened, locked behind), back at 17:30 (unlocked, opened, left unlocked), motion in the
hall every half hour until 22:30, the bathroom fan on a 10-minute timer at 22:30, the
front door locked at 22:45; nothing moves at night. Today's day is written up to an hour
ago, except its evening lock: tonight it was not locked (a missed routine to walk).
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
import json
from pathlib import Path
import sqlite3
from zoneinfo import ZoneInfo

ATTRIBUTES: dict[str, dict[str, object]] = {
    "binary_sensor.front_door": {"device_class": "door", "friendly_name": "Front door"},
    "binary_sensor.hall_motion": {"device_class": "motion", "friendly_name": "Hall motion"},
    "binary_sensor.bedroom_window": {"device_class": "window", "friendly_name": "Bedroom window"},
    "binary_sensor.kitchen_smoke_detector": {
        "device_class": "smoke",
        "friendly_name": "Kitchen smoke detector",
    },
    "binary_sensor.bathroom_leak": {"device_class": "moisture", "friendly_name": "Bathroom leak"},
    "lock.front_door_lock": {"friendly_name": "Front door lock"},
    "switch.bathroom_fan": {"friendly_name": "Bathroom fan"},
    "sensor.freezer_plug_power": {
        "device_class": "power",
        "unit_of_measurement": "W",
        "state_class": "measurement",
        "friendly_name": "Freezer plug power",
    },
    "sensor.lounge_temperature": {
        "device_class": "temperature",
        "unit_of_measurement": "°C",
        "state_class": "measurement",
        "friendly_name": "Lounge temperature",
    },
    "weather.home_weather": {
        "temperature": 8.0,
        "temperature_unit": "°C",
        "humidity": 80,
        "friendly_name": "Home weather",
    },
    "person.alice": {"friendly_name": "Alice"},
    "person.bob": {"friendly_name": "Bob"},
    "device_tracker.alice_phone": {"source_type": "gps", "friendly_name": "alice_phone"},
    "device_tracker.bob_phone": {"source_type": "gps", "friendly_name": "bob_phone"},
}
PEOPLE = ("person.alice", "person.bob", "device_tracker.alice_phone", "device_tracker.bob_phone")


def _day(day: datetime, *, tonight_locked: bool) -> list[tuple[datetime, str, str]]:
    """The changes of one local day."""

    def at(hour: int, minute: int, second: int = 0) -> datetime:
        return day.replace(hour=hour, minute=minute, second=second)

    rows: list[tuple[datetime, str, str]] = []
    for minute in range(0, 90, 20):  # up and about
        rows += [
            (at(7 + minute // 60, minute % 60), "binary_sensor.hall_motion", "on"),
            (at(7 + minute // 60, minute % 60, 30), "binary_sensor.hall_motion", "off"),
        ]
    rows += [
        (at(7, 30), "binary_sensor.bedroom_window", "on"),
        (at(7, 50), "binary_sensor.bedroom_window", "off"),
        (at(8, 29), "lock.front_door_lock", "unlocked"),
        (at(8, 29, 20), "binary_sensor.hall_motion", "on"),
        (at(8, 29, 50), "binary_sensor.hall_motion", "off"),
        (at(8, 30), "binary_sensor.front_door", "on"),
        (at(8, 30, 30), "binary_sensor.front_door", "off"),
        (at(8, 31), "lock.front_door_lock", "locked"),
        *((at(8, 32), who, "not_home") for who in PEOPLE),
        *((at(17, 29), who, "home") for who in PEOPLE),
        (at(17, 29, 30), "lock.front_door_lock", "unlocked"),
        (at(17, 30), "binary_sensor.front_door", "on"),
        (at(17, 30, 30), "binary_sensor.front_door", "off"),
        (at(17, 30, 40), "binary_sensor.hall_motion", "on"),
        (at(17, 32), "binary_sensor.hall_motion", "off"),
        (at(22, 30), "switch.bathroom_fan", "on"),
        (at(22, 40), "switch.bathroom_fan", "off"),
    ]
    for half_hour in range(18 * 2, 22 * 2 + 2):
        rows += [
            (at(half_hour // 2, 30 * (half_hour % 2)), "binary_sensor.hall_motion", "on"),
            (at(half_hour // 2, 30 * (half_hour % 2), 30), "binary_sensor.hall_motion", "off"),
        ]
    if tonight_locked:
        rows.append((at(22, 45), "lock.front_door_lock", "locked"))
    for hour in range(0, 24, 6):
        rows.append((at(hour, 0, 5), "weather.home_weather", ("cloudy", "sunny")[hour // 6 % 2]))
    for hour in range(24):
        rows.append((at(hour, 10), "sensor.lounge_temperature", f"{20.5 + (hour % 3) / 10:.1f}"))
        rows.append((at(hour, 20), "sensor.freezer_plug_power", f"{78 + hour % 5}"))
    rows += [
        (at(0, 0, 1), "binary_sensor.kitchen_smoke_detector", "off"),
        (at(0, 0, 1), "binary_sensor.bathroom_leak", "off"),
    ]
    return rows


def seed(db_path: Path, zone: str, days: int) -> int:
    """Write ``days`` full days before today and today up to an hour ago; rows written."""
    tz = ZoneInfo(zone)
    now = datetime.now(tz)
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    rows: list[tuple[datetime, str, str]] = []
    for back in range(days, -1, -1):
        day = datetime.combine((today - timedelta(days=back)).date(), time(), tz)
        rows += _day(day, tonight_locked=back > 0)
    rows = sorted(r for r in rows if r[0] < now - timedelta(hours=1))
    db = sqlite3.connect(db_path)
    meta = dict(db.execute("SELECT entity_id, metadata_id FROM states_meta"))
    attributes: dict[str, int] = {}
    for entity_id, shared in ATTRIBUTES.items():
        if entity_id not in meta:
            cursor = db.execute("INSERT INTO states_meta (entity_id) VALUES (?)", (entity_id,))
            meta[entity_id] = int(cursor.lastrowid or 0)
        cursor = db.execute(
            "INSERT INTO state_attributes (hash, shared_attrs) VALUES (?, ?)",
            (abs(hash(entity_id)) % 2**31, json.dumps(shared)),
        )
        attributes[entity_id] = int(cursor.lastrowid or 0)
    db.executemany(
        "INSERT INTO states (state, last_updated_ts, last_reported_ts, metadata_id, attributes_id,"
        " origin_idx) VALUES (?, ?, ?, ?, ?, 0)",
        [
            (state, when.timestamp(), when.timestamp(), meta[e], attributes[e])
            for when, e, state in rows
        ],
    )
    db.commit()
    db.close()
    return len(rows)

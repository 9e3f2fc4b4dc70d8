"""A save reuses the texts packed at earlier saves (``packed.pack``'s memo, the untracked
life's packed hours): what it stores is exactly what packing everything afresh stores, and
loading it gives the same learned state back (core, no HA)."""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta
import json
import random
from typing import Any
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines import HomeBaselines, packed
from custom_components.anomaly_monitor.core.models import EntityInfo

ZONE = ZoneInfo("Europe/Brussels")
START = datetime(2026, 1, 5, tzinfo=UTC)
PERSON = "person.resident"


def _home() -> list[EntityInfo]:
    infos = [
        EntityInfo(f"binary_sensor.motion_{i}", "", f"Room {i}", "motion", None) for i in range(6)
    ]
    infos += [
        EntityInfo(f"binary_sensor.door_{i}", "", f"Room {i}", "door", None) for i in range(3)
    ]
    infos += [
        EntityInfo(f"sensor.temperature_{i}", "", f"Room {i}", "temperature", "°C")
        for i in range(3)
    ]
    infos.append(EntityInfo("sensor.fridge_power", "", "Kitchen", "power", "W"))
    infos.append(EntityInfo("light.hall", "", "Room 0", None, None))
    return infos


def _rows(
    infos: list[EntityInfo], day: datetime, rng: random.Random
) -> list[tuple[datetime, str, str]]:
    """A day: the resident out 08-17 (somebody untracked still moving), readings every 10
    minutes, the fridge cycling, doors and motion through the day."""
    rows = [
        (day + timedelta(hours=rng.uniform(7.5, 8.5)), PERSON, "not_home"),
        (day + timedelta(hours=rng.uniform(16.5, 17.5)), PERSON, "home"),
    ]
    for info in infos:
        if info.device_class in ("temperature", "power"):
            for minute in range(0, 24 * 60, 10):
                value = (80 if minute % 60 < 20 else 2) if info.device_class == "power" else 20
                rows.append(
                    (
                        day + timedelta(minutes=minute),
                        info.entity_id,
                        f"{value + rng.uniform(0, 2):.1f}",
                    )
                )
            continue
        for _ in range(rng.randint(4, 12)):
            start = day + timedelta(hours=rng.uniform(6, 23))
            end = start + timedelta(minutes=rng.uniform(0.5, 20))
            rows += [(start, info.entity_id, "on"), (end, info.entity_id, "off")]
    return sorted(rows, key=lambda row: row[0])


def _packed_afresh(baselines: HomeBaselines) -> dict[str, Any]:
    """The stored form of what ``baselines`` hold, nothing packed before (a copy whose
    parts forgot every text they packed)."""
    packed._PACKED.clear()
    clone = copy.deepcopy(baselines)
    for part in vars(clone).values():
        for cache in ("_packed", "_packed_empty"):
            if isinstance(getattr(part, cache, None), dict):
                getattr(part, cache).clear()
    return clone.as_dict()


def _round_trip(saved: dict[str, Any]) -> dict[str, Any]:
    """What the stored form loads back to, saved again."""
    return HomeBaselines.from_dict(json.loads(json.dumps(saved)), ZONE).as_dict()


def test_saves_between_learning_store_what_packing_afresh_stores() -> None:
    infos = _home()
    rng = random.Random(7)
    baselines = HomeBaselines(ZONE)
    baselines.describe(infos)
    saves = 0
    for d in range(6):
        day = START + timedelta(days=d)
        rows = _rows(infos, day, rng)
        for index, row in enumerate(rows):
            baselines.observe(*row)
            if index % 150 == 0:  # a save every so often, mid-day: the caches fill and age
                baselines.as_dict()
        baselines.advance(day + timedelta(days=1))
        saved = baselines.as_dict()
        saves += 1
        assert saved == _packed_afresh(baselines), f"day {d}: a cached text went stale"
        assert saved == _round_trip(saved)
    assert saves == 6
    # The untracked life learned something (its packed hours were exercised, changed).
    assert baselines.untracked.days
    assert baselines.untracked.empty_days
    loaded = HomeBaselines.from_dict(json.loads(json.dumps(baselines.as_dict())), ZONE)
    assert loaded.untracked.days == baselines.untracked.days
    assert loaded.untracked.empty_days == baselines.untracked.empty_days


def test_a_full_memo_is_emptied_and_saves_stay_right() -> None:
    infos = _home()
    rng = random.Random(3)
    baselines = HomeBaselines(ZONE)
    baselines.describe(infos)
    for d in range(2):
        for row in _rows(infos, START + timedelta(days=d), rng):
            baselines.observe(*row)
        baselines.advance(START + timedelta(days=d + 1))
    for i in range(packed._MAX_PACKED + 5):  # other texts fill the memo to its bound
        packed.pack([float(i), 0.5], 1)
    assert len(packed._PACKED) <= packed._MAX_PACKED
    saved = baselines.as_dict()
    assert saved == _packed_afresh(baselines) == _round_trip(saved)
    # Equal numbers, whatever their type or sign of zero, have one text: the memo's key.
    assert packed.pack([1, -0.0, 2.5], 1) == packed.pack([1.0, 0, 2.5], 1) == "1,0,2.5"

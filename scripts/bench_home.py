"""The generated home the cost benchmarks learn: 200 entities in 10 areas, a fortnight of
their state changes (see ``bench_baselines.py`` for what it measures)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
import random
import sys

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from custom_components.anomaly_monitor.core.models import EntityInfo

Row = tuple[datetime, str, str]
ZONE = "Europe/Brussels"
START = datetime(2026, 1, 5, tzinfo=UTC)
PERSONS = ("person.a", "person.b")
# The weather entity: its state a condition, its temperature an attribute (every 30 min).
WEATHER = "weather.home"


def home(entities: int) -> list[EntityInfo]:
    """A home of ``entities`` watched entities in 10 areas."""
    shares = [
        ("binary_sensor", "motion", 0.2),
        ("binary_sensor", "door", 0.1),
        ("light", None, 0.15),
        ("lock", None, 0.05),
        ("sensor", "temperature", 0.4),
        ("sensor", "power", 0.05),
        ("switch", None, 0.05),
    ]
    infos: list[EntityInfo] = []
    for domain, device_class, share in shares:
        for i in range(max(1, round(entities * share))):
            entity_id = f"{domain}.{device_class or domain}_{i}"
            unit = "W" if device_class == "power" else None
            infos.append(EntityInfo(entity_id, "", f"Area {i % 10}", device_class, unit))
    return infos[:entities]


def one_day(infos: list[EntityInfo], day: datetime, rng: random.Random) -> list[Row]:
    """Every state change of one day, time-ordered."""
    rows: list[Row] = []
    for info in infos:
        if info.device_class == "power":  # a compressor: 20 min running, 40 idle
            rows.extend(
                (day + timedelta(minutes=m), info.entity_id, f"{_watts(m, rng):.1f}")
                for m in range(24 * 60)
            )
            continue
        if info.domain == "sensor":  # a reading a minute
            base = rng.uniform(15, 25)
            rows.extend(
                (day + timedelta(minutes=m), info.entity_id, f"{base + rng.gauss(0, 0.3):.1f}")
                for m in range(24 * 60)
            )
            continue
        per_day = {"binary_sensor": 60, "light": 12, "lock": 4, "switch": 8}[info.domain]
        states = ("unlocked", "locked") if info.domain == "lock" else ("on", "off")
        for _ in range(per_day):
            start = day + timedelta(hours=rng.uniform(7, 23))
            end = start + timedelta(minutes=rng.uniform(0.5, 30))
            rows += [(start, info.entity_id, states[0]), (end, info.entity_id, states[1])]
    for person in PERSONS:
        rows.append((day + timedelta(hours=rng.uniform(8, 9)), person, "not_home"))
        rows.append((day + timedelta(hours=rng.uniform(17, 18)), person, "home"))
    rows.sort(key=lambda row: row[0])
    return rows


def _watts(minute: int, rng: random.Random) -> float:
    return rng.uniform(70, 95) if minute % 60 < 20 else rng.uniform(1, 3)

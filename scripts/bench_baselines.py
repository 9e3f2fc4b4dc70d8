"""Cost of learning a home's baselines: 14 days of 200 entities, time and memory.

Two measurements, both printed:

1. **The integration's path** (default): a real Home Assistant with the recorder on a
   SQLite file holding the fortnight (rows bulk-inserted into the recorder's own tables,
   as a real recorder would have written them), then exactly what ``BaselineKeeper`` does
   on start: one ``get_significant_states`` query per ``CHUNK`` (6 hours) in the
   recorder's executor, each chunk learned in HA's executor. Wall time, CPU time and the
   peak memory allocated meanwhile (tracemalloc, every thread; a second, untimed pass)
   are printed.
2. **Learning alone** (``--core-only`` skips 1): ``HomeBaselines`` fed the same rows.

The home: 40 motion sensors, 20 doors, 30 lights, 10 locks, 10 switches, 90 numeric
sensors reporting every minute, 2 persons; people about 07:00-23:00.

    .venv/bin/python scripts/bench_baselines.py --days 14 --entities 200
"""

from __future__ import annotations

import argparse
import asyncio
from datetime import UTC, datetime, timedelta
import os
from pathlib import Path
import random
import sys
import tempfile
import time
import tracemalloc
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.models import EntityInfo

Row = tuple[datetime, str, str]
ZONE = "Europe/Brussels"
START = datetime(2026, 1, 5, tzinfo=UTC)
PERSONS = ("person.a", "person.b")


def home(entities: int) -> list[EntityInfo]:
    """A home of ``entities`` watched entities in 10 areas."""
    shares = [
        ("binary_sensor", "motion", 0.2),
        ("binary_sensor", "door", 0.1),
        ("light", None, 0.15),
        ("lock", None, 0.05),
        ("sensor", "temperature", 0.45),
        ("switch", None, 0.05),
    ]
    infos: list[EntityInfo] = []
    for domain, device_class, share in shares:
        for i in range(max(1, round(entities * share))):
            entity_id = f"{domain}.{device_class or domain}_{i}"
            infos.append(EntityInfo(entity_id, "", f"Area {i % 10}", device_class))
    return infos[:entities]


def one_day(infos: list[EntityInfo], day: datetime, rng: random.Random) -> list[Row]:
    """Every state change of one day, time-ordered."""
    rows: list[Row] = []
    for info in infos:
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


def bench_core(infos: list[EntityInfo], days: int, seed: int) -> None:
    """Learning alone, rows generated a day at a time (generation not counted)."""
    from zoneinfo import ZoneInfo

    rng = random.Random(seed)
    baselines = HomeBaselines(ZoneInfo(ZONE))
    baselines.describe(infos)
    cpu = 0.0
    total = 0
    tracemalloc.start()
    for d in range(days):
        rows = one_day(infos, START + timedelta(days=d), rng)
        total += len(rows)
        began = time.process_time()
        for when, entity_id, state in rows:
            baselines.observe(when, entity_id, state)
        baselines.advance(START + timedelta(days=d + 1))
        cpu += time.process_time() - began
        del rows
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"learning alone: {total:,} changes in {cpu:.2f} s CPU ({total / cpu:,.0f}/s)")
    print(f"  peak allocated, one day's rows included: {peak / 1e6:.1f} MB")


def _fill_database(instance: Any, infos: list[EntityInfo], days: int, seed: int) -> int:
    """Bulk-insert the fortnight into the recorder's tables (recorder executor)."""
    from homeassistant.components.recorder.db_schema import States, StatesMeta
    from homeassistant.components.recorder.util import session_scope
    from sqlalchemy import insert

    ids = [info.entity_id for info in infos] + list(PERSONS)
    rng = random.Random(seed)
    total = 0
    with session_scope(session=instance.get_session()) as session:
        session.execute(insert(StatesMeta), [{"entity_id": entity_id} for entity_id in ids])
        meta = {row.entity_id: row.metadata_id for row in session.query(StatesMeta).all()}
        for d in range(days):
            rows = one_day(infos, START + timedelta(days=d), rng)
            total += len(rows)
            session.execute(
                insert(States),
                [
                    {
                        "metadata_id": meta[entity_id],
                        "state": state,
                        "last_updated_ts": when.timestamp(),
                        "last_changed_ts": None,  # equal to last_updated
                        "last_reported_ts": None,
                        "origin_idx": 0,
                    }
                    for when, entity_id, state in rows
                ],
            )
            session.commit()
    return total


async def bench_recorder(infos: list[EntityInfo], days: int, seed: int) -> None:
    """The integration's path: recorder queries chunk by chunk, learned in the executor."""
    from homeassistant.components.recorder import get_instance
    from homeassistant.helpers import recorder as recorder_helper
    from homeassistant.setup import async_setup_component

    from benchmark_replay.ha_runner import RAM_DIR, async_create_hass
    from custom_components.anomaly_monitor.baseline_keeper import (
        CHUNK,
        _history_rows,
        _learn_rows,
    )

    with tempfile.TemporaryDirectory(prefix="bench-baselines-", dir=RAM_DIR) as folder:
        hass = await async_create_hass(folder, time_zone=ZONE, setup=False)
        url = f"sqlite:///{os.path.join(folder, 'home.db')}"
        recorder_config = {"db_url": url, "commit_interval": 1, "purge_keep_days": 365}
        recorder_helper.async_initialize_recorder(hass)  # what bootstrap does
        assert await async_setup_component(hass, "recorder", {"recorder": recorder_config})
        instance = get_instance(hass)
        assert await instance.async_db_ready
        began = time.perf_counter()
        total = await instance.async_add_executor_job(_fill_database, instance, infos, days, seed)
        print(f"database: {total:,} state rows written in {time.perf_counter() - began:.1f} s")
        ids = [info.entity_id for info in infos] + list(PERSONS)
        end = START + timedelta(days=days)

        async def learn() -> tuple[HomeBaselines, int]:
            from zoneinfo import ZoneInfo

            baselines = HomeBaselines(ZoneInfo(ZONE))
            baselines.describe(infos)
            read = 0
            chunk = START
            while chunk < end:
                rows = await instance.async_add_executor_job(
                    _history_rows, hass, chunk, min(end, chunk + CHUNK), ids
                )
                read += len(rows)
                await hass.async_add_executor_job(_learn_rows, baselines, rows)
                del rows
                chunk += CHUNK
            return baselines, read

        wall, cpu = time.perf_counter(), time.process_time()
        baselines, read = await learn()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(
            f"recorder path: {read:,} rows read and learned in {wall:.1f} s wall, {cpu:.1f} s CPU"
        )
        tracemalloc.start()
        await learn()
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"  peak allocated (second pass, tracemalloc, all threads): {peak / 1e6:.1f} MB")
        print(f"  baselines: {baselines.summary()}")
        await hass.async_stop(force=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--days", type=int, default=14)
    parser.add_argument("--entities", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--core-only", action="store_true", help="skip the recorder path")
    args = parser.parse_args()
    infos = home(args.entities)
    print(f"home: {len(infos)} entities, {args.days} days (targets: <= 30 s, <= 50 MB)")
    if not args.core_only:
        asyncio.run(bench_recorder(infos, args.days, args.seed))
    bench_core(infos, args.days, args.seed)


if __name__ == "__main__":
    main()

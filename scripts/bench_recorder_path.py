"""The integration's path of ``bench_baselines.py``: a real Home Assistant with the recorder on
a SQLite file holding the fortnight (bulk-inserted into the recorder's own tables), learned
chunk by chunk exactly as ``BaselineKeeper`` does on start; wall, CPU and peak memory."""

from __future__ import annotations

from datetime import timedelta
import json
import os
import random
import tempfile
import time
import tracemalloc
from typing import Any

from bench_home import PERSONS, START, WEATHER, ZONE, one_day

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.models import EntityInfo


def _fill_database(instance: Any, infos: list[EntityInfo], days: int, seed: int) -> int:
    """Bulk-insert the fortnight into the recorder's tables (recorder executor)."""
    from homeassistant.components.recorder.db_schema import States, StatesMeta
    from homeassistant.components.recorder.util import session_scope
    from sqlalchemy import insert

    ids = [info.entity_id for info in infos] + list(PERSONS)
    rng = random.Random(seed)
    total = 0
    with session_scope(session=instance.get_session()) as session:
        session.execute(
            insert(StatesMeta), [{"entity_id": entity_id} for entity_id in [*ids, WEATHER]]
        )
        meta = {row.entity_id: row.metadata_id for row in session.query(StatesMeta).all()}
        total += _fill_weather(session, meta[WEATHER], days)
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


def _fill_weather(session: Any, metadata_id: int, days: int) -> int:
    """The weather entity's fortnight, with its attributes (the temperature)."""
    from homeassistant.components.recorder.db_schema import StateAttributes, States

    count = days * 48
    for step in range(count):
        when = START + timedelta(minutes=30 * step)
        attributes = json.dumps({"temperature": round(8 + 4 * ((step % 48) / 48 - 0.5), 1)})
        shared = StateAttributes(
            shared_attrs=attributes,
            hash=StateAttributes.hash_shared_attrs_bytes(attributes.encode()),
        )
        session.add(
            States(
                metadata_id=metadata_id,
                state="cloudy",
                last_updated_ts=when.timestamp(),
                origin_idx=0,
                state_attributes=shared,
            )
        )
    session.commit()
    return count


async def bench_recorder(infos: list[EntityInfo], days: int, seed: int) -> None:
    """The integration's path: recorder queries chunk by chunk, learned in the executor."""
    from homeassistant.components.recorder import get_instance
    from homeassistant.helpers import recorder as recorder_helper
    from homeassistant.setup import async_setup_component

    from benchmark_replay.ha_runner import RAM_DIR, async_create_hass
    from custom_components.anomaly_monitor.recorder.history_learning import CHUNK
    from custom_components.anomaly_monitor.recorder.rows import (
        history_rows,
        learn_rows,
        row_time,
        weather_rows,
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
                until = min(end, chunk + CHUNK)
                rows = await instance.async_add_executor_job(history_rows, hass, chunk, until, ids)
                rows += await instance.async_add_executor_job(
                    weather_rows, hass, chunk, until, WEATHER
                )
                rows.sort(key=row_time)
                read += len(rows)
                await hass.async_add_executor_job(learn_rows, baselines, rows)
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

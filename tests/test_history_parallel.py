"""A history replayed in parts side by side (``--jobs``): a later part is a monitor set up at
its cut, which learns the recorded days before it from the file exactly as the recorder's
history reader would have given them, and the parts' report reads as one run's."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
import json
from pathlib import Path
import sqlite3
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.components.recorder.common import (
    async_wait_recording_done,
)

from benchmark_replay.history.history_csv import HistoryCsv
from benchmark_replay.history.parallel import merged, still_open
from benchmark_replay.history.recorder_db import RecorderDatabase
from benchmark_replay.history.runner import HistoryRecord
from benchmark_replay.history.seeding import RecordedLearning, states_before
from benchmark_replay.history.synthetic import write_config, write_history
from benchmark_replay.home.observer import Alarm, Cleared
from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.recorder.history_learning import async_learn_rows

from .history_home import run_history, snapshot_database
from .recorder_home import (  # noqa: F401 (fixtures, found by name)
    auto_enable_custom_integrations,
    quiet_sqlalchemy,
    recorder_config,
)

MOTION = "binary_sensor.hall_motion"
DOOR = "binary_sensor.front_door"
LIVING = "sensor.living_temperature"
PLUG = "switch.coffee_machine"
WEATHER = "weather.home"


@pytest.fixture
def persistent_database() -> bool:
    """The recorder writes a file (the one a homeowner would replay)."""
    return True


async def _thirty_hours(hass: HomeAssistant, freezer: FrozenDateTimeFactory) -> datetime:
    """A home's 30 hours every 10 minutes: motion on and off (and on again with only its
    attributes changed: a repeated state), a thermometer repeating readings, a door, a
    plug, the weather's temperature. The moment it ends."""
    start = dt_util.utcnow().replace(minute=0, second=0, microsecond=0) - timedelta(hours=30)
    for step in range(180):
        freezer.move_to(start + timedelta(minutes=10 * step))
        motion = "on" if step % 3 else "off"
        hass.states.async_set(MOTION, motion, {"device_class": "motion", "step": step % 2})
        reading = f"{20 + (step // 4) % 3 * 0.5:.1f}"
        hass.states.async_set(
            LIVING, reading, {"device_class": "temperature", "unit_of_measurement": "°C"}
        )
        hass.states.async_set(DOOR, "on" if step % 17 == 5 else "off", {"device_class": "door"})
        hass.states.async_set(PLUG, "on" if 40 <= step % 72 < 46 else "off")
        hass.states.async_set(
            WEATHER, "cloudy", {"temperature": 8 + step % 12, "temperature_unit": "°C"}
        )
    end = start + timedelta(hours=30)
    freezer.move_to(end)
    await async_wait_recording_done(hass)
    return end


async def test_the_recorded_file_teaches_what_the_recorder_teaches(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, recorder_db_url: str, tmp_path: Path
) -> None:
    """The baselines learned from the file (``RecordedLearning``) are the very ones the
    keeper's recorder path learns from the same day: chunk by chunk, each entity's state
    at a chunk's start, repeats dropped but a thermometer's, the weather's temperature."""
    end = await _thirty_hours(hass, freezer)
    start = end - timedelta(days=1)  # states before it: the chunks' first rows
    entity_ids = [MOTION, DOOR, LIVING, PLUG]
    zone = dt_util.get_default_time_zone()
    by_recorder = HomeBaselines(zone)
    await async_learn_rows(
        hass, by_recorder, start, end, entity_ids, weather=WEATHER, counted=lambda _: None
    )
    source = RecorderDatabase(snapshot_database(recorder_db_url, tmp_path))
    seed = states_before(source, end, start)
    assert seed.learning_start[MOTION].when < start <= seed.cut[MOTION].when
    by_file = HomeBaselines(zone)
    learning = RecordedLearning(hass, source, seed.learning_start)
    await learning(by_file, start, end, entity_ids, WEATHER)
    assert learning.rows > 200  # the day read, repeats dropped
    assert by_file.as_dict() == by_recorder.as_dict()
    assert source.stats.rows == 0  # the part's own read count is not the seeding's


def _report(out: Path, *args: str) -> dict[str, Any]:
    result = run_history(*args, "--out", str(out), "--no-progress")
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads((out / "report.json").read_text())


def _alarms(report: dict[str, Any]) -> list[tuple[datetime, str, str, tuple[str, ...]]]:
    return [
        (datetime.fromisoformat(a["time"]), a["rule"], a["title"], tuple(a["evidence"]))
        for a in report["alarms"]
    ]


def test_two_parts_tell_what_one_run_tells(tmp_path: Path) -> None:
    """A day of 20 entities in two processes: every row replayed and read once, and the
    first half's notifications exactly the sequential run's (after the cut a monitor set
    up then may tell otherwise: ``docs/history_replay.md``)."""
    database = tmp_path / "home-assistant_v2.db"
    write_history(database, days=1, entities=20)
    _smoke_twice_in_the_morning(database)
    config = str(write_config(tmp_path / "config", 20))
    common = ("--db", str(database), "--config", config)
    one = _report(tmp_path / "one", *common)
    two = _report(tmp_path / "two", *common, "--jobs", "2")
    assert two["header"]["parts"] == 2
    assert two["history"]["rows_replayed"] == one["history"]["rows_replayed"]
    # How the work was split: each part's rows (adding up) and its own wall and CPU.
    parts = two["run"]["parts"]
    assert len(parts) == 2
    assert sum(p["rows"] for p in parts) == two["history"]["rows_replayed"]
    assert all(p["rows"] > 0 and p["cpu_s"] > 0 and p["wall_s"] > 0 for p in parts)
    assert two["run"]["cpu_s"] == pytest.approx(sum(p["cpu_s"] for p in parts), abs=0.15)
    assert one["run"]["parts"] == []
    assert one["run"]["cpu_s"] > 0
    assert two["history"]["read"]["rows"] == one["history"]["read"]["rows"]
    span = RecorderDatabase(database).span(None, None)
    assert span is not None
    cut = span[0] + (span[1] - span[0]) / 2
    sequential, parallel = _alarms(one), _alarms(two)
    # Something to compare: the two smoke alarms at least (random rows raise few alarms).
    assert len([a for a in sequential if a[0] < cut]) >= 2
    assert [a for a in parallel if a[0] < cut] == [a for a in sequential if a[0] < cut]


def _smoke_twice_in_the_morning(database: Path, *, evening: bool = False) -> None:
    """A smoke detector beside the synthetic rows, going off at 03:00 and 08:00 for five
    minutes: alarms a monitor always tells, before the cut at midday (with ``evening``,
    also at 20:00: one the part after the cut tells)."""
    with sqlite3.connect(database) as db:
        (metadata_id,) = db.execute("SELECT MAX(metadata_id) + 1 FROM states_meta").fetchone()
        (attributes_id,) = db.execute(
            "SELECT MAX(attributes_id) + 1 FROM state_attributes"
        ).fetchone()
        db.execute(
            "INSERT INTO states_meta (metadata_id, entity_id) VALUES (?, ?)",
            (metadata_id, "binary_sensor.kitchen_smoke"),
        )
        attributes = {"friendly_name": "Kitchen smoke", "device_class": "smoke"}
        db.execute(
            "INSERT INTO state_attributes (attributes_id, hash, shared_attrs) VALUES (?, ?, ?)",
            (attributes_id, attributes_id, json.dumps(attributes)),
        )
        day = datetime(2026, 9, 1, tzinfo=UTC)
        for hour, minute, state in (
            (0, 1, "off"),
            (3, 0, "on"),
            (3, 5, "off"),
            (8, 0, "on"),
            (8, 5, "off"),
            *(((20, 0, "on"), (20, 5, "off")) if evening else ()),
        ):
            stamp = (day + timedelta(hours=hour, minutes=minute)).timestamp()
            db.execute(
                "INSERT INTO states (state, last_updated_ts, last_reported_ts, metadata_id, "
                "attributes_id) VALUES (?, ?, ?, ?, ?)",
                (state, stamp, stamp, metadata_id, attributes_id),
            )


def _registered_smoke(config: Path) -> Path:
    """The smoke detector in the config's entity registry (a CSV carries no device class)."""
    path = config / ".storage" / "core.entity_registry"
    registry = json.loads(path.read_text())
    registry["data"]["entities"].append(
        {
            "entity_id": "binary_sensor.kitchen_smoke",
            "area_id": "room_0",
            "platform": "synthetic",
            "original_name": "Kitchen smoke",
            "original_device_class": "smoke",
        }
    )
    path.write_text(json.dumps(registry))
    return config


def _as_csv(database: Path, path: Path) -> Path:
    """The database's rows as the History panel's CSV writes them: one entity after
    another, each in time order."""
    rows: dict[str, list[str]] = {}
    for record in RecorderDatabase(database).records(None, None):
        stamp = record.when.isoformat().replace("+00:00", "Z")
        rows.setdefault(record.entity_id, []).append(f"{record.entity_id},{record.state},{stamp}")
    lines = ["entity_id,state,last_changed", *(line for kept in rows.values() for line in kept)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_csv_in_two_parts_tells_what_one_run_tells(tmp_path: Path) -> None:
    """``--jobs`` on a History CSV, as on a database: every row replayed once, the first
    half's notifications exactly the sequential run's; the cut by the CSV's own times."""
    database = tmp_path / "home-assistant_v2.db"
    write_history(database, days=1, entities=20)
    # The evening's smoke: the part after the cut has something to tell (the synthetic
    # rows alone gave it one opening "unseen" only because the motion sensor's "on" lay
    # before the window: 2d12277 reads it as seen).
    _smoke_twice_in_the_morning(database, evening=True)
    csv_path = _as_csv(database, tmp_path / "history.csv")
    config = str(_registered_smoke(write_config(tmp_path / "config", 20)))
    common = ("--csv", str(csv_path), "--config", config)
    one = _report(tmp_path / "one", *common)
    two = _report(tmp_path / "two", *common, "--jobs", "2")
    assert two["header"]["parts"] == 2
    assert two["history"]["rows_replayed"] == one["history"]["rows_replayed"] > 0
    assert two["history"]["read"]["rows"] == one["history"]["read"]["rows"]
    span = HistoryCsv(csv_path).span(None, None)
    assert span == RecorderDatabase(database).span(None, None)
    cut = span[0] + (span[1] - span[0]) / 2
    sequential, parallel = _alarms(one), _alarms(two)
    assert len([a for a in sequential if a[0] < cut]) >= 2
    assert [a for a in parallel if a[0] < cut] == [a for a in sequential if a[0] < cut]
    assert len([a for a in parallel if a[0] >= cut]) > 0  # the second part told too


def _alarm(minute: int, anomaly_id: str) -> Alarm:
    when = datetime(2026, 9, 1, tzinfo=UTC) + timedelta(minutes=minute)
    return Alarm(when, anomaly_id, ["binary_sensor.door"], "medium", "security", "r", "", "")


def test_an_anomaly_open_across_the_cut_is_told_once() -> None:
    """The next part's monitor finds the door still open and tells it: one run would
    not have told it again, so the merged report leaves that first telling out; once
    it was cleared, telling it again is news and stays. Other anomalies are untouched."""
    first = HistoryRecord(rows=10)
    first.seen.alarms = [_alarm(0, "door"), _alarm(5, "window"), _alarm(6, "gone")]
    first.seen.cleared = [Cleared(_alarm(8, "").when, "gone", "ended")]
    second = HistoryRecord(rows=12)
    second.seen.alarms = [
        _alarm(60, "door"),  # the door still open at the cut: told again
        _alarm(61, "gone"),  # ended before the cut: news again
        _alarm(90, "door"),  # after it was cleared: news
    ]
    second.seen.cleared = [Cleared(_alarm(70, "").when, "door", "ended")]
    whole = merged([first, second])
    told = [(a.when.minute + 60 * a.when.hour, a.anomaly_id) for a in whole.seen.alarms]
    assert told == [(0, "door"), (5, "window"), (6, "gone"), (61, "gone"), (90, "door")]
    assert whole.rows == 22
    assert still_open(whole.seen) == {"door", "gone", "window"}  # told again, not cleared

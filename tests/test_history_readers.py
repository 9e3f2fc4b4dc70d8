"""The history readers: HA's recorder database and History CSV, read-only; bad input gets a
clear error (or, for a row, is counted) and the file stays byte-identical."""

from __future__ import annotations

from datetime import UTC, datetime
import hashlib
import json
from pathlib import Path
import sqlite3

import pytest

from benchmark_replay.history.history_csv import HistoryCsv
from benchmark_replay.history.home_context import from_config_dir, from_yaml
from benchmark_replay.history.recorder_db import RecorderDatabase
from benchmark_replay.history.records import HistoryError
from benchmark_replay.history.synthetic import write_history

from .history_home import run_history


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two days of 16 entities in HA's own recorder schema."""
    path = tmp_path_factory.mktemp("history") / "home-assistant_v2.db"
    write_history(path, days=2, entities=16)
    return path


def _copy(source: Path, folder: Path) -> Path:
    target = folder / "home-assistant_v2.db"
    target.write_bytes(source.read_bytes())
    return target


def test_database_streams_every_row_in_time_order(recorded: Path) -> None:
    before = _digest(recorded)
    database = RecorderDatabase(recorded)
    expected = database.count(None, None)
    times = [r.when for r in database.records(None, None)]
    assert expected is not None
    assert len(times) == expected > 1000
    assert times == sorted(times)
    assert database.stats.as_dict()["bad_rows"] == 0
    first = next(database.records(None, None))
    assert first.attributes is not None
    assert "friendly_name" in first.attributes
    day = datetime(2026, 9, 2, tzinfo=UTC)
    assert all(r.when >= day for r in database.records(day, None))
    database.close()
    assert _digest(recorded) == before


def test_unknown_schema_is_refused_and_left_untouched(recorded: Path, tmp_path: Path) -> None:
    path = _copy(recorded, tmp_path)
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO schema_changes (schema_version, changed) VALUES (99, '2030-01-01')")
    before = _digest(path)
    with pytest.raises(HistoryError, match="schema version 99 is unknown"):
        RecorderDatabase(path)
    assert _digest(path) == before


def test_not_a_recorder_database(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    before = _digest(path)
    with pytest.raises(HistoryError, match="not a Home Assistant recorder database"):
        RecorderDatabase(path)
    assert _digest(path) == before


def test_damaged_database_gives_a_clear_error(recorded: Path, tmp_path: Path) -> None:
    """Garbage over the pages after the first: an error naming the file, never a crash."""
    path = _copy(recorded, tmp_path)
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[page : len(data)] = b"\xa5" * (len(data) - page)
    path.write_bytes(bytes(data))
    before = _digest(path)

    def read_all() -> None:
        list(RecorderDatabase(path).records(None, None))

    with pytest.raises(HistoryError, match=str(path.name)):
        read_all()
    assert _digest(path) == before


def test_locked_database_says_so(recorded: Path, tmp_path: Path) -> None:
    path = _copy(recorded, tmp_path)
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(HistoryError, match="locked by another program"):
            RecorderDatabase(path)
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_bad_database_rows_are_counted_not_fatal(recorded: Path, tmp_path: Path) -> None:
    path = _copy(recorded, tmp_path)
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO states_meta (metadata_id, entity_id) VALUES (900, 'Not An Id')")
        insert = "INSERT INTO states (state, last_updated_ts, metadata_id) VALUES (?, ?, ?)"
        db.execute(insert, ("on", 1788300000, 900))  # an invalid entity id
        db.execute(insert, ("on", 1788300001, 999))  # no entity at all
        db.execute(
            "INSERT INTO state_attributes (attributes_id, shared_attrs) VALUES (900, '{broken')"
        )
        db.execute(
            "INSERT INTO states (state, last_updated_ts, metadata_id, attributes_id) "
            "VALUES ('21.0', 1788300002, 4, 900)"
        )
    good = RecorderDatabase(recorded).count(None, None)
    before = _digest(path)
    database = RecorderDatabase(path)
    rows = list(database.records(None, None))
    stats = database.stats.as_dict()
    assert stats["bad_by_reason"] == {
        "no valid entity id": 2,
        "unreadable attributes (state kept)": 1,
    }
    assert len(rows) == (good or 0) + 1  # the row with broken attributes keeps its state
    assert _digest(path) == before


CSV = """entity_id,state,last_changed
binary_sensor.front_door,off,2026-11-30T10:00:00.000Z
binary_sensor.front_door,on,2026-11-30T10:05:00.000Z
binary_sensor.front_door,off,not a time
sensor.living_temperature,21.0,2026-11-30T10:00:00.000Z
sensor.living_temperature,21.5,2026-11-30T10:03:00.000Z
Bad Entity,on,2026-11-30T10:04:00.000Z
sensor.living_temperature,22.0,2026-11-30T10:06:00.000Z
only_two,columns
"""


def test_csv_merges_per_entity_runs_and_counts_bad_rows(tmp_path: Path) -> None:
    path = tmp_path / "history.csv"
    path.write_text(CSV, encoding="utf-8")
    before = _digest(path)
    history = HistoryCsv(path)
    rows = [(r.when.strftime("%H:%M"), r.entity_id, r.state) for r in history.records(None, None)]
    assert rows == [
        ("10:00", "binary_sensor.front_door", "off"),
        ("10:00", "sensor.living_temperature", "21.0"),
        ("10:03", "sensor.living_temperature", "21.5"),
        ("10:05", "binary_sensor.front_door", "on"),
        ("10:06", "sensor.living_temperature", "22.0"),
    ]
    assert history.stats.as_dict()["bad_by_reason"] == {
        "no valid last_changed": 1,
        "no valid entity id": 1,
        "fewer than 3 columns": 1,
    }
    assert _digest(path) == before


def test_csv_without_its_header_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "history.csv"
    path.write_text("time,value\n1,2\n", encoding="utf-8")
    with pytest.raises(HistoryError, match="not a History CSV"):
        HistoryCsv(path)


def test_context_from_registries_and_yaml(tmp_path: Path) -> None:
    storage = tmp_path / "config" / ".storage"
    storage.mkdir(parents=True)

    def store(key: str, data: object) -> None:
        (storage / key).write_text(json.dumps({"version": 1, "key": key, "data": data}))

    store("core.area_registry", {"areas": [{"id": "hall", "name": "Hall"}]})
    store(
        "core.device_registry",
        {"devices": [{"id": "d1", "name": "Door sensor", "area_id": "hall"}]},
    )
    store(
        "core.entity_registry",
        {
            "entities": [
                {
                    "entity_id": "binary_sensor.front_door",
                    "device_id": "d1",
                    "original_name": "Front door",
                    "original_device_class": "door",
                    "platform": "zha",
                }
            ]
        },
    )
    store("core.config", {"time_zone": "Europe/Amsterdam", "latitude": 52.4, "longitude": 4.9})
    home = from_config_dir(tmp_path / "config")
    door = home.entities["binary_sensor.front_door"]
    assert (door.name, door.area, door.device_class, door.device) == (
        "Front door",
        "Hall",
        "door",
        "Door sensor",
    )
    assert home.timezone == "Europe/Amsterdam"
    described = tmp_path / "history.yaml"
    described.write_text(
        "timezone: UTC\nrestarts: ['2026-11-30T12:00:00Z']\n"
        "entities:\n"
        "  binary_sensor.front_door: {name: Front door, area: Hall, device_class: door}\n"
    )
    home = from_yaml(described)
    assert home.entities["binary_sensor.front_door"].area == "Hall"
    assert home.restarts == [datetime(2026, 11, 30, 12, tzinfo=UTC)]


def test_cli_reports_an_unreadable_database_clearly(tmp_path: Path) -> None:
    path = tmp_path / "home-assistant_v2.db"
    path.write_bytes(b"this is no database" * 100)
    before = _digest(path)
    result = run_history("--db", str(path), "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    assert "not a readable SQLite database" in result.stderr
    assert _digest(path) == before


def test_replay_restarts_where_ha_restarted(tmp_path: Path) -> None:
    """A second recorder run: the replay stops HA and starts it again at that moment."""
    path = tmp_path / "home-assistant_v2.db"
    write_history(path, days=1, entities=8)
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO recorder_runs (start, end, closed_incorrect, created) "
            "VALUES ('2026-09-01 12:00:00', '2026-09-02 00:00:00', 0, '2026-09-01 12:00:00')"
        )
    out = tmp_path / "out"
    result = run_history("--db", str(path), "--out", str(out))
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads((out / "report.json").read_text())
    assert report["history"]["restarts"] == ["2026-09-01T12:00:00+00:00"]
    assert report["history"]["rows_replayed"] == RecorderDatabase(path).count(None, None)
    assert (out / "alarms_per_day.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plain_png_bars_when_matplotlib_is_missing(tmp_path: Path) -> None:
    """The fallback chart is a valid PNG with one coloured bar per day, the highest full."""
    from matplotlib import image

    from benchmark_replay.history.plot import BAR, HEIGHT, MARGIN, WIDTH, write_png_bars

    path = tmp_path / "bars.png"
    write_png_bars(path, [0, 2, 4])
    pixels = image.imread(path)
    assert pixels.shape[:2] == (HEIGHT, WIDTH)
    colour = tuple(round(c * 255) for c in pixels[MARGIN + 1][WIDTH - MARGIN - 100][:3])
    assert colour == BAR  # the third bar reaches the top
    assert tuple(round(c * 255) for c in pixels[MARGIN + 1][MARGIN + 50][:3]) == (255, 255, 255)


def test_a_summarised_state_splits_back() -> None:
    """The preview replays the recorder's summarised rows ("heat (heating)") as a state
    and its activity attribute, which the watcher summarises again to the same text."""
    from custom_components.anomaly_monitor.live.state_summary import split_summary, summarize_state

    for domain, state, attributes in (
        ("climate", "heat", {"hvac_action": "heating"}),
        ("water_heater", "eco", {"operation_mode": "eco"}),
        ("climate", "unavailable", {}),
        ("sensor", "21.5", {}),
    ):
        summary = summarize_state(domain, state, attributes)
        back, activity = split_summary(domain, summary)
        assert (back, activity) == (state, attributes)
        assert summarize_state(domain, back, activity) == summary


def test_from_and_to_days_are_whole_days_in_the_home_zone() -> None:
    from zoneinfo import ZoneInfo

    from benchmark_replay.history.cli import parse_moment

    zone = ZoneInfo("Europe/Amsterdam")
    assert parse_moment("2026-11-02", zone, end=False) == datetime(2026, 11, 2, tzinfo=zone)
    assert parse_moment("2026-11-02", zone, end=True) == datetime(2026, 11, 3, tzinfo=zone)
    assert parse_moment("2026-11-02T07:30:00+00:00", zone, end=True) == datetime(
        2026, 11, 2, 7, 30, tzinfo=UTC
    )
    with pytest.raises(HistoryError, match="not a date"):
        parse_moment("yesterday", zone, end=False)

"""A week lived by a real hass with the recorder writing its database file, replayed from
that file by ``python -m benchmark_replay history --db`` and from its History CSV: the same
notifications as the week live, including what the monitor learned during the week."""

from __future__ import annotations

from datetime import datetime, timedelta
import json
from pathlib import Path
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
import pytest
import yaml

from benchmark_replay.home.observer import Alarm

from .history_home import run_history, snapshot_database
from .recorded_week import LivedWeek, config_folder, context_yaml, csv_rows, live_week
from .recorder_home import (  # noqa: F401 (fixtures, found by name)
    auto_enable_custom_integrations,
    quiet_sqlalchemy,
    recorder_config,
)

# The live clock fires each timer at its moment, as the replay's does: a notification
# may still land a few seconds apart (a debounce begun between two rows).
SAME_MOMENT = timedelta(seconds=10)
DOG_WALKER_DOOR = ("binary_sensor.front_door", "lock.front_door")

type Told = tuple[datetime, str, tuple[str, ...]]


@pytest.fixture
def persistent_database() -> bool:
    """The recorder writes a file (the one a homeowner would replay)."""
    return True


def _told(alarms: list[Alarm]) -> list[Told]:
    return [(a.when, a.rule, tuple(sorted(a.evidence))) for a in alarms]


def _replayed(report: dict[str, Any]) -> list[Told]:
    return [
        (datetime.fromisoformat(a["time"]), a["rule"], tuple(sorted(a["evidence"])))
        for a in report["alarms"]
    ]


def _assert_same(live: list[Told], replayed: list[Told]) -> None:
    """Rule and evidence of every notification in order, each at the live moment."""
    assert [(r, e) for _, r, e in replayed] == [(r, e) for _, r, e in live]
    for (when, _, _), (live_when, rule, evidence) in zip(replayed, live, strict=True):
        assert abs(when - live_when) <= SAME_MOMENT, (rule, evidence, when, live_when)


def _replay(options: dict[str, Any], *args: str) -> dict[str, Any]:
    out = Path(args[args.index("--out") + 1])
    options = [f"--option={k}={json.dumps(v)}" for k, v in options.items()]
    result = run_history(*args, *options, "--no-progress")
    assert result.returncode == 0, result.stderr[-3000:]
    report: dict[str, Any] = json.loads((out / "report.json").read_text())
    assert report["run"]["error"] is None
    return report


def _assert_learned_in_the_week(week: LivedWeek, live: list[Told]) -> None:
    """What makes it a week: a cold-start alarm that learning silences, findings that only
    a learned normal gives, and the later days' incidents."""
    local = week.scenario.tz
    first = week.scenario.start.astimezone(local).date()

    def day(when: datetime) -> int:
        return (when.astimezone(local).date() - first).days + 1

    keyholder = [
        w for w, r, e in live if r == "entry_unsecured_while_away" and e == DOG_WALKER_DOOR
    ]
    # The dog-walker's first visit (an entry with the key into the empty home) is pushed
    # at once in the cold start; her visits on the four weekdays after it are learned.
    assert keyholder, live
    assert day(keyholder[0]) == 1, keyholder
    walker_days = {day(c.when) for c in week.plan.steps if getattr(c, "source", "") == "visitor"}
    assert walker_days == {1, 2, 3, 4, 5}
    # After Monday, only the front door forced on Friday afternoon is told with that door.
    assert {(day(w), w.astimezone(local).hour) for w in keyholder[1:]} == {(5, 15)}, keyholder
    # A freezer on a plug with a plain name: only its learned cycle tells it stopped.
    assert [r for _, r, e in live if e == ("sensor.utility_plug_power",)] == ["cycle_stopped"]
    left_open = [
        w for w, r, e in live if r == "entry_left_open" and e == ("binary_sensor.back_door",)
    ]
    assert [day(w) for w in left_open] == [6]
    # ... judged by how long it stands open on most days, learned in the week.
    [reasoning] = [a.reasoning for a in week.seen.alarms if a.rule == "entry_left_open"]
    assert "learned over" in reasoning, reasoning
    assert any(r == "hazard_detected" and day(w) == 6 for w, r, _ in live), live
    forced = [w for w, r, e in live if "binary_sensor.front_door" in e and day(w) == 5]
    assert forced, live
    assert all(w.astimezone(local).hour == 15 for w in forced), live
    assert [day(r) for r in week.plan.restarts] == [4]


async def test_recorded_week_replays_as_it_was_lived(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    recorder_db_url: str,
    hass_storage: dict[str, Any],
    tmp_path: Path,
) -> None:
    """Seven days of routines, a restart and incidents on the later days: the database
    replayed tells what the live monitor told, when it told it; the CSV tells the same."""
    week = await live_week(hass, freezer)
    live = _told(week.seen.alarms)
    _assert_learned_in_the_week(week, live)

    database = snapshot_database(recorder_db_url, tmp_path)
    config = config_folder(hass_storage, week, tmp_path / "config")
    from_db = await hass.async_add_executor_job(
        _replay,
        week.options,
        "--db",
        str(database),
        "--config",
        str(config),
        "--out",
        str(tmp_path / "db"),
    )
    assert [datetime.fromisoformat(t) for t in from_db["history"]["restarts"]] == [
        week.plan.restarts[0]
    ]
    _assert_same(live, _replayed(from_db))

    # A History CSV has no attribute-only changes: the thermostat's (its room's reading,
    # heating or idle: all but one of its rows) are in the database only. They start
    # analyses of their own, and the report is still the same.
    rows = await hass.async_add_executor_job(lambda: list(csv_rows(hass, week)))
    csv_path = tmp_path / "csv" / "history.csv"
    csv_path.parent.mkdir()
    csv_path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    csv_path.with_suffix(".yaml").write_text(
        yaml.safe_dump(context_yaml(week, week.plan.restarts), allow_unicode=True),
        encoding="utf-8",
    )
    from_csv = await hass.async_add_executor_job(
        _replay, week.options, "--csv", str(csv_path), "--out", str(tmp_path / "csv-out")
    )
    for part in ("notifications", "per_week", "per_day", "per_entity", "per_rule", "alarms"):
        assert from_csv[part] == from_db[part], part

"""A history lived by a real hass with the recorder, replayed from its database file and
from its History CSV: the same notifications as live; the preview action tells them too,
to administrators only, and shows nothing to the home."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
import json
from pathlib import Path
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components import persistent_notification
from homeassistant.components.recorder import history
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import Unauthorized
from homeassistant.helpers import issue_registry as ir
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry, MockUser
from pytest_homeassistant_custom_component.components.recorder.common import (
    async_wait_recording_done,
)
import yaml

from benchmark_replay.home.observer import Observations, Observer
from custom_components.anomaly_monitor.const import DOMAIN, EVENT_ANOMALY_DETECTED

from .helpers import put_in_area
from .history_home import (
    AREAS,
    ATTRIBUTES,
    DOOR,
    OPTIONS,
    SMOKE,
    live,
    preview_as,
    run_history,
    set_initial,
    snapshot_database,
)
from .recorder_home import (  # noqa: F401 (fixtures, found by name)
    auto_enable_custom_integrations,
    quiet_sqlalchemy,
    recorder_config,
)

# The live clock moves in 5 s ticks, the replay's to the exact moment.
SAME_MOMENT = timedelta(seconds=10)


@pytest.fixture
def persistent_database() -> bool:
    """The recorder writes a file (the one a homeowner would replay)."""
    return True


async def _live_home(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> tuple[MockConfigEntry, Observations, datetime]:
    """The scripted history, live, with what the homeowner was told."""
    start = dt_util.utcnow().replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
    freezer.move_to(start)
    for area in sorted(set(AREAS.values())):
        put_in_area(hass, area, *[e for e, a in AREAS.items() if a == area])
    set_initial(hass)
    seen = Observations()
    Observer(hass, seen).async_start()
    entry = MockConfigEntry(domain=DOMAIN, title="Home", options=OPTIONS)
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    await live(hass, freezer, start)
    await async_wait_recording_done(hass)
    return entry, seen, start


def _told(alarms: list[Any]) -> list[tuple[datetime, str, tuple[str, ...]]]:
    return [(a.when, a.rule, tuple(sorted(a.evidence))) for a in alarms]


def _assert_same(live_told: list[Any], replayed: list[dict[str, Any]]) -> None:
    got = [
        (datetime.fromisoformat(a["time"]), a["rule"], tuple(sorted(a["evidence"])))
        for a in replayed
    ]
    assert [(r, e) for _, r, e in got] == [(r, e) for _, r, e in live_told]
    for (when, _, _), (live_when, rule, _) in zip(got, live_told, strict=True):
        assert abs(when - live_when) <= SAME_MOMENT, rule


def _config_folder(hass_storage: dict[str, Any], folder: Path) -> Path:
    """HA's config folder as the registries stored it (.storage)."""
    storage = folder / ".storage"
    storage.mkdir(parents=True)
    for key in ("core.entity_registry", "core.device_registry", "core.area_registry"):
        (storage / key).write_text(json.dumps(hass_storage[key], default=str))
    return folder


def _csv_rows(hass: HomeAssistant, start: datetime, end: datetime) -> Iterator[str]:
    """The History panel's "Download data": one entity after another, each in time order."""
    states = history.get_significant_states(  # from just before the states at the start
        hass, start - timedelta(seconds=1), end, list(ATTRIBUTES), significant_changes_only=False
    )
    yield "entity_id,state,last_changed"
    for entity_id, items in states.items():
        for item in items:
            stamp = item.last_changed.isoformat(timespec="milliseconds").replace("+00:00", "Z")
            yield f"{entity_id},{item.state},{stamp}"


def _replay(*args: str) -> dict[str, Any]:
    out = Path(args[args.index("--out") + 1])
    options = [f"--option={k}={json.dumps(v)}" for k, v in OPTIONS.items()]
    result = run_history(*args, *options)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads((out / "report.json").read_text())


async def test_recorded_history_replays_as_it_was_lived(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    recorder_db_url: str,
    hass_storage: dict[str, Any],
    tmp_path: Path,
) -> None:
    """The database replayed gives the live notifications; the CSV gives the same report."""
    _, seen, start = await _live_home(hass, freezer)
    live_told = _told(seen.alarms)
    rules = {rule for _, rule, _ in live_told}
    assert any(SMOKE in evidence for _, _, evidence in live_told), live_told
    assert "entry_unsecured_while_away" in rules, live_told
    assert any(DOOR in evidence for _, _, evidence in live_told)

    database = snapshot_database(recorder_db_url, tmp_path)
    config = _config_folder(hass_storage, tmp_path / "config")
    from_db = await hass.async_add_executor_job(
        _replay, "--db", str(database), "--config", str(config), "--out", str(tmp_path / "db")
    )
    assert from_db["run"]["error"] is None
    _assert_same(live_told, from_db["alarms"])

    end = dt_util.utcnow()
    rows = await hass.async_add_executor_job(lambda: list(_csv_rows(hass, start, end)))
    csv_path = tmp_path / "csv" / "history.csv"
    csv_path.parent.mkdir()
    csv_path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    csv_path.with_suffix(".yaml").write_text(
        yaml.safe_dump(
            {
                "entities": {
                    entity_id: {
                        "name": attributes["friendly_name"],
                        "area": AREAS.get(entity_id),
                        "device_class": attributes.get("device_class"),
                        "unit": attributes.get("unit_of_measurement"),
                    }
                    for entity_id, attributes in ATTRIBUTES.items()
                }
            },
            allow_unicode=True,
        ),
        encoding="utf-8",
    )
    from_csv = await hass.async_add_executor_job(
        _replay, "--csv", str(csv_path), "--out", str(tmp_path / "csv-out")
    )
    for part in ("notifications", "per_week", "per_day", "per_entity", "per_rule", "alarms"):
        assert from_csv[part] == from_db[part], part


async def test_preview_tells_what_was_lived_and_shows_nothing(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    hass_admin_user: MockUser,
    hass_read_only_user: MockUser,
) -> None:
    """Admins only; the live notifications come back in the response, and the home sees
    no new notification, repair issue or event."""
    entry, seen, _ = await _live_home(hass, freezer)
    live_told = _told(seen.alarms)
    with pytest.raises(Unauthorized):
        await hass.services.async_call(
            DOMAIN,
            "preview",
            {"days": 1},
            blocking=True,
            return_response=True,
            context=Context(user_id=hass_read_only_user.id),
        )
    events: list[Any] = []
    hass.bus.async_listen(EVENT_ANOMALY_DETECTED, events.append)
    notifications = dict(persistent_notification._async_get_or_create_notifications(hass))
    issues = set(ir.async_get(hass).issues)
    response = await preview_as(hass, hass_admin_user.id, entry.entry_id)
    assert response is not None
    told = [(t["rule"], tuple(sorted(t["evidence"]))) for t in response["told"]]
    assert told == [(rule, evidence) for _, rule, evidence in live_told]
    for item, (live_when, _, _) in zip(response["told"], live_told, strict=True):
        assert abs(datetime.fromisoformat(item["time"]) - live_when) <= SAME_MOMENT
    assert response["notifications"] == len(live_told)
    assert events == []
    assert dict(persistent_notification._async_get_or_create_notifications(hass)) == notifications
    assert set(ir.async_get(hass).issues) == issues

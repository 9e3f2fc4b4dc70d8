"""Dev-HA mode against a real hass serving HTTP on loopback, with a homeowner's setup.

The replay (the real command line, in a subprocess) must leave the home exactly as it
was — states, entries and their options, notifications, repair issues, false-alarm
marks, no event on the bus — and score exactly what the in-process replay scores.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
import json
from pathlib import Path
import shutil
import signal
import sys
from typing import Any

from homeassistant.components import persistent_notification
from homeassistant.const import MATCH_ALL
from homeassistant.core import Event, HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_fire_time_changed,
)

from benchmark_replay import remote_ha
from benchmark_replay.remote_ha import RemoteHARunner, RemoteHASetupError
from custom_components.anomaly_monitor.const import (
    CONF_INCLUDE_ENTITIES,
    CONF_INTERVAL,
    CONF_PROFILE,
    CONF_REPLAY,
    CONF_SENSITIVITY,
    CONF_USE_EXPOSED,
    CONF_WINDOW,
    DOMAIN,
)
from custom_components.anomaly_monitor.dev_replay import home as replay_home

REPO = Path(__file__).parent.parent
FIXTURES = Path(__file__).parent / "fixtures" / "smartbench"
# The homeowner's devices reuse ids the fixtures replay: the replay must not touch them.
SMOKE = "binary_sensor.kitchen_smoke_detector"
LEAK = "binary_sensor.bathroom_leak"


@pytest.fixture
def disable_http_server() -> None:
    """Serve for real here: the harness's autouse fixture of the same name stubs the server
    (since 0.13.375 both its binding and its start). Nothing starts it on its own in a test
    (frontend is not loaded), so ``served_hass`` starts and stops it explicitly."""


@pytest.fixture
async def served_hass(
    hass: HomeAssistant, socket_enabled: None, unused_tcp_port: int
) -> AsyncIterator[HomeAssistant]:
    """The test hass with http, api and config served on 127.0.0.1.

    Override this fixture (or the harness's ``disable_http_server``) where a harness
    keeps the HTTP server from binding.
    """
    await hass.config.async_set_time_zone("UTC")
    http = {"server_host": "127.0.0.1", "server_port": unused_tcp_port}
    assert await async_setup_component(hass, "http", {"http": http})
    assert await async_setup_component(hass, "api", {})
    assert await async_setup_component(hass, "config", {})
    assert await async_setup_component(hass, "repairs", {})
    await hass.http.start()
    yield hass
    await hass.http.stop()


@pytest.fixture
def url(unused_tcp_port: int) -> str:
    """Where served_hass listens."""
    return f"http://127.0.0.1:{unused_tcp_port}"


async def _homeowner(hass: HomeAssistant, url: str, token: str) -> MockConfigEntry:
    """A monitor with options, a smoke detector, persons at home, a smoke alarm dismissed
    as a false alarm and an open anomaly (notification + repair issue)."""
    hass.states.async_set("person.alice", "home", {"friendly_name": "Alice"})
    hass.states.async_set("person.bob", "home", {"friendly_name": "Bob"})
    hass.states.async_set("weather.home", "sunny", {"temperature": 18, "friendly_name": "Home"})
    hass.states.async_set("sun.sun", "above_horizon", {"friendly_name": "Sun"})
    smoke = {"device_class": "smoke", "friendly_name": "Kitchen Smoke Detector"}
    hass.states.async_set(SMOKE, "off", smoke)
    hass.states.async_set(LEAK, "off", {"device_class": "moisture", "friendly_name": "Leak"})
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="Home",
        options={
            CONF_USE_EXPOSED: False,
            CONF_INCLUDE_ENTITIES: [SMOKE, LEAK],
            CONF_WINDOW: 90,
            CONF_INTERVAL: 30,
            CONF_PROFILE: "two adults, a cat",
            CONF_SENSITIVITY: "high",
        },
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()

    async def analyze() -> dict[str, Any]:
        response = await hass.services.async_call(
            DOMAIN, "analyze", {"config_entry_id": entry.entry_id}, blocking=True,
            return_response=True,
        )  # fmt: skip
        await hass.async_block_till_done()
        return dict(response or {})

    hass.states.async_set(SMOKE, "on", smoke)
    assert (await analyze())["verdict"]["label"] == "anomaly"
    (issue_id,) = [i for (d, i) in ir.async_get(hass).issues if d == DOMAIN]
    async with _session(token) as http:  # the homeowner marks it, as in the UI
        fix = await _post(
            http, f"{url}/api/repairs/issues/fix", {"handler": DOMAIN, "issue_id": issue_id}
        )
        done = await _post(
            http, f"{url}/api/repairs/issues/fix/{fix['flow_id']}", {"next_step_id": "false_alarm"}
        )
        assert done["type"] == "create_entry"
    await hass.async_block_till_done()
    hass.states.async_set(LEAK, "on", {"device_class": "moisture", "friendly_name": "Leak"})
    assert (await analyze())["verdict"]["label"] == "anomaly"
    # A hazard's false alarm dismisses this occurrence (kept while the detector reports it).
    assert len(entry.runtime_data.coordinator.tracker.dismissed) == 1
    assert ir.async_get(hass).issues
    assert persistent_notification._async_get_or_create_notifications(hass)
    # The leak's own debounced analysis runs now, not in the middle of the replay.
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(minutes=1))
    await hass.async_block_till_done()
    return entry


def _session(token: str) -> Any:
    import aiohttp

    return aiohttp.ClientSession(headers={"Authorization": f"Bearer {token}"})


async def _post(http: Any, url: str, payload: dict[str, Any]) -> dict[str, Any]:
    async with http.post(url, json=payload) as reply:
        assert reply.status == 200, await reply.text()
        return dict(await reply.json())


def _home(hass: HomeAssistant, entry: MockConfigEntry) -> dict[str, Any]:
    """Everything of the home the replay must leave as it is."""
    coordinator = entry.runtime_data.coordinator
    return {
        "states": {
            s.entity_id: (s.state, dict(s.attributes), s.last_changed, s.last_updated)
            for s in hass.states.async_all()
        },
        "entries": [
            (e.entry_id, e.title, dict(e.options), dict(e.data), e.state)
            for e in hass.config_entries.async_entries()
        ],
        "notifications": {
            k: dict(v)
            for k, v in persistent_notification._async_get_or_create_notifications(hass).items()
        },
        "issues": {
            key: (i.severity, i.translation_key, i.translation_placeholders, i.dismissed_version)
            for key, i in ir.async_get(hass).issues.items()
        },
        "marks": {s: m.as_dict() for s, m in coordinator.tracker.false_alarms.items()},
        "open": dict(coordinator.tracker.open),
        "dismissed": dict(coordinator.tracker.dismissed),
        "analyses": coordinator.analyses,
        "watched": coordinator.watcher.entity_ids,
    }


async def _cli(*args: str) -> tuple[int, str, str]:
    """``python -m benchmark_replay smartbench`` in a subprocess (the loop keeps serving)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "benchmark_replay", "smartbench", "--no-progress", "--no-plots",
        "--fresh", *args, cwd=REPO, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def _predictions(folder: Path) -> dict[str, dict[str, Any]]:
    lines = (folder / "predictions.jsonl").read_text(encoding="utf-8").splitlines()
    return {
        item["key"]: {k: item.get(k) for k in ("verdict", "window", "predicted_devices", "error")}
        for item in map(json.loads, lines)
    }


def _signal_dispositions(pid: int) -> str:
    """The process's blocked, ignored and caught signal masks (Linux /proc)."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError as err:
        return f"no /proc status: {err}"
    return " ".join(line for line in lines if line.startswith(("SigBlk", "SigIgn", "SigCgt")))


def _replay_entries(hass: HomeAssistant) -> list[Any]:
    return [e for e in hass.config_entries.async_entries(DOMAIN) if e.options.get(CONF_REPLAY)]


async def test_replay_leaves_the_home_alone_and_scores_like_in_process(
    served_hass: HomeAssistant, hass_access_token: str, url: str, tmp_path: Path
) -> None:
    """The homeowner's states, options, notifications, issues and marks are untouched, no
    event reaches the bus, and every verdict equals the in-process replay's."""
    hass = served_hass
    entry = await _homeowner(hass, url, hass_access_token)
    before = _home(hass, entry)
    events: list[Event] = []
    unsubscribe = hass.bus.async_listen(MATCH_ALL, events.append)

    live = tmp_path / "live"
    code, out, err = await _cli(
        "--data", str(FIXTURES), "--ha-url", url, "--token", hass_access_token, "--out", str(live)
    )
    await hass.async_block_till_done()
    unsubscribe()
    assert code == 0, err
    assert "| all | 20 |" in out

    assert _home(hass, entry) == before
    assert _replay_entries(hass) == []  # created, used and removed by the replay
    fired = {e.event_type for e in events}
    # Only the replay monitor's own entry coming and going; nothing reaches automations.
    assert not {t for t in fired if t.startswith(DOMAIN)}
    assert "state_changed" not in fired
    assert "repairs_issue_registry_updated" not in fired

    code, _, err = await _cli("--data", str(FIXTURES), "--out", str(tmp_path / "in-process"))
    assert code == 0, err
    reference = _predictions(tmp_path / "in-process")
    assert _predictions(live) == reference
    assert all(p["error"] is None for p in reference.values())
    live_metrics = json.loads((live / "metrics.json").read_text())
    reference_metrics = json.loads((tmp_path / "in-process" / "metrics.json").read_text())
    for group in ("overall", "subsets", "types"):
        strip = lambda m: {k: v for k, v in m.items() if not k.startswith("seconds")}  # noqa: E731
        if group == "overall":
            assert strip(live_metrics[group]) == strip(reference_metrics[group])
        else:
            assert {k: strip(v) for k, v in live_metrics[group].items()} == {
                k: strip(v) for k, v in reference_metrics[group].items()
            }


async def test_misuse_is_one_clear_line(
    served_hass: HomeAssistant,
    *,
    hass_access_token: str,
    hass_read_only_access_token: str,
    url: str,
    unused_tcp_port_factory: Any,
    tmp_path: Path,
) -> None:
    """Wrong URL, bad token, not an admin, a second replay: exit 2, one line, no traceback."""
    closed = f"http://127.0.0.1:{unused_tcp_port_factory()}"
    cases = [
        ((closed, hass_access_token), "cannot reach Home Assistant"),
        ((url, "not-a-token"), "rejected the token"),
        ((url, hass_read_only_access_token), "not an administrator"),
        ((f"{url}/nothing-here", hass_access_token), "no Home Assistant REST API"),
    ]
    for (where, token), message in cases:
        code, _, err = await _cli(
            "--data", str(FIXTURES), "--ha-url", where, "--token", token, "--out", str(tmp_path)
        )
        assert code == 2, err
        assert "Traceback" not in err
        assert "Unclosed" not in err
        assert message in err.strip().splitlines()[-1], err

    first = RemoteHARunner(url, hass_access_token)
    await first.async_start()
    try:
        code, _, err = await _cli(
            "--data", str(FIXTURES), "--ha-url", url, "--token", hass_access_token,
            "--out", str(tmp_path),
        )  # fmt: skip
        assert code == 2
        assert "another benchmark replay is running" in err.strip().splitlines()[-1]
        assert [e.entry_id for e in _replay_entries(served_hass)] == [first.entry_id]
    finally:
        await first.async_stop()
    assert _replay_entries(served_hass) == []


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ({"DOMAIN": "not_installed_here"}, "is not installed"),
        ({"MIN_HA_VERSION": (9999, 1)}, "is too old"),
    ],
)
async def test_missing_integration_or_old_ha(
    served_hass: HomeAssistant,
    *,
    hass_access_token: str,
    url: str,
    monkeypatch: pytest.MonkeyPatch,
    patch: dict[str, Any],
    message: str,
) -> None:
    """What the real HA answers for an unknown integration or an old version."""
    for name, value in patch.items():
        monkeypatch.setattr(remote_ha, name, value)
    runner = RemoteHARunner(url, hass_access_token)
    with pytest.raises(RemoteHASetupError, match=message):
        await runner.async_start()
    await runner.async_stop()
    assert _replay_entries(served_hass) == []


async def test_a_killed_replay_is_cleaned_up_by_the_next(
    served_hass: HomeAssistant,
    hass_access_token: str,
    url: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """A replay that died without cleaning up is removed once its lease has run out."""
    dead = RemoteHARunner(url, hass_access_token)
    await dead.async_start()
    stale = dead.entry_id
    assert dead._session is not None
    await dead._session.close()  # gone without removing its entry
    monkeypatch.setattr(replay_home, "REPLAY_LEASE", 0.0)

    code, _, err = await _cli(
        "--data", str(FIXTURES), "--ha-url", url, "--token", hass_access_token, "--out",
        str(tmp_path), "--subset", "cd-argus",
    )  # fmt: skip
    assert code == 0, err
    assert served_hass.config_entries.async_get_entry(str(stale)) is None
    assert _replay_entries(served_hass) == []


def _hear_ctrl_c() -> None:
    """In the child, before exec: SIGINT as at a terminal. A suite started in the background
    (``cmd &`` in a script, ``nohup``) ignores SIGINT, and ignored signals are inherited, so
    the replay would never hear the test's Ctrl-C (seen: SigIgn 0x1001007 in CI's clone)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


async def test_ctrl_c_removes_the_replay_monitor(
    served_hass: HomeAssistant, hass_access_token: str, url: str, tmp_path: Path
) -> None:
    """SIGINT in the middle of a run: exit 130, the replay monitor is gone."""
    data = tmp_path / "data"
    for kind in ("anomaly", "normal"):
        source = FIXTURES / "context-dependent" / "tdcs_rbe" / kind
        target = data / "context-dependent" / "tdcs_rbe" / kind
        target.mkdir(parents=True)
        for index in range(400):  # long enough to be interrupted
            for sample in source.glob("*.json"):
                shutil.copy(sample, target / f"{sample.stem}_{index}.json")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "benchmark_replay", "smartbench", "--no-progress", "--no-plots",
        "--data", str(data), "--ha-url", url, "--token", hass_access_token,
        "--out", str(tmp_path / "out"), cwd=REPO, stderr=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.DEVNULL, preexec_fn=_hear_ctrl_c,
    )  # fmt: skip
    async with asyncio.timeout(60):
        while not _replay_entries(served_hass):  # noqa: ASYNC110 - another process creates it
            await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)  # some samples run
    # Whether the child can see SIGINT at all (blocked or ignored ones are inherited from
    # the process that starts it), for the message should the signal go unheard.
    dispositions = _signal_dispositions(process.pid)
    process.send_signal(signal.SIGINT)
    _, err = await process.communicate()
    text = err.decode()
    assert process.returncode == 130, f"{dispositions}\n{text}"
    assert "interrupted" in text
    assert "Traceback" not in text
    # The child's removal request is answered before hass has finished the removal's own
    # tasks on a loaded machine (seen once in CI): give the served hass a moment.
    async with asyncio.timeout(10):
        while _replay_entries(served_hass):  # noqa: ASYNC110 - the removal finishing
            await asyncio.sleep(0.05)
    assert _replay_entries(served_hass) == []

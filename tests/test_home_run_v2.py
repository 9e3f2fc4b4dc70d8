"""The home benchmark run with the format's newer features: a °F home, a power cut, and
feedback given hours after the incident ended (honoured, or reported as not possible)."""

from __future__ import annotations

from datetime import UTC, datetime
import json
from pathlib import Path
import subprocess
import sys

from homeassistant.core import HomeAssistant, ServiceCall

from benchmark_replay.home.feedback import async_feedback_without_issue
from benchmark_replay.home.observer import Alarm
from custom_components.anomaly_monitor.const import DOMAIN

from .helpers import SMOKE, set_calm_home, setup_monitor

REPO = Path(__file__).parent.parent
FIXTURE = Path(__file__).parent / "fixtures" / "home" / "fahrenheit_home.yaml"


def _alarm() -> Alarm:
    return Alarm(
        datetime(2026, 1, 5, 17, 10, tzinfo=UTC), "a1b2", [SMOKE], "critical", "t", "", "", ""
    )


async def _marks(hass: HomeAssistant, entry_id: str) -> list[object]:
    """The false-alarm marks the monitor lists."""
    marks = await hass.services.async_call(
        DOMAIN,
        "list_false_alarms",
        {"config_entry_id": entry_id},
        blocking=True,
        return_response=True,
    )
    return [m for v in (marks or {}).values() if isinstance(v, list) for m in v]


async def test_feedback_after_clear_without_an_action_is_not_possible(
    hass: HomeAssistant,
) -> None:
    """A product without actions that answer an anomaly (the two answering ones taken
    away): reported as not possible, not faked; the mark-removing and listing actions are
    not taken for it."""
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    for name in ("acknowledge", "mark_false_alarm"):
        hass.services.async_remove(DOMAIN, name)
    for action in ("acknowledge", "false_alarm"):
        done, detail, possible = await async_feedback_without_issue(hass, _alarm(), action)
        assert (done, possible) == (False, False)
        assert "repair issue was gone" in detail
        assert "remove_false_alarm" in detail  # what the integration does offer
    assert not await _marks(hass, entry.entry_id)


async def test_feedback_after_clear_on_an_unknown_anomaly_is_refused(
    hass: HomeAssistant,
) -> None:
    """The product's own answering actions are found and called by the anomaly's id; an id
    it never told is refused (possible, not done), and nothing is marked."""
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    for action in ("acknowledge", "false_alarm"):
        done, detail, possible = await async_feedback_without_issue(hass, _alarm(), action)
        assert (done, possible) == (False, True)
        assert "every call was refused" in detail
        assert "a1b2" in detail
    assert not await _marks(hass, entry.entry_id)


async def test_feedback_after_clear_uses_the_integrations_action(hass: HomeAssistant) -> None:
    """An action named for the feedback is called with the anomaly's id, as a homeowner
    would from Developer tools (registered here as the product may offer it)."""
    calls: list[ServiceCall] = []

    async def acknowledge(call: ServiceCall) -> None:
        calls.append(call)

    hass.services.async_register(DOMAIN, "acknowledge_anomaly", acknowledge)
    done, detail, possible = await async_feedback_without_issue(hass, _alarm(), "acknowledge")
    assert (done, possible) == (True, True)
    assert "acknowledge_anomaly" in detail
    assert [dict(c.data) for c in calls] == [{"anomaly_id": "a1b2"}]
    done, _, possible = await async_feedback_without_issue(hass, _alarm(), "false_alarm")
    assert (done, possible) == (False, False)  # acknowledging is not marking


def test_fahrenheit_home_with_a_power_cut_end_to_end(tmp_path: Path) -> None:
    """HA runs in US units; the power cut stops it for 90 min and it starts with the
    devices unknown; feedback hours after the incident is honoured or reported as not
    possible with the reason; feedback during the cut is not possible."""
    result = subprocess.run(
        [
            *(sys.executable, "-m", "benchmark_replay", "home", "--workers", "1"),
            *("--scenario", str(FIXTURE), "--out", str(tmp_path)),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    (flat,) = json.loads((tmp_path / "report.json").read_text())["scenarios"]
    assert flat["error"] is None
    assert flat["temperature_unit"] == "°F"
    smoke = next(r for r in flat["incident_rows"] if r["id"] == "toast_fire")
    assert smoke["notified"] is True
    (cut,) = flat["restart_rows"]
    assert cut["when"].startswith("2026-01-06T03:00")
    assert 90 <= cut["down_minutes"] <= 91
    assert cut["devices_unknown_at_start"] > 0
    later, during_cut = flat["feedback_rows"]
    assert later["status"] in ("done", "not_possible")
    if later["status"] == "not_possible":
        assert "had cleared at 2026-01-05T18:" in later["detail"]
        assert later["honoured"] is False
    else:
        assert later["honoured"] is True, later["why_not"]
    assert during_cut["status"] == "not_possible"
    assert "power cut" in during_cut["detail"]
    assert flat["feedback_not_possible"] == 1 + (later["status"] == "not_possible")

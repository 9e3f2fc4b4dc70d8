"""Open anomalies and false-alarm marks survive a restart (Store persistence)."""

from __future__ import annotations

from typing import Any

from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import async_capture_events

from custom_components.anomaly_monitor.const import DOMAIN, EVENT_ANOMALY_DETECTED

from .helpers import SMOKE, analyze, set_calm_home, setup_monitor


async def test_restart_restores_open_anomalies_and_feedback(
    hass: HomeAssistant, hass_storage: dict[str, Any]
) -> None:
    """Unload flushes the store; a new load restores the anomaly, its issue, and no re-notify."""
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Smoke"})
    await analyze(hass, entry)
    await hass.async_block_till_done()
    coordinator = entry.runtime_data.coordinator
    coordinator.tracker.false_alarms.add("some_rule:sensor.x")
    (signature,) = coordinator.tracker.open

    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    stored = hass_storage[f"{DOMAIN}.{entry.entry_id}"]["data"]
    assert [a["signature"] for a in stored["open"]] == [signature]
    assert stored["false_alarms"] == ["some_rule:sensor.x"]

    # The issue registry keeps non-persistent issues only in memory: simulate a fresh start.
    for domain, issue_id in list(ir.async_get(hass).issues):
        if domain == DOMAIN:
            ir.async_delete_issue(hass, DOMAIN, issue_id)

    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    coordinator = entry.runtime_data.coordinator
    assert list(coordinator.tracker.open) == [signature]
    assert list(coordinator.tracker.false_alarms) == ["some_rule:sensor.x"]
    assert [i for (d, i) in ir.async_get(hass).issues if d == DOMAIN]

    await analyze(hass, entry)
    await hass.async_block_till_done()
    assert len(detected) == 1  # the restored anomaly is not announced again

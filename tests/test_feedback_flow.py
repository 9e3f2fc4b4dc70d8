"""The repair issue's fix flow: acknowledge, or mark as false alarm and stop repeats."""

from __future__ import annotations

from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import async_capture_events
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.anomaly_monitor.const import DOMAIN, EVENT_ANOMALY_DETECTED

from .helpers import ALICE, FRONT_LOCK, analyze, set_calm_home, setup_monitor


async def _run_fix_flow(
    hass: HomeAssistant, client: ClientSessionGenerator, issue_id: str, choice: str
) -> None:
    http = await client()
    resp = await http.post(
        "/api/repairs/issues/fix", json={"handler": DOMAIN, "issue_id": issue_id}
    )
    assert resp.status == 200
    flow = await resp.json()
    assert flow["type"] == "menu"
    assert set(flow["menu_options"]) == {"acknowledge", "false_alarm"}
    resp = await http.post(
        f"/api/repairs/issues/fix/{flow['flow_id']}", json={"next_step_id": choice}
    )
    assert resp.status == 200
    assert (await resp.json())["type"] == "create_entry"
    await hass.async_block_till_done()


async def _unlocked_while_away(hass: HomeAssistant, entry) -> str:
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    hass.states.async_set(FRONT_LOCK, "unlocked", {"friendly_name": "Front door"})
    response = await analyze(hass, entry)
    assert response["verdict"]["label"] == "anomaly"
    assert response["verdict"]["evidence"] == [FRONT_LOCK]
    await hass.async_block_till_done()
    issues = [i for (domain, _), i in ir.async_get(hass).issues.items() if domain == DOMAIN]
    assert len(issues) == 1
    return issues[0].issue_id


async def test_false_alarm_suppresses_the_pattern(
    hass: HomeAssistant, hass_client: ClientSessionGenerator
) -> None:
    """Marked as false alarm: the issue goes and the same pattern is not raised again."""
    assert await async_setup_component(hass, "http", {})
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)

    issue_id = await _unlocked_while_away(hass, entry)
    await _run_fix_flow(hass, hass_client, issue_id, "false_alarm")

    assert ir.async_get(hass).async_get_issue(DOMAIN, issue_id) is None
    response = await analyze(hass, entry)
    assert response["verdict"]["label"] == "normal"
    assert len(detected) == 1
    coordinator = entry.runtime_data.coordinator
    assert coordinator.tracker.open == {}
    assert len(coordinator.tracker.false_alarms) == 1

    # A different pattern (smoke) is still reported.
    hass.states.async_set(
        "binary_sensor.kitchen_smoke", "on", {"device_class": "smoke", "friendly_name": "Smoke"}
    )
    response = await analyze(hass, entry)
    assert response["verdict"]["label"] == "anomaly"
    assert response["verdict"]["evidence"] == ["binary_sensor.kitchen_smoke"]


async def test_acknowledge_keeps_it_open_without_reminding(
    hass: HomeAssistant, hass_client: ClientSessionGenerator
) -> None:
    """Acknowledged: the issue goes, the anomaly stays open, nothing is re-announced."""
    assert await async_setup_component(hass, "http", {})
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)

    issue_id = await _unlocked_while_away(hass, entry)
    await _run_fix_flow(hass, hass_client, issue_id, "acknowledge")

    assert ir.async_get(hass).async_get_issue(DOMAIN, issue_id) is None
    response = await analyze(hass, entry)
    await hass.async_block_till_done()
    assert response["verdict"]["label"] == "anomaly"
    (anomaly,) = entry.runtime_data.coordinator.tracker.open.values()
    assert anomaly.acknowledged
    assert len(detected) == 1
    assert ir.async_get(hass).async_get_issue(DOMAIN, issue_id) is None

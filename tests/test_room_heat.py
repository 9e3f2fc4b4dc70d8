"""A bedroom at 70 °C in a real hass: what the homeowner reads, told at once, and a false
alarm on it never silences the next one."""

from __future__ import annotations

from datetime import timedelta
import re
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import async_capture_events
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.anomaly_monitor.const import (
    DOMAIN,
    EVENT_ANOMALY_DETECTED,
    SIGNIFICANT_DEBOUNCE,
)

from .helpers import ALICE, analyze, in_area, pass_time, set_calm_home, setup_monitor

THERMOMETER = "sensor.bedroom_temperature"
BEDROOM_SMOKE = "binary_sensor.bedroom_smoke"


def _notifications(hass: HomeAssistant) -> list[dict[str, Any]]:
    from homeassistant.components.persistent_notification import _async_get_or_create_notifications

    return [
        n
        for key, n in _async_get_or_create_notifications(hass).items()
        if key.startswith(f"{DOMAIN}_")
    ]


def _plain(markdown: str) -> str:
    """The message as the homeowner reads it (Markdown escapes taken out)."""
    return re.sub(r"\\(.)", r"\1", markdown)


def _reads(hass: HomeAssistant, value: str, unit: str = "°C") -> None:
    hass.states.async_set(
        THERMOMETER,
        value,
        {
            "device_class": "temperature",
            "unit_of_measurement": unit,
            "friendly_name": "Bedroom temperature",
        },
    )


async def _bedroom(hass: HomeAssistant, unit: str = "°C") -> Any:
    assert await async_setup_component(hass, "http", {})
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    set_calm_home(hass)
    in_area(hass, THERMOMETER, "Bedroom")
    in_area(hass, BEDROOM_SMOKE, "Bedroom")
    _reads(hass, "21" if unit == "°C" else "70", unit)
    hass.states.async_set(
        BEDROOM_SMOKE, "off", {"device_class": "smoke", "friendly_name": "Bedroom smoke"}
    )
    entry = await setup_monitor(hass, include_entities=[THERMOMETER, BEDROOM_SMOKE, ALICE])
    assert (await analyze(hass, entry))["verdict"]["label"] == "normal"
    return entry


async def _false_alarm(hass: HomeAssistant, client: ClientSessionGenerator, issue_id: str) -> None:
    http = await client()
    resp = await http.post(
        "/api/repairs/issues/fix", json={"handler": DOMAIN, "issue_id": issue_id}
    )
    flow = await resp.json()
    assert flow["description_placeholders"]["headline"] == "Possible fire or overheating in Bedroom"
    resp = await http.post(
        f"/api/repairs/issues/fix/{flow['flow_id']}", json={"next_step_id": "false_alarm"}
    )
    assert (await resp.json())["type"] == "create_entry"
    await hass.async_block_till_done(wait_background_tasks=True)


async def test_a_bedroom_at_70_degrees_reads_as_a_possible_fire_and_is_never_silenced(
    hass: HomeAssistant, hass_client: ClientSessionGenerator, freezer: FrozenDateTimeFactory
) -> None:
    entry = await _bedroom(hass)
    coordinator = entry.runtime_data.coordinator
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)

    _reads(hass, "70")
    # The safety check: no analysis was asked for.
    await hass.async_block_till_done(wait_background_tasks=True)
    assert [e.data["rule"] for e in detected] == ["room_heat_fire_risk"]
    assert detected[0].data["severity"] == "high"
    (note,) = _notifications(hass)
    assert note["title"] == "Possible fire or overheating in Bedroom"
    message = _plain(note["message"])
    assert message.startswith("**Safety hazard** (high)")
    assert (
        "Bedroom temperature reads 70 °C: Bedroom is far hotter than a room gets (over 50 °C) "
        "without a fire or an overheating appliance, unless the sensor has failed. "
        "Bedroom smoke has not gone off."
    ) in message
    assert "- Bedroom temperature (Bedroom): 70 °C" in message
    assert "- also: Bedroom smoke (Bedroom): Clear" in message
    assert (
        "**What to do:** Check Bedroom now for fire or an overheating appliance; if there is "
        "fire, leave the home and call the fire brigade. If the room is normal, the sensor "
        "has failed: replace it."
    ) in message
    assert "Impossible" not in message
    (issue_id,) = [i for (d, i) in ir.async_get(hass).issues if d == DOMAIN]
    issue = ir.async_get(hass).async_get_issue(DOMAIN, issue_id)
    assert issue is not None
    assert issue.translation_key == "hazard_anomaly"  # "false alarm: this time only"

    # The sensor had failed, the homeowner says: this occurrence is dismissed, no mark.
    await _false_alarm(hass, hass_client, issue_id)
    assert coordinator.tracker.false_alarms == {}
    assert _notifications(hass) == []
    await analyze(hass, entry)  # still 70 °C: the same occurrence, quiet
    assert len(detected) == 1

    # Back to 21 °C: leaving the fire band is judged by itself, and ends the occurrence
    # (no periodic analysis, no action: else the next 70 °C would join the dismissed one).
    _reads(hass, "21")
    await pass_time(hass, freezer, SIGNIFICANT_DEBOUNCE + timedelta(seconds=1))
    assert coordinator.tracker.dismissed == {}  # that occurrence is over

    _reads(hass, "70")  # the next time is told again, at once
    await hass.async_block_till_done(wait_background_tasks=True)
    assert [e.data["rule"] for e in detected].count("room_heat_fire_risk") == 2
    assert [n["title"] for n in _notifications(hass)] == ["Possible fire or overheating in Bedroom"]


async def test_a_fahrenheit_bedroom_freezing_reads_as_pipes_at_risk(hass: HomeAssistant) -> None:
    """The same rules in °F: 30 °F (-1 °C) is a room freezing, told in °F."""
    entry = await _bedroom(hass, unit="°F")
    _reads(hass, "30", "°F")
    await hass.async_block_till_done(wait_background_tasks=True)
    (note,) = _notifications(hass)
    assert note["title"] == "Bedroom far too cold: pipes may freeze"
    assert note["message"].startswith("**Safety hazard** (high)")
    assert "Bedroom temperature reads 30 °F: Bedroom is below freezing (32 °F or less)" in (
        _plain(note["message"])
    )
    assert (await analyze(hass, entry))["verdict"]["anomaly_type"] == "safety_hazard"

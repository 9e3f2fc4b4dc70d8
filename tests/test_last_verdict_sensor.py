"""The *Last verdict* sensor says what the monitor concluded: what is open now.

Walk of session 20: it read ``anomaly`` with 0 open anomalies after somebody came home
(the statistic still found the away spell's motion, rightly not told). The raw verdict of
the window is the ``analyze`` action's answer; the sensor a homeowner reads follows what
is open, and shows the verdict's details only then.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.setup import async_setup_component

from custom_components.anomaly_monitor.const import DOMAIN

from .helpers import ALICE, SMOKE, analyze, put_in_area, set_calm_home, setup_monitor

SMOKE_ATTRS = {"device_class": "smoke", "friendly_name": "Kitchen smoke"}


def _state(hass: HomeAssistant, entry_id: str, key: str, platform: str):
    entity_id = er.async_get(hass).async_get_entity_id(platform, DOMAIN, f"{entry_id}_{key}")
    assert entity_id is not None
    return hass.states.get(entity_id)


async def test_the_last_verdict_reads_normal_when_nothing_found_is_open(
    hass: HomeAssistant,
) -> None:
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    hass.states.async_set(SMOKE, "on", SMOKE_ATTRS)
    await analyze(hass, entry)
    await hass.async_block_till_done()
    verdict = _state(hass, entry.entry_id, "last_verdict", "sensor")
    assert verdict.state == "anomaly"
    assert verdict.attributes["evidence"] == [SMOKE]

    # "False alarm" on the smoke: this occurrence is dismissed, nothing is open, while the
    # window's verdict still finds the smoke (not told again).
    coordinator = entry.runtime_data.coordinator
    (anomaly_id,) = (a.key for a in coordinator.tracker.open.values())
    coordinator.async_mark_false_alarm(anomaly_id)
    response = await analyze(hass, entry)
    await hass.async_block_till_done()
    assert response["verdict"]["label"] == "anomaly"
    assert _state(hass, entry.entry_id, "open_anomalies", "sensor").state == "0"
    assert _state(hass, entry.entry_id, "anomaly", "binary_sensor").state == "off"
    verdict = _state(hass, entry.entry_id, "last_verdict", "sensor")
    assert verdict.state == "normal"
    assert "evidence" not in verdict.attributes
    assert "reasoning" not in verdict.attributes
    assert "analysed_at" in verdict.attributes


LEAK = "binary_sensor.bathroom_leak"
LEAK_ATTRS = {"device_class": "moisture", "friendly_name": "Bathroom leak"}


async def test_the_last_verdict_describes_the_open_anomaly_while_it_clears(
    hass: HomeAssistant,
) -> None:
    """Walk of session 21: the leak dry, its anomaly still open (hysteresis), the sensor
    read ``anomaly`` with reasoning "Nothing unusual." and no evidence (the window's
    verdict); its details say what is open."""
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    set_calm_home(hass)
    hass.states.async_set(LEAK, "off", LEAK_ATTRS)
    entry = await setup_monitor(hass)
    hass.states.async_set(LEAK, "on", LEAK_ATTRS)
    await analyze(hass, entry)
    hass.states.async_set(LEAK, "off", LEAK_ATTRS)
    response = await analyze(hass, entry)
    await hass.async_block_till_done()
    assert response["verdict"]["label"] == "normal"
    assert _state(hass, entry.entry_id, "open_anomalies", "sensor").state == "1"
    verdict = _state(hass, entry.entry_id, "last_verdict", "sensor")
    assert verdict.state == "anomaly"
    assert verdict.attributes["evidence"] == [LEAK]
    assert "Moisture" in verdict.attributes["reasoning"]
    assert verdict.attributes["anomaly_type"] == "safety_hazard"
    assert verdict.attributes["severity"] == "high"


async def test_the_last_verdict_leaves_out_what_is_no_longer_open(hass: HomeAssistant) -> None:
    """Smoke marked a false alarm while a leak stays open: the window's verdict still
    finds both; the sensor tells the leak only."""
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    set_calm_home(hass)
    hass.states.async_set(LEAK, "off", LEAK_ATTRS)
    entry = await setup_monitor(hass)
    hass.states.async_set(LEAK, "on", LEAK_ATTRS)
    hass.states.async_set(SMOKE, "on", SMOKE_ATTRS)
    await analyze(hass, entry)
    coordinator = entry.runtime_data.coordinator
    (smoke_id,) = (a.key for a in coordinator.tracker.open.values() if a.subject == SMOKE)
    coordinator.async_mark_false_alarm(smoke_id)
    response = await analyze(hass, entry)
    await hass.async_block_till_done()
    assert SMOKE in response["verdict"]["evidence"]
    verdict = _state(hass, entry.entry_id, "last_verdict", "sensor")
    assert verdict.state == "anomaly"
    assert verdict.attributes["evidence"] == [LEAK]
    assert "Smoke" not in verdict.attributes["reasoning"]
    assert verdict.attributes["severity"] == "high"


GARAGE_DOOR = "binary_sensor.garage_side_door"
GARAGE_ATTRS = {"device_class": "door", "friendly_name": "Garage side door"}


async def test_the_verdict_names_devices_as_the_notices_do(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Walk of session 38: the ``analyze`` answer and this sensor said "binary_sensor.fridge_door
    stayed open…" where the notice said "Fridge door"; a dashboard card shows it to the homeowner.
    The evidence keeps the ids automations match on."""
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    set_calm_home(hass)
    put_in_area(hass, "Garage", GARAGE_DOOR)
    hass.states.async_set(GARAGE_DOOR, "off", GARAGE_ATTRS)
    entry = await setup_monitor(hass, learned=True, include_entities=[SMOKE, ALICE, GARAGE_DOOR])
    hass.states.async_set(GARAGE_DOOR, "on", GARAGE_ATTRS)
    response: dict[str, Any] = {}
    for _ in range(40):
        freezer.tick(timedelta(minutes=1))
        response = await analyze(hass, entry)
    await hass.async_block_till_done()
    (door,) = (f for f in response["verdict"]["findings"] if f["rule"] == "entry_left_open")
    assert door["evidence"][0] == GARAGE_DOOR
    assert "Garage side door" in door["reasoning"]
    assert GARAGE_DOOR not in door["reasoning"]
    assert GARAGE_DOOR not in response["verdict"]["reasoning"]
    verdict = _state(hass, entry.entry_id, "last_verdict", "sensor")
    assert verdict.attributes["evidence"] == [GARAGE_DOOR]
    assert "Garage side door" in verdict.attributes["reasoning"]
    assert GARAGE_DOOR not in verdict.attributes["reasoning"]

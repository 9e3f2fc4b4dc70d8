"""The logbook says what the monitor told and what is over (walk of session 19: the
monitor's event entity read only as timestamps; its detected and cleared events were left
out of the logbook, which shows only the events an integration describes)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr, entity_registry as er
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.components.recorder.common import (
    async_wait_recording_done,
)
from pytest_homeassistant_custom_component.typing import WebSocketGenerator

from custom_components.anomaly_monitor.anomalies.open_anomaly import DETECTOR_CLEAR_AFTER
from custom_components.anomaly_monitor.const import DOMAIN

from .helpers import SMOKE, analyze, set_calm_home, setup_monitor
from .recorder_home import (  # noqa: F401 (fixtures, found by name)
    auto_enable_custom_integrations,
    quiet_sqlalchemy,
)

# Three analyses this far apart end a detector's hazard (``DETECTOR_CLEAR_AFTER``).
_STEP = DETECTOR_CLEAR_AFTER / 2 + timedelta(seconds=10)

SMOKE_ATTRS = {"device_class": "smoke", "friendly_name": "Kitchen smoke"}


async def _smoke_told(hass: HomeAssistant) -> MockConfigEntry:
    """A monitor with the logbook, told of smoke in the kitchen."""
    # The logbook's panel needs the frontend, which the test venvs do not install: the
    # logbook's own API is what is read here, so the frontend is taken as set up.
    hass.config.components.add("frontend")
    assert await async_setup_component(hass, "logbook", {})
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    # The recorder's history read at set-up runs in the background: done before the
    # test goes on, else teardown closes the database under it (a segfault in sqlite).
    await hass.async_block_till_done(wait_background_tasks=True)
    hass.states.async_set(SMOKE, "on", SMOKE_ATTRS)
    await analyze(hass, entry)
    return entry


async def _logbook(
    hass: HomeAssistant, hass_ws_client: WebSocketGenerator, start: datetime, **asked: Any
) -> list[dict[str, Any]]:
    """The logbook's entries since ``start`` (``asked``: for which devices and entities)."""
    await hass.async_block_till_done(wait_background_tasks=True)
    await async_wait_recording_done(hass)
    client = await hass_ws_client(hass)
    end = dt_util.utcnow() + timedelta(hours=1)
    await client.send_json(
        {"id": 1, "type": "logbook/get_events", "start_time": start.isoformat()}
        | {"end_time": end.isoformat()}
        | asked
    )
    reply = await client.receive_json()
    assert reply["success"], reply
    return reply["result"]


async def test_told_and_over_read_in_the_logbook(
    recorder_mock: Any,
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    hass_ws_client: WebSocketGenerator,
) -> None:
    start = dt_util.utcnow() - timedelta(minutes=1)
    entry = await _smoke_told(hass)
    hass.states.async_set(SMOKE, "off", SMOKE_ATTRS)
    for _ in range(3):  # past the clear hysteresis
        freezer.tick(_STEP)
        await analyze(hass, entry)
    result = await _logbook(hass, hass_ws_client, start)
    ours = [e for e in result if e.get("domain") == "anomaly_monitor"]
    messages = [e["message"] for e in ours]
    assert "told: Smoke in the home (critical)" in messages, result
    assert "over: Smoke in the home" in messages, messages
    assert all(e["name"] == entry.title for e in ours)
    assert all(e.get("entity_id", "").startswith("event.") for e in ours), ours
    await hass.async_block_till_done(wait_background_tasks=True)


async def test_told_reads_on_the_monitor_device_page(
    recorder_mock: Any,
    hass: HomeAssistant,
    hass_ws_client: WebSocketGenerator,
) -> None:
    """Walk of session 21: the device page's Activity (the logbook asked for the device
    and its entities) read only "Anomaly detected an event": HA's logbook finds an
    integration's events for a device by the ``device_id`` in their data."""
    start = dt_util.utcnow() - timedelta(minutes=1)
    entry = await _smoke_told(hass)
    (device,) = [  # not async_get_device: deprecated from HA 2026.10
        d
        for d in dr.async_entries_for_config_entry(dr.async_get(hass), entry.entry_id)
        if (DOMAIN, entry.entry_id) in d.identifiers
    ]
    entities = [e.entity_id for e in er.async_entries_for_device(er.async_get(hass), device.id)]
    result = await _logbook(
        hass, hass_ws_client, start, device_ids=[device.id], entity_ids=entities
    )
    messages = [e.get("message") for e in result]
    assert "told: Smoke in the home (critical)" in messages, result
    await hass.async_block_till_done(wait_background_tasks=True)

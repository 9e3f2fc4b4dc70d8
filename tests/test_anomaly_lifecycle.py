"""Notifications and repair issues follow the monitor: restart, reload, disable, delete."""

from __future__ import annotations

from typing import Any

from homeassistant.components import persistent_notification
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.config_entries import ConfigEntryDisabler
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_capture_events

from custom_components.anomaly_monitor.const import DOMAIN, EVENT_ANOMALY_DETECTED

from .helpers import SMOKE, analyze, set_calm_home, setup_monitor


def _notifications(hass: HomeAssistant) -> dict[str, Any]:
    from homeassistant.components.persistent_notification import _async_get_or_create_notifications

    return dict(_async_get_or_create_notifications(hass))


def _ours(hass: HomeAssistant, entry: MockConfigEntry) -> tuple[list[str], list[str]]:
    notes = [n for n in _notifications(hass) if n.startswith(f"{DOMAIN}_{entry.entry_id}_")]
    issues = [i for (d, i) in ir.async_get(hass).issues if d == DOMAIN and entry.entry_id in i]
    return sorted(notes), sorted(issues)


async def _smoky_monitor(hass: HomeAssistant) -> MockConfigEntry:
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Smoke"})
    await analyze(hass, entry)
    await hass.async_block_till_done()
    notes, issues = _ours(hass, entry)
    assert len(notes) == len(issues) == 1
    return entry


async def test_notification_survives_a_restart(hass: HomeAssistant) -> None:
    """Notifications live in memory only: setup shows the open anomaly's again."""
    entry = await _smoky_monitor(hass)
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    before = _ours(hass, entry)
    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    # A restart: memory is gone (notifications, non-persistent issues), the Store is not.
    for note in before[0]:
        persistent_notification.async_dismiss(hass, note)
    for issue in before[1]:
        ir.async_delete_issue(hass, DOMAIN, issue)

    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert _ours(hass, entry) == before
    await analyze(hass, entry)
    await hass.async_block_till_done()
    assert detected == []  # shown again, not announced again


async def test_reload_never_duplicates(hass: HomeAssistant) -> None:
    entry = await _smoky_monitor(hass)
    before = _ours(hass, entry)
    for _ in range(3):
        assert await hass.config_entries.async_reload(entry.entry_id)
        await hass.async_block_till_done()
        await analyze(hass, entry)
        await hass.async_block_till_done()
    assert _ours(hass, entry) == before


async def test_a_reload_writes_no_unchanged_notification(hass: HomeAssistant) -> None:
    """Seen in a live hass: after an options change each notification was written twice
    (the restore, then the re-show meant for start-up), each coming back as new with a
    new time. Unchanged, it is not written at all; dismissed by the homeowner, it is
    read: the next reload does not write it again (session 20; its issue stays)."""
    entry = await _smoky_monitor(hass)
    (note,) = _ours(hass, entry)[0]
    writes: list[str] = []

    @callback
    def _count(update: persistent_notification.UpdateType, notes: dict[str, Any]) -> None:
        if update == persistent_notification.UpdateType.ADDED:
            writes.extend(n for n in notes if n == note)

    persistent_notification.async_register_callback(hass, _count)
    created = _notifications(hass)[note]["created_at"]
    for _ in range(2):
        assert await hass.config_entries.async_reload(entry.entry_id)
        await hass.async_block_till_done()
        await analyze(hass, entry)
        await hass.async_block_till_done()
    assert writes == []
    assert _notifications(hass)[note]["created_at"] == created

    issues = _ours(hass, entry)[1]
    persistent_notification.async_dismiss(hass, note)
    assert await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done()
    assert writes == []
    assert note not in _notifications(hass)
    assert _ours(hass, entry)[1] == issues


async def test_an_acknowledged_anomaly_stays_quiet_after_a_restart(hass: HomeAssistant) -> None:
    entry = await _smoky_monitor(hass)
    coordinator = entry.runtime_data.coordinator
    (anomaly,) = coordinator.tracker.open.values()
    coordinator.async_acknowledge(anomaly.key)
    assert await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done()
    assert _ours(hass, entry) == ([], [])


async def test_removing_the_monitor_removes_its_issues_and_notifications(
    hass: HomeAssistant, hass_storage: dict[str, Any]
) -> None:
    entry = await _smoky_monitor(hass)
    assert await hass.config_entries.async_remove(entry.entry_id)
    await hass.async_block_till_done()
    assert _ours(hass, entry) == ([], [])
    assert f"{DOMAIN}.{entry.entry_id}" not in hass_storage


async def test_disabling_the_monitor_removes_them_and_enabling_brings_them_back(
    hass: HomeAssistant,
) -> None:
    entry = await _smoky_monitor(hass)
    before = _ours(hass, entry)
    assert await hass.config_entries.async_set_disabled_by(entry.entry_id, ConfigEntryDisabler.USER)
    await hass.async_block_till_done()
    assert _ours(hass, entry) == ([], [])

    assert await hass.config_entries.async_set_disabled_by(entry.entry_id, None)
    await hass.async_block_till_done()
    assert _ours(hass, entry) == before  # still smoky: the stored anomaly is shown again


async def test_restored_notification_reads_the_states_once_ha_has_started(
    hass: HomeAssistant,
) -> None:
    """While HA starts, the smoke detector's state is not known yet: the notification shown
    then is shown again, with the real state, once HA has started (same id, no new event)."""
    from homeassistant.const import EVENT_HOMEASSISTANT_STARTED
    from homeassistant.core import CoreState

    entry = await _smoky_monitor(hass)
    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    for note in _ours(hass, entry)[0]:
        persistent_notification.async_dismiss(hass, note)
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)

    hass.set_state(CoreState.starting)
    hass.states.async_set(SMOKE, "unknown", {"device_class": "smoke", "friendly_name": "Smoke"})
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    ((note_id, note),) = [(k, v) for k, v in _notifications(hass).items() if entry.entry_id in k]
    assert "Smoke" in note["message"]

    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Smoke"})
    hass.set_state(CoreState.running)
    hass.bus.async_fire(EVENT_HOMEASSISTANT_STARTED)
    await hass.async_block_till_done()
    ((again_id, again),) = [(k, v) for k, v in _notifications(hass).items() if entry.entry_id in k]
    assert again_id == note_id
    assert "Detected" in again["message"]
    assert "unknown" not in again["message"].lower()
    assert detected == []

"""A notification the homeowner dismissed stays dismissed across a restart.

HA keeps persistent notifications in memory only, so the monitor writes them again at
start. Walk of session 20: every ended anomaly's "Over: ..." came back after a restart,
also those the homeowner had dismissed, and so did dismissed open ones. The tracker now
remembers the homeowner's dismissal; a restart writes only the repair issue of such an
anomaly (it takes the answer). Unread notifications come back as before, and one told
again (graver) is unread again.
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components import persistent_notification
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.anomaly_monitor.anomalies.open_anomaly import DETECTOR_CLEAR_AFTER
from custom_components.anomaly_monitor.const import DOMAIN

from .helpers import ALICE, FRONT_LOCK, SMOKE, analyze, set_calm_home, setup_monitor

# Three analyses this far apart end a detector's hazard (``DETECTOR_CLEAR_AFTER``).
_STEP = DETECTOR_CLEAR_AFTER / 2 + timedelta(seconds=10)

SMOKE_ATTRS = {"device_class": "smoke", "friendly_name": "Kitchen smoke"}
LOCK_ATTRS = {"friendly_name": "Front door"}


def _issues(hass: HomeAssistant) -> set[str]:
    return {i.issue_id for (d, _), i in ir.async_get(hass).issues.items() if d == DOMAIN}


def _notes(hass: HomeAssistant, entry: MockConfigEntry) -> dict[str, str]:
    from homeassistant.components.persistent_notification import _async_get_or_create_notifications

    notes = _async_get_or_create_notifications(hass)
    prefix = f"{DOMAIN}_{entry.entry_id}_"
    return {k: v["title"] for k, v in notes.items() if k.startswith(prefix)}


async def _until_over(hass: HomeAssistant, freezer: FrozenDateTimeFactory, entry) -> None:
    for _ in range(3):
        freezer.tick(_STEP)
        await analyze(hass, entry)
        await hass.async_block_till_done()


async def _restart(hass: HomeAssistant, entry: MockConfigEntry) -> None:
    """Unload, lose every notification and repair issue (memory), set up again."""
    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    for note in _notes(hass, entry):
        persistent_notification.async_dismiss(hass, note)
    for issue in _issues(hass):
        ir.async_delete_issue(hass, DOMAIN, issue)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()


async def _monitor(hass: HomeAssistant) -> MockConfigEntry:
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    set_calm_home(hass)
    return await setup_monitor(hass)


async def test_an_over_notice_dismissed_does_not_come_back_an_unread_one_does(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    entry = await _monitor(hass)
    # Two incidents (the lock unlocked as the smoke began would be its answer, one
    # notification: ``test_incident_parts_shown``): the lock first, then the smoke.
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    hass.states.async_set(FRONT_LOCK, "unlocked", LOCK_ATTRS)
    await analyze(hass, entry)
    hass.states.async_set(SMOKE, "on", SMOKE_ATTRS)
    await analyze(hass, entry)
    await hass.async_block_till_done()
    hass.states.async_set(SMOKE, "off", SMOKE_ATTRS)
    hass.states.async_set(FRONT_LOCK, "locked", LOCK_ATTRS)
    await _until_over(hass, freezer, entry)
    notes = _notes(hass, entry)
    assert len(notes) == 2
    assert all(title.startswith("Over: ") for title in notes.values())
    issues = _issues(hass)
    assert len(issues) == 2

    # The homeowner reads the smoke's "Over: ..." and dismisses it; the lock's stays unread.
    (smoke_note,) = (k for k, t in notes.items() if "Smoke" in t)
    persistent_notification.async_dismiss(hass, smoke_note)
    await hass.async_block_till_done()

    await _restart(hass, entry)
    assert _notes(hass, entry) == {k: t for k, t in notes.items() if k != smoke_note}
    assert _issues(hass) == issues  # both still take the answer

    # And at the restart after that, still so.
    await _restart(hass, entry)
    assert set(_notes(hass, entry)) == set(notes) - {smoke_note}


async def test_an_open_anomaly_dismissed_is_not_shown_again_until_told_again(
    hass: HomeAssistant,
) -> None:
    entry = await _monitor(hass)
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    hass.states.async_set(FRONT_LOCK, "unlocked", LOCK_ATTRS)
    await analyze(hass, entry)
    await hass.async_block_till_done()
    ((note_id, _),) = _notes(hass, entry).items()
    issues = _issues(hass)
    persistent_notification.async_dismiss(hass, note_id)
    await hass.async_block_till_done()

    await _restart(hass, entry)
    await analyze(hass, entry)  # still unlocked, nobody home: the same anomaly
    await hass.async_block_till_done()
    assert _notes(hass, entry) == {}
    assert _issues(hass) == issues

    # Told again (as a graver or reopened anomaly is): unread again, back after a restart.
    coordinator = entry.runtime_data.coordinator
    (anomaly,) = coordinator.tracker.open.values()
    assert anomaly.notice_dismissed
    await coordinator.announcer.async_opened(anomaly)
    assert not anomaly.notice_dismissed
    assert set(_notes(hass, entry)) == {note_id}
    await _restart(hass, entry)
    assert set(_notes(hass, entry)) == {note_id}


async def test_the_monitors_own_removal_is_no_dismissal(hass: HomeAssistant) -> None:
    """Acknowledged from its fix flow, or over and answered: the monitor removes the
    notification itself; that is not the homeowner dismissing it."""
    entry = await _monitor(hass)
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    hass.states.async_set(FRONT_LOCK, "unlocked", LOCK_ATTRS)
    await analyze(hass, entry)
    await hass.async_block_till_done()
    coordinator = entry.runtime_data.coordinator
    (anomaly,) = coordinator.tracker.open.values()
    coordinator.announcer.async_forget(anomaly)
    await hass.async_block_till_done()
    assert _notes(hass, entry) == {}
    assert not anomaly.notice_dismissed

"""Feedback read late: the anomaly is over, the homeowner still says "false alarm".

A short smoke alarm, a door unlocked for a minute while away: the homeowner reads the
notification minutes or hours later, when the anomaly has cleared. Its repair issue stays
a day, saying it is over, and its fix flow still takes the answer.
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components import persistent_notification
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir, translation
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_capture_events

from custom_components.anomaly_monitor.anomalies.open_anomaly import DETECTOR_CLEAR_AFTER
from custom_components.anomaly_monitor.const import (
    DOMAIN,
    EVENT_ANOMALY_CLEARED,
    EVENT_ANOMALY_DETECTED,
)

from .helpers import ALICE, FRONT_LOCK, SMOKE, analyze, set_calm_home, setup_monitor

# Three analyses this far apart end a detector's hazard (``DETECTOR_CLEAR_AFTER``).
_STEP = DETECTOR_CLEAR_AFTER / 2 + timedelta(seconds=10)

SMOKE_ATTRS = {"device_class": "smoke", "friendly_name": "Kitchen smoke"}


def _issues(hass: HomeAssistant) -> list[ir.IssueEntry]:
    return [i for (d, _), i in ir.async_get(hass).issues.items() if d == DOMAIN and i.active]


def _notes(hass: HomeAssistant, entry: MockConfigEntry) -> dict[str, dict]:
    from homeassistant.components.persistent_notification import _async_get_or_create_notifications

    notes = _async_get_or_create_notifications(hass)
    return {k: dict(v) for k, v in notes.items() if k.startswith(f"{DOMAIN}_{entry.entry_id}_")}


async def _fix_flow(hass: HomeAssistant, issue_id: str, choice: str) -> None:
    manager = hass.data["repairs"]["flow_manager"]
    flow = await manager.async_init(DOMAIN, data={"issue_id": issue_id})
    assert set(flow["menu_options"]) == {"acknowledge", "false_alarm"}
    result = await manager.async_configure(flow["flow_id"], {"next_step_id": choice})
    assert result["type"] == "create_entry"
    await hass.async_block_till_done()


async def _until_over(hass: HomeAssistant, freezer: FrozenDateTimeFactory, entry) -> None:
    """Analyses past the clear hysteresis (two misses, and a detector's quarter hour)."""
    for _ in range(3):
        freezer.tick(_STEP)
        await analyze(hass, entry)
        await hass.async_block_till_done()


async def _smoke_came_and_went(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, entry: MockConfigEntry
) -> None:
    """A short smoke alarm, told and over."""
    hass.states.async_set(SMOKE, "on", SMOKE_ATTRS)
    await analyze(hass, entry)
    hass.states.async_set(SMOKE, "off", SMOKE_ATTRS)
    await _until_over(hass, freezer, entry)


async def _monitor(hass: HomeAssistant) -> MockConfigEntry:
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    set_calm_home(hass)
    return await setup_monitor(hass)


async def test_false_alarm_after_the_anomaly_ended_still_teaches(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    entry = await _monitor(hass)
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    cleared = async_capture_events(hass, EVENT_ANOMALY_CLEARED)
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    hass.states.async_set(FRONT_LOCK, "unlocked", {"friendly_name": "Front door"})
    await analyze(hass, entry)
    await hass.async_block_till_done()
    assert len(detected) == 1
    hass.states.async_set(FRONT_LOCK, "locked", {"friendly_name": "Front door"})
    await _until_over(hass, freezer, entry)
    coordinator = entry.runtime_data.coordinator
    assert coordinator.tracker.open == {}
    assert len(cleared) == 1  # automations hear that it is over

    # Read an hour later: the issue is still there and says it is over.
    freezer.tick(timedelta(hours=1))
    (issue,) = _issues(hass)
    assert issue.translation_key == "anomaly_ended"
    assert issue.translation_placeholders["headline"].startswith("Over: ")
    (note,) = _notes(hass, entry).values()
    assert note["title"].startswith("Over: ")
    assert "Over since" in note["message"]
    await _fix_flow(hass, issue.issue_id, "false_alarm")
    assert _issues(hass) == []
    assert _notes(hass, entry) == {}
    assert len(coordinator.tracker.false_alarms) == 1

    # The same pattern is not told again; the mark works as if given while it was open.
    hass.states.async_set(FRONT_LOCK, "unlocked", {"friendly_name": "Front door"})
    response = await analyze(hass, entry)
    assert response["verdict"]["label"] == "normal"
    assert len(detected) == 1


async def test_a_hazard_answered_after_it_ended_is_told_next_time(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    entry = await _monitor(hass)
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    await _smoke_came_and_went(hass, freezer, entry)
    freezer.tick(timedelta(minutes=8))
    (issue,) = _issues(hass)
    assert issue.translation_key == "hazard_anomaly_ended"
    await _fix_flow(hass, issue.issue_id, "false_alarm")
    coordinator = entry.runtime_data.coordinator
    assert _issues(hass) == []
    assert len(coordinator.tracker.false_alarms) == 0  # a mark never silences a fire
    assert coordinator.tracker.dismissed == {}  # no occurrence is left to dismiss

    hass.states.async_set(SMOKE, "on", SMOKE_ATTRS)
    await analyze(hass, entry)
    await hass.async_block_till_done()
    assert len(detected) == 2


async def _smoke_over_then_unloaded(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> tuple[MockConfigEntry, ir.IssueEntry]:
    """A short smoke alarm, over; then the entry unloads as at a restart (notifications
    go, the Store stays)."""
    entry = await _monitor(hass)
    await _smoke_came_and_went(hass, freezer, entry)
    (issue,) = _issues(hass)
    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    for note in _notes(hass, entry):
        persistent_notification.async_dismiss(hass, note)
    return entry, issue


async def test_an_ended_anomaly_is_answerable_for_a_day_also_across_a_restart(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    entry, issue = await _smoke_over_then_unloaded(hass, freezer)
    # A restart: notifications and non-persistent issues are gone, the Store is not.
    ir.async_delete_issue(hass, DOMAIN, issue.issue_id)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert [i.issue_id for i in _issues(hass)] == [issue.issue_id]
    assert len(_notes(hass, entry)) == 1

    freezer.tick(timedelta(days=1))
    await analyze(hass, entry)
    await hass.async_block_till_done()
    assert _issues(hass) == []  # a day later it is forgotten
    assert _notes(hass, entry) == {}
    assert entry.runtime_data.coordinator.tracker.ended == {}


async def test_an_ended_anomaly_restored_while_ha_starts_reads_the_states_once_started(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Walk of session 8: after a restart "Over: Smoke in Kitchen" read "Kitchen smoke
    (...): unknown", the detector's state while HA started, and kept it. Once HA has
    started it reads the detector's real state (same notification and issue, no event)."""
    from homeassistant.const import EVENT_HOMEASSISTANT_STARTED
    from homeassistant.core import CoreState

    entry, issue = await _smoke_over_then_unloaded(hass, freezer)
    cleared = async_capture_events(hass, EVENT_ANOMALY_CLEARED)

    hass.set_state(CoreState.starting)
    hass.states.async_set(SMOKE, "unknown", SMOKE_ATTRS)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    ((note_id, note),) = _notes(hass, entry).items()
    assert note["title"] == "Over: Smoke in the home"
    assert "Unknown" in note["message"]  # HA's "unknown" as its frontend shows it

    hass.states.async_set(SMOKE, "off", SMOKE_ATTRS)
    hass.set_state(CoreState.running)
    hass.bus.async_fire(EVENT_HOMEASSISTANT_STARTED)
    await hass.async_block_till_done()
    ((again_id, again),) = _notes(hass, entry).items()
    assert again_id == note_id
    assert again["title"] == "Over: Smoke in the home"
    assert "Clear" in again["message"]
    assert "unknown" not in again["message"].lower()
    (now,) = _issues(hass)
    assert now.issue_id == issue.issue_id
    assert "unknown" not in now.translation_placeholders["evidence"].lower()
    assert cleared == []


async def test_an_ended_alarm_tells_its_advice_as_what_it_was(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Walks of sessions 8 and 16: "Over: Smoke in Kitchen ... What to do: Check the area
    for fire now and leave the home" read after the detector cleared."""
    entry = await _monitor(hass)
    hass.states.async_set(SMOKE, "on", SMOKE_ATTRS)
    await analyze(hass, entry)
    await hass.async_block_till_done()
    (note,) = _notes(hass, entry).values()
    assert "**What to do:** Check the area for fire now" in note["message"]
    hass.states.async_set(SMOKE, "off", SMOKE_ATTRS)
    await _until_over(hass, freezer, entry)

    (note,) = _notes(hass, entry).values()
    assert note["title"].startswith("Over: ")
    assert "What to do:" not in note["message"]
    assert "**While it lasted, the advice was:** Check the area for fire now" in note["message"]
    (issue,) = _issues(hass)
    manager = hass.data["repairs"]["flow_manager"]
    flow = await manager.async_init(DOMAIN, data={"issue_id": issue.issue_id})
    assert flow["description_placeholders"]["recommendation"].startswith("Check the area")
    assert issue.translation_key == "hazard_anomaly_ended"  # its text: "While it lasted"


async def test_an_ended_alarm_tells_what_was_seen_as_what_it_was(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Walks of sessions 16 and 17: "Over: Front door lock unlocked while nobody is home"
    went on "Front door lock is unlocked while nobody is home" in the present tense, above
    evidence that read the door closed. The whole notice reads as past: what was seen
    while it lasted, and the evidence as it reads now."""
    entry = await _monitor(hass)
    hass.states.async_set(SMOKE, "on", SMOKE_ATTRS)
    await analyze(hass, entry)
    await hass.async_block_till_done()
    (note,) = _notes(hass, entry).values()
    assert "While it lasted" not in note["message"]
    assert "**Evidence**\n" in note["message"]
    hass.states.async_set(SMOKE, "off", SMOKE_ATTRS)
    await _until_over(hass, freezer, entry)

    (note,) = _notes(hass, entry).values()
    assert "\n\n**While it lasted:** Smoke detected" in note["message"]
    assert "**Evidence, as it reads now**\n" in note["message"]
    (issue,) = _issues(hass)
    strings = await translation.async_get_translations(hass, "en", "issues", {DOMAIN})
    for key in ("hazard_anomaly_ended", "anomaly_ended"):
        description = strings[f"component.{DOMAIN}.issues.{key}.fix_flow.step.init.description"]
        assert "**While it lasted:** {reasoning}" in description
        assert "**Evidence, as it reads now**" in description
    assert issue.translation_key == "hazard_anomaly_ended"


async def test_a_false_alarm_on_an_ended_hazard_is_heard_as_on_an_open_one(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Walk of session 20: "false alarm" given on the ended leak's issue fired no event
    and wrote no logbook line; given while it is open it fires ``anomaly_cleared`` with
    reason ``false_alarm``. Ended or open, automations hear the same."""
    entry = await _monitor(hass)
    cleared = async_capture_events(hass, EVENT_ANOMALY_CLEARED)
    await _smoke_came_and_went(hass, freezer, entry)
    assert [e.data["reason"] for e in cleared] == ["resolved"]
    (issue,) = _issues(hass)
    await _fix_flow(hass, issue.issue_id, "false_alarm")
    assert [e.data["reason"] for e in cleared] == ["resolved", "false_alarm"]
    assert cleared[1].data["anomaly_id"] == cleared[0].data["anomaly_id"]
    assert cleared[1].data["title"] == cleared[0].data["title"]
    assert _issues(hass) == []
    assert _notes(hass, entry) == {}

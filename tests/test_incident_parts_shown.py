"""One incident, one notification: a part held with a told incident reads in its
notification and repair issue, and is answered with it (walk of session 23).

Walked in a real HA: smoke in the kitchen told with nobody home, then the front door
unlocked and opened in answer: not pushed (no event), but a second notification and a
second repair issue of its own, so the homeowner read two incidents; acknowledging the
smoke left the door's reminders on screen.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_capture_events

from custom_components.anomaly_monitor.anomalies.open_anomaly import DETECTOR_CLEAR_AFTER
from custom_components.anomaly_monitor.anomalies.texts import async_anomaly_texts
from custom_components.anomaly_monitor.anomalies.then_lines import async_then
from custom_components.anomaly_monitor.const import DOMAIN, EVENT_ANOMALY_DETECTED
from custom_components.anomaly_monitor.repairs import async_create_fix_flow

from .helpers import ALICE, FRONT_LOCK, SMOKE, analyze, in_area, set_calm_home, setup_monitor

DOOR = "binary_sensor.front_door_contact"


def _notes(hass: HomeAssistant, entry: MockConfigEntry) -> dict[str, Any]:
    from homeassistant.components.persistent_notification import _async_get_or_create_notifications

    prefix = f"{DOMAIN}_{entry.entry_id}_"
    notes = _async_get_or_create_notifications(hass)
    return {k: v for k, v in notes.items() if k.startswith(prefix)}


def _issues(hass: HomeAssistant, entry: MockConfigEntry) -> list[ir.IssueEntry]:
    prefix = f"anomaly_{entry.entry_id}_"
    registry = ir.async_get(hass)
    return [i for (d, k), i in registry.issues.items() if d == DOMAIN and k.startswith(prefix)]


async def _smoke_then_door(hass: HomeAssistant) -> MockConfigEntry:
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    in_area(hass, SMOKE, "Kitchen")
    in_area(hass, DOOR, "Hall")
    in_area(hass, FRONT_LOCK, "Hall")
    set_calm_home(hass)
    hass.states.async_set(DOOR, "off", {"device_class": "door", "friendly_name": "Front door"})
    hass.states.async_set(FRONT_LOCK, "locked", {"friendly_name": "Front door lock"})
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    entry = await setup_monitor(hass)
    await analyze(hass, entry)
    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Kitchen smoke"})
    await analyze(hass, entry)
    hass.states.async_set(FRONT_LOCK, "unlocked", {"friendly_name": "Front door lock"})
    hass.states.async_set(DOOR, "on", {"device_class": "door", "friendly_name": "Front door"})
    await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)
    return entry


async def test_the_door_opened_in_answer_reads_in_the_smokes_notification(
    hass: HomeAssistant,
) -> None:
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    entry = await _smoke_then_door(hass)
    tracker = entry.runtime_data.coordinator.tracker
    assert len(tracker.open) == 2  # two findings...
    assert len(detected) == 1  # ...one push
    (note,) = _notes(hass, entry).values()  # one notification, which names both
    assert "Smoke" in note["title"]
    assert "Then:" in note["message"]
    assert "Front door" in note["message"].split("Then:")[1]
    (issue,) = _issues(hass, entry)  # one repair issue, which names both
    words = issue.translation_placeholders or {}
    assert "Smoke" in words["headline"]
    assert "Front door" in words["reasoning"].split("Then:")[1]
    assert issue.severity is ir.IssueSeverity.CRITICAL
    # What the entities say agrees: one incident open.
    counts = [
        s.state for s in hass.states.async_all("sensor") if s.entity_id.endswith("open_anomalies")
    ]
    assert counts == ["1"]


async def test_answering_the_incident_answers_its_parts(hass: HomeAssistant) -> None:
    for step in ("acknowledge", "false_alarm"):
        entry = await _smoke_then_door(hass)
        coordinator = entry.runtime_data.coordinator
        (issue,) = _issues(hass, entry)
        flow = await async_create_fix_flow(hass, issue.issue_id, issue.data)
        flow.hass = hass
        await getattr(flow, f"async_step_{step}")()
        await hass.async_block_till_done()
        assert not _notes(hass, entry)
        assert not _issues(hass, entry)
        # The door is open still, acknowledged: told again only if graver.
        assert all(a.acknowledged for a in coordinator.tracker.open.values())
        await analyze(hass, entry)
        assert not _notes(hass, entry)
        assert not _issues(hass, entry)
        await hass.config_entries.async_unload(entry.entry_id)
        hass.states.async_set(SMOKE, "off", {"device_class": "smoke"})
        hass.states.async_set(DOOR, "off", {"device_class": "door"})
        hass.states.async_set(FRONT_LOCK, "locked")


async def test_the_incident_and_its_part_survive_a_restart_as_one(hass: HomeAssistant) -> None:
    entry = await _smoke_then_door(hass)
    before = dict(_notes(hass, entry))
    assert await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    (note,) = _notes(hass, entry).values()
    assert note["message"] == next(iter(before.values()))["message"]
    (issue,) = _issues(hass, entry)
    assert "Front door" in (issue.translation_placeholders or {})["reasoning"]


async def test_the_door_still_open_once_the_smoke_is_over_stands_alone(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """ "Over: Smoke in Kitchen" must not carry the door still open while nobody is home
    as a finished part: it is shown on its own then (still not pushed)."""
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    entry = await _smoke_then_door(hass)
    hass.states.async_set(SMOKE, "off", {"device_class": "smoke", "friendly_name": "Kitchen smoke"})
    for _ in range(3):  # a detector's hazard is over once clear ``DETECTOR_CLEAR_AFTER``
        freezer.tick(DETECTOR_CLEAR_AFTER / 2 + timedelta(seconds=10))
        await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)
    titles = sorted(n["title"] for n in _notes(hass, entry).values())
    assert len(titles) == 2
    over = next(n for n in _notes(hass, entry).values() if n["title"].startswith("Over: "))
    assert "Smoke" in over["title"]
    assert "Then:" not in over["message"]
    assert any("Front door" in t and not t.startswith("Over: ") for t in titles)
    assert len(_issues(hass, entry)) == 2
    assert len(detected) == 1  # shown, never pushed


async def test_a_part_is_named_when_held_and_the_then_lines_only_read(hass: HomeAssistant) -> None:
    """The door keeps the name it was held with, as a told incident keeps its title; the
    "Then:" lines read it and change nothing (they wrote it while rendering before)."""
    entry = await _smoke_then_door(hass)
    tracker = entry.runtime_data.coordinator.tracker
    (part,) = [a for a in tracker.open.values() if a.part_of]
    (smoke,) = [a for a in tracker.open.values() if not a.part_of]
    assert part.headline.startswith("Front door")
    (note,) = _notes(hass, entry).values()
    assert part.headline in note["message"].split("Then:")[1]
    unnamed = replace(part, headline="")
    then = await async_then(hass, await async_anomaly_texts(hass, smoke), [unnamed])
    assert "Front door" in then
    assert unnamed.headline == ""

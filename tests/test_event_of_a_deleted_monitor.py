"""A monitor added again does not show the deleted one's last event as its own.

Walk 59 deleted the entry after an "Over" and added it again: its event entity
(``event.<name>_anomaly``, the same entity id) read "Cleared" at 13:48 with the deleted
entry's id and title: HA restores an entity's last state by entity id. A restart of the
same monitor keeps its last event.
"""

from __future__ import annotations

from homeassistant.core import HomeAssistant, State
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    mock_restore_cache_with_extra_data,
)

from custom_components.anomaly_monitor.const import DOMAIN

from .helpers import monitor_options, set_calm_home

EVENT = "event.home_anomaly"
FIRED = "2026-12-07T19:48:47.419+00:00"


def _restored(owner: str) -> tuple[State, dict[str, object]]:
    attributes = {"config_entry_id": owner, "title": "Front door open while nobody is home"}
    return (
        State(EVENT, FIRED, {"event_type": "cleared", **attributes}),
        {"last_event_type": "cleared", "last_event_attributes": attributes},
    )


async def _monitor(hass: HomeAssistant, entry_id: str) -> None:
    set_calm_home(hass)
    entry = MockConfigEntry(
        domain=DOMAIN, title="Home", options=monitor_options(), entry_id=entry_id
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()


async def test_added_again_it_shows_no_event_of_the_deleted_one(hass: HomeAssistant) -> None:
    mock_restore_cache_with_extra_data(hass, [_restored("deleted_entry")])
    await _monitor(hass, "new_entry")
    state = hass.states.get(EVENT)
    assert state is not None
    assert state.state == "unknown"
    assert "config_entry_id" not in state.attributes


async def test_restarted_it_keeps_its_own_last_event(hass: HomeAssistant) -> None:
    mock_restore_cache_with_extra_data(hass, [_restored("same_entry")])
    await _monitor(hass, "same_entry")
    state = hass.states.get(EVENT)
    assert state is not None
    assert state.state == FIRED
    assert state.attributes["event_type"] == "cleared"
    assert state.attributes["config_entry_id"] == "same_entry"

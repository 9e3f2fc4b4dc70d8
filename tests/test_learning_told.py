"""A cold start the homeowner understands (issue 24): *Configure* says which devices are
still being learned, until when, and what is told meanwhile.

Seen in a live hass (docs/walks.md, session 16): the options form said how many entities
were watched and nothing about learning; only a diagnostic sensor's count ("7") and its
attributes, named in code, told that the monitor was still learning.
"""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from .helpers import ALICE, FRONT_LOCK, SMOKE, set_calm_home, setup_monitor


async def _description_learning(hass: HomeAssistant, entry_id: str) -> str:
    result = await hass.config_entries.options.async_init(entry_id)
    assert result["step_id"] == "init"
    placeholders = result["description_placeholders"]
    assert placeholders is not None
    return placeholders["learning"]


async def test_configure_names_what_is_still_learned_and_until_when(hass: HomeAssistant) -> None:
    set_calm_home(hass)
    entry = await setup_monitor(hass, include_entities=[SMOKE, FRONT_LOCK, ALICE])
    learning = entry.runtime_data.coordinator.current_data().learning
    assert learning  # a new home: its devices are still being learned
    until = dt_util.as_local(max(learning.values())).strftime("%d %b %H:%M")

    text = await _description_learning(hass, entry.entry_id)
    assert text.startswith(f"Still learning {len(learning)} of the watched devices (")
    assert "Kitchen smoke" in text  # names, not entity ids
    assert "Front door" in text
    assert SMOKE not in text
    assert f"until {until}" in text
    assert "only what cannot wait is told" in text


async def test_configure_says_when_everything_is_learned(hass: HomeAssistant) -> None:
    set_calm_home(hass)
    entry = await setup_monitor(hass, learned=True, include_entities=[SMOKE, FRONT_LOCK, ALICE])
    text = await _description_learning(hass, entry.entry_id)
    assert text == "Learned: the normal of every watched device is known."


async def test_diagnostics_count_what_the_sensor_counts(hass: HomeAssistant) -> None:
    """Walks of sessions 8 and 16: the sensor said 7 devices, diagnostics 12 (persons and
    trackers counted) for the same moment."""
    from custom_components.anomaly_monitor.diagnostics import (
        async_get_config_entry_diagnostics,
    )

    set_calm_home(hass)
    entry = await setup_monitor(hass, include_entities=[SMOKE, FRONT_LOCK, ALICE])
    await hass.async_block_till_done()
    learning = entry.runtime_data.coordinator.current_data().learning
    assert learning
    assert ALICE not in learning
    baselines = (await async_get_config_entry_diagnostics(hass, entry))["baselines"]
    assert baselines["entities_still_learning"] == len(learning)
    assert baselines["learning_until"] == max(learning.values()).isoformat()

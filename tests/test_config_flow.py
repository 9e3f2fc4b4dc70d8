"""Config and options flows."""

from __future__ import annotations

from homeassistant import config_entries
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType, InvalidData
import pytest

from custom_components.anomaly_monitor.const import (
    CONF_INCLUDE_ENTITIES,
    CONF_INTERVAL,
    CONF_PROFILE,
    CONF_SENSITIVITY,
    CONF_USE_EXPOSED,
    CONF_WINDOW,
    DOMAIN,
)

from .helpers import ALICE, FRONT_LOCK, LIVING_TEMP, SMOKE, set_calm_home, setup_monitor


async def test_user_flow_creates_entry_with_options(hass: HomeAssistant) -> None:
    """The form's choices become the entry's options; the entry loads and watches them."""
    set_calm_home(hass)
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": config_entries.SOURCE_USER}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "user"

    result = await hass.config_entries.flow.async_configure(
        result["flow_id"],
        {
            "name": "Our flat",
            CONF_USE_EXPOSED: False,
            CONF_INCLUDE_ENTITIES: [SMOKE, FRONT_LOCK],
            CONF_INTERVAL: 10,
            CONF_WINDOW: 60,
            CONF_PROFILE: "single adult, works from home",
            CONF_SENSITIVITY: "high",
        },
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["title"] == "Our flat"
    entry = result["result"]
    assert entry.options[CONF_INCLUDE_ENTITIES] == [SMOKE, FRONT_LOCK]
    assert entry.options[CONF_INTERVAL] == 10
    assert entry.options[CONF_PROFILE] == "single adult, works from home"
    assert entry.state is config_entries.ConfigEntryState.LOADED
    # The includes, plus the safety devices watched by default (a temperature sensor, a person).
    assert entry.runtime_data.coordinator.watcher.entity_ids == {
        SMOKE,
        FRONT_LOCK,
        LIVING_TEMP,
        ALICE,
    }


async def test_user_flow_rejects_out_of_range_interval(hass: HomeAssistant) -> None:
    """An interval of zero minutes is refused by the schema."""
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": config_entries.SOURCE_USER}
    )
    with pytest.raises(InvalidData, match="analysis_interval"):
        await hass.config_entries.flow.async_configure(
            result["flow_id"], {"name": "x", CONF_USE_EXPOSED: True, CONF_INTERVAL: 0}
        )


async def test_options_flow_changes_and_reloads(hass: HomeAssistant) -> None:
    """New options apply after the automatic reload."""
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    old_coordinator = entry.runtime_data.coordinator

    result = await hass.config_entries.options.async_init(entry.entry_id)
    assert result["type"] is FlowResultType.FORM
    result = await hass.config_entries.options.async_configure(
        result["flow_id"],
        {
            CONF_USE_EXPOSED: False,
            CONF_INCLUDE_ENTITIES: [SMOKE],
            CONF_INTERVAL: 5,
            CONF_WINDOW: 30,
            CONF_SENSITIVITY: "low",
        },
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert entry.options[CONF_INTERVAL] == 5
    coordinator = entry.runtime_data.coordinator
    assert coordinator is not old_coordinator
    assert coordinator.watcher.entity_ids == {SMOKE, FRONT_LOCK, LIVING_TEMP, ALICE}
    assert coordinator.update_interval.total_seconds() == 300


async def test_options_flow_keeps_options_it_does_not_show(hass: HomeAssistant) -> None:
    """Saving the form does not wipe the detector choice made elsewhere."""
    set_calm_home(hass)
    entry = await setup_monitor(hass, detector="rules", some_future_option=3)
    result = await hass.config_entries.options.async_init(entry.entry_id)
    await hass.config_entries.options.async_configure(
        result["flow_id"],
        {CONF_USE_EXPOSED: False, CONF_INTERVAL: 7, CONF_WINDOW: 30, CONF_SENSITIVITY: "high"},
    )
    await hass.async_block_till_done()
    assert entry.options["detector"] == "rules"
    assert entry.options["some_future_option"] == 3
    assert entry.options[CONF_INTERVAL] == 7

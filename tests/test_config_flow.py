"""Config and options flows: what to watch first, the rest in sections, bounded numbers."""

from __future__ import annotations

from homeassistant import config_entries
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType, InvalidData, section
from homeassistant.helpers import config_validation as cv
import pytest
import voluptuous as vol

from custom_components.anomaly_monitor.const import (
    CONF_DETECTOR,
    CONF_EXCLUDE_ENTITIES,
    CONF_INCLUDE_DOMAINS,
    CONF_INCLUDE_ENTITIES,
    CONF_INTERVAL,
    CONF_LLM_MAY_ADD,
    CONF_LLM_MAY_DISMISS,
    CONF_NOTIFY,
    CONF_PROFILE,
    CONF_SENSITIVITY,
    CONF_USE_EXPOSED,
    CONF_WATCH_SAFETY,
    CONF_WINDOW,
    DOMAIN,
)

from .helpers import ALICE, FRONT_LOCK, LIVING_TEMP, SMOKE, set_calm_home, setup_monitor

try:  # HA >= 2026.3 serializes forms for the frontend with probatio
    from probatio import to_field_list as serialize_form
except ImportError:  # older HA: voluptuous-serialize
    from voluptuous_serialize import convert as serialize_form

NOISE = ("conversation", "zone", "sun", "todo", "update", "automation", "script", "button")


def _keys(schema: vol.Schema) -> list[str]:
    return [str(key) for key in schema.schema]


def _section(schema: vol.Schema, name: str) -> section:
    return next(value for key, value in schema.schema.items() if str(key) == name)


async def _start(hass: HomeAssistant) -> dict:
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": config_entries.SOURCE_USER}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "user"
    return result


async def test_form_puts_name_and_watching_first_and_the_rest_in_collapsed_sections(
    hass: HomeAssistant,
) -> None:
    """HA's conventions: name first, advanced options folded away, no model options yet."""
    set_calm_home(hass)
    for domain in NOISE:
        hass.states.async_set(f"{domain}.thing", "on")
    schema = (await _start(hass))["data_schema"]
    keys = _keys(schema)
    assert keys[:3] == ["name", CONF_WATCH_SAFETY, CONF_USE_EXPOSED]
    assert keys[-3:] == ["analysis", "notifications", "household"]
    assert CONF_LLM_MAY_DISMISS not in keys
    assert CONF_LLM_MAY_ADD not in keys
    for name in ("analysis", "notifications", "household"):
        assert _section(schema, name).options["collapsed"] is True
    domains = schema.schema[next(k for k in schema.schema if str(k) == CONF_INCLUDE_DOMAINS)]
    offered = domains.config["options"]
    assert {"lock", "binary_sensor", "sensor", "person"} <= set(offered)
    assert not set(offered) & set(NOISE)
    # The frontend can render it: HA's own serializer handles every field and section.
    serialized = serialize_form(schema, custom_serializer=cv.custom_serializer)
    analysis = next(field for field in serialized if field["name"] == "analysis")
    window = next(field for field in analysis["schema"] if field["name"] == CONF_WINDOW)
    assert window["selector"]["number"]["max"] == 1440


async def test_user_flow_creates_entry_with_flat_options(hass: HomeAssistant) -> None:
    """Sections group the form only: the entry's options stay flat, and it loads."""
    set_calm_home(hass)
    result = await _start(hass)
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"],
        {
            "name": "Our flat",
            CONF_USE_EXPOSED: False,
            CONF_INCLUDE_ENTITIES: [SMOKE, FRONT_LOCK],
            "analysis": {CONF_INTERVAL: 10, CONF_WINDOW: 60},
            "notifications": {CONF_SENSITIVITY: "high"},
            "household": {CONF_PROFILE: "single adult, works from home"},
        },
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["title"] == "Our flat"
    entry = result["result"]
    assert entry.options[CONF_INCLUDE_ENTITIES] == [SMOKE, FRONT_LOCK]
    assert entry.options[CONF_INTERVAL] == 10
    assert entry.options[CONF_WINDOW] == 60
    assert entry.options[CONF_SENSITIVITY] == "high"
    assert entry.options[CONF_PROFILE] == "single adult, works from home"
    assert entry.options[CONF_WATCH_SAFETY] is True
    assert "analysis" not in entry.options
    assert entry.state is config_entries.ConfigEntryState.LOADED
    coordinator = entry.runtime_data.coordinator
    # The includes, plus the safety devices watched by default (a temperature sensor, a person).
    assert coordinator.watcher.entity_ids == {SMOKE, FRONT_LOCK, LIVING_TEMP, ALICE}
    assert coordinator.update_interval.total_seconds() == 600


async def test_every_default_accepted(hass: HomeAssistant) -> None:
    """Only a name: sections fill in their defaults."""
    set_calm_home(hass)
    result = await _start(hass)
    result = await hass.config_entries.flow.async_configure(result["flow_id"], {"name": "Home"})
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    options = result["result"].options
    assert (options[CONF_INTERVAL], options[CONF_WINDOW]) == (15, 120)
    assert options[CONF_DETECTOR] == "rules"
    assert options[CONF_NOTIFY] == []


@pytest.mark.parametrize(
    ("field", "value"),
    [(CONF_INTERVAL, 0), (CONF_INTERVAL, 1441), (CONF_WINDOW, 4), (CONF_WINDOW, 527_040)],
)
async def test_numbers_out_of_bounds_are_refused(
    hass: HomeAssistant, field: str, value: int
) -> None:
    """Interval 1-1440 min, window 5-1440 min (at most a day)."""
    result = await _start(hass)
    with pytest.raises(InvalidData, match=field):
        await hass.config_entries.flow.async_configure(
            result["flow_id"], {"name": "x", "analysis": {field: value}}
        )


async def test_hybrid_switches_only_after_choosing_hybrid(hass: HomeAssistant) -> None:
    """A model detector leads to its own steps: the hybrid switches, then the backend."""
    result = await _start(hass)
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {"name": "x", CONF_DETECTOR: "hybrid"}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "hybrid"
    assert _keys(result["data_schema"]) == [CONF_LLM_MAY_DISMISS, CONF_LLM_MAY_ADD]
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_LLM_MAY_DISMISS: False, CONF_LLM_MAY_ADD: True}
    )
    assert result["type"] is FlowResultType.MENU
    assert result["step_id"] == "backend"

    result = await _start(hass)
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {"name": "x", CONF_DETECTOR: "llm"}
    )
    assert result["type"] is FlowResultType.MENU  # no switches for the LLM-only detector


async def test_options_flow_mirrors_the_form_and_reloads(hass: HomeAssistant) -> None:
    """The same sections, filled with the current values; new options apply after reload."""
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    old_coordinator = entry.runtime_data.coordinator

    result = await hass.config_entries.options.async_init(entry.entry_id)
    assert result["type"] is FlowResultType.FORM
    schema = result["data_schema"]
    assert _keys(schema)[-3:] == ["analysis", "notifications", "household"]
    interval = next(k for k in _section(schema, "analysis").schema.schema if k == CONF_INTERVAL)
    assert interval.description == {"suggested_value": 15}
    result = await hass.config_entries.options.async_configure(
        result["flow_id"],
        {
            CONF_USE_EXPOSED: False,
            CONF_INCLUDE_ENTITIES: [SMOKE],
            CONF_EXCLUDE_ENTITIES: [ALICE, LIVING_TEMP],
            "analysis": {CONF_INTERVAL: 5, CONF_WINDOW: 30},
            "notifications": {CONF_SENSITIVITY: "low"},
        },
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert entry.options[CONF_INTERVAL] == 5
    assert entry.options[CONF_SENSITIVITY] == "low"
    coordinator = entry.runtime_data.coordinator
    assert coordinator is not old_coordinator
    assert coordinator.watcher.entity_ids == {SMOKE, FRONT_LOCK}
    assert coordinator.update_interval.total_seconds() == 300


async def test_options_flow_keeps_options_it_does_not_show(hass: HomeAssistant) -> None:
    """Saving the form does not wipe options set elsewhere."""
    set_calm_home(hass)
    entry = await setup_monitor(hass, detector="rules", some_future_option=3)
    result = await hass.config_entries.options.async_init(entry.entry_id)
    await hass.config_entries.options.async_configure(
        result["flow_id"], {CONF_USE_EXPOSED: False, "analysis": {CONF_INTERVAL: 7}}
    )
    await hass.async_block_till_done()
    assert entry.options["detector"] == "rules"
    assert entry.options["some_future_option"] == 3
    assert entry.options[CONF_INTERVAL] == 7


async def test_old_entry_with_a_year_long_window_keeps_working(hass: HomeAssistant) -> None:
    """Entries made before the bounds load as they are; the form suggests the nearest bound."""
    set_calm_home(hass)
    entry = await setup_monitor(hass, **{CONF_WINDOW: 527_040})
    assert entry.state is config_entries.ConfigEntryState.LOADED
    result = await hass.config_entries.options.async_init(entry.entry_id)
    window = next(
        k for k in _section(result["data_schema"], "analysis").schema.schema if k == CONF_WINDOW
    )
    assert window.description == {"suggested_value": 1440}
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {"analysis": {CONF_WINDOW: 1440}}
    )
    await hass.async_block_till_done()
    assert entry.options[CONF_WINDOW] == 1440


async def test_options_flow_hybrid_step_and_backend_requirement(hass: HomeAssistant) -> None:
    """A model detector needs a backend; with one, hybrid shows its switches next."""
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    result = await hass.config_entries.options.async_init(entry.entry_id)
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {CONF_DETECTOR: "hybrid"}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {CONF_DETECTOR: "backend_required"}

    hass.config_entries.async_update_entry(entry, data={"backend": "openai"})
    result = await hass.config_entries.options.async_init(entry.entry_id)
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {CONF_DETECTOR: "hybrid"}
    )
    assert result["step_id"] == "hybrid"
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {CONF_LLM_MAY_DISMISS: True, CONF_LLM_MAY_ADD: False}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert entry.options[CONF_DETECTOR] == "hybrid"
    assert entry.options[CONF_LLM_MAY_DISMISS] is True
    # The reload with an unreachable backend is not this test's business: let it end (the
    # calibration is read in the executor first), then unload it.
    await hass.async_block_till_done()
    await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()

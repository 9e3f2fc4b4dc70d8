"""In Home Assistant: a Tapo plug with its default names, and the homeowner's roles step.

The plug's meter is watched by default (its device has a switch), the options flow shows
what the monitor takes each device for, the homeowner's correction is stored in the
options and reaches the analysis, and diagnostics show the roles without names.
"""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import device_registry as dr, entity_registry as er
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.components.diagnostics import (
    get_diagnostics_for_config_entry,
)
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.anomaly_monitor.const import (
    CONF_INCLUDE_ENTITIES,
    CONF_REVIEW_ROLES,
    CONF_ROLES,
    CONF_USE_EXPOSED,
    CONF_WATCH_SAFETY,
)
from custom_components.anomaly_monitor.core.device_roles import Role, Source, role_of
from custom_components.anomaly_monitor.core.home import HomeView

from .helpers import ALICE, set_calm_home, setup_monitor

SWITCH = "switch.tapo_p110"
METER = "sensor.tapo_p110_current_consumption"
DOOR = "binary_sensor.0x00158d0001a2b3c4_contact"


def _tapo_plug(hass: HomeAssistant) -> None:
    """A Tapo P110 as its integration adds it: one device, default names, no words."""
    owner = MockConfigEntry(domain="tapo")
    owner.add_to_hass(hass)
    device = dr.async_get(hass).async_get_or_create(
        config_entry_id=owner.entry_id, identifiers={("tapo", "p110-1")}, model="P110"
    )
    registry = er.async_get(hass)
    for entity_id in (SWITCH, METER):
        domain, _, object_id = entity_id.partition(".")
        registry.async_get_or_create(
            domain, "tapo", object_id, suggested_object_id=object_id, device_id=device.id
        )
    hass.states.async_set(SWITCH, "on", {"friendly_name": "Tapo P110"})
    hass.states.async_set(
        METER,
        "0.4",
        {
            "friendly_name": "Tapo P110 Current consumption",
            "device_class": "power",
            "unit_of_measurement": "W",
        },
    )
    hass.states.async_set(
        DOOR, "off", {"friendly_name": "0x00158d0001a2b3c4 Contact", "device_class": "door"}
    )


async def test_homeowner_corrects_what_a_default_named_plug_is(
    hass: HomeAssistant, hass_client: ClientSessionGenerator
) -> None:
    """ "Tapo P110" says nothing: the homeowner says it powers a freezer, and the door is
    an inside one; the analysis reads their roles, diagnostics show them."""
    assert await async_setup_component(hass, "diagnostics", {})
    set_calm_home(hass)
    _tapo_plug(hass)
    entry = await setup_monitor(
        hass,
        **{
            CONF_WATCH_SAFETY: True,
            CONF_USE_EXPOSED: False,
            CONF_INCLUDE_ENTITIES: [SWITCH, ALICE],
        },
    )
    watched = entry.runtime_data.coordinator.watcher.entity_ids
    assert {METER, DOOR} <= watched  # a plug's meter and a door are watched by default

    result = await hass.config_entries.options.async_init(entry.entry_id)
    result = await hass.config_entries.options.async_configure(
        result["flow_id"],
        {CONF_USE_EXPOSED: False, CONF_INCLUDE_ENTITIES: [SWITCH, ALICE], CONF_REVIEW_ROLES: True},
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "roles"
    defaults = {str(k): k.default() for k in result["data_schema"].schema}
    assert defaults == {DOOR: "exterior_door", METER: "other", SWITCH: "other"}
    listed = result["description_placeholders"]["devices"]
    assert "Tapo P110 Current consumption" in listed
    assert f"(`{DOOR}`): Exterior door (from its device class)" in listed  # words, not keys

    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {DOOR: "inside_door", METER: "cold_appliance", SWITCH: "other"}
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert entry.options[CONF_ROLES] == {DOOR: "inside_door", METER: "cold_appliance"}

    view = HomeView(entry.runtime_data.coordinator.build_window())  # after the reload
    assert role_of(view, METER).role is Role.COLD_APPLIANCE
    assert role_of(view, METER).source is Source.HOMEOWNER
    assert role_of(view, SWITCH).role is Role.COLD_APPLIANCE  # the plug's switch, too
    assert role_of(view, DOOR).role is Role.INSIDE_DOOR

    diagnostics = await get_diagnostics_for_config_entry(hass, hass_client, entry)
    rows = {row["entity_id"]: row for row in diagnostics["device_roles"]}
    assert rows[METER] == {
        "entity_id": METER,
        "role": "cold_appliance",
        "monitor": "other",
        "from": "homeowner",
    }
    assert "Tapo P110" not in str(diagnostics["device_roles"])

    result = await hass.config_entries.options.async_init(entry.entry_id)  # reviewed again
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {CONF_USE_EXPOSED: False, CONF_REVIEW_ROLES: True}
    )
    listed = result["description_placeholders"]["devices"]
    assert f"(`{DOOR}`): Inside door (your correction; the monitor read exterior door)" in listed


async def test_options_flow_without_the_tick_box_keeps_the_roles(hass: HomeAssistant) -> None:
    """Saving the options without reviewing roles keeps the stored ones."""
    set_calm_home(hass)
    _tapo_plug(hass)
    entry = await setup_monitor(hass, **{CONF_ROLES: {METER: "cold_appliance"}})
    result = await hass.config_entries.options.async_init(entry.entry_id)
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {CONF_USE_EXPOSED: False}
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert entry.options[CONF_ROLES] == {METER: "cold_appliance"}
    assert CONF_REVIEW_ROLES not in entry.options

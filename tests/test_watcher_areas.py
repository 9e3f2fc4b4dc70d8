"""Watching whole areas: entities placed directly, or through the device they belong to."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from homeassistant.helpers import (
    area_registry as ar,
    device_registry as dr,
    entity_registry as er,
)
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.anomaly_monitor.const import (
    CONF_INCLUDE_AREAS,
    CONF_INCLUDE_DOMAINS,
    CONF_INCLUDE_ENTITIES,
    CONF_WATCH_SAFETY,
)
from custom_components.anomaly_monitor.live.coverage import resolve_watched

from .helpers import FRONT_LOCK, SMOKE, set_calm_home, setup_monitor


async def test_included_area_watches_entities_of_devices_placed_there(hass: HomeAssistant) -> None:
    """The kettle plug has no area of its own; its device sits in the kitchen."""
    areas = ar.async_get(hass)
    kitchen = areas.async_create("Kitchen").id
    hallway = areas.async_create("Hallway").id
    registry = er.async_get(hass)
    smoke = registry.async_get_or_create(
        "binary_sensor", "test_home", "smoke", suggested_object_id="kitchen_smoke"
    )
    registry.async_update_entity(smoke.entity_id, area_id=kitchen)
    lock = registry.async_get_or_create(
        "lock", "test_home", "lock", suggested_object_id="front_door"
    )
    registry.async_update_entity(lock.entity_id, area_id=hallway)

    source = MockConfigEntry(domain="test_home")
    source.add_to_hass(hass)
    devices = dr.async_get(hass)
    plug = devices.async_get_or_create(
        config_entry_id=source.entry_id, identifiers={("test_home", "plug")}, name="Kettle plug"
    )
    devices.async_update_device(plug.id, area_id=kitchen)
    kettle = registry.async_get_or_create(
        "switch", "test_home", "kettle", suggested_object_id="kettle", device_id=plug.id
    )
    # A device nobody has placed yet: its entity belongs to no area.
    loose = devices.async_get_or_create(
        config_entry_id=source.entry_id, identifiers={("test_home", "loose")}, name="New plug"
    )
    spare = registry.async_get_or_create(
        "switch", "test_home", "spare", suggested_object_id="spare_plug", device_id=loose.id
    )
    set_calm_home(hass)
    hass.states.async_set(kettle.entity_id, "off")
    hass.states.async_set(spare.entity_id, "off")

    entry = await setup_monitor(
        hass,
        **{CONF_INCLUDE_ENTITIES: [], CONF_INCLUDE_AREAS: [kitchen], CONF_WATCH_SAFETY: False},
    )
    watcher = entry.runtime_data.coordinator.watcher
    assert watcher.entity_ids == frozenset({SMOKE, kettle.entity_id})
    assert FRONT_LOCK not in watcher.entity_ids
    assert spare.entity_id not in watcher.entity_ids
    assert watcher.areas == {SMOKE: "Kitchen", kettle.entity_id: "Kitchen"}

    hass.states.async_set(kettle.entity_id, "on")
    hass.states.async_set(spare.entity_id, "on")
    await hass.async_block_till_done()
    assert len(watcher.buffer) == 1


async def test_an_area_or_a_domain_leaves_out_diagnostics_and_hidden_entities(
    hass: HomeAssistant,
) -> None:
    """A plug's link quality or signal strength wanders and says nothing of the room: watching
    the kitchen (or every sensor) watches the plug's power, not them, nor what the homeowner
    hid. Named in the options, a diagnostic entity is watched."""
    kitchen = ar.async_get(hass).async_create("Kitchen").id
    source = MockConfigEntry(domain="test_home")
    source.add_to_hass(hass)
    plug = dr.async_get(hass).async_get_or_create(
        config_entry_id=source.entry_id, identifiers={("test_home", "plug")}, name="Plug"
    )
    dr.async_get(hass).async_update_device(plug.id, area_id=kitchen)
    registry = er.async_get(hass)
    power = registry.async_get_or_create(
        "sensor", "test_home", "power", suggested_object_id="plug_power", device_id=plug.id
    )
    linkquality = registry.async_get_or_create(
        "sensor",
        "test_home",
        "lqi",
        suggested_object_id="plug_linkquality",
        device_id=plug.id,
        entity_category=er.EntityCategory.DIAGNOSTIC,
    )
    hidden = registry.async_get_or_create(
        "sensor", "test_home", "hidden", suggested_object_id="plug_energy", device_id=plug.id
    )
    registry.async_update_entity(hidden.entity_id, hidden_by=er.RegistryEntryHider.USER)
    set_calm_home(hass)
    for entity in (power, linkquality, hidden):
        hass.states.async_set(entity.entity_id, "12")

    entry = await setup_monitor(
        hass,
        **{
            CONF_INCLUDE_ENTITIES: [],
            CONF_INCLUDE_AREAS: [kitchen],
            CONF_INCLUDE_DOMAINS: ["sensor"],
            CONF_WATCH_SAFETY: False,
        },
    )
    watched = entry.runtime_data.coordinator.watcher.entity_ids
    assert power.entity_id in watched
    assert linkquality.entity_id not in watched
    assert hidden.entity_id not in watched

    named = {**entry.options, CONF_INCLUDE_ENTITIES: [linkquality.entity_id]}
    assert linkquality.entity_id in resolve_watched(hass, named)

"""Setup, unload and reload leave nothing behind; exposed entities are watched by default."""

from __future__ import annotations

from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar, entity_registry as er
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.anomaly_monitor.const import CONF_EXCLUDE_ENTITIES, DOMAIN

from .helpers import FRONT_LOCK, SMOKE, set_calm_home, setup_monitor


async def test_unload_and_reload_remove_every_listener(hass: HomeAssistant) -> None:
    """After unload no state change reaches the monitor; reload starts a fresh one."""
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    watcher = entry.runtime_data.coordinator.watcher
    hass.states.async_set(SMOKE, "on", {"device_class": "smoke"})
    await hass.async_block_till_done()
    assert len(watcher.buffer) == 1

    assert await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.state is ConfigEntryState.LOADED
    assert entry.runtime_data.coordinator.watcher is not watcher

    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.state is ConfigEntryState.NOT_LOADED
    seen = watcher.events_seen
    hass.states.async_set(SMOKE, "off", {"device_class": "smoke"})
    await hass.async_block_till_done()
    assert watcher.events_seen == seen
    # The harness also fails this test if a timer or task outlives the entry.


async def test_exposed_entities_are_watched_by_default(hass: HomeAssistant) -> None:
    """Default options watch what is exposed to Assist, minus exclusions and noise domains."""
    assert await async_setup_component(hass, "homeassistant", {})
    registry = er.async_get(hass)
    area = ar.async_get(hass).async_create("Kitchen")
    smoke = registry.async_get_or_create(
        "binary_sensor", "test", "smoke", suggested_object_id="kitchen_smoke"
    )
    registry.async_update_entity(smoke.entity_id, area_id=area.id)
    lock = registry.async_get_or_create("lock", "test", "lock", suggested_object_id="front_door")
    set_calm_home(hass)
    hass.states.async_set("light.porch", "off")
    hass.states.async_set("light.desk", "off")
    hass.states.async_set("todo.shopping_list", "3")
    async_expose_entity(hass, "conversation", smoke.entity_id, True)
    async_expose_entity(hass, "conversation", lock.entity_id, True)
    async_expose_entity(hass, "conversation", "light.porch", True)
    async_expose_entity(hass, "conversation", "light.desk", False)
    async_expose_entity(hass, "conversation", "todo.shopping_list", True)

    entry = MockConfigEntry(
        domain=DOMAIN, title="Home", options={CONF_EXCLUDE_ENTITIES: [lock.entity_id]}
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    watcher = entry.runtime_data.coordinator.watcher
    assert SMOKE in watcher.entity_ids
    assert "light.porch" in watcher.entity_ids
    assert "light.desk" not in watcher.entity_ids
    assert "todo.shopping_list" not in watcher.entity_ids  # exposed, but says nothing
    assert FRONT_LOCK not in watcher.entity_ids  # excluded, although a lock
    assert watcher.areas[SMOKE] == "Kitchen"
    assert not any("anomaly" in entity_id for entity_id in watcher.entity_ids)


async def test_automations_are_watched_only_when_named(hass: HomeAssistant) -> None:
    """A broad include skips bookkeeping domains; naming an automation watches it."""
    hass.states.async_set("automation.lights_on_motion", "on")
    set_calm_home(hass)
    entry = await setup_monitor(
        hass,
        include_domains=["automation", "lock"],
        include_entities=[SMOKE, "automation.lights_on_motion"],
    )
    watcher = entry.runtime_data.coordinator.watcher
    assert "automation.lights_on_motion" in watcher.entity_ids
    assert FRONT_LOCK in watcher.entity_ids

    other = await setup_monitor(hass, include_domains=["automation"], include_entities=[])
    assert "automation.lights_on_motion" not in other.runtime_data.coordinator.watcher.entity_ids


async def test_instruction_check_is_an_action_of_the_integration(hass: HomeAssistant) -> None:
    """Loading the integration registers check_instruction; a missing device is refused."""
    set_calm_home(hass)
    await setup_monitor(hass)
    assert hass.services.has_service(DOMAIN, "check_instruction")
    response = await hass.services.async_call(
        DOMAIN,
        "check_instruction",
        {"instruction": "Turn on the sauna heater in the attic"},
        blocking=True,
        return_response=True,
    )
    assert response is not None
    assert response["operations"] == []
    assert response["refused"]

"""Coverage by default: safety devices are watched whatever Assist exposes."""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant import config_entries
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.components.persistent_notification import _async_get_or_create_notifications
from homeassistant.const import EntityCategory
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import (
    area_registry as ar,
    entity_registry as er,
    issue_registry as ir,
)
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_fire_time_changed

from custom_components.anomaly_monitor.const import (
    CONF_EXCLUDE_ENTITIES,
    CONF_INCLUDE_ENTITIES,
    CONF_WATCH_SAFETY,
    DOMAIN,
)
from custom_components.anomaly_monitor.live.coverage import coverage_issue_id

from .helpers import (
    ALICE,
    FRONT_LOCK,
    LIVING_TEMP,
    SMOKE,
    set_calm_home,
    setup_monitor,
    store_learned_week,
)

LEAK = "binary_sensor.bathroom_leak"


async def _default_monitor(
    hass: HomeAssistant, *, learned: bool = False, **options: object
) -> MockConfigEntry:
    """A monitor with every default, as the config flow leaves it (``learned``: in a home
    it has watched for a week, past its cold start)."""
    assert await async_setup_component(hass, "homeassistant", {})
    entry = MockConfigEntry(domain=DOMAIN, title="Home", options=dict(options))
    entry.add_to_hass(hass)
    if learned:
        await store_learned_week(hass, entry.entry_id)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    return entry


def _noisy_home(hass: HomeAssistant) -> None:
    set_calm_home(hass)
    hass.states.async_set("todo.shopping_list", "2")
    hass.states.async_set("conversation.home_assistant", "unknown")
    hass.states.async_set("zone.home", "1")
    hass.states.async_set("sun.sun", "above_horizon")
    hass.states.async_set("light.desk", "off")
    hass.states.async_set("climate.hall", "heat", {"current_temperature": 20})
    hass.states.async_set("device_tracker.alice_phone", "home")
    hass.states.async_set(
        "binary_sensor.hall_motion", "off", {"device_class": "motion", "friendly_name": "Hall"}
    )
    hass.states.async_set("sensor.hall_illuminance", "40", {"device_class": "illuminance"})


async def test_unexposed_smoke_detector_is_watched_and_notifies(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """HA does not expose smoke detectors to Assist: the monitor watches them anyway."""
    assert await async_setup_component(hass, "homeassistant", {})
    _noisy_home(hass)
    unexposed = (SMOKE, FRONT_LOCK, ALICE, "climate.hall", "binary_sensor.hall_motion")
    unexposed += ("light.desk",)
    for entity_id in unexposed:
        async_expose_entity(hass, "conversation", entity_id, False)
    async_expose_entity(hass, "conversation", "todo.shopping_list", True)
    entry = await _default_monitor(hass)
    watched = entry.runtime_data.coordinator.watcher.entity_ids
    assert {SMOKE, FRONT_LOCK, ALICE, LIVING_TEMP, "climate.hall"} <= watched
    assert {"device_tracker.alice_phone", "binary_sensor.hall_motion"} <= watched
    noise = {"todo.shopping_list", "conversation.home_assistant", "zone.home", "sun.sun"}
    assert not watched & noise
    assert "light.desk" not in watched  # not a safety device, not exposed
    assert "sensor.hall_illuminance" not in watched

    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Kitchen smoke"})
    freezer.tick(timedelta(seconds=11))  # the significant-change debounce
    async_fire_time_changed(hass)
    await hass.async_block_till_done(wait_background_tasks=True)
    coordinator = entry.runtime_data.coordinator
    assert coordinator.data.analysis is not None
    assert SMOKE in coordinator.data.analysis.verdict.evidence
    notifications = _async_get_or_create_notifications(hass)
    assert any(key.startswith(f"{DOMAIN}_{entry.entry_id}_") for key in notifications)


async def test_a_supply_status_is_watched_by_default(hass: HomeAssistant) -> None:
    """A home battery's grid status (``power``: on while the supply is there) is watched
    without being exposed or added: set 14's grid off for eight hours was never even read.
    A ``running`` sensor is not (no supply)."""
    assert await async_setup_component(hass, "homeassistant", {})
    set_calm_home(hass)
    grid = "binary_sensor.gateway_grid_status"
    hass.states.async_set(grid, "on", {"device_class": "power", "friendly_name": "Grid"})
    hass.states.async_set("binary_sensor.pump_running", "off", {"device_class": "running"})
    for entity_id in (grid, "binary_sensor.pump_running"):
        async_expose_entity(hass, "conversation", entity_id, False)
    entry = await _default_monitor(hass)
    watched = entry.runtime_data.coordinator.watcher.entity_ids
    assert grid in watched
    assert "binary_sensor.pump_running" not in watched


async def test_a_vibration_sensor_is_watched_by_default(hass: HomeAssistant) -> None:
    """Walk of session 28: a seizure mat or bed-exit pad (``brief_on_held``) and a
    glass-break sensor (``intrusion``) set up as ``vibration`` are not exposed to Assist by
    default, so the monitor added with its defaults never read them. A ``sound`` sensor
    (a baby monitor: life, not a hazard) is not watched unless added."""
    assert await async_setup_component(hass, "homeassistant", {})
    set_calm_home(hass)
    mat = "binary_sensor.bed_mat_vibration"
    hass.states.async_set(mat, "off", {"device_class": "vibration", "friendly_name": "Bed mat"})
    hass.states.async_set("binary_sensor.nursery_sound", "off", {"device_class": "sound"})
    for entity_id in (mat, "binary_sensor.nursery_sound"):
        async_expose_entity(hass, "conversation", entity_id, False)
    entry = await _default_monitor(hass)
    watched = entry.runtime_data.coordinator.watcher.entity_ids
    assert mat in watched
    assert "binary_sensor.nursery_sound" not in watched


async def test_a_home_battery_beside_its_meter_is_watched_by_default(hass: HomeAssistant) -> None:
    """Set 19's EcoFlow: its charge beside its AC-input meter (one area, no registry
    device) went unwatched, so its outage was told hours late through what it cut. A
    sensor's coin cell (its device's diagnostic) and a battery with no meter beside it are
    not watched."""
    assert await async_setup_component(hass, "homeassistant", {})
    set_calm_home(hass)
    corridor = ar.async_get(hass).async_create("Corridor").id
    registry = er.async_get(hass)
    charge, ac_in = "sensor.delta_2_battery_level", "sensor.delta_2_ac_in_power"
    cell, remote = "sensor.door_contact_battery", "sensor.remote_battery"
    for unique, object_id, category in (
        ("c", "delta_2_battery_level", None),
        ("a", "delta_2_ac_in_power", None),
        ("d", "door_contact_battery", EntityCategory.DIAGNOSTIC),
    ):
        registry.async_get_or_create(
            "sensor", "test", unique, suggested_object_id=object_id, entity_category=category
        )
        registry.async_update_entity(f"sensor.{object_id}", area_id=corridor)
    battery = {"unit_of_measurement": "%", "device_class": "battery"}
    hass.states.async_set(charge, "100", battery)
    hass.states.async_set(cell, "90", battery)
    hass.states.async_set(remote, "80", battery)
    hass.states.async_set(ac_in, "140", {"unit_of_measurement": "W", "device_class": "power"})
    for entity_id in (charge, ac_in, cell, remote):
        async_expose_entity(hass, "conversation", entity_id, False)
    entry = await _default_monitor(hass)
    watched = entry.runtime_data.coordinator.watcher.entity_ids
    assert {charge, ac_in} <= watched
    assert cell not in watched
    assert remote not in watched


async def test_a_tank_level_is_watched_by_default(hass: HomeAssistant) -> None:
    """A level with no device class (a roof tank in %, an oil tank in litres) is watched
    without being exposed or added: set 17's roof tank fell to nothing and was never read.
    A device's diagnostic reading in % (its signal) and a battery are not."""
    assert await async_setup_component(hass, "homeassistant", {})
    set_calm_home(hass)
    tank, oil = "sensor.tank_level", "sensor.garden_tank_contents"
    signal, battery = "sensor.pump_plug_signal", "sensor.remote_battery"
    er.async_get(hass).async_get_or_create(
        "sensor",
        "test",
        "signal-1",
        suggested_object_id="pump_plug_signal",
        entity_category=EntityCategory.DIAGNOSTIC,
    )
    hass.states.async_set(tank, "80", {"unit_of_measurement": "%"})
    hass.states.async_set(oil, "1200", {"unit_of_measurement": "L"})
    hass.states.async_set(signal, "64", {"unit_of_measurement": "%"})
    hass.states.async_set(battery, "90", {"unit_of_measurement": "%", "device_class": "battery"})
    for entity_id in (tank, oil, signal, battery):
        async_expose_entity(hass, "conversation", entity_id, False)
    entry = await _default_monitor(hass)
    watched = entry.runtime_data.coordinator.watcher.entity_ids
    assert {tank, oil} <= watched
    assert signal not in watched
    assert battery not in watched


async def test_new_safety_device_is_picked_up(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """A leak sensor paired after setup is watched without touching the options."""
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    watcher = entry.runtime_data.coordinator.watcher
    assert LEAK not in watcher.entity_ids
    hass.states.async_set(LEAK, "off", {"device_class": "moisture"})
    freezer.tick(timedelta(seconds=3))  # the resolve debounce
    async_fire_time_changed(hass)
    await hass.async_block_till_done(wait_background_tasks=True)
    assert LEAK in watcher.entity_ids
    recorded = watcher.recorded
    hass.states.async_set(LEAK, "on", {"device_class": "moisture"})
    await hass.async_block_till_done(wait_background_tasks=True)
    assert watcher.recorded == recorded + 1


async def test_excluded_alarms_raise_an_issue_until_watched_again(hass: HomeAssistant) -> None:
    """Excluding the home's only smoke detector is allowed, but a repair issue says so."""
    set_calm_home(hass)
    hass.states.async_set(LEAK, "off", {"device_class": "moisture", "friendly_name": "Bath leak"})
    entry = await setup_monitor(hass, **{CONF_EXCLUDE_ENTITIES: [SMOKE]})
    issues = ir.async_get(hass)
    issue = issues.async_get_issue(DOMAIN, coverage_issue_id(entry.entry_id))
    assert issue is not None
    assert issue.translation_key == "unwatched_safety_sensors"
    assert "Kitchen smoke" in issue.translation_placeholders["sensors"]
    assert "Bath leak" not in issue.translation_placeholders["sensors"]  # watched

    hass.config_entries.async_update_entry(
        entry, options={**entry.options, CONF_EXCLUDE_ENTITIES: []}
    )
    assert await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    assert issues.async_get_issue(DOMAIN, coverage_issue_id(entry.entry_id)) is None


async def test_switching_coverage_off_still_warns_and_unload_removes_the_issue(
    hass: HomeAssistant,
) -> None:
    """Without default coverage an unlisted smoke detector is unwatched: the issue says so."""
    set_calm_home(hass)
    entry = await setup_monitor(
        hass, **{CONF_WATCH_SAFETY: False, CONF_INCLUDE_ENTITIES: [FRONT_LOCK]}
    )
    watcher = entry.runtime_data.coordinator.watcher
    assert watcher.entity_ids == {FRONT_LOCK}
    issues = ir.async_get(hass)
    assert issues.async_get_issue(DOMAIN, coverage_issue_id(entry.entry_id)) is not None
    assert await hass.config_entries.async_unload(entry.entry_id)
    assert issues.async_get_issue(DOMAIN, coverage_issue_id(entry.entry_id)) is None


async def test_flows_show_the_watched_count_and_the_alarms_found(hass: HomeAssistant) -> None:
    """The forms tell how many entities are watched and name the alarms; no noise domain."""
    _noisy_home(hass)
    hass.states.async_set(LEAK, "off", {"device_class": "moisture", "friendly_name": "Bath leak"})
    assert await async_setup_component(hass, "homeassistant", {})
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": config_entries.SOURCE_USER}
    )
    assert result["type"] is FlowResultType.FORM
    placeholders = result["description_placeholders"]
    assert placeholders is not None
    # smoke, lock, temperature, person, climate, tracker, motion, leak; and the desk light,
    # which HA exposes to Assist by default (lights are)
    assert placeholders["watched"] == "9"
    assert "Kitchen smoke" in placeholders["hazards"]
    assert "Bath leak" in placeholders["hazards"]

    entry = await setup_monitor(hass, **{CONF_EXCLUDE_ENTITIES: [LEAK]})
    result = await hass.config_entries.options.async_init(entry.entry_id)
    placeholders = result["description_placeholders"]
    assert placeholders is not None
    assert placeholders["watched"] == str(len(entry.runtime_data.coordinator.watcher.entity_ids))
    assert "Bath leak" in placeholders["hazards"]


async def test_a_fridge_that_stopped_cycling_is_watched_and_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Every power meter is watched by default (a fridge's, a washer's: known by behaviour,
    not by name); the fridge, dead, is told."""
    assert await async_setup_component(hass, "homeassistant", {})
    set_calm_home(hass)
    fridge, washer = "sensor.kitchen_fridge_power", "sensor.washer_power"
    power = {"device_class": "power", "unit_of_measurement": "W"}
    hass.states.async_set(fridge, "85.0", {**power, "friendly_name": "Fridge"})
    hass.states.async_set(washer, "0.0", {**power, "friendly_name": "Washer"})
    for entity_id in (fridge, washer):
        async_expose_entity(hass, "conversation", entity_id, False)
    entry = await _default_monitor(hass, learned=True)
    coordinator = entry.runtime_data.coordinator
    assert fridge in coordinator.watcher.entity_ids
    assert washer in coordinator.watcher.entity_ids

    hass.states.async_set(fridge, "1.5", {**power, "friendly_name": "Fridge"})  # normal rest
    for _ in range(6):  # an hour: a compressor resting
        freezer.tick(timedelta(minutes=10))
        async_fire_time_changed(hass)
        await hass.async_block_till_done(wait_background_tasks=True)
    assert not any(a.rule == "fridge_stopped_cycling" for a in coordinator.tracker.open.values())
    for _ in range(7):  # past two hours without running: dead
        freezer.tick(timedelta(minutes=10))
        async_fire_time_changed(hass)
        await hass.async_block_till_done(wait_background_tasks=True)
    (anomaly,) = [
        a for a in coordinator.tracker.open.values() if a.rule == "fridge_stopped_cycling"
    ]
    assert anomaly.evidence == [fridge]

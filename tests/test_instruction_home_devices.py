"""What the instruction check learns from unusual but real Home Assistant entities.

Entities whose names say nothing about what they are ("Office Roller", "Hallway Tado"),
a boiler, a ceiling fan with direction, a colour bulb and a radio with sound modes: the
capability model must offer their real services, and plain requests must plan them.
"""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.helpers import (
    area_registry as ar,
    device_registry as dr,
    entity_registry as er,
)
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.anomaly_monitor.core.instructions import (
    DeviceCapability,
    FeatureKind,
    HomeCapabilities,
    PlannedOperation,
    PlannerMode,
    async_plan_instruction,
)
from custom_components.anomaly_monitor.instructions.home import async_build_home_capabilities


def _standalone(
    hass: HomeAssistant, entity_id: str, area_id: str, state: str, **attributes: Any
) -> None:
    """An entity without a device, placed in an area by the entity registry."""
    domain, _, object_id = entity_id.partition(".")
    registry = er.async_get(hass)
    entry = registry.async_get_or_create(
        domain, "test_home", object_id, suggested_object_id=object_id
    )
    registry.async_update_entity(entry.entity_id, area_id=area_id)
    hass.states.async_set(entry.entity_id, state, attributes)


def _device(home: HomeCapabilities, name: str) -> DeviceCapability:
    return next(d for d in home.devices if d.name == name)


def _services(device: DeviceCapability) -> dict[str, frozenset[str]]:
    return {f.service: f.names for f in device.features}


async def _plan(hass: HomeAssistant, text: str) -> tuple[str, str, dict[str, Any]]:
    plan = await async_plan_instruction(
        text, async_build_home_capabilities(hass), mode=PlannerMode.PARSER
    )
    (step,) = plan.steps
    assert isinstance(step, PlannedOperation), step
    return step.entity_id, step.service, dict(step.data)


async def test_devices_named_by_brand_get_kinds_from_their_domain(hass: HomeAssistant) -> None:
    """A shutter, a thermostat that reports its modes as a bare string, a dehumidifier."""
    areas = ar.async_get(hass)
    office = areas.async_create("Office").id
    hallway = areas.async_create("Hallway").id
    basement = areas.async_create("Basement").id
    _standalone(
        hass,
        "cover.office_roller",
        office,
        "open",
        friendly_name="Office Roller",
        device_class="shutter",
        supported_features=1 | 2 | 4 | 8,
        current_position=100,
    )
    _standalone(
        hass,
        "climate.hallway_tado",
        hallway,
        "heat",
        friendly_name="Hallway Tado",
        hvac_modes="heat",  # malformed: a string, not a list
        min_temp=5,
        max_temp=25,
        temperature=19,
        supported_features=1,
    )
    _standalone(
        hass,
        "humidifier.basement_unit",
        basement,
        "off",
        friendly_name="Basement Unit",
        device_class="dehumidifier",
    )
    home = async_build_home_capabilities(hass)
    assert _device(home, "Office Roller").kinds == frozenset({"blinds"})
    assert "cover.stop_cover" in _services(_device(home, "Office Roller"))
    assert _device(home, "Hallway Tado").kinds == frozenset({"heater", "thermostat"})
    assert _device(home, "Basement Unit").kinds == frozenset({"dehumidifier"})

    assert await _plan(hass, "Stop the blinds in the office") == (
        "cover.office_roller",
        "cover.stop_cover",
        {},
    )
    assert await _plan(hass, "Set the heater in the hallway to 21 degrees") == (
        "climate.hallway_tado",
        "climate.set_temperature",
        {"temperature": 21},
    )
    assert await _plan(hass, "Turn on the dehumidifier in the basement") == (
        "humidifier.basement_unit",
        "humidifier.turn_on",
        {},
    )


async def test_boiler_device_named_by_model_is_found_by_its_entity_name(
    hass: HomeAssistant,
) -> None:
    """The device is "Vaillant ecoTEC"; its entity "Vaillant ecoTEC Boiler" says what it is."""
    utility = ar.async_get(hass).async_create("Utility room").id
    source = MockConfigEntry(domain="test_home")
    source.add_to_hass(hass)
    devices = dr.async_get(hass)
    device = devices.async_get_or_create(
        config_entry_id=source.entry_id,
        identifiers={("test_home", "boiler")},
        name="Vaillant ecoTEC",
    )
    devices.async_update_device(device.id, area_id=utility)
    entry = er.async_get(hass).async_get_or_create(
        "water_heater", "test_home", "boiler", suggested_object_id="boiler", device_id=device.id
    )
    hass.states.async_set(
        entry.entity_id,
        "eco",
        {
            "friendly_name": "Vaillant ecoTEC Boiler",
            "min_temp": 40,
            "max_temp": 65,
            "temperature": 55,
            "operation_list": ["eco", "performance"],
            "operation_mode": "eco",
            "supported_features": 1 | 2 | 8,
        },
    )
    boiler = _device(async_build_home_capabilities(hass), "Vaillant ecoTEC")
    assert boiler.kinds == frozenset({"water_heater"})
    assert set(_services(boiler)) == {
        "water_heater.turn_on",
        "water_heater.turn_off",
        "water_heater.set_temperature",
        "water_heater.set_operation_mode",
    }
    assert await _plan(hass, "Set the water heater to 60 degrees") == (
        entry.entity_id,
        "water_heater.set_temperature",
        {"temperature": 60},
    )
    mode = next(f for f in boiler.features if f.service == "water_heater.set_operation_mode")
    assert mode.options == ("eco", "performance")
    assert mode.current == "eco"


async def test_fan_colour_bulb_and_radio_offer_their_extra_controls(hass: HomeAssistant) -> None:
    bedroom = ar.async_get(hass).async_create("Bedroom").id
    kitchen = ar.async_get(hass).async_create("Kitchen").id
    _standalone(
        hass,
        "fan.bedroom_ceiling_fan",
        bedroom,
        "on",
        friendly_name="Bedroom Ceiling Fan",
        percentage=50,
        percentage_step=25,
        direction="forward",
        supported_features=1 | 4,
    )
    _standalone(
        hass,
        "light.bedroom_bulb",
        bedroom,
        "on",
        friendly_name="Bedroom Bulb",
        supported_color_modes=["hs"],
        brightness=255,
    )
    _standalone(
        hass,
        "media_player.kitchen_radio",
        kitchen,
        "playing",
        friendly_name="Kitchen Radio",
        sound_mode_list=["music", "speech"],
        sound_mode="music",
        supported_features=512 | 65536,
    )
    home = async_build_home_capabilities(hass)
    fan = _device(home, "Bedroom Ceiling Fan")
    speed = next(f for f in fan.features if f.service == "fan.set_percentage")
    assert (speed.minimum, speed.maximum, speed.step, speed.current) == (0, 100, 25.0, 50.0)
    direction = next(f for f in fan.features if f.service == "fan.set_direction")
    assert direction.options == ("forward", "reverse")
    assert direction.current == "forward"
    bulb = _device(home, "Bedroom Bulb")
    color = next(f for f in bulb.features if f.names == frozenset({"color"}))
    assert (color.kind, color.service, color.data_key) == (
        FeatureKind.TEXT,
        "light.turn_on",
        "color_name",
    )
    radio = _device(home, "Kitchen Radio")
    song = next(f for f in radio.features if f.service == "media_player.play_media")
    assert song.fixed_data == {"media_content_type": "music"}
    style = next(f for f in radio.features if f.service == "media_player.select_sound_mode")
    assert (style.options, style.current) == (("music", "speech"), "music")

    assert await _plan(hass, "Set the bedroom fan speed to 75") == (
        "fan.bedroom_ceiling_fan",
        "fan.set_percentage",
        {"percentage": 75},
    )

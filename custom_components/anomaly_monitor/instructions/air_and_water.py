"""What climate devices, fans, humidifiers and water heaters can be asked to do, from
their ``supported_features`` and attributes."""

from __future__ import annotations

from homeassistant.components.climate.const import ClimateEntityFeature
from homeassistant.components.fan import FanEntityFeature
from homeassistant.components.humidifier.const import HumidifierEntityFeature
from homeassistant.components.water_heater import WaterHeaterEntityFeature
from homeassistant.core import State

from ..core.instructions import Feature, FeatureKind
from .feature_kit import (
    SPEED_PRESET,
    as_number,
    as_options,
    feature_action,
    feature_choice,
    feature_range,
    on_off,
)


def climate_features(state: State, features: int, rest: str) -> list[Feature]:
    eid, attrs = state.entity_id, state.attributes
    hvac_modes = as_options(attrs.get("hvac_modes"))
    out: list[Feature] = []
    if features & ClimateEntityFeature.TURN_ON or len(hvac_modes) > 1:
        out.append(feature_action("turn_on", eid, "climate.turn_on"))
    if features & ClimateEntityFeature.TURN_OFF or "off" in hvac_modes:
        out.append(feature_action("turn_off", eid, "climate.turn_off"))
    if features & ClimateEntityFeature.TARGET_TEMPERATURE:
        out.append(
            Feature(
                frozenset({"temperature"}),
                FeatureKind.NUMBER,
                eid,
                "climate.set_temperature",
                "temperature",
                as_number(attrs.get("min_temp")),
                as_number(attrs.get("max_temp")),
                as_number(attrs.get("target_temp_step")) or 1.0,
                current=as_number(attrs.get("temperature")),
            )
        )
    modes = tuple(m for m in hvac_modes if m != "off")
    if len(modes) > 1:  # a single mode is no choice: there is nothing to set
        out.append(
            Feature(
                frozenset({"mode"}),
                FeatureKind.OPTION,
                eid,
                "climate.set_hvac_mode",
                "hvac_mode",
                options=modes,
                current=state.state,
            )
        )
    for flag, names, service, key, list_attr in (
        (ClimateEntityFeature.FAN_MODE, {"fan_speed"}, "set_fan_mode", "fan_mode", "fan_modes"),
        (ClimateEntityFeature.SWING_MODE, {"swing"}, "set_swing_mode", "swing_mode", "swing_modes"),
        (
            ClimateEntityFeature.PRESET_MODE,
            {"preset"},
            "set_preset_mode",
            "preset_mode",
            "preset_modes",
        ),
    ):
        if features & flag:
            out.append(
                Feature(
                    frozenset(names),
                    FeatureKind.OPTION,
                    eid,
                    f"climate.{service}",
                    key,
                    options=as_options(attrs.get(list_attr)),
                    current=attrs.get(key),
                )
            )
    return out


def fan_features(state: State, features: int, rest: str) -> list[Feature]:
    eid, attrs = state.entity_id, state.attributes
    out = on_off(eid, "fan")
    if features & FanEntityFeature.SET_SPEED:
        out.append(
            Feature(
                frozenset({"speed"}),
                FeatureKind.NUMBER,
                eid,
                "fan.set_percentage",
                "percentage",
                0,
                100,
                as_number(attrs.get("percentage_step")) or 1.0,
                current=as_number(attrs.get("percentage")),
            )
        )
    if features & FanEntityFeature.PRESET_MODE:
        # Without percentage control, a fan's presets are its speed setting, if they are
        # speeds at all: an air purifier's "auto"/"sleep" presets are modes, not speeds.
        presets = as_options(attrs.get("preset_modes"))
        speedlike = any(SPEED_PRESET.search(p.lower()) for p in presets)
        names = (
            {"mode", "speed"}
            if speedlike and not features & FanEntityFeature.SET_SPEED
            else {"mode"}
        )
        out.append(
            Feature(
                frozenset(names),
                FeatureKind.OPTION,
                eid,
                "fan.set_preset_mode",
                "preset_mode",
                options=as_options(attrs.get("preset_modes")),
                current=attrs.get("preset_mode"),
            )
        )
    if features & FanEntityFeature.DIRECTION:
        out.append(
            Feature(
                frozenset({"direction"}),
                FeatureKind.OPTION,
                eid,
                "fan.set_direction",
                "direction",
                options=("forward", "reverse"),
                current=attrs.get("direction"),
            )
        )
    return out


def humidifier_features(state: State, features: int, rest: str) -> list[Feature]:
    eid, attrs = state.entity_id, state.attributes
    out = on_off(eid, "humidifier")
    # Home Assistant leaves out "humidity" when the device has no target humidity.
    if as_number(attrs.get("humidity")) is not None:
        out.append(
            feature_range(
                "humidity",
                eid,
                "humidifier.set_humidity",
                "humidity",
                attrs,
                low="min_humidity",
                high="max_humidity",
                current="humidity",
            )
        )
    if features & HumidifierEntityFeature.MODES:
        out.append(
            feature_choice(
                "mode",
                eid,
                "humidifier.set_mode",
                "mode",
                attrs,
                options="available_modes",
                current="mode",
            )
        )
    return out


def water_heater_features(state: State, features: int, rest: str) -> list[Feature]:
    eid, attrs = state.entity_id, state.attributes
    out: list[Feature] = []
    if features & WaterHeaterEntityFeature.ON_OFF:
        out += on_off(eid, "water_heater")
    if features & WaterHeaterEntityFeature.TARGET_TEMPERATURE:
        out.append(
            feature_range(
                "temperature",
                eid,
                "water_heater.set_temperature",
                "temperature",
                attrs,
                low="min_temp",
                high="max_temp",
                current="temperature",
            )
        )
    if features & WaterHeaterEntityFeature.OPERATION_MODE:
        out.append(
            feature_choice(
                "mode",
                eid,
                "water_heater.set_operation_mode",
                "operation_mode",
                attrs,
                options="operation_list",
                current="operation_mode",
            )
        )
    return out

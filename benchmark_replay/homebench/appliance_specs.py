"""What Home Assistant entity a HomeBench appliance becomes: its domain, state, attributes
(supported features, ranges, options) and how its calls read back. Pure: the builder
registers what these return."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from homeassistant.components.climate import ClimateEntityFeature
from homeassistant.components.humidifier import HumidifierEntityFeature
from homeassistant.components.media_player import MediaPlayerEntityFeature
from homeassistant.components.water_heater import WaterHeaterEntityFeature

from .call_translation import Translate, climate_translate, number, simple, spec_of, with_args

# Most HomeBench homes declare their room heating with the water heater's temperature spec
# (30–100 °C, value 83), yet every expected output sets those heaters to 16–30 °C, the range
# the correctly declared heaters have. No room heater's setpoint starts at hot-water
# temperatures, so such a declaration is read as the room range.
HOT_WATER_FLOOR = 30.0
ROOM_HEATING_RANGE = (16.0, 30.0)
HEATING_NAME = "Heating"


class EntitySpec(NamedTuple):
    """One Home Assistant entity for a HomeBench device."""

    domain: str
    state: str
    attributes: dict[str, Any]
    translate: Translate


def humidifier_spec(device: Mapping[str, Any], state: str, key: str) -> EntitySpec:
    """A humidifier or dehumidifier: target humidity is HomeBench's intensity."""
    attrs: dict[str, Any] = {
        "device_class": "dehumidifier" if key == "dehumidifiers" else "humidifier"
    }
    features = 0
    intensity = spec_of(device, "intensity")
    if intensity is not None:
        attrs["humidity"] = int(number(intensity.get("value"), 0))
        attrs["min_humidity"] = number(intensity.get("lowest"), 0)
        attrs["max_humidity"] = number(intensity.get("highest"), 100)
    mode = spec_of(device, "mode")
    if mode is not None:
        features |= HumidifierEntityFeature.MODES
        attrs["available_modes"] = list(mode.get("options") or [])
        attrs["mode"] = mode.get("value")
    attrs["supported_features"] = int(features)
    translate = simple(
        {
            "humidifier.turn_on": "turn_on",
            "humidifier.turn_off": "turn_off",
            "humidifier.set_humidity": "set_intensity",
            "humidifier.set_mode": "set_mode",
        },
    )
    return EntitySpec(
        "humidifier",
        "on" if state == "on" else "off",
        attrs,
        with_args(translate, ("humidity", "mode")),
    )


def water_heater_spec(device: Mapping[str, Any], state: str) -> EntitySpec:
    """A water heater: its state is the operation mode while on."""
    features = WaterHeaterEntityFeature.ON_OFF
    attrs: dict[str, Any] = {}
    temperature = spec_of(device, "temperature")
    if temperature is not None:
        features |= WaterHeaterEntityFeature.TARGET_TEMPERATURE
        attrs.update(
            temperature=number(temperature.get("value"), 0),
            min_temp=number(temperature.get("lowest"), 30),
            max_temp=number(temperature.get("highest"), 100),
        )
    mode = spec_of(device, "mode")
    if mode is not None:
        features |= WaterHeaterEntityFeature.OPERATION_MODE
        attrs.update(operation_list=list(mode.get("options") or []))
        attrs.update(operation_mode=mode.get("value"))
    attrs["supported_features"] = int(features)
    translate = with_args(
        simple(
            {
                "water_heater.turn_on": "turn_on",
                "water_heater.turn_off": "turn_off",
                "water_heater.set_temperature": "set_temperature",
                "water_heater.set_operation_mode": "set_mode",
            }
        ),
        ("temperature", "operation_mode"),
    )
    heater_state = str(attrs.get("operation_mode") or "on") if state == "on" else "off"
    return EntitySpec("water_heater", heater_state, attrs, translate)


def media_player_spec(device: Mapping[str, Any], state: str, plays_songs: bool) -> EntitySpec:
    """A media player: volume 0–1 in HA, 0–100 in HomeBench."""
    flag = MediaPlayerEntityFeature
    features = flag.PLAY | flag.PAUSE | flag.STOP
    attrs: dict[str, Any] = {}
    volume = spec_of(device, "volume")
    if volume is not None:
        features |= flag.VOLUME_SET
        attrs["volume_level"] = number(volume.get("value"), 0) / 100
    if plays_songs:
        features |= flag.PLAY_MEDIA
    attrs["supported_features"] = int(features)
    translate = with_args(
        simple(
            {
                "media_player.media_play": "play",
                "media_player.media_pause": "pause",
                "media_player.media_stop": "stop",
                "media_player.volume_set": "set_volume",
                "media_player.play_media": "set_song",
            }
        ),
        ("volume_level", "media_content_id"),
        scales={"volume_level": 100.0},
    )
    media_state = state if state in ("playing", "paused") else "idle"
    return EntitySpec("media_player", media_state, attrs, translate)


def climate_spec(device: Mapping[str, Any], name: str, state: str) -> EntitySpec:
    """An air conditioner or room heating: HA's state is the hvac mode."""
    flag = ClimateEntityFeature
    features = flag.TURN_ON | flag.TURN_OFF
    attrs: dict[str, Any] = {}
    mode = spec_of(device, "mode")
    modes = list(mode.get("options") or []) if mode else ["heat" if "heat" in name else "auto"]
    if mode is None and name == HEATING_NAME:
        modes = ["heat"]
    attrs["hvac_modes"] = ["off", *modes]
    current_mode = str(mode.get("value")) if mode else modes[0]
    temperature = spec_of(device, "temperature")
    if temperature is not None:
        features |= flag.TARGET_TEMPERATURE
        low = number(temperature.get("lowest"), 7)
        high = number(temperature.get("highest"), 35)
        if name == HEATING_NAME and low >= HOT_WATER_FLOOR:
            # A room heater whose setpoint floor is hot-water warm carries the water
            # heater's spec by mistake; the benchmark's own outputs use the room range.
            low, high = ROOM_HEATING_RANGE
        attrs.update(
            temperature=number(temperature.get("value"), 20),
            min_temp=low,
            max_temp=high,
            target_temp_step=1,
        )
    fan_speed = spec_of(device, "fan_speed")
    if fan_speed is not None:
        features |= flag.FAN_MODE
        attrs.update(fan_modes=list(fan_speed.get("options") or []))
        attrs.update(fan_mode=fan_speed.get("value"))
    swing = spec_of(device, "swing")
    if swing is not None:
        features |= flag.SWING_MODE
        attrs.update(swing_modes=list(swing.get("options") or []))
        attrs.update(swing_mode=swing.get("value"))
    attrs["supported_features"] = int(features)
    # HA's state is the hvac mode; an "off" device remembers its mode only in HomeBench.
    climate_state = current_mode if state == "on" else "off"
    return EntitySpec("climate", climate_state, attrs, climate_translate)

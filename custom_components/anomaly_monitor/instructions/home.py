"""Build the instruction check's capability model from Home Assistant's own data.

Areas come from the area registry; devices from the device registry (entities without a
device stand alone); what each entity can do from its domain, ``supported_features`` and
state attributes (min/max temperature, humidity range, volume, option lists, …).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
import math
import re
from typing import Any

from homeassistant.components.climate.const import ClimateEntityFeature
from homeassistant.components.cover import CoverEntityFeature
from homeassistant.components.fan import FanEntityFeature
from homeassistant.components.humidifier.const import HumidifierEntityFeature
from homeassistant.components.lock import LockEntityFeature
from homeassistant.components.media_player.const import MediaPlayerEntityFeature
from homeassistant.components.vacuum.const import VacuumEntityFeature
from homeassistant.components.water_heater import WaterHeaterEntityFeature
from homeassistant.const import ATTR_FRIENDLY_NAME, ATTR_SUPPORTED_FEATURES, STATE_UNAVAILABLE
from homeassistant.core import HomeAssistant, State, callback
from homeassistant.helpers import (
    area_registry as ar,
    device_registry as dr,
    entity_registry as er,
)

from ..core.instructions import Area, DeviceCapability, Feature, FeatureKind, HomeCapabilities
from ..core.instructions.vocabulary import (
    ACTIONS,
    DEVICE_KINDS,
    attributes_in_name,
    kinds_in_name,
    normalize,
)

# Kinds a domain implies when the names say nothing more specific.
_DOMAIN_KINDS: dict[str, tuple[str, ...]] = {
    "light": ("light",),
    "fan": ("fan",),
    "humidifier": ("humidifier",),
    "water_heater": ("water_heater",),
    "media_player": ("media_player",),
    "vacuum": ("vacuum",),
    "lock": ("lock",),
    "switch": ("switch",),
}
_COVER_KINDS = {
    "curtain": "curtain",
    "blind": "blinds",
    "shade": "blinds",
    "shutter": "blinds",
    "garage": "garage_door",
}
_BRIGHTNESS_MODES = {"brightness", "color_temp", "hs", "xy", "rgb", "rgbw", "rgbww", "white"}
_COLOR_MODES = {"hs", "xy", "rgb", "rgbw", "rgbww"}
# Preset names that are fan speeds ("low", "medium", "high", "speed 2", "turbo" …).
_SPEED_PRESET = re.compile(r"\b(?:low|medium|mid|middle|high|max|min|turbo|quiet|silent|strong|\d)")


def _action(name: str, entity_id: str, service: str) -> Feature:
    return Feature(frozenset({name}), FeatureKind.ACTION, entity_id, service)


def _range(
    name: str,
    entity_id: str,
    service: str,
    data_key: str,
    attrs: Mapping[str, Any],
    *,
    low: str,
    high: str,
    current: str,
) -> Feature:
    """A value the device takes between two of its attributes."""
    return Feature(
        frozenset({name}),
        FeatureKind.NUMBER,
        entity_id,
        service,
        data_key,
        _number(attrs.get(low)),
        _number(attrs.get(high)),
        current=_number(attrs.get(current)),
    )


def _choice(
    name: str,
    entity_id: str,
    service: str,
    data_key: str,
    attrs: Mapping[str, Any],
    *,
    options: str,
    current: str,
) -> Feature:
    """One of the options the device lists in an attribute."""
    return Feature(
        frozenset({name}),
        FeatureKind.OPTION,
        entity_id,
        service,
        data_key,
        options=_options(attrs.get(options)),
        current=attrs.get(current),
    )


def _number(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _options(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        return ()
    return tuple(str(v)[:64] for v in value[:64])


def _light(state: State, features: int, rest: str) -> list[Feature]:
    eid = state.entity_id
    out = [_action("turn_on", eid, "light.turn_on"), _action("turn_off", eid, "light.turn_off")]
    modes = set(_options(state.attributes.get("supported_color_modes")))
    if modes & _BRIGHTNESS_MODES:
        raw = _number(state.attributes.get("brightness"))
        current = (
            round(raw * 100 / 255) if raw is not None else (0 if state.state == "off" else None)
        )
        out.append(
            Feature(
                frozenset({"brightness"}),
                FeatureKind.NUMBER,
                eid,
                "light.turn_on",
                "brightness_pct",
                0,
                100,
                current=current,
            )
        )
    if modes & _COLOR_MODES:
        out.append(
            Feature(frozenset({"color"}), FeatureKind.TEXT, eid, "light.turn_on", "color_name")
        )
    if "color_temp" in modes:
        out.append(
            _range(
                "color_temp",
                eid,
                "light.turn_on",
                "color_temp_kelvin",
                state.attributes,
                low="min_color_temp_kelvin",
                high="max_color_temp_kelvin",
                current="color_temp_kelvin",
            )
        )
    return out


def _climate(state: State, features: int, rest: str) -> list[Feature]:
    eid, attrs = state.entity_id, state.attributes
    hvac_modes = _options(attrs.get("hvac_modes"))
    out: list[Feature] = []
    if features & ClimateEntityFeature.TURN_ON or len(hvac_modes) > 1:
        out.append(_action("turn_on", eid, "climate.turn_on"))
    if features & ClimateEntityFeature.TURN_OFF or "off" in hvac_modes:
        out.append(_action("turn_off", eid, "climate.turn_off"))
    if features & ClimateEntityFeature.TARGET_TEMPERATURE:
        out.append(
            Feature(
                frozenset({"temperature"}),
                FeatureKind.NUMBER,
                eid,
                "climate.set_temperature",
                "temperature",
                _number(attrs.get("min_temp")),
                _number(attrs.get("max_temp")),
                _number(attrs.get("target_temp_step")) or 1.0,
                current=_number(attrs.get("temperature")),
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
                    options=_options(attrs.get(list_attr)),
                    current=attrs.get(key),
                )
            )
    return out


def _cover(state: State, features: int, rest: str) -> list[Feature]:
    eid = state.entity_id
    out: list[Feature] = []
    if features & CoverEntityFeature.OPEN:
        out.append(_action("open", eid, "cover.open_cover"))
    if features & CoverEntityFeature.CLOSE:
        out.append(_action("close", eid, "cover.close_cover"))
    if features & CoverEntityFeature.STOP:
        out.append(_action("stop", eid, "cover.stop_cover"))
    if features & CoverEntityFeature.SET_POSITION:
        out.append(
            Feature(
                frozenset({"position"}),
                FeatureKind.NUMBER,
                eid,
                "cover.set_cover_position",
                "position",
                0,
                100,
                current=_number(state.attributes.get("current_position")),
            )
        )
    return out


def _fan(state: State, features: int, rest: str) -> list[Feature]:
    eid, attrs = state.entity_id, state.attributes
    out = [_action("turn_on", eid, "fan.turn_on"), _action("turn_off", eid, "fan.turn_off")]
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
                _number(attrs.get("percentage_step")) or 1.0,
                current=_number(attrs.get("percentage")),
            )
        )
    if features & FanEntityFeature.PRESET_MODE:
        # Without percentage control, a fan's presets are its speed setting, if they are
        # speeds at all: an air purifier's "auto"/"sleep" presets are modes, not speeds.
        presets = _options(attrs.get("preset_modes"))
        speedlike = any(_SPEED_PRESET.search(p.lower()) for p in presets)
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
                options=_options(attrs.get("preset_modes")),
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


def _humidifier(state: State, features: int, rest: str) -> list[Feature]:
    eid, attrs = state.entity_id, state.attributes
    out = [
        _action("turn_on", eid, "humidifier.turn_on"),
        _action("turn_off", eid, "humidifier.turn_off"),
    ]
    # Home Assistant leaves out "humidity" when the device has no target humidity.
    if _number(attrs.get("humidity")) is not None:
        out.append(
            _range(
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
            _choice(
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


def _water_heater(state: State, features: int, rest: str) -> list[Feature]:
    eid, attrs = state.entity_id, state.attributes
    out: list[Feature] = []
    if features & WaterHeaterEntityFeature.ON_OFF:
        out.append(_action("turn_on", eid, "water_heater.turn_on"))
        out.append(_action("turn_off", eid, "water_heater.turn_off"))
    if features & WaterHeaterEntityFeature.TARGET_TEMPERATURE:
        out.append(
            _range(
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
            _choice(
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


def _media_player(state: State, features: int, rest: str) -> list[Feature]:
    eid, attrs = state.entity_id, state.attributes
    flag = MediaPlayerEntityFeature
    out: list[Feature] = []
    for bit, name, service in (
        (flag.PLAY, "play", "media_play"),
        (flag.PAUSE, "pause", "media_pause"),
        (flag.STOP, "stop", "media_stop"),
        (flag.TURN_ON, "turn_on", "turn_on"),
        (flag.TURN_OFF, "turn_off", "turn_off"),
        (flag.NEXT_TRACK, "next_track", "media_next_track"),
        (flag.PREVIOUS_TRACK, "previous_track", "media_previous_track"),
        (flag.VOLUME_MUTE, "mute", "volume_mute"),
    ):
        if features & bit:
            out.append(_action(name, eid, f"media_player.{service}"))
    if features & flag.VOLUME_SET:
        level = _number(attrs.get("volume_level"))
        out.append(
            Feature(
                frozenset({"volume"}),
                FeatureKind.NUMBER,
                eid,
                "media_player.volume_set",
                "volume_level",
                0,
                100,
                current=round(level * 100) if level is not None else None,
                scale=0.01,
            )
        )
    if features & flag.PLAY_MEDIA:
        out.append(
            Feature(
                frozenset({"song"}),
                FeatureKind.TEXT,
                eid,
                "media_player.play_media",
                "media_content_id",
                fixed_data={"media_content_type": "music"},
            )
        )
    if features & flag.SELECT_SOUND_MODE:
        out.append(
            _choice(
                "style",
                eid,
                "media_player.select_sound_mode",
                "sound_mode",
                attrs,
                options="sound_mode_list",
                current="sound_mode",
            )
        )
    return out


def _vacuum(state: State, features: int, rest: str) -> list[Feature]:
    eid, attrs = state.entity_id, state.attributes
    flag = VacuumEntityFeature
    out: list[Feature] = []
    for bit, name, service in (
        (flag.START, "start", "start"),
        (flag.PAUSE, "pause", "pause"),
        (flag.STOP, "stop", "stop"),
        (flag.RETURN_HOME, "return_home", "return_to_base"),
    ):
        if features & bit:
            out.append(_action(name, eid, f"vacuum.{service}"))
    if features & flag.FAN_SPEED:
        out.append(
            Feature(
                frozenset({"fan_speed", "mode", "speed"}),
                FeatureKind.OPTION,
                eid,
                "vacuum.set_fan_speed",
                "fan_speed",
                options=_options(attrs.get("fan_speed_list")),
                current=attrs.get("fan_speed"),
            )
        )
    return out


def _lock(state: State, features: int, rest: str) -> list[Feature]:
    eid = state.entity_id
    out = [_action("lock", eid, "lock.lock"), _action("unlock", eid, "lock.unlock")]
    if features & LockEntityFeature.OPEN:
        out.append(_action("open", eid, "lock.open"))
    return out


def _switch(state: State, features: int, rest: str) -> list[Feature]:
    domain = state.domain
    return [
        _action("turn_on", state.entity_id, f"{domain}.turn_on"),
        _action("turn_off", state.entity_id, f"{domain}.turn_off"),
    ]


def _named(rest: str) -> frozenset[str]:
    return frozenset(attributes_in_name(rest) or {normalize(rest).replace(" ", "_") or "value"})


def _number_entity(state: State, features: int, rest: str) -> list[Feature]:
    attrs = state.attributes
    return [
        Feature(
            _named(rest),
            FeatureKind.NUMBER,
            state.entity_id,
            f"{state.domain}.set_value",
            "value",
            _number(attrs.get("min")),
            _number(attrs.get("max")),
            _number(attrs.get("step")) or 1.0,
            current=_number(state.state),
        )
    ]


def _select_entity(state: State, features: int, rest: str) -> list[Feature]:
    return [
        Feature(
            _named(rest),
            FeatureKind.OPTION,
            state.entity_id,
            f"{state.domain}.select_option",
            "option",
            options=_options(state.attributes.get("options")),
            current=state.state,
        )
    ]


def _button(state: State, features: int, rest: str) -> list[Feature]:
    text = normalize(rest)
    names = {
        action
        for action, phrases in ACTIONS.items()
        if any(f" {p} " in f" {text} " for p in phrases)
    } or {"press"}
    return [Feature(frozenset(names), FeatureKind.ACTION, state.entity_id, f"{state.domain}.press")]


_BUILDERS: dict[str, Callable[[State, int, str], list[Feature]]] = {
    "light": _light,
    "climate": _climate,
    "cover": _cover,
    "fan": _fan,
    "humidifier": _humidifier,
    "water_heater": _water_heater,
    "media_player": _media_player,
    "vacuum": _vacuum,
    "lock": _lock,
    "switch": _switch,
    "input_boolean": _switch,
    "number": _number_entity,
    "input_number": _number_entity,
    "select": _select_entity,
    "input_select": _select_entity,
    "button": _button,
    "input_button": _button,
}


def _default_kinds(state: State) -> set[str]:
    domain = state.domain
    if domain == "cover":
        device_class = str(state.attributes.get("device_class") or "")
        return {_COVER_KINDS[device_class]} if device_class in _COVER_KINDS else {"blinds"}
    if domain == "climate":
        modes = _options(state.attributes.get("hvac_modes"))
        return {"air_conditioner" if "cool" in modes else "heater", "thermostat"}
    if domain == "humidifier" and state.attributes.get("device_class") == "dehumidifier":
        return {"dehumidifier"}
    return set(_DOMAIN_KINDS.get(domain, ()))


def _strip_prefix(name: str, prefix: str) -> str:
    norm_name, norm_prefix = normalize(name), normalize(prefix)
    if norm_prefix and norm_name.startswith(norm_prefix):
        return norm_name[len(norm_prefix) :].strip()
    return norm_name


@callback
def async_build_home_capabilities(hass: HomeAssistant) -> HomeCapabilities:
    """Snapshot the home's areas, devices and their features. Runs in the event loop."""
    area_reg = ar.async_get(hass)
    dev_reg = dr.async_get(hass)
    ent_reg = er.async_get(hass)
    areas = tuple(Area(a.id, a.name, tuple(sorted(a.aliases))) for a in area_reg.async_list_areas())
    area_names = {a.area_id: a.name for a in areas}

    groups: dict[str, dict[str, Any]] = {}
    for state in hass.states.async_all(tuple(_BUILDERS)):
        if state.state == STATE_UNAVAILABLE:
            continue
        entry = ent_reg.async_get(state.entity_id)
        if entry is not None and (entry.disabled_by or entry.hidden_by):
            continue
        device = dev_reg.async_get(entry.device_id) if entry and entry.device_id else None
        area_id = (entry.area_id if entry else None) or (device.area_id if device else None)
        friendly = str(state.attributes.get(ATTR_FRIENDLY_NAME) or state.object_id)[:120]
        key = device.id if device else state.entity_id
        group = groups.setdefault(
            key,
            {
                "name": ((device.name_by_user or device.name) if device else None) or friendly,
                "area_id": area_id,
                "kinds": set(),
                "features": [],
                "states": [],
            },
        )
        group["area_id"] = group["area_id"] or area_id
        group["states"].append((state, friendly))

    devices: list[DeviceCapability] = []
    for key, group in groups.items():
        name = str(group["name"])[:120]
        area_name = area_names.get(group["area_id"], "")
        kinds: set[str] = kinds_in_name(_strip_prefix(name, area_name))
        features: list[Feature] = []
        for state, friendly in group["states"]:
            rest = _strip_prefix(_strip_prefix(friendly, name), area_name)
            supported = int(state.attributes.get(ATTR_SUPPORTED_FEATURES) or 0)
            features.extend(_BUILDERS[state.domain](state, supported, rest))
            if not kinds:
                kinds |= kinds_in_name(_strip_prefix(friendly, area_name))
        if not kinds:
            for state, _friendly in group["states"]:
                kinds |= _default_kinds(state)
        kinds &= set(DEVICE_KINDS)
        if features:
            devices.append(
                DeviceCapability(key, name, group["area_id"], frozenset(kinds), tuple(features))
            )
    return HomeCapabilities(areas, tuple(devices))

"""What each kind of device can be asked to do (``BUILDERS``, by domain), from its
``supported_features`` and attributes; climate-like devices in ``air_and_water``."""

from __future__ import annotations

from collections.abc import Callable

from homeassistant.components.cover import CoverEntityFeature
from homeassistant.components.lock import LockEntityFeature
from homeassistant.components.media_player.const import MediaPlayerEntityFeature
from homeassistant.components.vacuum.const import VacuumEntityFeature
from homeassistant.core import State

from ..core.instructions import Feature, FeatureKind
from ..core.instructions.vocabulary import ACTIONS, normalize
from .air_and_water import (
    climate_features,
    fan_features,
    humidifier_features,
    water_heater_features,
)
from .feature_kit import (
    BRIGHTNESS_MODES,
    COLOR_MODES,
    as_number,
    as_options,
    feature_action,
    feature_choice,
    feature_range,
    named_value,
    on_off,
    supported_actions,
)

# (supported-features flag, action name, service) of the plain actions each device offers.
_MEDIA = MediaPlayerEntityFeature
MEDIA_PLAYER_ACTIONS = (
    (_MEDIA.PLAY, "play", "media_play"),
    (_MEDIA.PAUSE, "pause", "media_pause"),
    (_MEDIA.STOP, "stop", "media_stop"),
    (_MEDIA.TURN_ON, "turn_on", "turn_on"),
    (_MEDIA.TURN_OFF, "turn_off", "turn_off"),
    (_MEDIA.NEXT_TRACK, "next_track", "media_next_track"),
    (_MEDIA.PREVIOUS_TRACK, "previous_track", "media_previous_track"),
    (_MEDIA.VOLUME_MUTE, "mute", "volume_mute"),
)
VACUUM_ACTIONS = (
    (VacuumEntityFeature.START, "start", "start"),
    (VacuumEntityFeature.PAUSE, "pause", "pause"),
    (VacuumEntityFeature.STOP, "stop", "stop"),
    (VacuumEntityFeature.RETURN_HOME, "return_home", "return_to_base"),
)


def _light(state: State, features: int, rest: str) -> list[Feature]:
    eid = state.entity_id
    out = on_off(eid, "light")
    modes = set(as_options(state.attributes.get("supported_color_modes")))
    if modes & BRIGHTNESS_MODES:
        raw = as_number(state.attributes.get("brightness"))
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
    if modes & COLOR_MODES:
        out.append(
            Feature(frozenset({"color"}), FeatureKind.TEXT, eid, "light.turn_on", "color_name")
        )
    if "color_temp" in modes:
        out.append(
            feature_range(
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


def _cover(state: State, features: int, rest: str) -> list[Feature]:
    eid = state.entity_id
    out: list[Feature] = []
    if features & CoverEntityFeature.OPEN:
        out.append(feature_action("open", eid, "cover.open_cover"))
    if features & CoverEntityFeature.CLOSE:
        out.append(feature_action("close", eid, "cover.close_cover"))
    if features & CoverEntityFeature.STOP:
        out.append(feature_action("stop", eid, "cover.stop_cover"))
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
                current=as_number(state.attributes.get("current_position")),
            )
        )
    return out


def _media_player(state: State, features: int, rest: str) -> list[Feature]:
    eid, attrs = state.entity_id, state.attributes
    flag = MediaPlayerEntityFeature
    out = supported_actions(features, eid, "media_player", MEDIA_PLAYER_ACTIONS)
    if features & flag.VOLUME_SET:
        level = as_number(attrs.get("volume_level"))
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
            feature_choice(
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
    out = supported_actions(features, eid, "vacuum", VACUUM_ACTIONS)
    if features & flag.FAN_SPEED:
        out.append(
            Feature(
                frozenset({"fan_speed", "mode", "speed"}),
                FeatureKind.OPTION,
                eid,
                "vacuum.set_fan_speed",
                "fan_speed",
                options=as_options(attrs.get("fan_speed_list")),
                current=attrs.get("fan_speed"),
            )
        )
    return out


def _lock(state: State, features: int, rest: str) -> list[Feature]:
    eid = state.entity_id
    out = [feature_action("lock", eid, "lock.lock"), feature_action("unlock", eid, "lock.unlock")]
    if features & LockEntityFeature.OPEN:
        out.append(feature_action("open", eid, "lock.open"))
    return out


def _switch(state: State, features: int, rest: str) -> list[Feature]:
    return on_off(state.entity_id, state.domain)


def _number_entity(state: State, features: int, rest: str) -> list[Feature]:
    attrs = state.attributes
    return [
        Feature(
            named_value(rest),
            FeatureKind.NUMBER,
            state.entity_id,
            f"{state.domain}.set_value",
            "value",
            as_number(attrs.get("min")),
            as_number(attrs.get("max")),
            as_number(attrs.get("step")) or 1.0,
            current=as_number(state.state),
        )
    ]


def _select_entity(state: State, features: int, rest: str) -> list[Feature]:
    return [
        Feature(
            named_value(rest),
            FeatureKind.OPTION,
            state.entity_id,
            f"{state.domain}.select_option",
            "option",
            options=as_options(state.attributes.get("options")),
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


BUILDERS: dict[str, Callable[[State, int, str], list[Feature]]] = {
    "light": _light,
    "climate": climate_features,
    "cover": _cover,
    "fan": fan_features,
    "humidifier": humidifier_features,
    "water_heater": water_heater_features,
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

"""The calls Home Assistant's intent handlers would make for a recognized sentence, and
the reasons a person understands when HA's target matching finds nothing."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from homeassistant.core import State
from homeassistant.helpers import intent
from homeassistant.util import color as color_util

from ..core.instructions import RefusalCode, RefusedPart

# (intent, domain) → (feature name, service HA calls); on/off depends on the domain.
_ON_OFF_SERVICES: dict[str, tuple[str, str]] = {
    "cover": ("open", "close"),
    "valve": ("open", "close"),
    "lock": ("lock", "unlock"),
}
_SIMPLE: dict[str, str] = {
    "HassVacuumStart": "start",
    "HassVacuumReturnToBase": "return_home",
    "HassLawnMowerStartMowing": "start",
    "HassLawnMowerDock": "return_home",
    "HassMediaNext": "next_track",
    "HassMediaPrevious": "previous_track",
    "HassMediaPause": "pause",
    "HassMediaUnpause": "play",
}
_FAILURE_CODES = {
    intent.MatchFailedReason.INVALID_AREA: RefusalCode.UNKNOWN_AREA,
    intent.MatchFailedReason.INVALID_FLOOR: RefusalCode.UNKNOWN_AREA,
    intent.MatchFailedReason.DUPLICATE_NAME: RefusalCode.AMBIGUOUS_DEVICE,
    intent.MatchFailedReason.MULTIPLE_TARGETS: RefusalCode.AMBIGUOUS_DEVICE,
    intent.MatchFailedReason.FEATURE: RefusalCode.UNSUPPORTED_ACTION,
    intent.MatchFailedReason.STATE: RefusalCode.UNSUPPORTED_ACTION,
}  # anything else: no such device (there)


@dataclass(frozen=True, slots=True)
class Proposal:
    """A call HA's handler would make, with the feature that must allow it."""

    state: State
    feature: str
    service: str
    data: Mapping[str, Any]
    value: float | None = None


def as_number(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def proposal_for(name: str, slots: Mapping[str, Any], state: State) -> Proposal | None:
    """The call HA's handler for ``name`` makes on ``state`` (None: it has none)."""
    domain = state.domain
    if name in ("HassTurnOn", "HassTurnOff"):
        on = name == "HassTurnOn"
        if domain in ("button", "input_button"):
            return Proposal(state, "press", f"{domain}.press", {}) if on else None
        if domain in _ON_OFF_SERVICES:
            feature = _ON_OFF_SERVICES[domain][0 if on else 1]
            service = {"open": "open_", "close": "close_"}.get(feature, "")
            return Proposal(
                state, feature, f"{domain}.{service + domain if service else feature}", {}
            )
        feature = "turn_on" if on else "turn_off"
        return Proposal(state, feature, f"{domain}.{feature}", {})
    if name in _SIMPLE:
        feature = _SIMPLE[name]
        service = {
            "return_home": "return_to_base" if domain == "vacuum" else "dock",
            "next_track": "media_next_track",
            "previous_track": "media_previous_track",
            "pause": "media_pause",
            "play": "media_play",
            "start": "start" if domain == "vacuum" else "start_mowing",
        }[feature]
        return Proposal(state, feature, f"{domain}.{service}", {})
    return value_proposal(name, slots, state)


def value_proposal(name: str, slots: Mapping[str, Any], state: State) -> Proposal | None:
    """Calls that carry a value."""
    if name == "HassLightSet":
        if (value := as_number(slots.get("brightness"))) is not None:
            return Proposal(
                state, "brightness", "light.turn_on", {"brightness_pct": int(value)}, value
            )
        if "color" in slots:
            rgb = color_util.color_name_to_rgb(str(slots["color"]))
            return Proposal(state, "color", "light.turn_on", {"rgb_color": list(rgb)})
        if (value := as_number(slots.get("temperature"))) is not None:
            kelvin = {"color_temp_kelvin": int(value)}
            return Proposal(state, "color_temp", "light.turn_on", kelvin, value)
        return None
    if name == "HassClimateSetTemperature":
        value = as_number(slots.get("temperature"))
        data: dict[str, Any] = {"temperature": value}
        return Proposal(state, "temperature", "climate.set_temperature", data, value)
    if name == "HassFanSetSpeed":
        value = as_number(slots.get("percentage"))
        return Proposal(state, "speed", "fan.turn_on", {"percentage": value}, value)
    if name == "HassSetPosition":
        value = as_number(slots.get("position"))
        service = (
            "cover.set_cover_position" if state.domain == "cover" else "valve.set_valve_position"
        )
        return Proposal(state, "position", service, {"position": value}, value)
    if name == "HassSetVolume":
        value = as_number(slots.get("volume_level"))
        level = None if value is None else value / 100
        return Proposal(state, "volume", "media_player.volume_set", {"volume_level": level}, value)
    if name in ("HassMediaPlayerMute", "HassMediaPlayerUnmute"):
        muted = name == "HassMediaPlayerMute"
        return Proposal(state, "mute", "media_player.volume_mute", {"is_volume_muted": muted})
    return None


def no_service(text: str, name: str, state: State) -> RefusedPart:
    return RefusedPart(
        text, RefusalCode.UNSUPPORTED_ACTION, f"{state.name} does not do that ({name})"
    )


def match_failure(
    text: str, match: intent.MatchTargetsResult, constraints: intent.MatchTargetsConstraints
) -> RefusedPart:
    """A reason a person understands, from HA's own match failure."""
    reason = match.no_match_reason
    code = (
        _FAILURE_CODES.get(reason, RefusalCode.UNKNOWN_DEVICE)
        if reason
        else RefusalCode.UNKNOWN_DEVICE
    )
    what = constraints.name or " or ".join(sorted(constraints.domains or ())) or "device"
    where = constraints.area_name or constraints.floor_name
    messages = {
        intent.MatchFailedReason.NAME: f"there is no device called {constraints.name}",
        intent.MatchFailedReason.INVALID_AREA: f"there is no area called {where}",
        intent.MatchFailedReason.INVALID_FLOOR: f"there is no floor called {where}",
        intent.MatchFailedReason.DUPLICATE_NAME: (
            f"several devices are called {match.no_match_name}"
        ),
        intent.MatchFailedReason.MULTIPLE_TARGETS: f"several {what} devices match; say which",
        intent.MatchFailedReason.FEATURE: f"no {what} there can do that",
        intent.MatchFailedReason.STATE: f"no {what} is playing",
    }
    message = messages.get(reason) if reason else None
    if message is None:
        message = f"there is no {what} in {where}" if where else f"there is no {what}"
    return RefusedPart(text, code, message)

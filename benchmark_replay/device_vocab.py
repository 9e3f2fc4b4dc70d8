"""What a benchmark device's values say, in Home Assistant's words.

Faults ("offline", "timeout") and unknowns, the per-domain vocabularies that turn a raw
value into an HA state, and the unit suffixes a numeric reading may carry. General
words any home uses, never a list read off one benchmark (``entity_mapping.py`` uses them).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

UNAVAILABLE_MARKERS = frozenset(
    {"unavailable", "offline", "timeout", "timed_out", "unreachable", "no_response", "error"}
)
UNKNOWN_MARKERS = frozenset({"unknown", "", "n/a", "na", "null", "nan"})
# "KEY:VALUE" statuses whose KEY only annotates the value.
ANNOTATION_PREFIXES = frozenset({"failure_start", "persisted"})

# Per-domain vocabularies: lower-case raw value -> HA state.
BINARY_VOCAB: Mapping[str, str] = MappingProxyType(
    {
        **dict.fromkeys(
            (
                "on",
                "open",
                "opened",
                "true",
                "yes",
                "1",
                "detected",
                "motion",
                "motion_detected",
                "gas_detected",
                "smoke_detected",
                "leak_detected",
                "leak",
                "wet",
                "alarm",
                "alert",
                "triggered",
                "high_smoke",
                "occupied",
                "active",
                "charging",
                "locked",
            ),
            "on",
        ),
        **dict.fromkeys(
            (
                "off",
                "closed",
                "close",
                "false",
                "no",
                "0",
                "clear",
                "no_motion",
                "dry",
                "normal",
                "ok",
                "unoccupied",
                "inactive",
                "not_charging",
                "unlocked",
            ),
            "off",
        ),
    }
)
CONNECTIVITY_VOCAB: Mapping[str, str] = MappingProxyType(
    {
        **dict.fromkeys(("online", "connected", "on", "true"), "on"),
        **dict.fromkeys(("offline", "disconnected", "off", "false"), "off"),
    }
)
ON_OFF_VOCAB: Mapping[str, str] = MappingProxyType(
    {
        **dict.fromkeys(("on", "power_on", "true", "enabled", "active"), "on"),
        **dict.fromkeys(("off", "power_off", "false", "disabled", "inactive"), "off"),
    }
)
MEDIA_VOCAB: Mapping[str, str] = MappingProxyType(
    {**ON_OFF_VOCAB, "playing": "playing", "paused": "paused", "standby": "standby", "idle": "idle"}
)
LOCK_VOCAB: Mapping[str, str] = MappingProxyType(
    {s: s for s in ("locked", "unlocked", "jammed", "locking", "unlocking", "open", "opening")}
)
ALARM_VOCAB: Mapping[str, str] = MappingProxyType(
    {
        # A bare "armed" is a full (away) arming in most panels.
        "armed": "armed_away",
        **{
            s: s
            for s in (
                "armed_away",
                "armed_home",
                "armed_night",
                "armed_vacation",
                "armed_custom_bypass",
                "disarmed",
                "triggered",
                "pending",
                "arming",
                "disarming",
            )
        },
    }
)
COVER_VOCAB: Mapping[str, str] = MappingProxyType(
    {s: s for s in ("open", "closed", "opening", "closing")} | {"close": "closed"}
)
CAMERA_VOCAB: Mapping[str, str] = MappingProxyType(
    {
        "recording": "recording",
        "on": "recording",
        "streaming": "streaming",
        "idle": "idle",
        "standby": "idle",
        "off": "idle",
    }
)
PRESENCE_VOCAB: Mapping[str, str] = MappingProxyType(
    {"home": "home", "not_home": "not_home", "away": "not_home"}
)
SUN_VOCAB: Mapping[str, str] = MappingProxyType(
    {"above_horizon": "above_horizon", "below_horizon": "below_horizon"}
)
WEATHER_VOCAB: Mapping[str, str] = MappingProxyType(
    {
        "sunny": "sunny",
        "clear": "sunny",
        "cloudy": "cloudy",
        "overcast": "cloudy",
        "partlycloudy": "partlycloudy",
        "partly_cloudy": "partlycloudy",
        "rainy": "rainy",
        "rain": "rainy",
        "snowy": "snowy",
        "snow": "snowy",
        "stormy": "lightning-rainy",
        "foggy": "fog",
        "fog": "fog",
        "windy": "windy",
    }
)
VACUUM_VOCAB: Mapping[str, str] = MappingProxyType(
    {"on": "cleaning", "cleaning": "cleaning", "off": "docked", "docked": "docked"}
)
HVAC_MODE_VOCAB: Mapping[str, str] = MappingProxyType(
    {s: s for s in ("off", "heat", "cool", "auto", "heat_cool", "dry", "fan_only")}
    | {"heating": "heat", "cooling": "cool"}
)
HVAC_ACTION_VOCAB: Mapping[str, str] = MappingProxyType(
    {s: s for s in ("heating", "cooling", "idle", "off", "drying", "fan", "preheating")}
    | {"heat": "heating", "cool": "cooling", "on": "idle"}
)
# A standalone HVAC unit that only reports what it is doing: the mode it implies.
ACTION_TO_MODE: Mapping[str, str] = MappingProxyType(
    {"heating": "heat", "cooling": "cool", "off": "off", "idle": "auto", "fan": "fan_only"}
)

# Unit suffixes seen on numeric values, and what they make of a sensor.
UNIT_SUFFIXES: Mapping[str, tuple[str | None, str]] = MappingProxyType(
    {
        "c": ("temperature", "°C"),
        "°c": ("temperature", "°C"),
        "%": (None, "%"),
        "ppm": (None, "ppm"),
        "w": ("power", "W"),
        "kw": ("power", "kW"),
        "v": ("voltage", "V"),
        "dbm": ("signal_strength", "dBm"),
        "db": ("sound_pressure", "dB"),
        "lx": ("illuminance", "lx"),
    }
)

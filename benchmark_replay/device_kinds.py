"""The mapping table: which device words make which Home Assistant entity.

Each row (``DeviceKind``) is a pattern searched in a device's words, with the domain,
device_class, unit and vocabulary it gives; ``entity_mapping.classify`` takes the first
row that fits. Rows for ids that already start with an HA domain, and the fallbacks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
import re
from types import MappingProxyType

from .device_vocab import (
    ALARM_VOCAB,
    BINARY_VOCAB,
    CAMERA_VOCAB,
    CONNECTIVITY_VOCAB,
    COVER_VOCAB,
    HVAC_ACTION_VOCAB,
    HVAC_MODE_VOCAB,
    LOCK_VOCAB,
    MEDIA_VOCAB,
    ON_OFF_VOCAB,
    PRESENCE_VOCAB,
    SUN_VOCAB,
    VACUUM_VOCAB,
    WEATHER_VOCAB,
)


@dataclass(frozen=True, slots=True)
class DeviceKind:
    """One row of the mapping table.

    ``pattern`` is searched in the device words (lower case, after the area).
    ``values`` restricts the row to devices whose readings are all numbers
    ("numeric") or not ("text"); ``role`` marks thermostat facets that a snapshot
    merges into one climate entity.
    """

    key: str
    pattern: re.Pattern[str]
    domain: str
    device_class: str | None = None
    unit: str | None = None
    vocab: Mapping[str, str] | None = None
    values: str | None = None  # "numeric" | "text" | None (any)
    role: str | None = None  # "hvac_mode" | "target" | "action"


def kind_row(  # noqa: PLR0917 - a table row reads best positionally
    key: str,
    pattern: str,
    domain: str,
    device_class: str | None = None,
    unit: str | None = None,
    vocab: Mapping[str, str] | None = None,
    values: str | None = None,
    role: str | None = None,
) -> DeviceKind:
    return DeviceKind(key, re.compile(pattern), domain, device_class, unit, vocab, values, role)


# The table, most specific first. Keep it general: these are words any home uses.
DEVICE_KINDS: tuple[DeviceKind, ...] = (
    kind_row(
        "connectivity",
        r"\b(connectivity|wifi connection|online)\b",
        "binary_sensor",
        "connectivity",
        vocab=CONNECTIVITY_VOCAB,
    ),
    kind_row("state_log", r"\bstate log\b", "sensor"),
    kind_row("battery", r"\bbattery( life| level)?\b", "sensor", "battery", "%"),
    kind_row("charging", r"\bcharging\b", "binary_sensor", "battery_charging", vocab=BINARY_VOCAB),
    kind_row(
        "gas_alarm",
        r"\bgas (leak|detector|alarm|sensor)\b",
        "binary_sensor",
        "gas",
        vocab=BINARY_VOCAB,
    ),
    kind_row("gas_level", r"\bgas (level|concentration)\b", "sensor", None, "ppm"),
    kind_row("smoke_level", r"\bsmoke (level|density|concentration)\b", "sensor", None, "ppm"),
    kind_row("smoke_alarm", r"\bsmoke\b", "binary_sensor", "smoke", vocab=BINARY_VOCAB),
    kind_row(
        "co_alarm",
        r"\b(co (detector|alarm|sensor)|carbon monoxide)\b",
        "binary_sensor",
        "carbon_monoxide",
        vocab=BINARY_VOCAB,
    ),
    kind_row("co2_status", r"\bco2 status\b", "sensor"),
    kind_row("co2", r"\b(co2|carbon dioxide)\b", "sensor", "carbon_dioxide", "ppm"),
    kind_row("moisture_level", r"\bmoisture (level|percent)\b", "sensor", "moisture", "%"),
    kind_row(
        "water_leak",
        r"\b(water leak|leak sensor|leak detector|flood)\b",
        "binary_sensor",
        "moisture",
        vocab=BINARY_VOCAB,
    ),
    kind_row("glass_break", r"\bglass break\b", "binary_sensor", "safety", vocab=BINARY_VOCAB),
    kind_row("water_flow", r"\bwater flow\b", "binary_sensor", "running", vocab=BINARY_VOCAB),
    kind_row("humidity", r"\bhumidity\b", "sensor", "humidity", "%"),
    kind_row(
        "hvac_mode",
        r"\b(thermostat|hvac) mode\b",
        "climate",
        vocab=HVAC_MODE_VOCAB,
        role="hvac_mode",
    ),
    kind_row(
        "target_temperature",
        r"\b(target temperature|setpoint|set point|heating temperature)\b|\bthermostat$",
        "number",
        "temperature",
        "°C",
        role="target",
    ),
    kind_row(
        "hvac_action",
        r"\bhvac( status| action| state)?$",
        "climate",
        vocab=HVAC_ACTION_VOCAB,
        role="action",
    ),
    kind_row("temperature", r"\b(temperature|temp sensor|temp)\b", "sensor", "temperature", "°C"),
    kind_row("power", r"\bpower( meter| consumption| usage)?$", "sensor", "power", "W"),
    kind_row("voltage", r"\bvoltage\b", "sensor", "voltage", "V"),
    kind_row("signal", r"\b(rssi|signal strength|signal)\b", "sensor", "signal_strength", "dBm"),
    kind_row(
        "illuminance",
        r"\b(light level|light sensor|illuminance|lux|brightness level)\b",
        "sensor",
        "illuminance",
        "lx",
    ),
    kind_row("pressure", r"\b(air )?pressure\b", "sensor", "atmospheric_pressure", "hPa"),
    kind_row("sound", r"\b(sound|noise)( level)?\b", "sensor", "sound_pressure", "dB"),
    kind_row("sleep_confidence", r"\bsleep confidence\b", "sensor", None, "%"),
    kind_row("sleep_segment", r"\bsleep segment\b", "sensor", "duration", "ms"),
    kind_row("activity", r"\bactivity\b", "sensor"),
    kind_row("presence", r"\b(at home|presence)\b", "device_tracker", vocab=PRESENCE_VOCAB),
    kind_row("phone_locked", r"\bphone locked\b", "binary_sensor", vocab=BINARY_VOCAB),
    kind_row("lock", r"\b(smart lock|door lock|lock)$", "lock", vocab=LOCK_VOCAB),
    kind_row("automation", r"\bautomation\b", "automation", vocab=ON_OFF_VOCAB),
    kind_row("motion_level", r"\bmotion\b", "sensor", values="numeric"),
    kind_row(
        "motion",
        r"\bmotion( sensor| active| detected)?$",
        "binary_sensor",
        "motion",
        vocab=BINARY_VOCAB,
    ),
    kind_row(
        "occupancy", r"\boccupancy( sensor)?\b", "binary_sensor", "occupancy", vocab=BINARY_VOCAB
    ),
    kind_row(
        "garage_door",
        r"\bgarage door( sensor| contact)?$",
        "binary_sensor",
        "garage_door",
        vocab=BINARY_VOCAB,
    ),
    kind_row("opening_angle", r"\bangle\b", "sensor", None, "°"),
    kind_row(
        "window", r"\bwindow( sensor| contact)?$", "binary_sensor", "window", vocab=BINARY_VOCAB
    ),
    kind_row(
        "door",
        r"\b(door( sensor| contact)?|fridge|refrigerator|freezer)$",
        "binary_sensor",
        "door",
        vocab=BINARY_VOCAB,
    ),
    kind_row(
        "cover", r"\b(blinds?|shutters?|curtains?|rolo|roller|cover)\b", "cover", vocab=COVER_VOCAB
    ),
    kind_row("alarm_panel", r"\balarm( system| panel)?$", "alarm_control_panel", vocab=ALARM_VOCAB),
    kind_row("camera", r"\bcamera\b", "camera", vocab=CAMERA_VOCAB),
    kind_row("tv", r"\b(television|tv)$", "media_player", "tv", vocab=MEDIA_VOCAB),
    kind_row(
        "speaker", r"\b(voice assistant|speaker)$", "media_player", "speaker", vocab=MEDIA_VOCAB
    ),
    kind_row("light", r"\b(light|lamp|sconce|bulb|lights)\b", "light", vocab=ON_OFF_VOCAB),
    kind_row("fan", r"\b(fan|range hood|hood)$", "fan", vocab=ON_OFF_VOCAB),
    kind_row("vacuum", r"\bvacuum\b", "vacuum", vocab=VACUUM_VOCAB),
    kind_row(
        "outlet", r"\b(smart plug|plug|outlet|socket)$", "switch", "outlet", vocab=ON_OFF_VOCAB
    ),
    kind_row(
        "appliance",
        r"\b(switch|stove|oven|cooktop|kettle|microwave|toaster|computer|heater|ev charger|"
        r"charger|dishwasher|washer|dryer|coffee maker|iron)$",
        "switch",
        vocab=ON_OFF_VOCAB,
    ),
)

# Kinds used when a device id starts with an HA domain.
DOMAIN_KINDS: Mapping[str, DeviceKind] = MappingProxyType(
    {
        "automation": kind_row("ha_automation", "", "automation", vocab=ON_OFF_VOCAB),
        "camera": kind_row("ha_camera", "", "camera", vocab=CAMERA_VOCAB),
        "climate": kind_row("ha_climate", "", "climate", vocab=HVAC_MODE_VOCAB),
        "cover": kind_row("ha_cover", "", "cover", vocab=COVER_VOCAB),
        "device_tracker": kind_row("ha_tracker", "", "device_tracker", vocab=PRESENCE_VOCAB),
        "fan": kind_row("ha_fan", "", "fan", vocab=ON_OFF_VOCAB),
        "light": kind_row("ha_light", "", "light", vocab=ON_OFF_VOCAB),
        "lock": kind_row("ha_lock", "", "lock", vocab=LOCK_VOCAB),
        "person": kind_row("ha_person", "", "person", vocab=PRESENCE_VOCAB),
        "sun": kind_row("ha_sun", "", "sun", vocab=SUN_VOCAB),
        "switch": kind_row("ha_switch", "", "switch", vocab=ON_OFF_VOCAB),
        "vacuum": kind_row("ha_vacuum", "", "vacuum", vocab=VACUUM_VOCAB),
        "weather": kind_row("ha_weather", "", "weather", vocab=WEATHER_VOCAB),
    }
)
FALLBACK_BINARY = kind_row("generic_binary", "", "binary_sensor", vocab=BINARY_VOCAB)
FALLBACK_TEXT = kind_row("generic_text", "", "sensor")

"""Read a HomeBench device's spec, and read planned Home Assistant calls back as HomeBench's
``room.device.method(arg)`` notation (the replay scores the plan in the benchmark's words)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

# (service, data) → HomeBench method call text, e.g. "set_volume(40)".
Translate = Callable[[str, Mapping[str, Any]], str | None]


@dataclass(slots=True)
class BuiltHome:
    """The entities created for one home and how to read their calls back."""

    translators: dict[str, tuple[str, Translate]] = field(default_factory=dict)
    area_rooms: dict[str, str] = field(default_factory=dict)  # area name → room key

    def to_homebench(self, entity_id: str, service: str, data: Mapping[str, Any]) -> str | None:
        """``room.device.method(arg)`` for a planned call, or None if it has no equivalent."""
        entry = self.translators.get(entity_id)
        if entry is None:
            return None
        prefix, translate = entry
        method = translate(service, data)
        return f"{prefix}.{method}" if method else None


def spec_of(device: Mapping[str, Any], name: str) -> Mapping[str, Any] | None:
    attrs = device.get("attributes") or {}
    for key, value in attrs.items():
        if key.strip() == name and isinstance(value, Mapping):
            return value
    return None


def number(value: Any, default: float) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


def int_text(value: Any) -> str:
    number = float(value)
    return str(round(number))


def simple(table: Mapping[str, str], arg_key: str | None = None, scale: float = 1.0) -> Translate:
    """Translator from a service → method table; the value (if any) is the call's argument."""

    def translate(service: str, data: Mapping[str, Any]) -> str | None:
        method = table.get(service)
        if method is None:
            return None
        if arg_key is not None and arg_key in data:
            value = data[arg_key]
            text = int_text(value * scale) if isinstance(value, int | float) else str(value)
            return f"{method}({text})"
        return f"{method}()"

    return translate


def light_translate(service: str, data: Mapping[str, Any]) -> str | None:
    if service == "light.turn_on" and "brightness_pct" in data:
        return f"set_brightness({int_text(data['brightness_pct'])})"
    if service == "light.turn_on" and "color_name" in data:
        return f"set_color({data['color_name']})"
    return {"light.turn_on": "turn_on()", "light.turn_off": "turn_off()"}.get(service)


def climate_translate(service: str, data: Mapping[str, Any]) -> str | None:
    table = {
        "climate.turn_on": ("turn_on", None),
        "climate.turn_off": ("turn_off", None),
        "climate.set_temperature": ("set_temperature", "temperature"),
        "climate.set_hvac_mode": ("set_mode", "hvac_mode"),
        "climate.set_fan_mode": ("set_fan_speed", "fan_mode"),
        "climate.set_swing_mode": ("set_swing", "swing_mode"),
    }
    if service not in table:
        return None
    method, key = table[service]
    if key is None:
        return f"{method}()"
    value = data.get(key)
    return f"{method}({int_text(value) if isinstance(value, int | float) else value})"


def with_args(
    translate: Translate, keys: tuple[str, ...], scales: Mapping[str, float] | None = None
) -> Translate:
    """Add the first present data key as the call's argument."""

    def wrapped(service: str, data: Mapping[str, Any]) -> str | None:
        method = translate(service, {})
        if method is None:
            return None
        for key in keys:
            if key in data:
                value = data[key]
                scale = (scales or {}).get(key, 1.0)
                text = int_text(value * scale) if isinstance(value, int | float) else str(value)
                return f"{method[:-2]}({text})"
        return method

    return wrapped

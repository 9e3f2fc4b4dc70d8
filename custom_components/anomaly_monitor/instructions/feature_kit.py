"""The pieces every device's features are made of: an action, a value in a range, an
option from a list, read from the state's attributes (untrusted: bounded, finite)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
import math
import re
from typing import Any

from ..core.instructions import Feature, FeatureKind
from ..core.instructions.vocabulary import attributes_in_name, normalize

BRIGHTNESS_MODES = {"brightness", "color_temp", "hs", "xy", "rgb", "rgbw", "rgbww", "white"}


COLOR_MODES = {"hs", "xy", "rgb", "rgbw", "rgbww"}
# Preset names that are fan speeds ("low", "medium", "high", "speed 2", "turbo" …).


SPEED_PRESET = re.compile(r"\b(?:low|medium|mid|middle|high|max|min|turbo|quiet|silent|strong|\d)")


def feature_action(name: str, entity_id: str, service: str) -> Feature:
    return Feature(frozenset({name}), FeatureKind.ACTION, entity_id, service)


def on_off(entity_id: str, domain: str) -> list[Feature]:
    """Turn on and turn off, as a switchable device of ``domain`` offers them."""
    return [feature_action(name, entity_id, f"{domain}.{name}") for name in ("turn_on", "turn_off")]


def supported_actions(
    features: int, entity_id: str, domain: str, actions: Iterable[tuple[int, str, str]]
) -> list[Feature]:
    """An action for each ``(flag, name, service)`` whose flag the device's
    ``supported_features`` has."""
    return [
        feature_action(name, entity_id, f"{domain}.{service}")
        for flag, name, service in actions
        if features & flag
    ]


def feature_range(
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
        as_number(attrs.get(low)),
        as_number(attrs.get(high)),
        current=as_number(attrs.get(current)),
    )


def feature_choice(
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
        options=as_options(attrs.get(options)),
        current=attrs.get(current),
    )


def as_number(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def as_options(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        return ()
    return tuple(str(v)[:64] for v in value[:64])


def named_value(rest: str) -> frozenset[str]:
    return frozenset(attributes_in_name(rest) or {normalize(rest).replace(" ", "_") or "value"})

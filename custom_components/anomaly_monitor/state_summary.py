"""The one-line form of an entity's state that goes into a transition."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# Attributes that carry what a device is actually doing, shown next to the state.
_ACTIVITY_ATTRIBUTES = {
    "climate": "hvac_action",
    "humidifier": "action",
    "water_heater": "operation_mode",
}


def summarize_state(domain: str, state: str, attributes: Mapping[str, Any]) -> str:
    """``heat (heating)`` for a climate entity, the plain state for most others."""
    attribute = _ACTIVITY_ATTRIBUTES.get(domain)
    if attribute is not None and (activity := attributes.get(attribute)) is not None:
        return f"{state} ({activity})"
    return state

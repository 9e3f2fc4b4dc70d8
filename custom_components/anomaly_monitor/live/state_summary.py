"""The one-line form of an entity's state that goes into a transition."""

from __future__ import annotations

from collections.abc import Mapping
import re
from typing import Any

from ..core.home import UNAVAILABLE_STATES

# Attributes that carry what a device is actually doing, shown next to the state.
_ACTIVITY_ATTRIBUTES = {
    "climate": "hvac_action",
    "humidifier": "action",
    "water_heater": "operation_mode",
}
# Domains whose transitions carry an attribute: their recorder history is read with it.
ACTIVITY_DOMAINS = frozenset(_ACTIVITY_ATTRIBUTES)
_SUMMARY = re.compile(r"^(.*) \((.*)\)$")


def summarize_state(domain: str, state: str, attributes: Mapping[str, Any]) -> str:
    """``heat (heating)`` for a climate entity, the plain state for most others.

    ``unavailable`` and ``unknown`` stay bare: an integration may leave the last
    ``hvac_action`` on an entity it can no longer read, and "unavailable (heating)" is
    neither what the device does nor a state the offline grace recognises.
    """
    if state in UNAVAILABLE_STATES:
        return state
    attribute = _ACTIVITY_ATTRIBUTES.get(domain)
    if attribute is not None and (activity := attributes.get(attribute)) is not None:
        return f"{state} ({activity})"
    return state


def split_summary(domain: str, summary: str) -> tuple[str, dict[str, str]]:
    """The inverse of :func:`summarize_state`: ``heat (heating)`` back into the state and
    its activity attribute (a plain state comes back alone)."""
    attribute = _ACTIVITY_ATTRIBUTES.get(domain)
    if attribute is not None and (match := _SUMMARY.match(summary)):
        return match.group(1), {attribute: match.group(2)}
    return summary, {}

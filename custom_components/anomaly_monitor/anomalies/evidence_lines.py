"""The evidence as the homeowner reads it: friendly name, area and state, in their language.

A state comes from Home Assistant's own translations of its domain and device class; a
state that is no reading ("unknown", "unavailable") reads as HA's frontend shows it, and a
person's or tracker's as a phone that stopped reporting. Names, areas and states are
untrusted text: single-line and clipped here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from homeassistant.core import HomeAssistant
from homeassistant.helpers import (
    area_registry as ar,
    device_registry as dr,
    entity_registry as er,
    translation,
)

from ..const import DOMAIN
from ..core.models import clip
from .tracker import OpenAnomaly

NAME_LIMIT = 80
_PREFIX = f"component.{DOMAIN}.selector."
# Binary sensors whose "on" is the quiet state (connected); for the others it is "off".
_ON_IS_CALM = frozenset({"connectivity"})
# The quiet state of other domains that evidence often holds.
_CALM = {"lock": "locked", "cover": "closed", "valve": "closed"}
_NO_READING = frozenset({"unknown", "unavailable"})
_PHONE_DOMAINS = frozenset({"person", "device_tracker"})


@dataclass(frozen=True, slots=True)
class EntityLine:
    """One evidence entity as the homeowner knows it."""

    name: str
    area: str | None
    state: str
    # In a state that shows nothing wrong on its own (a locked lock beside the open door
    # it guards): shown after the others, as "also", so it never reads as the problem.
    calm: bool = False


def area_of(hass: HomeAssistant, entity_id: str) -> str | None:
    entry = er.async_get(hass).async_get(entity_id)
    area_id = entry.area_id if entry else None
    if area_id is None and entry is not None and entry.device_id:
        device = dr.async_get(hass).async_get(entry.device_id)
        area_id = device.area_id if device else None
    area = ar.async_get(hass).async_get_area(area_id) if area_id else None
    return clip(area.name, NAME_LIMIT) if area else None


def is_calm(domain: str, device_class: str, state: str) -> bool:
    """A state that is not a problem by itself: a sensor at rest, a lock locked."""
    if domain == "binary_sensor":
        return state == ("on" if device_class in _ON_IS_CALM else "off")
    if domain == "alarm_control_panel":
        return state.startswith("armed_")
    return _CALM.get(domain) == state


def entity_line(hass: HomeAssistant, entity_id: str, words: dict[str, str]) -> EntityLine:
    state = hass.states.get(entity_id)
    if state is None:
        return EntityLine(entity_id, area_of(hass, entity_id), "-")
    device_class = state.attributes.get("device_class") or "_"
    domain = state.domain
    shown = words.get(
        f"component.{domain}.entity_component.{device_class}.state.{state.state}",
        words.get(f"component.{domain}.entity_component._.state.{state.state}", state.state),
    )
    unit = state.attributes.get("unit_of_measurement")
    if unit and state.state not in _NO_READING:
        shown = f"{shown} {unit}"
    if state.state in _NO_READING and shown == state.state:
        shown = _no_reading(hass, domain, state.state)
    return EntityLine(
        clip(state.name, NAME_LIMIT),
        area_of(hass, entity_id),
        clip(shown, NAME_LIMIT),
        is_calm(domain, device_class, state.state),
    )


def _no_reading(hass: HomeAssistant, domain: str, state: str) -> str:
    """HA's raw "unknown" / "unavailable" (no translation of its own for the domain) in
    words: a person or tracker so is a phone that stopped reporting ("Bob: unknown", walk
    43), anything else reads as HA's frontend shows it ("Unknown", "Unavailable")."""
    templates = translation.async_get_cached_translations(
        hass, hass.config.language, "selector", DOMAIN
    )
    key = "state_no_phone" if domain in _PHONE_DOMAINS else f"state_{state}"
    default = "phone not reporting" if domain in _PHONE_DOMAINS else state.capitalize()
    return templates.get(f"{_PREFIX}anomaly_text.options.{key}", default)


def evidence_lines(
    hass: HomeAssistant, anomaly: OpenAnomaly, words: dict[str, str]
) -> tuple[EntityLine, ...]:
    """The subject first, then what shows the problem, then (as "also") what is calm;
    when nothing is in a problem state any more, every line as it is."""
    shown = anomaly.shown_evidence or anomaly.evidence
    ordered = sorted(shown, key=lambda e: e != anomaly.subject)  # stable: subject first
    lines = [entity_line(hass, e, words) for e in ordered]
    if all(line.calm for line in lines):
        return tuple(replace(line, calm=False) for line in lines)
    return (*(x for x in lines if not x.calm), *(x for x in lines if x.calm))

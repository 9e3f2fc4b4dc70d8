"""A window's data as a prompt shows it: quoted, compact, the same for every backend.

Everything that comes from the home (names, areas, states, attributes) is JSON-encoded
(``quote``) with ``<`` and ``>`` escaped, unless it is a number or a word of a fixed
vocabulary (``prompt_words.py``) that cannot carry an instruction.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
import json
import re
from typing import Any

from ..models import ContextWindow, EntityState, Environment, SequenceEntry, clip
from .entity_matching import slug
from .prompt_words import DEVICE_CLASSES, SEASONS, STATE_WORDS, UNITS

_VALID_ENTITY_ID = re.compile(r"^[a-z0-9_]+\.[a-z0-9_]+$")
# Numbers, times and dates, and the state words Home Assistant itself uses, cannot carry an
# instruction, so they are shown bare (quotes cost two tokens per line on a 60-entity
# home). Any other word - even one word, "IGNORE_PREVIOUS_INSTRUCTIONS" - is quoted.
_NUMBER = re.compile(r"^[+-]?\d[\d.,:\-]{0,24}$")
# Attributes worth showing; the rest is noise for a small model.
_SHOWN_ATTRIBUTES = (
    "hvac_action",
    "current_temperature",
    "temperature",
    "target_temp_low",
    "target_temp_high",
    "battery_level",
    "brightness",
    "percentage",
    "current_position",
)

# What "on"/"off" of a binary sensor means, as Home Assistant's UI shows it: small models
# cannot be expected to know that a moisture sensor "on" is a leak.
_DETECTED = ("detected", "clear")
_OPEN = ("open", "closed")
BINARY_MEANINGS: dict[str, tuple[str, str]] = {
    "battery": ("low", "normal"),
    "carbon_monoxide": _DETECTED,
    "cold": ("cold", "normal"),
    "connectivity": ("connected", "disconnected"),
    "door": _OPEN,
    "garage_door": _OPEN,
    "gas": _DETECTED,
    "heat": ("hot", "normal"),
    "lock": ("unlocked", "locked"),
    "moisture": ("wet", "dry"),
    "motion": _DETECTED,
    "occupancy": _DETECTED,
    "opening": _OPEN,
    "presence": ("home", "away"),
    "problem": ("problem", "ok"),
    "safety": ("unsafe", "safe"),
    "smoke": _DETECTED,
    "sound": _DETECTED,
    "tamper": ("tampering detected", "clear"),
    "vibration": _DETECTED,
    "window": _OPEN,
}


# --- quoting -----------------------------------------------------------------------------


def quote(value: object, limit: int = 80) -> str:
    """JSON string of untrusted ``value``, clipped, with ``<``/``>`` escaped."""
    text = json.dumps(clip(value, limit), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e")


def is_bare(text: str) -> bool:
    """Whether ``text`` is a number or a Home Assistant state word (shown without quotes)."""
    return bool(_NUMBER.match(text)) or text in STATE_WORDS


def bare_or_quoted(value: object, limit: int = 80) -> str:
    """``value`` bare when it is one harmless word, else quoted like any untrusted text."""
    text = str(value)
    return text if is_bare(text) else quote(text, limit)


def render_id(entity_id: str) -> str:
    """An entity id as shown to the model: bare when it is a valid HA id, else quoted.

    Valid ids contain only ``[a-z0-9_.]``, so they cannot carry an instruction; anything
    else (a replayed device name, say) is quoted like any other untrusted text.
    """
    return entity_id if _VALID_ENTITY_ID.match(entity_id) else quote(entity_id, 120)


def _name_adds_information(state: EntityState) -> bool:
    """Whether the friendly name says more than the id already does."""
    name = slug(state.info.name)
    object_id = slug(state.entity_id.partition(".")[2] or state.entity_id)
    return bool(name) and name not in object_id and object_id not in name


def _attribute_text(attributes: Mapping[str, Any]) -> str:
    shown = {
        key: attributes[key]
        for key in _SHOWN_ATTRIBUTES
        if key in attributes and isinstance(attributes[key], str | int | float | bool)
    }
    if not shown:
        return ""
    return " " + ", ".join(f"{key}={bare_or_quoted(value, 30)}" for key, value in shown.items())


def shown_state(state: EntityState) -> str:
    """The state with its unit (binary sensors are put in words by ``_rendered_value``)."""
    return f"{state.state} {state.info.unit}" if state.info.unit else state.state


def _rendered_value(state: EntityState) -> str:
    """The shown state, bare when state and unit are each one harmless word."""
    meaning = BINARY_MEANINGS.get(state.info.device_class or "")
    if state.domain == "binary_sensor" and meaning and state.state in ("on", "off"):
        return meaning[0] if state.state == "on" else meaning[1]
    unit = state.info.unit
    # A unit is free text set by an integration: bare only when Home Assistant defines it.
    if is_bare(state.state) and (not unit or unit in UNITS):
        return f"{state.state}{unit}" if unit in _GLUED_UNITS else shown_state(state)
    return quote(shown_state(state))


# Units written against the number, as people write them ("21.4°C", "40%"): one token less.
_GLUED_UNITS = frozenset(("°C", "°F", "%"))


def render_state(state: EntityState, *, with_domain: bool = True) -> str:
    """One entity: id, name when useful, device class, ``=state``, shown attributes.

    Without ``with_domain`` only the object id is written: the caller has already
    named the domain for a group of entities (it costs ~3 tokens per entity otherwise).
    """
    valid = bool(_VALID_ENTITY_ID.match(state.entity_id))
    parts = [
        state.entity_id.partition(".")[2]
        if valid and not with_domain
        else render_id(state.entity_id)
    ]
    if _name_adds_information(state):
        parts.append(quote(state.info.name, 60))
    device_class = state.info.device_class
    if device_class and slug(device_class) not in slug(state.entity_id):
        # Free text set by an integration: bare only when it is one HA defines.
        kind = device_class if device_class in DEVICE_CLASSES else quote(device_class, 30)
        parts.append(f"({kind})")
    attributes = _attribute_text(state.attributes)
    shown = f"{' '.join(parts)}={_rendered_value(state)}"
    return f"{shown} [{attributes.strip()}]" if attributes else shown


def render_snapshot(states: Iterable[EntityState]) -> list[str]:
    """Current states by area, then one line per domain: ``light: kitchen=on; hall=off``.

    Areas and domains keep their first-seen order. An id that is not a valid HA id has
    no domain to group under and gets a line of its own, quoted.
    """
    by_area: dict[str | None, dict[str, list[EntityState]]] = {}
    for state in states:
        domain = state.domain if _VALID_ENTITY_ID.match(state.entity_id) else ""
        by_area.setdefault(state.info.area, {}).setdefault(domain, []).append(state)
    lines: list[str] = []
    for area, domains in by_area.items():
        lines.append(f"Area {quote(area, 40)}:" if area else "No area:")
        for domain, members in domains.items():
            if domain:
                rendered = (render_state(s, with_domain=False) for s in members)
                lines.append(f"{domain}: " + "; ".join(rendered))
            else:
                lines.extend(render_state(s) for s in members)
    return lines


def render_environment(env: Environment) -> str:
    """One line: when it is, weather, light and who is home."""
    when = env.local_time
    parts = [
        f"{when.strftime('%A')} {when.strftime('%H:%M')}"
        + (" (weekend)" if env.is_weekend else ""),
    ]
    if env.season:
        parts.append(env.season if env.season in SEASONS else quote(env.season, 20))
    if env.weather:
        parts.append(f"weather {quote(env.weather, 30)}")
    if env.outdoor_temperature is not None:
        parts.append(f"outside {env.outdoor_temperature:g} °C")
    if env.daylight is not None:
        parts.append("daylight" if env.daylight else "dark")
    elif env.light_level is not None:
        parts.append(f"light level {env.light_level:.1f} of 1")
    if env.persons_home is not None:
        total = f" of {env.persons_total}" if env.persons_total is not None else ""
        unknown = f", {env.persons_unknown} unknown" if env.persons_unknown else ""
        parts.append(f"people home: {env.persons_home}{total}{unknown}")
    return "Now: " + ", ".join(parts) + "."


def duration_text(window: ContextWindow) -> str | None:
    if window.start is None or window.end is None:
        return None
    seconds = max(0, int((window.end - window.start).total_seconds()))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return f"{days} d {hours} h"
    return f"{hours} h {minutes} min" if hours else f"{minutes} min"


def render_entry(entry: SequenceEntry, with_date: bool) -> str:
    """One event line with quoted states; runs keep first/last and a count."""
    fmt = "%m-%d %H:%M" if with_date else "%H:%M"
    when = entry.start.strftime(fmt)
    if entry.end != entry.start:
        when += "-" + entry.end.strftime("%H:%M" if entry.end.date() == entry.start.date() else fmt)
    first, last = bare_or_quoted(entry.first, 60), bare_or_quoted(entry.last, 60)
    if entry.kind == "repeat":
        what = f"{first} x{entry.count}"
    elif entry.kind == "drift":
        what = f"{first} -> {last} (gradual, {entry.count} readings)"
    elif entry.kind == "toggle":
        what = f"toggled {first}/{last} x{entry.count}, ended {last}"
    else:
        what = first
    return f"{when} {render_id(entry.entity_id)}: {what}"


def render_sequence(window: ContextWindow) -> list[str]:
    """Compressed events, oldest first, with a note of what was left out."""
    entries = window.sequence.entries
    if not entries:
        return ["Events: none."]
    with_date = entries[0].start.date() != entries[-1].end.date()
    lines = ["Events (oldest first):"]
    if window.sequence.truncated:
        lines.append(f"({window.sequence.truncated} older events left out)")
    lines.extend(render_entry(entry, with_date) for entry in entries)
    return lines

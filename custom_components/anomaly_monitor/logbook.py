"""The logbook's words for the monitor's events: what was told, what is over.

Without a description HA's logbook leaves ``anomaly_monitor_anomaly_detected`` and
``_cleared`` out, and the monitor's event entity reads only as timestamps (walk of session
19): the homeowner looking back at the night saw when, not what. Each event is one line on
the event entity: "told: Front door open while nobody is home (high)", "opened again,
told again: ...", "over: ...", "marked a false alarm: ...". Names come from the event
(friendly names, untrusted: the logbook shows them as plain text), never the household
profile.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from homeassistant.components.logbook import (
    LOGBOOK_ENTRY_ENTITY_ID,
    LOGBOOK_ENTRY_MESSAGE,
    LOGBOOK_ENTRY_NAME,
)
from homeassistant.core import Event, HomeAssistant, callback
from homeassistant.helpers import entity_registry as er, translation

from .const import DOMAIN, EVENT_ANOMALY_CLEARED, EVENT_ANOMALY_DETECTED
from .core.models import clip

_PREFIX = f"component.{DOMAIN}.selector.anomaly_text.options."
_DEFAULTS = {
    "logbook_told": "told: {headline} ({severity})",
    "logbook_told_again": "told again: {headline} ({severity})",
    # Why (``core.escalation``): what happened, not only that it was told again.
    "logbook_told_again_reopened": "opened again, told again: {headline} ({severity})",
    "logbook_told_again_intrusion": "motion inside, told again: {headline} ({severity})",
    "logbook_told_again_graver": "graver, told again: {headline} ({severity})",
    "logbook_told_again_hazard": "now a safety hazard, told again: {headline} ({severity})",
    "logbook_over": "over: {headline}",
    "logbook_false_alarm": "marked a false alarm: {headline}",
    "logbook_answered": "answered: {headline}",
}
_CLEARED_KEYS = {"false_alarm": "logbook_false_alarm", "resolved": "logbook_over"}
_LIMIT = 160


@callback
def async_describe_events(
    hass: HomeAssistant,
    async_describe_event: Callable[[str, str, Callable[[Event], dict[str, str]]], None],
) -> None:
    """Describe the monitor's detected and cleared events."""

    def _words(key: str, data: dict[str, Any]) -> str:
        cached = translation.async_get_cached_translations(
            hass, hass.config.language, "selector", DOMAIN
        )
        severity = str(data.get("severity") or "")
        template = cached.get(f"{_PREFIX}{key}", _DEFAULTS[key])
        values = {
            "headline": _headline(data, over=key == "logbook_over"),
            "severity": cached.get(f"{_PREFIX}severity_{severity}", severity),
        }
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):  # a translation with a stray brace
            return _DEFAULTS[key].format(**values)

    @callback
    def _describe(event: Event) -> dict[str, str]:
        data = dict(event.data)
        if event.event_type == EVENT_ANOMALY_DETECTED:
            key = "logbook_told"
            if escalation := data.get("escalation"):
                key = f"logbook_told_again_{escalation}"
                key = key if key in _DEFAULTS else "logbook_told_again"
        else:
            key = _CLEARED_KEYS.get(str(data.get("reason")), "logbook_answered")
        described = {
            LOGBOOK_ENTRY_NAME: _monitor(hass, data),
            LOGBOOK_ENTRY_MESSAGE: _words(key, data),
        }
        if entity_id := _event_entity(hass, data):
            described[LOGBOOK_ENTRY_ENTITY_ID] = entity_id
        return described

    async_describe_event(DOMAIN, EVENT_ANOMALY_DETECTED, _describe)
    async_describe_event(DOMAIN, EVENT_ANOMALY_CLEARED, _describe)


def _headline(data: dict[str, Any], over: bool = False) -> str:
    """The incident's name as told (``over``: as its "Over" notification says it, what
    happened after it included: walk 58 read "over: Front door open …" under "Over: Front
    door opened …, then motion in Hall at 13:43"); events stored before it had one: its
    first sentence."""
    title = str((over and data.get("over_title")) or data.get("title") or "").strip()
    if not title:
        title = str(data.get("reasoning") or "").split(". ")[0].strip()
    return clip(" ".join(title.split()), _LIMIT)


def _monitor(hass: HomeAssistant, data: dict[str, Any]) -> str:
    entry = hass.config_entries.async_get_entry(str(data.get("config_entry_id") or ""))
    return entry.title if entry is not None else "Anomaly monitor"


def _event_entity(hass: HomeAssistant, data: dict[str, Any]) -> str | None:
    unique_id = f"{data.get('config_entry_id')}_anomaly_event"
    return er.async_get(hass).async_get_entity_id("event", DOMAIN, unique_id)

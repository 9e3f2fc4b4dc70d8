"""Diagnostics: what the monitor watches, found and was told, with personal data redacted."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from homeassistant.components.diagnostics import async_redact_data
from homeassistant.const import CONF_API_KEY
from homeassistant.core import HomeAssistant

from .const import CONF_NOTIFY, CONF_PROFILE
from .coordinator import AnomalyMonitorConfigEntry

TO_REDACT = {CONF_API_KEY, CONF_PROFILE, CONF_NOTIFY, "token", "password"}


async def async_get_config_entry_diagnostics(
    hass: HomeAssistant, entry: AnomalyMonitorConfigEntry
) -> dict[str, Any]:
    """Everything needed to understand a verdict, without secrets."""
    coordinator = entry.runtime_data.coordinator
    watcher = coordinator.watcher
    return {
        "entry": {
            "data": async_redact_data(dict(entry.data), TO_REDACT),
            "options": async_redact_data(dict(entry.options), TO_REDACT),
        },
        "detector": coordinator.detector.name,
        "watched_entities": sorted(watcher.entity_ids),
        "events_seen": watcher.events_seen,
        "buffered_transitions": len(watcher.buffer),
        "dropped_transitions": watcher.buffer.dropped,
        "analyses": coordinator.analyses,
        "last_analysis": coordinator.data.as_dict() if coordinator.data else None,
        "open_anomalies": [asdict(a) for a in coordinator.tracker.open.values()],
        "false_alarm_patterns": sorted(coordinator.tracker.false_alarms),
    }

"""Diagnostics: what the monitor watches, found and was told, with secrets redacted."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from homeassistant.core import HomeAssistant

from .coordinator import AnomalyMonitorConfigEntry
from .redaction import redacted_config


async def async_get_config_entry_diagnostics(
    hass: HomeAssistant, entry: AnomalyMonitorConfigEntry
) -> dict[str, Any]:
    """Everything needed to understand a verdict, without secrets.

    The API key, profile and notify targets are redacted, URLs lose their credentials, and
    the verdict and anomalies are scrubbed once more (model text may echo the profile).
    """
    coordinator = entry.runtime_data.coordinator
    watcher = coordinator.watcher
    scrub = coordinator.redactor.data
    return {
        "entry": {
            "data": redacted_config(entry.data),
            "options": redacted_config(entry.options),
        },
        "detector": coordinator.detector.name,
        "watched_entities": sorted(watcher.entity_ids),
        "events_seen": watcher.events_seen,
        "buffered_transitions": len(watcher.buffer),
        "dropped_transitions": watcher.buffer.dropped,
        "analyses": coordinator.analyses,
        "last_analysis": scrub(coordinator.data.as_dict()) if coordinator.data else None,
        "open_anomalies": scrub([asdict(a) for a in coordinator.tracker.open.values()]),
        "false_alarm_patterns": sorted(coordinator.tracker.false_alarms),
    }

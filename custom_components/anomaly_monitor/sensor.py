"""Sensors: the last verdict, open anomalies and the monitor's own health."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from homeassistant.components.sensor import (
    SensorDeviceClass,
    SensorEntity,
    SensorEntityDescription,
    SensorStateClass,
)
from homeassistant.const import EntityCategory
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .analysis.monitor_data import MonitorData
from .anomalies.incident_parts import incidents
from .anomalies.open_anomaly import OpenAnomaly, rank
from .anomalies.texts import named
from .entity import AnomalyMonitorEntity
from .runtime import AnomalyMonitorConfigEntry

PARALLEL_UPDATES = 0
# Devices still being learned listed on the sensor (the count is complete).
LISTED = 20


@dataclass(frozen=True, kw_only=True)
class AnomalyMonitorSensorDescription(SensorEntityDescription):
    """How to read one sensor off the coordinator."""

    value_fn: Callable[[MonitorData], Any]


def _last_label(data: MonitorData) -> str | None:
    """What the monitor concluded: an anomaly while one is open. The window's raw verdict
    may still find what is rightly not told (the away spell's motion after somebody came
    home, a hazard dismissed as a false alarm): that is the ``analyze`` action's answer."""
    if data.analysis is None:
        return None
    return "anomaly" if data.open_anomalies else "normal"


def _compression_ratio(data: MonitorData) -> float | None:
    return data.analysis.compression_ratio if data.analysis else None


def _still_learning(data: MonitorData) -> int | None:
    return None if data.learning is None else len(data.learning)


SENSORS: tuple[AnomalyMonitorSensorDescription, ...] = (
    AnomalyMonitorSensorDescription(
        key="last_verdict",
        translation_key="last_verdict",
        device_class=SensorDeviceClass.ENUM,
        options=["normal", "anomaly"],
        value_fn=_last_label,
    ),
    AnomalyMonitorSensorDescription(
        key="open_anomalies",
        translation_key="open_anomalies",
        state_class=SensorStateClass.MEASUREMENT,
        # Incidents, as the notifications show them (a part counts with its incident).
        value_fn=lambda d: len(incidents(d.open_anomalies)),
    ),
    AnomalyMonitorSensorDescription(
        key="watched_entities",
        translation_key="watched_entities",
        entity_category=EntityCategory.DIAGNOSTIC,
        value_fn=lambda d: len(d.watched),
    ),
    AnomalyMonitorSensorDescription(
        key="still_learning",
        translation_key="still_learning",
        entity_category=EntityCategory.DIAGNOSTIC,
        value_fn=_still_learning,
    ),
    AnomalyMonitorSensorDescription(
        key="buffered_transitions",
        translation_key="buffered_transitions",
        entity_category=EntityCategory.DIAGNOSTIC,
        state_class=SensorStateClass.MEASUREMENT,
        entity_registry_enabled_default=False,
        value_fn=lambda d: d.buffered_transitions,
    ),
    AnomalyMonitorSensorDescription(
        key="dropped_transitions",
        translation_key="dropped_transitions",
        entity_category=EntityCategory.DIAGNOSTIC,
        state_class=SensorStateClass.TOTAL_INCREASING,
        value_fn=lambda d: d.dropped_transitions,
    ),
    AnomalyMonitorSensorDescription(
        key="compression_ratio",
        translation_key="compression_ratio",
        entity_category=EntityCategory.DIAGNOSTIC,
        state_class=SensorStateClass.MEASUREMENT,
        entity_registry_enabled_default=False,
        value_fn=_compression_ratio,
    ),
)


async def async_setup_entry(
    hass: HomeAssistant,
    entry: AnomalyMonitorConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add the monitor's sensors."""
    async_add_entities(AnomalyMonitorSensor(entry, description) for description in SENSORS)


class AnomalyMonitorSensor(AnomalyMonitorEntity, SensorEntity):
    """A value read off the coordinator after each analysis."""

    entity_description: AnomalyMonitorSensorDescription

    @property
    def native_value(self) -> Any:
        """The sensor's value."""
        return self.entity_description.value_fn(self.coordinator.data)

    @property
    def extra_state_attributes(self) -> dict[str, Any] | None:
        """The last verdict's details (while an anomaly is open); the devices still being
        learned, and until when."""
        data = self.coordinator.data
        if self.entity_description.key == "still_learning":
            return _learning_attributes(data)
        if self.entity_description.key != "last_verdict" or not data.analysis:
            return None
        analysed_at = data.analysis.analysed_at.isoformat()
        if not data.open_anomalies:  # the verdict's details would describe what is not told
            return {"analysed_at": analysed_at}
        return _open_details(self.hass, data.open_anomalies) | {
            "detector": data.analysis.verdict.detector,
            "analysed_at": analysed_at,
        }


def _open_details(hass: HomeAssistant, open_anomalies: Sequence[OpenAnomaly]) -> dict[str, Any]:
    """What is open, the gravest (then the newest) first. Not the window's verdict: it
    may still find what is no longer open (a false alarm, an anomaly over), and find
    nothing while an open one clears (walk of session 21: "Nothing unusual." beside
    ``anomaly``, the leak dry for its two minutes of hysteresis)."""
    ordered = sorted(open_anomalies, key=lambda a: (rank(a.severity), a.first_seen), reverse=True)
    lead = ordered[0]
    reasoning = " ".join(dict.fromkeys(a.reasoning for a in ordered if a.reasoning))
    return {
        "evidence": list(dict.fromkeys(e for a in ordered for e in a.shown_evidence)),
        # Named as the notices name devices: a dashboard card shows this to the homeowner.
        "reasoning": named(hass, reasoning),
        "anomaly_type": lead.anomaly_type,
        "severity": lead.severity,
        "recommendation": lead.recommendation,
    }


def _learning_attributes(data: MonitorData) -> dict[str, Any] | None:
    """Until when the monitor learns, and which devices (the first few, soonest first)."""
    status = data.learning
    if status is None:
        return None
    soonest = sorted(status.items(), key=lambda item: (item[1], item[0]))
    return {
        "learning_until": max(status.values()).isoformat() if status else None,
        "entities": [entity_id for entity_id, _ in soonest[:LISTED]],
    }

"""Sensors: the last verdict, open anomalies and the monitor's own health."""

from __future__ import annotations

from collections.abc import Callable
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

from .coordinator import AnomalyMonitorCoordinator
from .entity import AnomalyMonitorEntity
from .runtime import AnomalyMonitorConfigEntry

PARALLEL_UPDATES = 0
# Devices still being learned listed on the sensor (the count is complete).
LISTED = 20


@dataclass(frozen=True, kw_only=True)
class AnomalyMonitorSensorDescription(SensorEntityDescription):
    """How to read one sensor off the coordinator."""

    value_fn: Callable[[AnomalyMonitorCoordinator], Any]


def _last_label(coordinator: AnomalyMonitorCoordinator) -> str | None:
    return coordinator.data.verdict.label.value if coordinator.data else None


def _compression_ratio(coordinator: AnomalyMonitorCoordinator) -> float | None:
    return coordinator.data.compression_ratio if coordinator.data else None


def _still_learning(coordinator: AnomalyMonitorCoordinator) -> int | None:
    status = coordinator.learning_status()
    return None if status is None else len(status)


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
        value_fn=lambda c: len(c.tracker.open),
    ),
    AnomalyMonitorSensorDescription(
        key="watched_entities",
        translation_key="watched_entities",
        entity_category=EntityCategory.DIAGNOSTIC,
        value_fn=lambda c: len(c.watcher.entity_ids),
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
        value_fn=lambda c: len(c.watcher.buffer),
    ),
    AnomalyMonitorSensorDescription(
        key="dropped_transitions",
        translation_key="dropped_transitions",
        entity_category=EntityCategory.DIAGNOSTIC,
        state_class=SensorStateClass.TOTAL_INCREASING,
        value_fn=lambda c: c.watcher.buffer.dropped,
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
        return self.entity_description.value_fn(self.coordinator)

    @property
    def extra_state_attributes(self) -> dict[str, Any] | None:
        """The last verdict's details; the devices still being learned, and until when."""
        if self.entity_description.key == "still_learning":
            return _learning_attributes(self.coordinator)
        if self.entity_description.key != "last_verdict" or not self.coordinator.data:
            return None
        verdict = self.coordinator.data.verdict
        return {
            "evidence": list(verdict.evidence),
            "reasoning": verdict.reasoning,
            "anomaly_type": verdict.anomaly_type,
            "severity": verdict.severity.value if verdict.severity else None,
            "recommendation": verdict.recommendation,
            "detector": verdict.detector,
            "analysed_at": self.coordinator.data.analysed_at.isoformat(),
        }


def _learning_attributes(coordinator: AnomalyMonitorCoordinator) -> dict[str, Any] | None:
    """Until when the monitor learns, and which devices (the first few, soonest first)."""
    status = coordinator.learning_status()
    if status is None:
        return None
    soonest = sorted(status.items(), key=lambda item: (item[1], item[0]))
    return {
        "learning_until": max(status.values()).isoformat() if status else None,
        "entities": [entity_id for entity_id, _ in soonest[:LISTED]],
    }

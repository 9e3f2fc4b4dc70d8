"""The base class of every Anomaly Monitor entity."""

from __future__ import annotations

from homeassistant.helpers.device_registry import DeviceEntryType, DeviceInfo
from homeassistant.helpers.entity import EntityDescription
from homeassistant.helpers.update_coordinator import CoordinatorEntity

from .const import DOMAIN
from .coordinator import AnomalyMonitorCoordinator
from .runtime import AnomalyMonitorConfigEntry


class AnomalyMonitorEntity(CoordinatorEntity[AnomalyMonitorCoordinator]):
    """An entity of one monitor, grouped under a service device."""

    _attr_has_entity_name = True

    def __init__(self, entry: AnomalyMonitorConfigEntry, description: EntityDescription) -> None:
        super().__init__(entry.runtime_data.coordinator)
        self.entity_description = description
        self._attr_unique_id = f"{entry.entry_id}_{description.key}"
        self._attr_device_info = DeviceInfo(
            identifiers={(DOMAIN, entry.entry_id)},
            name=entry.title,
            manufacturer="Anomaly Monitor",
            entry_type=DeviceEntryType.SERVICE,
        )

"""Binary sensor: is an anomaly open right now."""

from __future__ import annotations

from homeassistant.components.binary_sensor import (
    BinarySensorDeviceClass,
    BinarySensorEntity,
    BinarySensorEntityDescription,
)
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .entity import AnomalyMonitorEntity
from .runtime import AnomalyMonitorConfigEntry

PARALLEL_UPDATES = 0

ANOMALY = BinarySensorEntityDescription(
    key="anomaly",
    translation_key="anomaly",
    device_class=BinarySensorDeviceClass.PROBLEM,
)


async def async_setup_entry(
    hass: HomeAssistant,
    entry: AnomalyMonitorConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add the anomaly binary sensor."""
    async_add_entities([AnomalyBinarySensor(entry, ANOMALY)])


class AnomalyBinarySensor(AnomalyMonitorEntity, BinarySensorEntity):
    """On while at least one anomaly is open."""

    @property
    def is_on(self) -> bool:
        """Whether an anomaly is open."""
        return bool(self.coordinator.data.open_anomalies)

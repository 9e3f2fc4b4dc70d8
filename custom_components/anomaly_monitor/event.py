"""Event entity: fires when an anomaly is detected or cleared, for automations."""

from __future__ import annotations

from typing import Any

from homeassistant.components.event import (
    EventEntity,
    EventEntityDescription,
    EventExtraStoredData,
)
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.dispatcher import async_dispatcher_connect
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .anomalies.surfaces import signal_anomaly_event
from .entity import AnomalyMonitorEntity
from .runtime import AnomalyMonitorConfigEntry

PARALLEL_UPDATES = 0

ANOMALY_EVENT = EventEntityDescription(
    key="anomaly_event",
    translation_key="anomaly_event",
    event_types=["detected", "cleared"],
)


async def async_setup_entry(
    hass: HomeAssistant,
    entry: AnomalyMonitorConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add the anomaly event entity."""
    async_add_entities([AnomalyEventEntity(entry, ANOMALY_EVENT)])


class AnomalyEventEntity(AnomalyMonitorEntity, EventEntity):
    """Carries each detected or cleared anomaly with its verdict."""

    async def async_added_to_hass(self) -> None:
        """Listen for anomalies of this entry."""
        await super().async_added_to_hass()
        self.async_on_remove(
            async_dispatcher_connect(
                self.hass,
                signal_anomaly_event(self.coordinator.config_entry.entry_id),
                self._async_handle,
            )
        )

    async def async_get_last_event_data(self) -> EventExtraStoredData | None:
        """The last event restored, when it was this monitor's. HA restores by entity id,
        so a monitor deleted and added again read the deleted one's last event as its own
        (walk 59: "Cleared", with the deleted entry's id, on an entry that had told nothing)."""
        data = await super().async_get_last_event_data()
        if data is None or not isinstance(data.last_event_attributes, dict):
            return data
        owner = data.last_event_attributes.get("config_entry_id")
        if owner is not None and owner != self.coordinator.config_entry.entry_id:
            return None
        return data

    @callback
    def _async_handle(self, event_type: str, data: dict[str, Any]) -> None:
        self._trigger_event(event_type, data)
        self.async_write_ha_state()

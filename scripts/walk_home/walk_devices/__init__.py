"""Devices as real integrations register them, mirrored from input helpers (walk26)."""

from homeassistant.core import Event, callback
from homeassistant.helpers.device_registry import DeviceEntryType, DeviceInfo
from homeassistant.helpers.entity import Entity
from homeassistant.helpers.event import async_track_state_change_event

PLATFORMS = ["binary_sensor", "switch", "sensor"]
DEVICES = {
    "kyiv": DeviceInfo(
        identifiers={("walk_devices", "kyiv")},
        name="Kyiv region",
        manufacturer="Ukraine Alarm",
        entry_type=DeviceEntryType.SERVICE,
    ),
    "boiler": DeviceInfo(
        identifiers={("walk_devices", "boiler")},
        name="Boiler",
        manufacturer="Vaillant",
        model="ecoTEC",
    ),
    "septic": DeviceInfo(
        identifiers={("walk_devices", "septic")},
        name="Septic pump",
        manufacturer="Zoeller",
        model="Alarm box",
    ),
    "stove": DeviceInfo(
        identifiers={("walk_devices", "stove")},
        name="Stove guard",
        manufacturer="Innohome",
        model="SGK",
    ),
    "relay": DeviceInfo(
        identifiers={("walk_devices", "relay")},
        name="Reptile relay",
        manufacturer="Shelly",
        model="Pro 2PM",
    ),
}


async def async_setup_entry(hass, entry):
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    return True


async def async_unload_entry(hass, entry):
    return await hass.config_entries.async_unload_platforms(entry, PLATFORMS)


class Mirror(Entity):
    _attr_has_entity_name = True
    _attr_should_poll = False

    def __init__(self, device, name, source, **attrs):
        self._attr_device_info = DEVICES[device]
        self._attr_name = name
        self._attr_unique_id = f"{device}_{name}".lower().replace(" ", "_")
        self.source = source
        for key, value in attrs.items():
            setattr(self, f"_attr_{key}", value)

    @property
    def raw(self):
        state = self.hass.states.get(self.source)
        return None if state is None else state.state

    async def async_added_to_hass(self):
        @callback
        def changed(event: Event) -> None:
            self.async_write_ha_state()

        self.async_on_remove(async_track_state_change_event(self.hass, [self.source], changed))

"""Devices as real integrations register them, mirrored from input helpers (walk26)."""

from homeassistant.core import Event, callback
from homeassistant.helpers.device_registry import DeviceEntryType, DeviceInfo
from homeassistant.helpers.entity import Entity
from homeassistant.helpers.event import async_track_state_change_event

PLATFORMS = ["binary_sensor", "switch", "sensor"]


def _device(key: str, name: str, maker: str, model: str | None = None) -> DeviceInfo:
    """A home device; ``model`` None: a web service (HA's ``entry_type: service``)."""
    service = DeviceEntryType.SERVICE if model is None else None
    return DeviceInfo(
        identifiers={("walk_devices", key)},
        name=name,
        manufacturer=maker,
        model=model,
        entry_type=service,
    )


DEVICES = {
    "kyiv": _device("kyiv", "Kyiv region", "Ukraine Alarm"),
    "boiler": _device("boiler", "Boiler", "Vaillant", "ecoTEC"),
    "septic": _device("septic", "Septic pump", "Zoeller", "Alarm box"),
    "stove": _device("stove", "Stove guard", "Innohome", "SGK"),
    "relay": _device("relay", "Reptile relay", "Shelly", "Pro 2PM"),
    "battery": _device("battery", "Home battery", "EcoFlow", "Delta 2"),
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

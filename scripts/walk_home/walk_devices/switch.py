from homeassistant.components.switch import SwitchEntity

from . import Mirror


class Relay(Mirror, SwitchEntity):
    @property
    def is_on(self):
        return None if self.raw is None else self.raw == "on"

    async def async_turn_on(self, **kwargs):
        await self.hass.services.async_call("input_boolean", "turn_on", {"entity_id": self.source})

    async def async_turn_off(self, **kwargs):
        await self.hass.services.async_call("input_boolean", "turn_off", {"entity_id": self.source})


async def async_setup_entry(hass, entry, add):
    add(
        [
            Relay("relay", "Switch 0", "input_boolean.relay_0"),
            Relay("relay", "Switch 1", "input_boolean.relay_1"),
        ]
    )

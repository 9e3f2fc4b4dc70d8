from homeassistant.components.binary_sensor import BinarySensorDeviceClass, BinarySensorEntity

from . import Mirror


class Alert(Mirror, BinarySensorEntity):
    @property
    def is_on(self):
        return None if self.raw is None else self.raw == "on"


async def async_setup_entry(hass, entry, add):
    add(
        [
            Alert(
                "kyiv",
                "Air raid alert",
                "input_boolean.air_raid",
                device_class=BinarySensorDeviceClass.SAFETY,
            ),
            Alert(
                "boiler",
                "Problem",
                "input_boolean.boiler_problem",
                device_class=BinarySensorDeviceClass.PROBLEM,
            ),
            Alert(
                "septic",
                "Alarm",
                "input_boolean.septic_alarm",
                device_class=BinarySensorDeviceClass.PROBLEM,
            ),
            Alert(
                "stove",
                "Safety",
                "input_boolean.stove_guard",
                device_class=BinarySensorDeviceClass.SAFETY,
            ),
        ]
    )

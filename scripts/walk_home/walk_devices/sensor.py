from homeassistant.components.sensor import SensorDeviceClass, SensorEntity, SensorStateClass
from homeassistant.const import UnitOfPower

from . import Mirror


class Meter(Mirror, SensorEntity):
    @property
    def native_value(self):
        try:
            return float(self.raw)
        except (TypeError, ValueError):
            return None


async def async_setup_entry(hass, entry, add):
    kw = {
        "device_class": SensorDeviceClass.POWER,
        "state_class": SensorStateClass.MEASUREMENT,
        "native_unit_of_measurement": UnitOfPower.WATT,
    }
    add(
        [
            Meter("relay", "Switch 0 power", "input_number.relay_0_power", **kw),
            Meter("relay", "Switch 1 power", "input_number.relay_1_power", **kw),
        ]
    )
    if hass.states.get("input_number.battery_charge") is None:
        return  # the kit without walk27's home battery
    add(
        [
            Meter("battery", "AC in power", "input_number.battery_ac_in", **kw),
            Meter(
                "battery",
                "Battery",
                "input_number.battery_charge",
                device_class=SensorDeviceClass.BATTERY,
                state_class=SensorStateClass.MEASUREMENT,
                native_unit_of_measurement="%",
            ),
        ]
    )

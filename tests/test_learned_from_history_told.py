"""A monitor added to a home with recorder history: what it learned from that history is
told (the learning sensor, *Configure*).

Seen in the walk of session 17 (docs/walks.md): a home with 12 days of recorder history,
the monitor added with its defaults. The history was read in 0.35 s, yet *Devices still
being learned* read 2 (the freezer's power meter and the lounge thermometer, until three
days from now), and *Configure* said "Still learning 2 of the watched devices ... until
05 Dec": a device that only reports numbers was counted as watched from the monitor's
set-up, never from its first recorded reading.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.components.recorder.common import (
    async_wait_recording_done,
)

from .helpers import ALICE
from .recorder_home import (  # noqa: F401 (fixtures, found by name)
    auto_enable_custom_integrations,
    quiet_sqlalchemy,
    recorder_config,
    setup_learning_monitor,
)

DOOR = "binary_sensor.front_door"
POWER = "sensor.freezer_plug_power"
THERMOMETER = "sensor.lounge_temperature"
DOOR_ATTRS = {"device_class": "door", "friendly_name": "Front door"}
POWER_ATTRS = {
    "device_class": "power",
    "unit_of_measurement": "W",
    "state_class": "measurement",
    "friendly_name": "Freezer plug power",
}
THERMOMETER_ATTRS = {
    "device_class": "temperature",
    "unit_of_measurement": "°C",
    "state_class": "measurement",
    "friendly_name": "Lounge temperature",
}


async def test_meters_and_thermometers_with_history_are_not_still_being_learned(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    start = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
    freezer.move_to(start)
    hass.states.async_set(ALICE, "home", {"friendly_name": "Alice"})
    for day in range(6):
        for hour in range(0, 24, 2):
            freezer.move_to(start + timedelta(days=day, hours=hour))
            hass.states.async_set(POWER, f"{78 + hour % 5}", POWER_ATTRS)
            hass.states.async_set(THERMOMETER, f"{20.5 + hour % 3 / 10:.1f}", THERMOMETER_ATTRS)
            hass.states.async_set(DOOR, "on" if hour % 4 else "off", DOOR_ATTRS)
    await async_wait_recording_done(hass)

    freezer.move_to(start + timedelta(days=6, hours=1))  # the monitor is added
    entry = await setup_learning_monitor(hass, [DOOR, POWER, THERMOMETER, ALICE])
    coordinator = entry.runtime_data.coordinator
    await coordinator.async_refresh()
    learning = coordinator.current_data().learning
    assert learning is not None
    assert learning == {}  # six days of each in the recorder: learned

    state = hass.states.get("sensor.home_devices_still_being_learned")
    assert state is not None
    assert state.state == "0"
    result = await hass.config_entries.options.async_init(entry.entry_id)
    placeholders = result["description_placeholders"]
    assert placeholders is not None
    assert placeholders["learning"].startswith("Learned")
    # ...and says where that came from.
    assert placeholders["history"] == (
        "It knows this home from 6 days of its recorded history, since 20 Nov."
    )

"""The options flow's roles step lists each device in the words of the choices beside it.

Walk 59 read the list in a real hass: "Freezer plug power: Cold appliance (from its
name)", "Hall motion: Other (from nothing yet)", "Garage pump power: Cold appliance (from
what it does)", above dropdowns reading "Fridge or freezer" and "None of these". The list
now says the dropdown's words, and why a meter was taken for a fridge by what it does.
"""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType

from custom_components.anomaly_monitor.const import (
    CONF_INCLUDE_ENTITIES,
    CONF_REVIEW_ROLES,
    CONF_USE_EXPOSED,
    CONF_WATCH_SAFETY,
)
from custom_components.anomaly_monitor.core.device_roles import SWITCHABLE_ROLES, Role
from custom_components.anomaly_monitor.flows.role_review import (
    RoleRow,
    async_role_labels,
    rows_text,
)

from .helpers import ALICE, set_calm_home, setup_monitor

FREEZER = "sensor.freezer_plug_power"
MOTION = "binary_sensor.hall_motion"
DOOR = "binary_sensor.front_door"


def _home(hass: HomeAssistant) -> None:
    set_calm_home(hass)
    hass.states.async_set(
        FREEZER,
        "80",
        {
            "friendly_name": "Freezer plug power",
            "device_class": "power",
            "unit_of_measurement": "W",
        },
    )
    hass.states.async_set(MOTION, "off", {"friendly_name": "Hall motion", "device_class": "motion"})
    hass.states.async_set(DOOR, "off", {"friendly_name": "Front door", "device_class": "door"})


async def test_roles_listed_in_the_words_of_the_choices(hass: HomeAssistant) -> None:
    """The freezer's plug reads "Fridge or freezer", the hall's motion "None of these", as
    their dropdowns do; nothing reads "Cold appliance", "Other" or "from nothing yet"."""
    _home(hass)
    options = {CONF_WATCH_SAFETY: True, CONF_USE_EXPOSED: False, CONF_INCLUDE_ENTITIES: [ALICE]}
    entry = await setup_monitor(hass, **options)
    result = await hass.config_entries.options.async_init(entry.entry_id)
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {**options, CONF_REVIEW_ROLES: True}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "roles"
    listed = result["description_placeholders"]["devices"]
    assert f"(`{FREEZER}`): Fridge or freezer (from its name)" in listed
    assert f"(`{MOTION}`): None of these (nothing says otherwise yet)" in listed
    assert f"(`{DOOR}`): Exterior door (from its device class)" in listed
    for unsaid in ("Cold appliance", "Other (", "from nothing"):
        assert unsaid not in listed


async def test_a_fridge_by_its_cycle_says_so(hass: HomeAssistant) -> None:
    """A meter taken for a fridge by what it does says what was seen (a pump cycles too),
    and a corrected row names the monitor's reading in the same words."""
    labels = await async_role_labels(hass)
    assert labels[Role.COLD_APPLIANCE] == "Fridge or freezer"
    assert labels[Role.OTHER] == "None of these"
    pump = RoleRow(
        "sensor.pump_power", "Pump power", Role.COLD_APPLIANCE, "behaviour", None, SWITCHABLE_ROLES
    )
    corrected = RoleRow(
        "sensor.well_pump_power",
        "Well pump power",
        Role.COLD_APPLIANCE,
        "behaviour",
        Role.OTHER,
        SWITCHABLE_ROLES,
    )
    listed = rows_text([pump, corrected], labels).splitlines()
    assert listed == [
        "- Pump power (`sensor.pump_power`): Fridge or freezer (from what it does: it starts"
        " and stops over and over, as a fridge does)",
        "- Well pump power (`sensor.well_pump_power`): None of these (your correction; the"
        " monitor read fridge or freezer)",
    ]

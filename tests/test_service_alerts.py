"""A web service's alert is no device in the home (HA glue).

HA's Ukraine Alarm integration registers its region as a device of ``entry_type:
service`` with a ``safety`` binary sensor (an air-raid alert); set 19 pushed it high
as a home hazard at every alert. The watcher reads the registry's entry type: such an
entity is no device in the home (not paired with anything as one device), and its
generic alert is told low (shown at sensitivity high, never pushed); a home device's
``problem`` alarm stays told high.
"""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr, entity_registry as er
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.anomaly_monitor.const import CONF_INCLUDE_ENTITIES, CONF_SENSITIVITY
from custom_components.anomaly_monitor.core.models import Severity

from .helpers import analyze, set_calm_home, setup_monitor

ALERT = "binary_sensor.kyiv_air_raid_alert"
PUMP = "binary_sensor.septic_pump_alarm"


def _register(hass: HomeAssistant, entity_id: str, entry_type: dr.DeviceEntryType | None) -> None:
    source = MockConfigEntry(domain="demo")
    source.add_to_hass(hass)
    device = dr.async_get(hass).async_get_or_create(
        config_entry_id=source.entry_id,
        identifiers={("demo", entity_id)},
        entry_type=entry_type,
    )
    object_id = entity_id.partition(".")[2]
    entry = er.async_get(hass).async_get_or_create(
        "binary_sensor", "demo", object_id, suggested_object_id=object_id, device_id=device.id
    )
    assert entry.entity_id == entity_id


async def test_a_service_alert_is_told_low_and_a_home_alarm_high(hass: HomeAssistant) -> None:
    set_calm_home(hass)
    _register(hass, ALERT, dr.DeviceEntryType.SERVICE)
    _register(hass, PUMP, None)
    hass.states.async_set(ALERT, "off", {"device_class": "safety"})
    hass.states.async_set(PUMP, "off", {"device_class": "problem"})
    entry = await setup_monitor(
        hass, learned=True, **{CONF_INCLUDE_ENTITIES: [ALERT, PUMP], CONF_SENSITIVITY: "high"}
    )
    watcher = entry.runtime_data.coordinator.watcher
    assert watcher.services == {ALERT}
    assert ALERT not in watcher.devices  # no device in the home
    assert PUMP in watcher.devices
    hass.states.async_set(ALERT, "on", {"device_class": "safety"})
    hass.states.async_set(PUMP, "on", {"device_class": "problem"})
    await hass.async_block_till_done()
    await analyze(hass, entry)
    findings = entry.runtime_data.coordinator.data.analysis.verdict.findings
    told = {f.subject: f.severity for f in findings if f.rule == "hazard_detected"}
    assert told == {ALERT: Severity.LOW, PUMP: Severity.HIGH}

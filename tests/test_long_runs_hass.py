"""Appliances that say what is wrong only through their power meter, in a real hass (issue 24).

- **An oil heater on a plug called "Smart Plug 3"**, switched on its own knob: the plug
  stays on, the name says nothing. It runs 40 min at a time in the evening (learned from a
  fortnight); left on from a Friday morning it drew 1.5 kW all weekend untold. Now told
  once it has run three times its longest run, and not before; a radio drop of a few
  minutes does not start the run again.
- **A pool pump's relay** switched on at 07:00 every day, its own meter (one HA device)
  rising within a second each time: after a week, the morning the motor trips and the
  meter stays at 0 W is told. Ten onsets were needed before (ten days), whatever the
  registry said; a switch and a meter that are *not* one device still need them.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr, entity_registry as er
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.models import EntityInfo

from .helpers import ALICE, SMOKE, analyze, in_area, set_calm_home, setup_monitor_learned

PLUG_POWER = "sensor.smart_plug_3_power"
POWER_ATTRS = {
    "device_class": "power",
    "unit_of_measurement": "W",
    "friendly_name": "Smart Plug 3 Power",
}
PUMP = "switch.relay_switch_0"
PUMP_POWER = "sensor.relay_switch_0_power"
PUMP_ATTRS = {"device_class": "power", "unit_of_measurement": "W", "friendly_name": "Relay power"}
NOW = datetime(2026, 3, 13, 6, 50, tzinfo=dt_util.UTC)  # a Friday, 07:50 in Berlin


def _heater_fortnight(now: datetime) -> dict[str, Any]:
    """A fortnight of evenings: the heater on at 18:45 for 40 min, and again for 25 (on
    its own knob, as long as each evening needs: no timer)."""
    baselines = HomeBaselines(dt_util.get_default_time_zone())
    baselines.describe([EntityInfo(PLUG_POWER, "", device_class="power", unit="W")])
    start = now - timedelta(days=14)
    baselines.watching([PLUG_POWER, SMOKE, ALICE], start)
    baselines.observe(start, PLUG_POWER, "0.0")
    for day in range(14):
        evening = start.replace(hour=17, minute=45) + timedelta(days=day)
        for offset, minutes in ((0, 40), (70, 25)):
            on = evening + timedelta(minutes=offset)
            baselines.observe(on, PLUG_POWER, "1478.0")
            baselines.observe(on + timedelta(minutes=minutes), PLUG_POWER, "0.0")
    baselines.advance(now - timedelta(minutes=1))
    return baselines.as_dict()


async def _rules(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, entry: Any, when: datetime
) -> dict[str, Any]:
    freezer.move_to(when)
    response = await analyze(hass, entry)
    return {f["rule"]: f for f in response["verdict"]["findings"]}


async def test_an_unnamed_heater_left_on_all_weekend_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    await hass.config.async_set_time_zone("Europe/Berlin")
    freezer.move_to(NOW)
    set_calm_home(hass)
    hass.states.async_set(PLUG_POWER, "0.0", POWER_ATTRS)
    entry = await setup_monitor_learned(
        hass, _heater_fortnight(NOW), include_entities=[SMOKE, PLUG_POWER, ALICE]
    )
    freezer.move_to(NOW + timedelta(minutes=1))
    hass.states.async_set(PLUG_POWER, "1479.0", POWER_ATTRS)
    rules = await _rules(hass, freezer, entry, NOW + timedelta(minutes=110))
    assert "appliance_running_far_longer" not in rules  # 1 h 49: a long evening's use x 3 is 2 h
    # A radio drop of four minutes at 09:00: the meter comes back still drawing.
    freezer.move_to(NOW + timedelta(minutes=111))
    hass.states.async_set(PLUG_POWER, "unavailable", POWER_ATTRS)
    await analyze(hass, entry)
    freezer.move_to(NOW + timedelta(minutes=115))
    hass.states.async_set(PLUG_POWER, "1481.0", POWER_ATTRS)
    rules = await _rules(hass, freezer, entry, NOW + timedelta(minutes=130))
    finding = rules["appliance_running_far_longer"]
    assert finding["evidence"] == [PLUG_POWER]
    assert "has drawn 1481 W for 2 h 09 min, since 07:51" in finding["reasoning"]
    assert "it runs for at most 40 min (learned from 28 runs" in finding["reasoning"]


def _pump_week(now: datetime, days: int) -> dict[str, Any]:
    """The relay on at 07:00 for 8 h every day, its meter at 1.1 kW within a second."""
    baselines = HomeBaselines(dt_util.get_default_time_zone())
    device = "pool_pump_device"
    baselines.describe(
        [
            EntityInfo(PUMP, "", area="Backyard", device=device),
            EntityInfo(
                PUMP_POWER, "", area="Backyard", device_class="power", unit="W", device=device
            ),
        ]
    )
    start = now - timedelta(days=days)
    baselines.watching([PUMP, PUMP_POWER, SMOKE, ALICE], start)
    baselines.observe(start, PUMP, "off", "Backyard")
    baselines.observe(start, PUMP_POWER, "0.0", "Backyard")
    for day in range(days):
        on = start + timedelta(days=day, minutes=10)
        baselines.observe(on, PUMP, "on", "Backyard")
        baselines.observe(on + timedelta(seconds=1), PUMP_POWER, "1146.0", "Backyard")
        baselines.observe(on + timedelta(hours=8), PUMP, "off", "Backyard")
        baselines.observe(on + timedelta(hours=8, seconds=1), PUMP_POWER, "0.0", "Backyard")
    baselines.advance(now - timedelta(minutes=1))
    return baselines.as_dict()


@pytest.mark.parametrize("one_device", [True, False])
async def test_a_pump_relay_on_with_its_meter_flat_is_told_after_a_week(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, one_device: bool
) -> None:
    now = datetime(2026, 7, 8, 13, 50, tzinfo=dt_util.UTC)
    freezer.move_to(now)
    set_calm_home(hass)
    for entity_id in (PUMP, PUMP_POWER):
        in_area(hass, entity_id, "Backyard")
    if one_device:
        owner = MockConfigEntry(domain="shelly", title="Relay")
        owner.add_to_hass(hass)
        device = dr.async_get(hass).async_get_or_create(
            config_entry_id=owner.entry_id, identifiers={("shelly", "relay")}, name="Relay"
        )
        for entity_id in (PUMP, PUMP_POWER):
            er.async_get(hass).async_update_entity(entity_id, device_id=device.id)
    hass.states.async_set(PUMP, "off", {"friendly_name": "Relay switch 0"})
    hass.states.async_set(PUMP_POWER, "0.0", PUMP_ATTRS)
    entry = await setup_monitor_learned(
        hass, _pump_week(now, days=7), include_entities=[SMOKE, PUMP, PUMP_POWER, ALICE]
    )
    freezer.move_to(now + timedelta(minutes=10))
    hass.states.async_set(PUMP, "on", {"friendly_name": "Relay switch 0"})
    await analyze(hass, entry)
    rules = await _rules(hass, freezer, entry, now + timedelta(minutes=40))
    if one_device:
        finding = rules["switched_on_without_power"]
        assert finding["evidence"] == [PUMP, PUMP_POWER]
        assert "7 of 7 times learned" in finding["reasoning"]
    else:
        assert "switched_on_without_power" not in rules


async def test_the_plug_switch_and_its_meter_are_one_incident(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The same heater behind a plug whose switch is on too (one HA device): the finding
    names the switch and its meter, about the switch (the subject
    ``state_longer_than_usual`` tells the switch by), so the two are one incident."""
    await hass.config.async_set_time_zone("Europe/Berlin")
    freezer.move_to(NOW)
    set_calm_home(hass)
    plug = "switch.smart_plug_3"
    owner = MockConfigEntry(domain="tuya", title="Plug")
    owner.add_to_hass(hass)
    device = dr.async_get(hass).async_get_or_create(
        config_entry_id=owner.entry_id, identifiers={("tuya", "plug3")}, name="Smart Plug 3"
    )
    for entity_id in (plug, PLUG_POWER):
        in_area(hass, entity_id, "Zimmer")
        er.async_get(hass).async_update_entity(entity_id, device_id=device.id)
    hass.states.async_set(plug, "on", {"friendly_name": "Smart Plug 3"})
    hass.states.async_set(PLUG_POWER, "0.0", POWER_ATTRS)
    entry = await setup_monitor_learned(
        hass, _heater_fortnight(NOW), include_entities=[SMOKE, plug, PLUG_POWER, ALICE]
    )
    freezer.move_to(NOW + timedelta(minutes=1))
    hass.states.async_set(PLUG_POWER, "1479.0", POWER_ATTRS)
    response = await analyze(hass, entry)
    freezer.move_to(NOW + timedelta(minutes=130))
    response = await analyze(hass, entry)
    (finding,) = [
        f for f in response["verdict"]["findings"] if f["rule"] == "appliance_running_far_longer"
    ]
    assert finding["evidence"] == [plug, PLUG_POWER]
    assert finding["subject"] == plug

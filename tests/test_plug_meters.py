"""Every power meter is watched by default, whatever it is named or whichever device it is on.

A freezer on "Plug 2", a washer on "Plug 3" or a dryer on a clamp meter's channel is
covered without the homeowner adding it (what it is comes from its learned behaviour);
and a washer left running when everybody leaves is theirs, not somebody in the house,
while a load that starts in the empty home is told.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.helpers import (
    area_registry as ar,
    device_registry as dr,
    entity_registry as er,
)
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.anomaly_monitor.const import DOMAIN

from .helpers import ALICE, analyze, set_calm_home

PLUG_METER = "sensor.plug_2_power"
INVERTER = "sensor.inverter_power"
POWER = {"device_class": "power", "unit_of_measurement": "W"}


def _device(hass: HomeAssistant, owner: MockConfigEntry, key: str, area: str) -> str:
    devices = dr.async_get(hass)
    device = devices.async_get_or_create(
        config_entry_id=owner.entry_id, identifiers={("test", key)}
    )
    area_id = ar.async_get(hass).async_get_or_create(area).id
    devices.async_update_device(device.id, area_id=area_id)
    return device.id


def _register(hass: HomeAssistant, entity_id: str, device_id: str) -> None:
    domain, _, object_id = entity_id.partition(".")
    entry = er.async_get(hass).async_get_or_create(
        domain, "test", object_id, suggested_object_id=object_id, device_id=device_id
    )
    assert entry.entity_id == entity_id


async def _home_with_a_plug(hass: HomeAssistant) -> MockConfigEntry:
    owner = MockConfigEntry(domain="test")
    owner.add_to_hass(hass)
    plug = _device(hass, owner, "plug-2", "Utility room")
    _register(hass, "switch.plug_2", plug)
    _register(hass, PLUG_METER, plug)
    _register(hass, INVERTER, _device(hass, owner, "inverter", "Garage"))  # no switch
    set_calm_home(hass)
    hass.states.async_set("switch.plug_2", "on", {"friendly_name": "Plug 2"})
    hass.states.async_set(PLUG_METER, "1.0", {**POWER, "friendly_name": "Plug 2 power"})
    hass.states.async_set(INVERTER, "1500", {**POWER, "friendly_name": "Inverter power"})
    assert await async_setup_component(hass, "homeassistant", {})
    entry = MockConfigEntry(domain=DOMAIN, title="Home", options={})  # every default
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


def _away_findings(response: dict) -> list[dict]:
    return [
        f for f in response["verdict"]["findings"] if f["rule"] == "appliance_active_while_away"
    ]


async def test_every_meter_is_watched_by_default_a_plugs_and_one_without_a_switch(
    hass: HomeAssistant,
) -> None:
    """Set 14: a fridge on a plug that has no switch entity, a washer on a Shelly's default
    id: unwatched before (only a plug with a switch, or a name saying fridge or oven)."""
    entry = await _home_with_a_plug(hass)
    watched = entry.runtime_data.coordinator.watcher.entity_ids
    assert PLUG_METER in watched
    assert INVERTER in watched


async def test_a_washer_left_running_is_theirs_a_load_in_the_empty_home_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    start = dt_util.as_utc(datetime(2026, 3, 10, 7, 40, tzinfo=dt_util.get_default_time_zone()))
    freezer.move_to(start)
    entry = await _home_with_a_plug(hass)
    # 07:40 the washer starts on Plug 2 while Alice is home; she leaves at 08:15.
    for minutes, watts in ((0, "2040"), (10, "210"), (35, "300")):
        freezer.move_to(start + timedelta(minutes=minutes))
        hass.states.async_set(PLUG_METER, watts, {**POWER, "friendly_name": "Plug 2 power"})
        if minutes == 35:
            hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
        await hass.async_block_till_done()
    freezer.tick(timedelta(minutes=20))  # 08:35, the wash goes on in the empty home
    # Nor is the inverter, producing since before she left.
    assert _away_findings(await analyze(hass, entry)) == []

    # The wash ends; two hours later the plug draws 2,400 W with nobody home.
    hass.states.async_set(PLUG_METER, "1.0", {**POWER, "friendly_name": "Plug 2 power"})
    freezer.tick(timedelta(hours=2))
    hass.states.async_set(PLUG_METER, "2400", {**POWER, "friendly_name": "Plug 2 power"})
    await hass.async_block_till_done()
    freezer.tick(timedelta(minutes=5))
    (finding,) = _away_findings(await analyze(hass, entry))
    assert PLUG_METER in finding["evidence"]

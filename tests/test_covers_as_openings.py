"""A garage door, gate or window that Home Assistant shows as a cover is an opening like a
contact (``core/open_states``), for the checks that read openings at night and beside the
heating too (issue 27: ``went_out_at_night`` and ``hvac_with_opening_open`` read contacts
only: a motorised roof window open while heating, or the garage door opener used to walk
out at 02:52, was never told).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
import pytest

from custom_components.anomaly_monitor.core.baselines import HomeBaselines

from . import test_daily_rhythm as rhythm
from .helpers import ALICE, LIVING_TEMP, analyze, in_area, set_calm_home, setup_monitor

GARAGE = "cover.garage_door"
_AS_COVER = {"on": "open", "off": "closed"}


class _CoverHome(HomeBaselines):
    """Rose's learned fortnight with her door a garage door opener (open/closed)."""

    def observe(self, when: datetime, entity_id: str, state: str, *args: Any) -> None:
        if entity_id == GARAGE:
            state = _AS_COVER.get(state, state)
        super().observe(when, entity_id, state, *args)


async def test_going_out_through_the_garage_door_cover_at_night_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rhythm, "DOOR", GARAGE)
    monkeypatch.setattr(rhythm, "HomeBaselines", _CoverHome)
    monkeypatch.delitem(rhythm.ATTRIBUTES, "binary_sensor.front_door")
    monkeypatch.delitem(rhythm.AREAS, "binary_sensor.front_door")
    monkeypatch.setitem(
        rhythm.ATTRIBUTES, GARAGE, {"device_class": "garage", "friendly_name": "Garage door"}
    )
    monkeypatch.setitem(rhythm.AREAS, GARAGE, "Hall")
    entry, today = await rhythm._home(hass, freezer)
    night = today + timedelta(hours=2, minutes=50)
    rhythm._set(hass, freezer, night - timedelta(minutes=5), (GARAGE, "closed"))
    rhythm._set(hass, freezer, night, (rhythm.BED, "on"))
    rhythm._set(hass, freezer, night + timedelta(minutes=1), (rhythm.HALL, "on"))
    rhythm._set(hass, freezer, night + timedelta(minutes=2), (GARAGE, "opening"))
    rhythm._set(hass, freezer, night + timedelta(minutes=2, seconds=12), (GARAGE, "open"))
    steps = [(rhythm.HALL, "off"), (rhythm.BED, "off")]
    rhythm._set(hass, freezer, night + timedelta(minutes=3, seconds=30), *steps)
    rules = await rhythm._rules_at(hass, freezer, entry, night + timedelta(minutes=9))
    finding = rules["went_out_at_night"]
    assert finding["evidence"] == [GARAGE]
    assert "02:52" in finding["reasoning"]


async def test_a_roof_window_cover_open_while_heating_is_told(hass: HomeAssistant) -> None:
    window, thermostat = "cover.roof_window", "climate.attic_thermostat"
    in_area(hass, window, "Attic")
    in_area(hass, thermostat, "Attic")
    set_calm_home(hass)
    attrs = {"device_class": "window", "friendly_name": "Roof window"}
    hass.states.async_set(window, "open", attrs)
    hass.states.async_set(
        thermostat,
        "heat",
        {"hvac_action": "heating", "temperature": 23, "friendly_name": "Attic thermostat"},
    )
    entry = await setup_monitor(
        hass, learned=True, include_entities=[window, thermostat, ALICE, LIVING_TEMP]
    )
    response = await analyze(hass, entry)
    (finding,) = [
        f for f in response["verdict"]["findings"] if f["rule"] == "hvac_with_opening_open"
    ]
    assert finding["subject"] == window
    assert "Attic thermostat is heating with Roof window open" in finding["reasoning"]

    hass.states.async_set(window, "closed", attrs)
    response = await analyze(hass, entry)
    assert "hvac_with_opening_open" not in {f["rule"] for f in response["verdict"]["findings"]}

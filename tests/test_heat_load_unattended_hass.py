"""A hob whose name says nothing, left on with nobody moving, in a real hass (issue 24/25).

Rose's learned fortnight (``test_daily_rhythm``): supper on the hob at 18:00, 42 min, every
day. Her hob's meter is named as the plug's integration names it ("Tapo P110 Current
consumption"): no role, so ``cooker_left_on`` cannot tell it (set 1 under real names: the
milk pan left on at bedtime, never told). Its meter says it: it draws an element's load for
longer than any of its 14 runs here, and nobody has moved for an hour
(``heat_load_left_on_unattended``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant
import pytest

from . import test_daily_rhythm as rose
from .test_daily_rhythm import HALL, _rules_at, _set

NAMELESS = {
    "device_class": "power",
    "unit_of_measurement": "W",
    "friendly_name": "Tapo P110 Current consumption",
}


async def _hob_on_at_supper(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> tuple[ConfigEntry, datetime]:
    """Rose's learned home; the hob on at 18:00 as she passes through the hall. The entry
    and 18:00."""
    entry, today = await rose._home(hass, freezer, night=timedelta(hours=17, minutes=50))
    supper = today + timedelta(hours=18)
    _set(hass, freezer, supper - timedelta(minutes=5), (HALL, "on"))
    _set(hass, freezer, supper, (rose.HOB, "1500.0"))
    _set(hass, freezer, supper + timedelta(minutes=5), (HALL, "off"))
    return entry, supper


@pytest.mark.parametrize("moves_at_19_10", [False, True])
async def test_an_element_on_past_its_runs_with_nobody_moving_is_told(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    monkeypatch: pytest.MonkeyPatch,
    moves_at_19_10: bool,
) -> None:
    """On at 18:00, she dozes off after 18:05: at 19:00 not yet (nobody still for an hour),
    at 19:10 told (on main: nothing, no role); somebody walking through the hall at 19:10
    may be minding it: not told."""
    monkeypatch.setitem(rose.ATTRIBUTES, rose.HOB, NAMELESS)
    entry, supper = await _hob_on_at_supper(hass, freezer)
    rules = await _rules_at(hass, freezer, entry, supper + timedelta(minutes=60))
    assert "heat_load_left_on_unattended" not in rules
    assert "cooker_left_on" not in rules
    if moves_at_19_10:
        _set(hass, freezer, supper + timedelta(minutes=70), (HALL, "on"))
        _set(hass, freezer, supper + timedelta(minutes=71), (HALL, "off"))
    rules = await _rules_at(hass, freezer, entry, supper + timedelta(minutes=75))
    if moves_at_19_10:
        assert "heat_load_left_on_unattended" not in rules
        return
    finding = rules["heat_load_left_on_unattended"]
    assert finding["evidence"] == [rose.HOB]
    assert finding["severity"] == "medium"
    assert finding["anomaly_type"] == "energy"
    assert "longer than any run it made here (at most 42 min" in finding["reasoning"]
    assert "nobody has moved for 1 h 10 min" in finding["reasoning"]
    assert "cooker_left_on" not in rules


async def test_a_heater_known_as_one_is_its_own_checks(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same evening with the meter named "Space heater power": a heater kept on while
    the household sits still is how a heater is used (set 11's cold night): not told here."""
    monkeypatch.setitem(rose.ATTRIBUTES, rose.HOB, {**NAMELESS, "friendly_name": "Space heater"})
    entry, supper = await _hob_on_at_supper(hass, freezer)
    rules = await _rules_at(hass, freezer, entry, supper + timedelta(minutes=75))
    assert "heat_load_left_on_unattended" not in rules


async def test_an_element_on_past_its_runs_in_the_empty_home_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On at 18:00 and Rose goes out at 18:05 (her tracker away): at 18:40 the hob is
    within a supper's run (not told); at 19:10, longer than each of its 14 runs with nobody
    home to mind it, told (on main: nothing, nobody "home and still")."""
    monkeypatch.setitem(rose.ATTRIBUTES, rose.HOB, NAMELESS)
    entry, supper = await _hob_on_at_supper(hass, freezer)
    freezer.move_to(supper + timedelta(minutes=6))
    hass.states.async_set(rose.ROSE, "not_home", {"friendly_name": "Rose"})
    rules = await _rules_at(hass, freezer, entry, supper + timedelta(minutes=40))
    assert "heat_load_left_on_unattended" not in rules
    rules = await _rules_at(hass, freezer, entry, supper + timedelta(minutes=75))
    finding = rules["heat_load_left_on_unattended"]
    assert finding["evidence"] == [rose.HOB]
    assert "longer than any run it made here (at most 42 min" in finding["reasoning"]
    assert "and nobody is home" in finding["reasoning"]

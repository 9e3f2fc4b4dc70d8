"""A lock that reads ``unlocked`` for a moment as HA starts is not switching rapidly
(``core/start_settling``, ``statistics/toggles``).

The walks of sessions 20 and 35: a template lock reads ``unlocked`` for 0.2 s at every
start before its template renders; with the key turned twice by hand seconds later, the
first analysis told "Front door switching on and off rapidly" (4 changes within 15 s).
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.const import EVENT_HOMEASSISTANT_STARTED
from homeassistant.core import CoreState, HomeAssistant

from .helpers import FRONT_LOCK, analyze, set_calm_home, setup_monitor

LOCK_ATTRS = {"friendly_name": "Front door"}


def _storms(response: dict) -> list[dict]:
    return [f for f in response["verdict"]["findings"] if f["rule"] == "toggle_storm"]


async def _turn_twice_by_hand(hass: HomeAssistant, freezer: FrozenDateTimeFactory) -> None:
    for state in ("unlocked", "locked"):
        freezer.tick(timedelta(seconds=6))
        hass.states.async_set(FRONT_LOCK, state, LOCK_ATTRS)
        await hass.async_block_till_done()
    freezer.tick(timedelta(seconds=2))


async def test_a_start_blip_of_a_lock_is_no_toggle_storm(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    hass.set_state(CoreState.starting)
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    freezer.tick(timedelta(seconds=1))  # the template renders: unlocked for 0.2 s
    hass.states.async_set(FRONT_LOCK, "unlocked", LOCK_ATTRS)
    await hass.async_block_till_done()
    freezer.tick(timedelta(milliseconds=200))
    hass.states.async_set(FRONT_LOCK, "locked", LOCK_ATTRS)
    await hass.async_block_till_done()
    freezer.tick(timedelta(seconds=2))  # the rest of HA's start
    hass.set_state(CoreState.running)
    hass.bus.async_fire(EVENT_HOMEASSISTANT_STARTED)
    await hass.async_block_till_done()
    await _turn_twice_by_hand(hass, freezer)
    assert not _storms(await analyze(hass, entry))


async def test_the_same_changes_while_ha_runs_are_a_toggle_storm(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The check still fails without a start: the same four changes, HA running."""
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    freezer.tick(timedelta(seconds=10))
    hass.states.async_set(FRONT_LOCK, "unlocked", LOCK_ATTRS)
    await hass.async_block_till_done()
    freezer.tick(timedelta(milliseconds=200))
    hass.states.async_set(FRONT_LOCK, "locked", LOCK_ATTRS)
    await hass.async_block_till_done()
    await _turn_twice_by_hand(hass, freezer)
    assert _storms(await analyze(hass, entry))


async def test_a_device_that_only_went_unknown_and_unavailable_is_no_toggle_storm(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The walk of session 36 (B): two starts seconds apart, the plugs read unknown then
    unavailable at each; "Fridge plug switching on and off rapidly" was told. The same
    with the lock: no state is no switch. Really switching that fast is still told."""
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    for state in ("unknown", "unavailable", "unknown", "unavailable", "locked"):
        freezer.tick(timedelta(seconds=4))
        hass.states.async_set(FRONT_LOCK, state, LOCK_ATTRS)
        await hass.async_block_till_done()
    freezer.tick(timedelta(seconds=2))
    assert not _storms(await analyze(hass, entry))
    for state in ("unlocked", "locked", "unlocked", "locked"):
        freezer.tick(timedelta(seconds=4))
        hass.states.async_set(FRONT_LOCK, state, LOCK_ATTRS)
        await hass.async_block_till_done()
    freezer.tick(timedelta(seconds=2))
    assert [f["evidence"][0] for f in _storms(await analyze(hass, entry))] == [FRONT_LOCK]

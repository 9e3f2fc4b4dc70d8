"""Who is home right after a start: a tracker's blink is not everybody away
(``core/baselines/start_blinks.may_be_blinking``, ``live/context_builder``)."""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.const import EVENT_HOMEASSISTANT_STARTED
from homeassistant.core import CoreState, HomeAssistant

from .helpers import ALICE, FRONT_LOCK, analyze, set_calm_home, setup_monitor


async def test_nobody_is_taken_for_away_in_a_blink_right_after_a_start(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The walk of session 32: the front lock unlocked while Alice is home; HA restarts
    and her tracker reads away for 8 s. The analysis in that blink told "Front door lock
    unlocked while nobody is home". Away for seconds since the start is not known away
    yet (who is home is unknown); away for good, a minute later, it is."""
    hass.set_state(CoreState.starting)
    set_calm_home(hass)
    hass.states.async_set(FRONT_LOCK, "unlocked", {"friendly_name": "Front door"})
    entry = await setup_monitor(hass, learned=True)
    freezer.tick(timedelta(seconds=2))  # the rest of HA's start
    hass.set_state(CoreState.running)
    hass.bus.async_fire(EVENT_HOMEASSISTANT_STARTED)
    await hass.async_block_till_done()
    freezer.tick(timedelta(seconds=3))
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    await hass.async_block_till_done()
    freezer.tick(timedelta(seconds=2))
    response = await analyze(hass, entry)
    assert not [f for f in response["verdict"]["findings"] if "away" in f["rule"]]
    freezer.tick(timedelta(minutes=2))  # she is away after all
    response = await analyze(hass, entry)
    assert "entry_unsecured_while_away" in [f["rule"] for f in response["verdict"]["findings"]]


async def test_away_at_a_reload_is_away_at_once(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Set up while HA runs (a reload, a new entry): no start, no blink; Alice leaving
    seconds later is away at once."""
    set_calm_home(hass)
    hass.states.async_set(FRONT_LOCK, "unlocked", {"friendly_name": "Front door"})
    entry = await setup_monitor(hass, learned=True)
    freezer.tick(timedelta(seconds=3))
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    await hass.async_block_till_done()
    freezer.tick(timedelta(seconds=2))
    response = await analyze(hass, entry)
    assert "entry_unsecured_while_away" in [f["rule"] for f in response["verdict"]["findings"]]

"""Who is home right after a start: a tracker's blink is not everybody away
(``core/baselines/start_blinks.may_be_blinking``, ``live/context_builder``)."""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.persistent_notification import _async_get_or_create_notifications
from homeassistant.const import EVENT_HOMEASSISTANT_STARTED
from homeassistant.core import CoreState, HomeAssistant

from .helpers import ALICE, FRONT_LOCK, analyze, pass_time, set_calm_home, setup_monitor


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


async def test_the_home_empty_through_a_restart_is_judged_again_once_the_blink_has_passed(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Walk 45 (walk 44's left 1): everybody out, the front lock left unlocked; HA
    restarts. Their away, set as HA starts, reads unknown for a minute (maybe a blink), and
    the analyses then found no while-away finding; nothing judged again until the next
    periodic analysis, 15 min on, while the notice read as if somebody were in. Judged again
    as the blink passes, without an analysis called."""
    hass.set_state(CoreState.starting)
    set_calm_home(hass)
    hass.states.async_set(FRONT_LOCK, "unlocked", {"friendly_name": "Front door"})
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})  # restored away
    await setup_monitor(hass, learned=True)
    freezer.tick(timedelta(seconds=2))  # the rest of HA's start
    hass.set_state(CoreState.running)
    hass.bus.async_fire(EVENT_HOMEASSISTANT_STARTED)
    await hass.async_block_till_done()
    await pass_time(hass, freezer, timedelta(seconds=20))
    assert _async_get_or_create_notifications(hass) == {}  # who is home: not known yet
    await pass_time(hass, freezer, timedelta(seconds=60))
    (note,) = _async_get_or_create_notifications(hass).values()
    assert "unlocked while nobody is home" in note["message"]

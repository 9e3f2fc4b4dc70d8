"""What was told while nobody is home reads the same through a start's blink (walk 45's
left 0; ``anomalies/through_the_blink.py``)."""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.const import EVENT_HOMEASSISTANT_STARTED
from homeassistant.core import CoreState, HomeAssistant

from .helpers import ALICE, LIVING_TEMP, analyze, pass_time
from .left_open_while_away import LIVING_ATTRS, TOLD_AWAY, left_open_while_away, messages


async def test_the_door_left_open_while_away_keeps_its_words_through_a_restart(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Alice out by the front door at 10:03, left open and unlocked; told "unlocked and
    open while nobody is home". HA restarts at 10:40 (her away restored as it starts: a
    blink for a minute). Main's notice then read "Front door stayed open for 37 min (from
    10:03), and still is.", as if somebody might be in, the lock gone, and back a minute
    later."""
    entry, told = await left_open_while_away(hass, freezer, timedelta(minutes=36))

    assert await hass.config_entries.async_unload(entry.entry_id)  # HA stops at 10:40
    await hass.async_block_till_done()
    hass.set_state(CoreState.starting)
    hass.states.async_remove(ALICE)  # restored as HA starts: away since the start
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    freezer.tick(timedelta(seconds=2))
    hass.set_state(CoreState.running)
    hass.bus.async_fire(EVENT_HOMEASSISTANT_STARTED)
    await hass.async_block_till_done()
    for degrees in ("21.6", "21.7", "21.8"):  # analysed in the blink
        await pass_time(hass, freezer, timedelta(seconds=10))
        hass.states.async_set(LIVING_TEMP, degrees, LIVING_ATTRS)
        response = await analyze(hass, entry)
        found = [f["rule"] for f in response["verdict"]["findings"]]
        assert found == ["entry_left_open"]  # nobody known away: as if somebody were in
        (note,) = messages(hass)
        assert note["title"] == told["title"]
        assert TOLD_AWAY in note["message"]
        assert "and still is" not in note["message"]
    await pass_time(hass, freezer, timedelta(minutes=2))  # the blink has passed
    (note,) = messages(hass)
    assert TOLD_AWAY in note["message"]

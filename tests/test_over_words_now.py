"""The words of an incident follow what is true now (walk of session 48's left 3): the door
shut again while its lock is still unlocked, nobody home, keeps its stay in the notice; the
"Over" once the lock is locked says it, and advises nothing ("Lock it remotely" was read
under a lock that read Locked)."""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir

from custom_components.anomaly_monitor.const import DOMAIN

from .helpers import ALICE, FRONT_LOCK, LIVING_TEMP, pass_time
from .left_open_while_away import (
    DOOR,
    DOOR_ATTRS,
    LIVING_ATTRS,
    LOCK_ATTRS,
    TOLD_AWAY,
    left_open_while_away,
    messages,
)


async def _life_goes_on(hass: HomeAssistant, freezer: FrozenDateTimeFactory, minutes: int) -> None:
    for minute in range(minutes):  # analyses every few minutes
        hass.states.async_set(LIVING_TEMP, f"{21.5 + minute / 10:.1f}", LIVING_ATTRS)
        await pass_time(hass, freezer, timedelta(minutes=1))


async def test_the_door_shut_again_keeps_its_stay_and_the_over_advises_nothing_done(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Alice out at 10:03 by the door, left open and unlocked; told at 10:33. Shut at 10:33
    (nobody home), the lock still unlocked: main read "Front door lock is unlocked while
    nobody is home." alone. Locked at 10:45: main's Over read the same, and "While it
    lasted, the advice was: Lock it remotely or ask someone to check the door." under
    "Front door lock: Locked"."""
    await left_open_while_away(hass, freezer, timedelta(minutes=30))
    hass.states.async_set(DOOR, "off", DOOR_ATTRS)
    await _life_goes_on(hass, freezer, 8)
    (note,) = messages(hass)
    assert f"{TOLD_AWAY} Front door stood open from 10:03 to 10:33." in note["message"]
    assert "Lock it remotely" in note["message"]  # the lock unlocked: true now
    hass.states.async_set(FRONT_LOCK, "locked", LOCK_ATTRS)
    await _life_goes_on(hass, freezer, 20)
    (note,) = messages(hass)
    assert note["title"].startswith("Over: ")
    assert "Front door stood open from 10:03 to 10:33." in note["message"]
    assert "Lock it remotely" not in note["message"]
    assert "advice was" not in note["message"]
    (issue,) = [i for i in ir.async_get(hass).issues.values() if i.domain == DOMAIN]
    assert issue.translation_key == "anomaly_ended"
    assert issue.translation_placeholders is not None
    assert issue.translation_placeholders["advice"] == ""
    assert "stood open from 10:03 to 10:33" in issue.translation_placeholders["reasoning"]


async def test_an_over_with_its_lock_still_unlocked_keeps_its_advice(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Shut, then Alice home with the lock still unlocked: over (an arrival ends it), and
    what it advised is not done: said as what it was."""
    await left_open_while_away(hass, freezer, timedelta(minutes=30))
    hass.states.async_set(DOOR, "off", DOOR_ATTRS)
    await pass_time(hass, freezer, timedelta(seconds=30))
    hass.states.async_set(ALICE, "home", {"friendly_name": "Alice"})
    await _life_goes_on(hass, freezer, 20)
    (note,) = messages(hass)
    assert note["title"].startswith("Over: ")
    assert "**While it lasted, the advice was:** Lock it remotely" in note["message"]
    (issue,) = [i for i in ir.async_get(hass).issues.values() if i.domain == DOMAIN]
    assert issue.translation_placeholders is not None
    advice = issue.translation_placeholders["advice"]
    assert advice.startswith("**While it lasted, the advice was:** Lock it remotely")

"""An "Over" awaiting an answer reads its evidence as it is now, and what lasted in the past
(walk of session 49's left 2 and 3): the Over at the household's arrival read the lock
"Unlocked" (they were coming in) and kept "While it lasted, the advice was: Lock it
remotely" for 27 min after it was locked, until a restart; and "While it lasted: Front
door lock is unlocked while nobody is home." said a state of then in the present."""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components import persistent_notification
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir

from custom_components.anomaly_monitor.anomalies.lasted_words import as_lasted
from custom_components.anomaly_monitor.const import DOMAIN

from .helpers import ALICE, FRONT_LOCK, LIVING_TEMP, pass_time
from .left_open_while_away import (
    DOOR,
    DOOR_ATTRS,
    LIVING_ATTRS,
    LOCK_ATTRS,
    left_open_while_away,
    messages,
)


async def _life_goes_on(hass: HomeAssistant, freezer: FrozenDateTimeFactory, minutes: int) -> None:
    for minute in range(minutes):  # analyses every few minutes
        hass.states.async_set(LIVING_TEMP, f"{21.5 + minute / 10:.1f}", LIVING_ATTRS)
        await pass_time(hass, freezer, timedelta(minutes=1))


async def _over_at_the_arrival(hass: HomeAssistant, freezer: FrozenDateTimeFactory) -> None:
    """Told at 10:33; the door shut, Alice home with the lock still unlocked: over."""
    await left_open_while_away(hass, freezer, timedelta(minutes=30))
    hass.states.async_set(DOOR, "off", DOOR_ATTRS)
    await pass_time(hass, freezer, timedelta(seconds=30))
    hass.states.async_set(ALICE, "home", {"friendly_name": "Alice"})
    await _life_goes_on(hass, freezer, 20)


def _issue(hass: HomeAssistant) -> ir.IssueEntry:
    (issue,) = [i for i in ir.async_get(hass).issues.values() if i.domain == DOMAIN]
    return issue


async def test_an_over_reads_the_lock_locked_after_it_ended_and_drops_its_advice(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Alice locks the door 20 min after she came in: the Over's evidence reads Locked at
    the next analyses, and the advice to lock it, done, goes (main kept both as they read
    at the arrival). Its "While it lasted" reads in the past."""
    await _over_at_the_arrival(hass, freezer)
    (note,) = messages(hass)
    assert note["title"].startswith("Over: ")
    assert "Front door lock (Hall): Unlocked" in note["message"]
    assert "**While it lasted, the advice was:** Lock it remotely" in note["message"]
    lasted = "**While it lasted:** Front door lock was unlocked while nobody was home."
    assert lasted in note["message"]
    assert "is unlocked while nobody is home" not in note["message"]
    hass.states.async_set(FRONT_LOCK, "locked", LOCK_ATTRS)
    await _life_goes_on(hass, freezer, 20)
    (note,) = messages(hass)
    assert note["title"].startswith("Over: ")
    assert "Front door lock (Hall): Locked" in note["message"]
    assert "Unlocked" not in note["message"]
    assert "advice was" not in note["message"]
    issue = _issue(hass)
    assert issue.translation_key == "anomaly_ended"
    assert issue.translation_placeholders is not None
    assert issue.translation_placeholders["advice"] == ""
    assert "Locked" in issue.translation_placeholders["evidence"]
    assert "was unlocked while nobody was home" in issue.translation_placeholders["reasoning"]


async def test_an_over_the_homeowner_dismissed_is_not_shown_again_as_its_lock_is_locked(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Read and dismissed: re-reading its evidence does not bring it back (its repair
    issue, still awaiting the answer, reads the lock locked)."""
    await _over_at_the_arrival(hass, freezer)
    (note,) = messages(hass)
    persistent_notification.async_dismiss(hass, note["notification_id"])
    await hass.async_block_till_done()
    hass.states.async_set(FRONT_LOCK, "locked", LOCK_ATTRS)
    await _life_goes_on(hass, freezer, 20)
    assert messages(hass) == []
    placeholders = _issue(hass).translation_placeholders
    assert placeholders is not None
    assert "Locked" in placeholders["evidence"]


def test_a_state_of_then_is_said_in_the_past_and_a_habit_is_kept() -> None:
    told = (
        "Front door lock is unlocked while nobody is home. Front door has stood open since 02:56."
    )
    assert as_lasted(told) == (
        "Front door lock was unlocked while nobody was home. Front door had stood open since 02:56."
    )
    ajar = "Back door is ajar (Back door angle 12°) while nobody is home."
    assert as_lasted(ajar) == "Back door was ajar (Back door angle 12°) while nobody was home."
    assert as_lasted("Alarm panel is disarmed while nobody is home.") == (
        "Alarm panel was disarmed while nobody was home."
    )
    habit = "Hall motion seldom moves at 02-06 h while nobody is home."
    assert as_lasted(habit) == habit

"""An "Over" of an entry told again says what happened (walk 57's left 2).

Walk 57 read "Over: Front door open while every tracked phone is away" at the household's
return: the door shut for a minute, and neither the motion inside the phone was pushed
about nor the opening again in it. The "Over" names the incident as it ended (the door
shut: it opened) and what it was told again for, with when.
"""

from __future__ import annotations

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import Event, HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import async_capture_events

from custom_components.anomaly_monitor.const import EVENT_ANOMALY_CLEARED

from .helpers import ALICE, analyze
from .test_one_break_in_told_once import _empty_home, _set
from .test_told_title_while_it_lasts import DOOR_OPEN, DOOR_OPENED, _describer, _read


def _at(detected: list[Event]) -> str:
    return dt_util.as_local(detected[-1].time_fired).strftime("%H:%M")


async def _home_again(hass: HomeAssistant, entry: object) -> None:
    hass.states.async_set(ALICE, "home", {"friendly_name": "Alice"})
    await analyze(hass, entry)  # type: ignore[arg-type]
    await hass.async_block_till_done()


async def test_over_after_motion_inside_says_the_motion(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    entry, pushes, detected = await _empty_home(hass, freezer, areas=True)
    cleared = async_capture_events(hass, EVENT_ANOMALY_CLEARED)
    await _set(hass, freezer, entry, 90, door="on")
    await _set(hass, freezer, entry, 30, motion="on")
    assert [e.data["escalation"] for e in detected] == [None, "intrusion"]
    motion_at = _at(detected)
    await _set(hass, freezer, entry, 30, motion="off", door="off")
    await _home_again(hass, entry)
    title, _kind = _read(hass)
    said = f"{DOOR_OPENED}, then motion in Hall at {motion_at}"
    assert title == f"Over: {said}", title
    assert len(pushes) == 2
    # The logbook's line says it as the notification does (walk 58: "over: Front door
    # open …"); the event keeps the name as told for automations.
    (over,) = cleared
    assert (over.data["title"], over.data["over_title"]) == (DOOR_OPEN, said)
    assert _describer(hass)(over)["message"] == f"over: {said}"


async def test_over_after_opened_again_says_when(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    entry, _pushes, detected = await _empty_home(hass, freezer, areas=True)
    await _set(hass, freezer, entry, 30, door="on")
    for _ in range(16):  # left open past the quarter of an hour
        await _set(hass, freezer, entry, 60)
    await _set(hass, freezer, entry, 30, door="off")
    await _set(hass, freezer, entry, 30, door="on")
    assert [e.data["escalation"] for e in detected] == [None, "reopened"]
    told_at = _at(detected)
    await _set(hass, freezer, entry, 20, door="off")
    await _home_again(hass, entry)
    assert _read(hass)[0] == f"Over: {DOOR_OPENED}, opened again at {told_at}"


async def test_over_with_the_door_still_open_says_it_open(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Over at the return with the door still open (they came in by it): "open", as
    told, and nothing told again: the title it was told with."""
    entry, pushes, _detected = await _empty_home(hass, freezer, areas=True)
    await _set(hass, freezer, entry, 30, door="on")
    await _home_again(hass, entry)
    assert _read(hass)[0] == f"Over: {DOOR_OPEN}"
    assert len(pushes) == 1


async def test_over_after_motion_then_opened_again_says_both_times(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Told again twice (walk 58's left 3): the motion inside, then the door opened again
    past a quarter of an hour. The "Over" keeps the motion's time (main: "with motion in
    Hall", untimed, the last telling having taken the time)."""
    entry, pushes, detected = await _empty_home(hass, freezer, areas=True)
    await _set(hass, freezer, entry, 90, door="on")
    await _set(hass, freezer, entry, 30, motion="on")
    motion_at = _at(detected)
    await _set(hass, freezer, entry, 30, motion="off")
    for _ in range(16):  # left open past the quarter of an hour after the motion's push
        await _set(hass, freezer, entry, 60)
    await _set(hass, freezer, entry, 30, door="off")
    await _set(hass, freezer, entry, 30, door="on")
    assert [e.data["escalation"] for e in detected] == [None, "intrusion", "reopened"]
    reopened_at = _at(detected)
    assert reopened_at != motion_at
    await _set(hass, freezer, entry, 20, door="off")
    await _home_again(hass, entry)
    said = f"{DOOR_OPENED}, then motion in Hall at {motion_at}, opened again at {reopened_at}"
    assert _read(hass)[0] == f"Over: {said}"
    assert len(pushes) == 3

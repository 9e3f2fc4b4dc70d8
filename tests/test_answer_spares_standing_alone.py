"""An answer to an incident that is over reaches its parts, not what stands alone since.

Smoke told with nobody home; the front door opened in answer is a part of it (shown in
the smoke's notification). The smoke clears; the door, still open, stands alone with its
own notification and repair issue (``incident_parts.orphans``). The homeowner then marks
the over smoke a false alarm, or acknowledges it: the door's notice and issue stay and
the door is not acknowledged (walk 37: a false alarm given on "Nobody up yet" an hour
after it ended took the fridge door and the front lock told on their own since).
"""

from __future__ import annotations

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
import pytest

from .test_incident_parts_shown import _issues, _notes
from .test_part_events import _smoke_over_door_still_open


@pytest.mark.parametrize("answer", ["acknowledge", "false_alarm"])
async def test_answering_an_over_incident_leaves_a_part_standing_alone(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, answer: str
) -> None:
    entry = await _smoke_over_door_still_open(hass, freezer)
    coordinator = entry.runtime_data.coordinator
    tracker = coordinator.tracker
    (door,) = tracker.open.values()
    (smoke,) = tracker.ended.values()  # over, awaiting an answer
    notes_before = {k for k, v in _notes(hass, entry).items() if door.key in k}
    issues_before = [i for i in _issues(hass, entry) if door.key in i.issue_id]
    assert notes_before  # the door is shown on its own
    assert issues_before
    if answer == "acknowledge":
        coordinator.async_acknowledge(smoke.key)
    else:
        coordinator.async_mark_false_alarm(smoke.key)
    await hass.async_block_till_done(wait_background_tasks=True)
    assert not tracker.ended  # the smoke is answered
    (still,) = tracker.open.values()
    assert still.signature == door.signature
    assert not still.acknowledged  # nobody answered the door
    assert {k for k in _notes(hass, entry) if door.key in k} == notes_before
    assert [i for i in _issues(hass, entry) if door.key in i.issue_id] == issues_before

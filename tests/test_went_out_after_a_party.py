"""``went_out_at_night`` and what the house shows around the door (blind28, blind29).

Rose's learned fortnight (``test_daily_rhythm``): the front door is never used at night.

- A supper that ran late: the bathroom's sensor held on for four hours until 01:15 (a
  busy room, as a party keeps a sensor on), then somebody walks to the front door at
  01:30: the guests going home, not a wanderer (``busy_room``).
- An evening that goes on, then a walk out at 01:30: the hall sensor (the door's own
  room) first sees somebody 20 s after the door opened, and nothing moves after: that is
  the one going out through the door (``THROUGH``), told.
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
import pytest

from . import test_daily_rhythm as rhythm

BED, HALL, DOOR, BATH = rhythm.BED, rhythm.HALL, rhythm.DOOR, rhythm.BATH


@pytest.mark.parametrize(("device_class", "told"), [("motion", False), ("occupancy", True)])
async def test_guests_going_home_after_a_late_supper_are_not_told(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    monkeypatch: pytest.MonkeyPatch,
    device_class: str,
    told: bool,
) -> None:
    """A motion sensor held on is people moving; an occupancy sensor held on may be one
    person lying still (a bed not yet learned, left just before the walk out): told."""
    # Fails before: the held sensor made no new motion, the house looked asleep.
    monkeypatch.setitem(rhythm.ATTRIBUTES, BATH, {"device_class": device_class})
    entry, today = await rhythm._home(hass, freezer, night=timedelta(minutes=-200))
    rhythm._set(hass, freezer, today - timedelta(minutes=195), (BATH, "on"))
    way = today + timedelta(hours=1, minutes=28)
    rhythm._set(hass, freezer, today + timedelta(hours=1, minutes=15), (BATH, "off"))
    rhythm._set(hass, freezer, way, (BED, "on"))
    rhythm._set(hass, freezer, way + timedelta(minutes=1), (HALL, "on"))
    rhythm._set(hass, freezer, way + timedelta(minutes=2), (DOOR, "on"))
    rhythm._set(hass, freezer, way + timedelta(minutes=3), (HALL, "off"), (BED, "off"))
    rules = await rhythm._rules_at(hass, freezer, entry, way + timedelta(minutes=9))
    assert ("went_out_at_night" in rules) is told


async def test_the_hall_seeing_the_one_going_out_through_the_door_is_no_one_inside(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    # Fails before: the hall's onset 20 s after the door counted as somebody still inside.
    entry, today = await rhythm._home(hass, freezer, night=timedelta(minutes=-60))
    moment = today - timedelta(minutes=60)
    while moment < today + timedelta(hours=1, minutes=28):  # up: a late evening
        rhythm._set(hass, freezer, moment, (BED, "on"))
        rhythm._set(hass, freezer, moment + timedelta(minutes=1), (BED, "off"))
        moment += timedelta(minutes=10)
    way = today + timedelta(hours=1, minutes=29)
    rhythm._set(hass, freezer, way, (BED, "on"))
    rhythm._set(hass, freezer, way + timedelta(seconds=30), (BED, "off"))
    opened = way + timedelta(minutes=1)
    rhythm._set(hass, freezer, opened, (DOOR, "on"))
    rhythm._set(hass, freezer, opened + timedelta(seconds=20), (HALL, "on"))
    rhythm._set(hass, freezer, opened + timedelta(minutes=2), (HALL, "off"))
    rules = await rhythm._rules_at(hass, freezer, entry, opened + timedelta(minutes=6))
    finding = rules["went_out_at_night"]
    assert DOOR in finding["evidence"]
    assert "01:30" in finding["reasoning"]

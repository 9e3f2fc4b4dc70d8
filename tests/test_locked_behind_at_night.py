"""Off to an early shift: the door locked behind, the phone gone (issue 24's other side).

Rose's home (``test_care_signals_hass``: a fortnight learned, the front door never used at
night, her GPS watch watched), with a smart lock on the front door. At 04:40 somebody
walks through the hall, unlocks, opens and shuts the door; the watch leaves home minutes
later. Locked again behind them (the lock locked after the door shut, and still): whoever
went out took a key and a phone on purpose (a driver off to his first run), not told.
Left unlocked: told as before, the departure named (a wanderer does not lock up behind).
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
import pytest

from . import test_daily_rhythm as rose
from .test_care_signals_hass import WATCH, WATCH_ATTRS, _rose_and_husband
from .test_daily_rhythm import DOOR, HALL, _rules_at, _set

LOCK = "lock.front_door"


@pytest.fixture(autouse=True)
def _a_lock_on_the_front_door(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rose.ATTRIBUTES, LOCK, {"friendly_name": "Front door lock"})
    monkeypatch.setitem(rose.AREAS, LOCK, "Hall")


@pytest.mark.parametrize("locked_behind", [True, False])
async def test_out_at_night_with_phone_and_key(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, locked_behind: bool
) -> None:
    entry, today = await _rose_and_husband(hass, freezer)
    _set(hass, freezer, today + timedelta(hours=1, seconds=5), (LOCK, "locked"))
    night = today + timedelta(hours=4, minutes=40)
    _set(hass, freezer, night, (HALL, "on"))
    _set(hass, freezer, night + timedelta(minutes=1), (LOCK, "unlocked"))
    _set(hass, freezer, night + timedelta(minutes=1, seconds=10), (DOOR, "on"))
    _set(hass, freezer, night + timedelta(minutes=1, seconds=40), (DOOR, "off"))
    if locked_behind:
        _set(hass, freezer, night + timedelta(minutes=2), (LOCK, "locked"))
    _set(hass, freezer, night + timedelta(minutes=3), (HALL, "off"))
    freezer.move_to(night + timedelta(minutes=5))
    hass.states.async_set(WATCH, "not_home", WATCH_ATTRS)
    rules = await _rules_at(hass, freezer, entry, night + timedelta(minutes=10))
    if locked_behind:
        assert "went_out_at_night" not in rules
    else:
        assert "Rose's watch left home since" in rules["went_out_at_night"]["reasoning"]

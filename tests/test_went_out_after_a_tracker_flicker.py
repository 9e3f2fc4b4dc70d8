"""Out at night just after a phone's flicker (set 31 a: a teenager out by the slider, her
mother's phone ``unknown`` for six minutes eleven minutes before).

Rose's learned fortnight (``test_care_signals_hass``: the front door never used at night).
Her watch reads ``unknown`` for a few minutes, then ``home`` again, and ten minutes later
she walks through the hall and out of the front door, the watch left behind: the flicker
is nobody arriving, and the walk-out is told. A watch ``unknown`` for longer than a
flicker and then home may be somebody back (the presence checks'): not told.
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
import pytest

from .test_care_signals_hass import WATCH, WATCH_ATTRS, _rose_and_husband, _walks_out_with_her_watch
from .test_daily_rhythm import _rules_at


@pytest.mark.parametrize(("unknown_for", "told"), [(6, True), (25, False)])
async def test_walk_out_after_the_watch_flickered(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, unknown_for: int, told: bool
) -> None:
    entry, today = await _rose_and_husband(hass, freezer)
    back = today + timedelta(hours=2, minutes=59)
    freezer.move_to(back - timedelta(minutes=unknown_for))
    hass.states.async_set(WATCH, "unknown", WATCH_ATTRS)
    freezer.move_to(back)
    hass.states.async_set(WATCH, "home", WATCH_ATTRS)
    night = await _walks_out_with_her_watch(hass, freezer, today, watch_leaves=False)
    rules = await _rules_at(hass, freezer, entry, night + timedelta(minutes=11))
    if told:
        assert "any of the 14 nights" in rules["went_out_at_night"]["reasoning"]
    else:
        assert "went_out_at_night" not in rules


async def test_told_walk_out_stays_while_a_phone_flickers(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Told at 03:21; her watch drops to ``unknown`` at 03:22 (a flicker under way): the
    walk-out is still found at 03:30, not withdrawn to be told again when it is back."""
    entry, today = await _rose_and_husband(hass, freezer)
    night = await _walks_out_with_her_watch(hass, freezer, today, watch_leaves=False)
    assert "went_out_at_night" in await _rules_at(
        hass, freezer, entry, night + timedelta(minutes=11)
    )
    freezer.move_to(night + timedelta(minutes=12))
    hass.states.async_set(WATCH, "unknown", WATCH_ATTRS)
    rules = await _rules_at(hass, freezer, entry, night + timedelta(minutes=20))
    assert "went_out_at_night" in rules

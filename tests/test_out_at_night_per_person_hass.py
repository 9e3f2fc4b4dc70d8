"""Out at night with phone and key, read against the person's own nights (set 32 b).

Rose's home with a smart lock on the front door (``test_locked_behind_at_night``) and her
granddaughter Mia, tracked, home every night of the fortnight learned. At 02:40 somebody
walks through the hall, unlocks, opens and shuts the door and locks it behind; Mia's phone
leaves minutes later. Mia never left home at night: told, and she is named, although the
door was locked behind her. Had she gone out at night before (out at 02:30 twice in the
fortnight), it is her habit and, locked behind, not told (as for a shift worker).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
import pytest

from custom_components.anomaly_monitor.core.baselines.home_baselines import HomeBaselines

from . import test_daily_rhythm as rose
from .test_care_signals_hass import _rose_and_husband
from .test_daily_rhythm import DOOR, HALL, _rules_at, _set

LOCK = "lock.front_door"
MIA = "person.mia"


def _with_mia(out_before: bool) -> Callable[..., HomeBaselines]:
    """Rose's fortnight learned, Mia home every night of it (out at 02:30 twice, if
    ``out_before``)."""
    lived = rose._lived

    def lived_with_mia(today: datetime, wake: timedelta, late_hob: bool = False) -> HomeBaselines:
        baselines = lived(today, wake, late_hob)
        start = today - timedelta(days=rose.LEARNED_DAYS)
        baselines.watching([MIA], start)
        baselines.observe(start, MIA, "home")
        for day in (3, 9) if out_before else ():
            night = today - timedelta(days=day) + timedelta(hours=2, minutes=30)
            baselines.observe(night, MIA, "not_home")
            baselines.observe(night + timedelta(hours=4), MIA, "home")
        return baselines

    return lived_with_mia


@pytest.mark.parametrize("out_before", [False, True])
async def test_out_at_night_locked_behind_by_one_never_out(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    monkeypatch: pytest.MonkeyPatch,
    out_before: bool,
) -> None:
    monkeypatch.setitem(rose.ATTRIBUTES, LOCK, {"friendly_name": "Front door lock"})
    monkeypatch.setitem(rose.AREAS, LOCK, "Hall")
    monkeypatch.setattr(rose, "_lived", _with_mia(out_before))
    hass.states.async_set(MIA, "home", {"friendly_name": "Mia"})
    entry, today = await _rose_and_husband(hass, freezer)
    _set(hass, freezer, today + timedelta(hours=1, seconds=5), (LOCK, "locked"))
    night = today + timedelta(hours=2, minutes=40)
    _set(hass, freezer, night, (HALL, "on"))
    _set(hass, freezer, night + timedelta(minutes=1), (LOCK, "unlocked"))
    _set(hass, freezer, night + timedelta(minutes=1, seconds=10), (DOOR, "on"))
    _set(hass, freezer, night + timedelta(minutes=1, seconds=40), (DOOR, "off"))
    _set(hass, freezer, night + timedelta(minutes=2), (LOCK, "locked"))
    _set(hass, freezer, night + timedelta(minutes=3), (HALL, "off"))
    freezer.move_to(night + timedelta(minutes=5))
    hass.states.async_set(MIA, "not_home", {"friendly_name": "Mia"})
    rules = await _rules_at(hass, freezer, entry, night + timedelta(minutes=6))
    if out_before:
        assert "went_out_at_night" not in rules
    else:
        finding = rules["went_out_at_night"]
        assert MIA in finding["evidence"]
        assert (
            "Mia was out alone between 23:00 and 5 am on none of the 14 nights"
            in finding["reasoning"]
        )

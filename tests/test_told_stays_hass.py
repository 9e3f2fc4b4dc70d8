"""A run told as trouble, in a real hass, is known as told to what learns the hob's runs.

Rose's learned fortnight (``test_daily_rhythm``): supper on the hob at 18:00, 42 min every
day. She goes out at 18:06 with the hob on; at 19:15 it is told ("… and nobody is home"):
the run under way (since 18:00) is marked told, so that it is damped as it ends
(``StateDurations.tell``; the damping itself: ``test_told_stays_teach_nothing``). Marked
"false alarm" instead, it is not: learned as it is. Back at 20:30 she switches it off: the
mark is spent, and the evening's longest stays about a supper's (14 runs: an outlier).
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
import pytest

from custom_components.anomaly_monitor.core.baselines.power import RUNNING

from . import test_daily_rhythm as rose
from .test_daily_rhythm import _rules_at, _set
from .test_heat_load_unattended_hass import NAMELESS, _hob_on_at_supper


@pytest.mark.parametrize("false_alarm", [False, True])
async def test_a_told_run_does_not_become_the_hob_s_usual_evening(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    monkeypatch: pytest.MonkeyPatch,
    false_alarm: bool,
) -> None:
    monkeypatch.setitem(rose.ATTRIBUTES, rose.HOB, NAMELESS)
    entry, supper = await _hob_on_at_supper(hass, freezer)
    freezer.move_to(supper + timedelta(minutes=6))
    hass.states.async_set(rose.ROSE, "not_home", {"friendly_name": "Rose"})
    rules = await _rules_at(hass, freezer, entry, supper + timedelta(minutes=75))
    assert "heat_load_left_on_unattended" in rules
    coordinator = entry.runtime_data.coordinator
    durations = coordinator.keeper.current().durations
    # The run, its heating spell and its spell of runs: each learned apart.
    assert durations.told == dict.fromkeys(
        (rose.HOB, f"{rose.HOB}#heating", f"{rose.HOB}#spell"), supper
    )
    if false_alarm:
        [anomaly] = [a for a in coordinator.tracker.open.values() if rose.HOB in a.evidence]
        coordinator.async_mark_false_alarm(anomaly.key)
        assert durations.told == {}
    freezer.move_to(supper + timedelta(hours=2, minutes=30))
    hass.states.async_set(rose.ROSE, "home", {"friendly_name": "Rose"})
    _set(hass, freezer, supper + timedelta(hours=2, minutes=31), (rose.HOB, "0.0"))
    await _rules_at(hass, freezer, entry, supper + timedelta(hours=2, minutes=35))
    assert rose.HOB not in durations.told  # spent as the run ended (its spell goes on)
    assert durations.usual(rose.HOB, RUNNING, supper)[2] <= 1.5 * 45

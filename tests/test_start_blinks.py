"""A tracker's blink at a start is no departure nor arrival (``core/baselines/start_blinks``):
the walk of session 31 saw both residents "come home" 15 s after a restart, which ended
an open "nobody has moved" notice though nobody had moved."""

from __future__ import annotations

from datetime import UTC, timedelta
import json
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.components.recorder.common import (
    async_wait_recording_done,
)

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.detectors import no_movement_while_home

from .recorder_home import (  # noqa: F401 (fixtures, found by name)
    auto_enable_custom_integrations,
    quiet_sqlalchemy,
    recorder_config,
    setup_learning_monitor,
)
from .test_baselines_core import DAY0, KITCHEN, ROSE, routine, still_since, view

MOTION = {"device_class": "motion"}


def _judged_still(baselines: Any, hours: float) -> bool:
    day = DAY0 + timedelta(days=7)
    return bool(list(no_movement_while_home(view(day + timedelta(hours=hours)), baselines)))


def test_a_blink_right_after_a_start_is_no_arrival() -> None:
    """Still since 08:00; HA restarts at 14:00 and Rose's tracker reads away for 15 s.
    Nothing came or went: the stillness is still told at 15:00 as it was before."""
    baselines = routine(7)
    day = DAY0 + timedelta(days=7)
    still_since(baselines, day + timedelta(hours=8))
    assert _judged_still(baselines, 14)
    baselines.resumed = day + timedelta(hours=14)
    baselines.observe(day + timedelta(hours=14, seconds=2), ROSE, "not_home")
    baselines.observe(day + timedelta(hours=14, seconds=17), ROSE, "home")
    baselines.advance(day + timedelta(hours=15))
    assert baselines.quiet.quiet_since == day + timedelta(hours=8)
    assert _judged_still(baselines, 15)


def test_a_blink_as_the_first_change_after_a_restart_is_no_arrival() -> None:
    """What a person last read is not stored: loaded again at the restart, the blink is
    her first change (the walk of session 32: seen live before HA said it had started,
    learned as leaving, and her return as an arrival). Where the stored quiet spells
    had her (home) stands for it."""
    lived = routine(7)
    day = DAY0 + timedelta(days=7)
    still_since(lived, day + timedelta(hours=8))
    baselines = HomeBaselines.from_dict(json.loads(json.dumps(lived.as_dict())), UTC)
    baselines.resumed = day + timedelta(hours=14)
    baselines.observe(day + timedelta(hours=14, seconds=2), ROSE, "not_home")
    baselines.observe(day + timedelta(hours=14, seconds=17), ROSE, "home")
    baselines.advance(day + timedelta(hours=15))
    assert baselines.quiet.quiet_since == day + timedelta(hours=8)
    assert baselines.quiet.occupied is True


def test_the_same_blink_away_from_a_start_is_a_return() -> None:
    """The rule is a start's: 15 s away at any other time is learned as it is (a return
    starts the spell anew), and so is a departure at a start that lasts."""
    baselines = routine(7)
    day = DAY0 + timedelta(days=7)
    still_since(baselines, day + timedelta(hours=8))
    baselines.resumed = day + timedelta(hours=11)
    baselines.observe(day + timedelta(hours=14, seconds=2), ROSE, "not_home")
    baselines.observe(day + timedelta(hours=14, seconds=17), ROSE, "home")
    assert baselines.quiet.quiet_since == day + timedelta(hours=14, seconds=17)

    left = routine(7)
    still_since(left, day + timedelta(hours=8))
    left.resumed = day + timedelta(hours=14)
    left.observe(day + timedelta(hours=14, seconds=2), ROSE, "not_home")
    left.advance(day + timedelta(hours=14, minutes=5))  # away for good: learned at 14:00:02
    assert left.quiet.occupied is False
    assert left.quiet.empty_since == day + timedelta(hours=14, seconds=2)


async def test_a_restart_blink_leaves_the_quiet_spell_as_it_was(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """In a real hass: Rose home, the kitchen still since 08:00. The monitor stops at
    10:00 and comes back at 10:01; her person reads ``not_home`` from 10:01:01 to 10:01:16
    (as a ``see`` tracker does at a start), recorded and seen live. The quiet spell still
    counts from 08:00."""
    await hass.config.async_set_time_zone("Europe/Brussels")
    today = dt_util.start_of_local_day()
    freezer.move_to(today + timedelta(hours=7))
    hass.states.async_set(ROSE, "home", {"friendly_name": "Rose"})
    hass.states.async_set(KITCHEN, "off", MOTION)
    freezer.move_to(today + timedelta(hours=7, minutes=59))
    hass.states.async_set(KITCHEN, "on", MOTION)
    freezer.move_to(today + timedelta(hours=8))
    hass.states.async_set(KITCHEN, "off", MOTION)
    await async_wait_recording_done(hass)
    freezer.move_to(today + timedelta(hours=9))
    entry = await setup_learning_monitor(hass, [KITCHEN])
    assert entry.runtime_data.baselines.baselines.quiet.quiet_since == today + timedelta(hours=8)

    freezer.move_to(today + timedelta(hours=10))
    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    freezer.move_to(today + timedelta(hours=10, minutes=1))
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    freezer.move_to(today + timedelta(hours=10, minutes=1, seconds=1))
    hass.states.async_set(ROSE, "not_home", {"friendly_name": "Rose"})
    await hass.async_block_till_done()
    freezer.move_to(today + timedelta(hours=10, minutes=1, seconds=16))
    hass.states.async_set(ROSE, "home", {"friendly_name": "Rose"})
    await hass.async_block_till_done()
    freezer.move_to(today + timedelta(hours=10, minutes=5))
    keeper = entry.runtime_data.baselines
    quiet = keeper.current().quiet
    assert quiet.occupied is True
    assert quiet.quiet_since == today + timedelta(hours=8)


async def test_a_return_home_while_the_history_loads_is_learned(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Rose away; she comes home while the history is read (as a tracker reports home
    seconds after a start, while the monitor reads its history): learned once it is read
    (the watcher records the persons; the keeper's own listener waits while it loads)."""
    await hass.config.async_set_time_zone("Europe/Brussels")
    today = dt_util.start_of_local_day()
    freezer.move_to(today + timedelta(hours=7))
    hass.states.async_set(ROSE, "not_home", {"friendly_name": "Rose"})
    hass.states.async_set(KITCHEN, "off", MOTION)
    await async_wait_recording_done(hass)
    freezer.move_to(today + timedelta(hours=9))
    entry = await setup_learning_monitor(hass, [KITCHEN])
    keeper = entry.runtime_data.baselines
    assert keeper.baselines.quiet.occupied is False

    async def learn(*_: Any) -> None:  # the read takes a while: she comes home meanwhile
        freezer.tick(timedelta(seconds=5))
        hass.states.async_set(ROSE, "home", {"friendly_name": "Rose"})
        await hass.async_block_till_done()

    freezer.move_to(today + timedelta(hours=10))
    await keeper.async_learn_history_from(learn)
    assert keeper.baselines.quiet.occupied is True
    assert keeper.baselines.quiet.quiet_since == today + timedelta(hours=10, seconds=5)

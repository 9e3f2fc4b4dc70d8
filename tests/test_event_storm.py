"""A storm of 100,000 state changes: memory stays capped, drops are counted exactly, the
safety check runs at most once a second, and one analysis follows the storm."""

from __future__ import annotations

import asyncio
from datetime import timedelta
import time

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import async_fire_time_changed

from custom_components.anomaly_monitor.const import MAX_BUFFERED_TRANSITIONS, SIGNIFICANT_DEBOUNCE
from custom_components.anomaly_monitor.coordinator import SAFETY_CHECK_COOLDOWN
from custom_components.anomaly_monitor.core.models import ContextWindow, Verdict

from .helpers import FRONT_LOCK, LIVING_TEMP, set_calm_home, setup_monitor

EVENTS = 100_000


async def test_storm_of_100k_events(hass: HomeAssistant) -> None:
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    await hass.async_block_till_done()
    coordinator = entry.runtime_data.coordinator
    watcher = coordinator.watcher
    assert coordinator.fallback is not None
    checks = 0
    judge = coordinator.fallback.async_analyze

    async def counting(window: ContextWindow) -> Verdict:
        nonlocal checks
        checks += 1
        return await judge(window)

    coordinator.fallback.async_analyze = counting  # type: ignore[method-assign]
    analyses, recorded = coordinator.analyses, watcher.recorded
    started = time.monotonic()
    for value in range(EVENTS):
        if value % 100 == 0:  # a significant change every 100 events: 1,000 in all
            lock = "locked" if (value // 100) % 2 else "unlocked"
            hass.states.async_set(FRONT_LOCK, lock, {"friendly_name": "Front door"})
        else:
            hass.states.async_set(
                LIVING_TEMP, f"{value % 400 / 10:.1f}", {"device_class": "temperature"}
            )
        if value % 1_000 == 0:
            await asyncio.sleep(0)  # let timers and tasks run, as a real loop would
    await hass.async_block_till_done()
    seconds = time.monotonic() - started

    new = watcher.recorded - recorded
    assert new == EVENTS  # every change differs from the previous one of its entity
    assert len(watcher.buffer) == MAX_BUFFERED_TRANSITIONS
    assert watcher.buffer.dropped == recorded + new - MAX_BUFFERED_TRANSITIONS
    # Rules-only safety checks: at once, then at most once per cooldown.
    assert 1 <= checks <= seconds / SAFETY_CHECK_COOLDOWN + 2
    # Full analyses are debounced: none unless the storm outlasted the debounce (a slow
    # machine), then at most one per debounce period.
    during = coordinator.analyses - analyses
    assert during <= seconds / SIGNIFICANT_DEBOUNCE.total_seconds() + 1

    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=11))
    await hass.async_block_till_done(wait_background_tasks=True)  # the analysis is one
    # One after the storm; on a loaded machine an analysis still running when ``during``
    # was read ends after it, and the change it missed is analysed right after (one more).
    assert analyses + during + 1 <= coordinator.analyses <= analyses + during + 2
    assert coordinator.data.analysis is not None
    assert coordinator.data.analysis.transitions == MAX_BUFFERED_TRANSITIONS
    print(f"{EVENTS} events in {seconds:.2f} s ({EVENTS / seconds:,.0f}/s), {checks} safety checks")

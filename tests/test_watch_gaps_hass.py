"""A restart of Home Assistant leaves a span nothing was watched, and the monitor knows it
(a real hass with the recorder): the stored baselines were learned until HA stopped, and
HA starts them again an hour later (a power cut). A quick restart leaves no gap. The
span is what ``cycle_stopped`` reads (``core/baselines/watch_gaps.py``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.anomaly_monitor.const import CONF_HISTORY_DAYS, CONF_INCLUDE_ENTITIES

from .helpers import ALICE, set_calm_home, setup_monitor
from .recorder_home import (  # noqa: F401 (fixtures, found by name)
    auto_enable_custom_integrations,
    quiet_sqlalchemy,
    recorder_config,
)

STOPPED = datetime(2026, 12, 1, 13, 30, tzinfo=UTC)


async def _restarted(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, down: timedelta
) -> MockConfigEntry:
    freezer.move_to(STOPPED - timedelta(hours=2))
    set_calm_home(hass)
    entry = await setup_monitor(
        hass, learned=True, **{CONF_INCLUDE_ENTITIES: [ALICE], CONF_HISTORY_DAYS: 0}
    )
    freezer.move_to(STOPPED)
    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    freezer.move_to(STOPPED + down)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    return entry


async def test_the_span_home_assistant_was_down_is_known_after_it_starts(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    entry = await _restarted(hass, freezer, timedelta(hours=1))
    keeper = entry.runtime_data.coordinator.keeper
    assert keeper is not None
    assert keeper.baselines is not None
    assert keeper.baselines.unwatched == (STOPPED, STOPPED + timedelta(hours=1))


async def test_a_quick_restart_leaves_no_gap(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    entry = await _restarted(hass, freezer, timedelta(minutes=2))
    keeper = entry.runtime_data.coordinator.keeper
    assert keeper is not None
    assert keeper.baselines is not None
    assert keeper.baselines.unwatched is None

"""The first analysis at set-up judges by the recorder's history, not before it.

Walk of session 17: a home with 12 days of recorder history; the first analysis ran
while the history was being read and told the front door lock "unlocked while nobody
is home ... This home's normal is still being learned (until 05 Dec)". The history was
read 0.35 s later. Full analyses now wait for it (at most ``HISTORY_WAIT``); a safety
check runs at once meanwhile, so smoke at set-up is never held.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_capture_events
from pytest_homeassistant_custom_component.components.recorder.common import (
    async_wait_recording_done,
)

from custom_components.anomaly_monitor.const import (
    CONF_INCLUDE_ENTITIES,
    CONF_USE_EXPOSED,
    DOMAIN,
    EVENT_ANOMALY_DETECTED,
)
from custom_components.anomaly_monitor.coordinator import AnomalyMonitorCoordinator
from custom_components.anomaly_monitor.recorder.baseline_keeper import BaselineKeeper

from .helpers import ALICE, SMOKE
from .recorder_home import (  # noqa: F401 (fixtures, found by name)
    auto_enable_custom_integrations,
    quiet_sqlalchemy,
    recorder_config,
    setup_learning_monitor,
)

POWER = "sensor.freezer_plug_power"
POWER_ATTRS = {
    "device_class": "power",
    "unit_of_measurement": "W",
    "state_class": "measurement",
    "friendly_name": "Freezer plug power",
}


async def _home_with_history(hass: HomeAssistant, freezer: FrozenDateTimeFactory) -> None:
    start = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
    hass.states.async_set(ALICE, "home", {"friendly_name": "Alice"})
    for day in range(6):
        for hour in range(0, 24, 2):
            freezer.move_to(start + timedelta(days=day, hours=hour))
            hass.states.async_set(POWER, f"{78 + hour % 5}", POWER_ATTRS)
    await async_wait_recording_done(hass)
    freezer.move_to(start + timedelta(days=6, hours=1))  # the monitor is added


async def test_the_first_analysis_waits_for_the_history(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory, monkeypatch: Any
) -> None:
    await _home_with_history(hass, freezer)
    seen: list[str] = []
    analyse = AnomalyMonitorCoordinator.async_analyze

    async def _spy(self: AnomalyMonitorCoordinator) -> Any:
        assert self.keeper is not None
        seen.append(self.keeper.history_status)
        return await analyse(self)

    monkeypatch.setattr(AnomalyMonitorCoordinator, "async_analyze", _spy)
    await setup_learning_monitor(hass, [POWER, ALICE])
    # On 953f7ea the first analysis ran while the history loaded ("loading").
    assert seen
    assert seen[0] == "loaded"


async def test_a_hazard_at_set_up_is_told_while_the_history_is_read(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory, monkeypatch: Any
) -> None:
    """A history that takes long to read holds the analyses, never the smoke."""
    await _home_with_history(hass, freezer)
    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Smoke"})
    read = asyncio.Event()
    learn = BaselineKeeper._async_learn_history

    async def _slow(self: BaselineKeeper, *args: Any) -> None:
        await read.wait()
        await learn(self, *args)

    monkeypatch.setattr(BaselineKeeper, "_async_learn_history", _slow)
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="Home",
        options={CONF_USE_EXPOSED: False, CONF_INCLUDE_ENTITIES: [POWER, ALICE, SMOKE]},
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    for _ in range(5):
        await hass.async_block_till_done()
        await async_wait_recording_done(hass)
    coordinator = entry.runtime_data.coordinator
    assert coordinator.keeper is not None
    assert coordinator.keeper.history_status == "loading"
    assert [e.data["anomaly_type"] for e in detected] == ["safety_hazard"]
    read.set()
    await hass.async_block_till_done(wait_background_tasks=True)
    assert coordinator.keeper.history_status == "loaded"

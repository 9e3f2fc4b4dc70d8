"""The weather entity's temperature learned from the recorder (its attribute, read with
attributes) in a real hass: the weather check works from the first start, not a week later."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.components.recorder.common import (
    async_wait_recording_done,
)

from custom_components.anomaly_monitor.diagnostics import async_get_config_entry_diagnostics

from .helpers import analyze
from .recorder_home import (  # noqa: F401 (fixtures, found by name)
    auto_enable_custom_integrations,
    quiet_sqlalchemy,
    recorder_config,
    setup_learning_monitor,
)

BEDROOM, WEATHER = "sensor.t1", "weather.home"  # an unheated room, the only one measured
TEMPERATURE = {"device_class": "temperature", "unit_of_measurement": "°C"}


async def _record(hass: HomeAssistant, freezer: FrozenDateTimeFactory, today: datetime) -> None:
    """Eight days: the bedroom at 18 °C, outdoors 8 °C (its temperature an attribute of a
    state that says 'cloudy' all along). Today from 04:00 a cold snap: -5 °C outdoors, the
    bedroom at 14 °C."""
    moment = today - timedelta(days=8)
    while moment < today + timedelta(hours=9):
        freezer.move_to(moment)
        snap = moment >= today + timedelta(hours=4)
        wobble = (moment.hour % 3 - 1) * 0.1
        hass.states.async_set(BEDROOM, f"{(14.0 if snap else 18.0) + wobble:.1f}", TEMPERATURE)
        outdoor = -5.0 if snap else 8.0 + wobble * 5
        hass.states.async_set(WEATHER, "cloudy", {"temperature": outdoor, "humidity": 80})
        moment += timedelta(minutes=30)
        if moment.hour == 0 and moment.minute == 0:
            await async_wait_recording_done(hass)
    await async_wait_recording_done(hass)


async def test_the_weather_learned_from_the_recorder_explains_a_cold_snap_at_once(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Started at 09:00 with eight days in the recorder: the outdoor temperature's hours are
    learned from the weather's attribute (live-only before: 0 days), so the bedroom 4 °C
    under every morning since 04:00 is the cold snap, not the room's fault."""
    await hass.config.async_set_time_zone("Europe/Brussels")
    today = dt_util.start_of_local_day(dt_util.now() - timedelta(days=1))
    await _record(hass, freezer, today)

    freezer.move_to(today + timedelta(hours=9))
    entry = await setup_learning_monitor(hass, [BEDROOM])
    summary = (await async_get_config_entry_diagnostics(hass, entry))["baselines"]
    assert summary["history_status"] == "loaded"
    assert summary["outdoor_hours_learned"] >= 8
    assert summary["entities_with_hour_profiles"] == 1  # the bedroom; the weather apart
    assert WEATHER not in str(summary)

    freezer.move_to(today + timedelta(hours=9, minutes=5))
    response = await analyze(hass, entry)
    rules = [f["rule"] for f in response["verdict"]["findings"]]
    assert "reading_off_its_hours" not in rules
    assert "reading_drifting_from_its_hours" not in rules

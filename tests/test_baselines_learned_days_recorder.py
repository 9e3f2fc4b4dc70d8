"""daily_profile_shift judged on the days learned from the recorder, in a real hass whose
window holds hours: a damp bathroom told on start, nothing without the history."""

from __future__ import annotations

from datetime import datetime, timedelta
import math
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.components.recorder.common import (
    async_wait_recording_done,
)

from .helpers import analyze
from .recorder_home import (  # noqa: F401 (fixtures, found by name)
    auto_enable_custom_integrations,
    quiet_sqlalchemy,
    recorder_config,
    setup_learning_monitor,
)

# Two humidity sensors with ids that say nothing.
DAMP, DRY = "sensor.h1", "sensor.h2"
HUMIDITY = {"device_class": "humidity", "unit_of_measurement": "%"}


def reading(entity_id: str, moment: datetime, today: datetime) -> float:
    """55 ± 5 %RH over the day; the first sensor 6 %RH more from three days ago."""
    local = dt_util.as_local(moment)
    value = 55 + 5 * math.sin((local.hour - 6) / 24 * 2 * math.pi)
    return value + (6.0 if entity_id == DAMP and moment >= today - timedelta(days=3) else 0.0)


@pytest.mark.parametrize(("days", "told"), [(14, True), (0, False)])
async def test_a_shift_that_came_to_stay_is_told_from_the_recorder_days(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory, days: int, told: bool
) -> None:
    """Ten days of readings every 30 min in the recorder. The analysed window holds two
    hours (the window statistic cannot judge), the learned days hold ten: the shift is
    told with the history learned, and not without it."""
    await hass.config.async_set_time_zone("Europe/Brussels")
    today = dt_util.start_of_local_day(dt_util.now() - timedelta(days=1))
    moment = today - timedelta(days=10)
    while moment < today + timedelta(hours=9):
        freezer.move_to(moment)
        for entity_id in (DAMP, DRY):
            hass.states.async_set(entity_id, f"{reading(entity_id, moment, today):.1f}", HUMIDITY)
        moment += timedelta(minutes=30)
        if moment.hour == 0 and moment.minute == 0:
            await async_wait_recording_done(hass)
    await async_wait_recording_done(hass)

    freezer.move_to(today + timedelta(hours=9))
    entry = await setup_learning_monitor(hass, [DAMP, DRY], days)
    freezer.move_to(today + timedelta(hours=9, minutes=5))
    response = await analyze(hass, entry)
    shifts = [f for f in response["verdict"]["findings"] if f["rule"] == "daily_profile_shift"]
    if not told:
        assert shifts == []
        return
    (finding,) = shifts
    assert finding["evidence"] == [DAMP]
    assert (
        "reads about 6 higher than it did at the same hours on the days before"
        in finding["reasoning"]
    )

"""A home that changed its unit system: the recorder's older rows are °C, the newer °F, and a
row read alone carries no unit. The history the monitor reads back (what it learns, what the
preview replays) must give every reading in the unit the thermometer reads in now."""

from __future__ import annotations

from datetime import datetime, timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.recorder import get_instance
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockUser
from pytest_homeassistant_custom_component.components.recorder.common import (
    async_wait_recording_done,
)

from custom_components.anomaly_monitor.recorder.rows import history_rows

from .helpers import put_in_area
from .history_home import preview_as
from .recorder_home import (  # noqa: F401 (fixtures, found by name)
    auto_enable_custom_integrations,
    quiet_sqlalchemy,
    recorder_config,
    setup_learning_monitor,
)

LIVING = "sensor.living_temperature"
HUMIDITY = "sensor.living_humidity"  # not a thermometer: read as it was


async def _two_days_then_fahrenheit(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, now: datetime
) -> datetime:
    """Two days of a living room at 21 °C, then (four hours ago) the home switched to US
    customary units: HA writes the same room as 69.8 °F since. When the switch was."""
    switched = now - timedelta(hours=4)
    moment = now - timedelta(days=2)
    while moment < now:
        freezer.move_to(moment)
        wobble = (moment.minute // 30) * 0.2  # 21.0 and 21.2 °C, so every row is written
        if moment < switched:
            reading, unit = f"{21.0 + wobble:.1f}", "°C"
        else:
            reading, unit = f"{(21.0 + wobble) * 9 / 5 + 32:.2f}", "°F"
        attributes = {"device_class": "temperature", "unit_of_measurement": unit}
        hass.states.async_set(LIVING, reading, {"friendly_name": "Living", **attributes})
        hass.states.async_set(HUMIDITY, f"{50 + wobble:.1f}", {"unit_of_measurement": "%"})
        if moment == switched:
            await hass.config.async_update(unit_system="us_customary")
        moment += timedelta(minutes=30)
    freezer.move_to(now)
    await async_wait_recording_done(hass)
    return switched


async def test_history_rows_read_every_reading_in_the_unit_of_now(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The °C rows come back in °F (21 °C is 69.8 °F), the °F rows as they are; a sensor
    that is no thermometer is untouched."""
    now = dt_util.utcnow().replace(minute=0, second=0, microsecond=0)
    switched = await _two_days_then_fahrenheit(hass, freezer, now)
    rows = await get_instance(hass).async_add_executor_job(
        history_rows, hass, now - timedelta(days=3), now, [LIVING, HUMIDITY]
    )
    living = [(when, float(state)) for when, entity, state in rows if entity == LIVING]
    assert len(living) == 96
    assert all(69.7 <= reading <= 70.2 for _, reading in living), living[:3]
    assert {when < switched for when, _ in living} == {True, False}  # both kinds were read
    humidity = {state for _, entity, state in rows if entity == HUMIDITY}
    assert humidity == {"50.0", "50.2"}


async def test_preview_tells_no_freezing_room_after_a_change_of_units(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, hass_admin_user: MockUser
) -> None:
    """The preview of the last day replays a room at 21 °C: read as 21 °F (-6 °C) it was
    a freezing room for twenty hours; it was a warm one."""
    now = dt_util.utcnow().replace(minute=0, second=0, microsecond=0)
    put_in_area(hass, "Living room", LIVING)  # a room thermometer (before its first state)
    await _two_days_then_fahrenheit(hass, freezer, now)
    entry = await setup_learning_monitor(hass, [LIVING])
    response = await preview_as(hass, hass_admin_user.id, entry.entry_id)
    assert response is not None
    assert response["recorded_changes"] > 0
    assert response["told"] == [], response["told"][:2]

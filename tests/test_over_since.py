"""When an anomaly was over: when the home was back to normal, not when the monitor made sure.

An anomaly clears with hysteresis (two analyses and two minutes without it), and an
analysis may come minutes after the sensor read normal again. The homeowner reading
"Over since 21:12" of a smoke detector clear since 21:09 (seen in walk 9) thinks the
smoke lasted three minutes longer than it did.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.persistent_notification import _async_get_or_create_notifications
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from custom_components.anomaly_monitor.anomalies.open_anomaly import DETECTOR_CLEAR_AFTER

from .helpers import SMOKE, analyze, set_calm_home, setup_monitor

SMOKE_ATTRS = {"device_class": "smoke", "friendly_name": "Kitchen smoke"}


async def test_over_since_is_when_the_detector_read_clear(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    await hass.config.async_set_time_zone("Europe/Amsterdam")
    freezer.move_to(datetime(2026, 12, 1, 20, 0, tzinfo=UTC))
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    hass.states.async_set(SMOKE, "on", SMOKE_ATTRS)
    await analyze(hass, entry)
    freezer.move_to(datetime(2026, 12, 1, 20, 9, 20, tzinfo=UTC))  # 21:09 in Amsterdam
    hass.states.async_set(SMOKE, "off", SMOKE_ATTRS)
    freezer.move_to(datetime(2026, 12, 1, 20, 11, 40, tzinfo=UTC))  # the next analysis
    for _ in range(3):  # past the hysteresis (``DETECTOR_CLEAR_AFTER``: a detector's)
        await analyze(hass, entry)
        freezer.tick(DETECTOR_CLEAR_AFTER / 2 + timedelta(seconds=10))
    await hass.async_block_till_done()
    (note,) = _async_get_or_create_notifications(hass).values()
    assert note["title"].startswith("Over: ")
    assert note["message"].startswith("Over since 21:09\\."), note["message"]

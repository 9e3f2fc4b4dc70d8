"""An anomaly not found by the latest analysis, not over yet, is shown as last found.

Walk of session 26 (real hass): a relay channel off while its meter drew 58 W was told
"Reptile relay Switch 0 is off but draws power"; switched on, the next analyses no longer
found it, and until the hysteresis ended it (two analyses, two minutes) the notice kept
that headline above the evidence "Reptile relay Switch 0: On": a title and a reading that
disagree. While it is missed its notice stays as it was last found; once over it says so
("Over: ...") with the evidence as it reads now.
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from custom_components.anomaly_monitor.anomalies.open_anomaly import DETECTOR_CLEAR_AFTER
from custom_components.anomaly_monitor.const import DOMAIN, SIGNIFICANT_DEBOUNCE

from .helpers import SMOKE, analyze, pass_time, set_calm_home, setup_monitor

SMOKY = {"device_class": "smoke", "friendly_name": "Kitchen smoke"}


def _note(hass: HomeAssistant) -> dict:
    from homeassistant.components.persistent_notification import _async_get_or_create_notifications

    (note,) = (
        n for key, n in _async_get_or_create_notifications(hass).items() if key.startswith(DOMAIN)
    )
    return note


async def test_a_missed_anomaly_reads_as_found_until_it_is_over(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    hass.states.async_set(SMOKE, "on", SMOKY)
    await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)
    found = _note(hass)
    assert "Kitchen smoke: Detected" in found["message"]

    hass.states.async_set(SMOKE, "off", SMOKY)
    await pass_time(hass, freezer, timedelta(seconds=1))
    await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)
    (anomaly,) = entry.runtime_data.coordinator.tracker.open.values()
    assert anomaly.missed == 1  # not over yet
    missed = _note(hass)
    assert missed["title"] == found["title"]
    assert "Kitchen smoke: Detected" in missed["message"]  # as found, not "Clear" under it
    assert "Clear" not in missed["message"]

    await pass_time(hass, freezer, DETECTOR_CLEAR_AFTER + SIGNIFICANT_DEBOUNCE)
    over = _note(hass)
    assert over["title"].startswith("Over: ")
    assert "Kitchen smoke: Clear" in over["message"]  # as it reads now

"""An anomaly not found by the latest analysis, not over yet, says so.

Walk of session 26 (real hass): a relay channel off while its meter drew 58 W was told
"Reptile relay Switch 0 is off but draws power"; switched on, the next analyses no longer
found it, and until the hysteresis ended it (two analyses, two minutes) the notice kept
that headline above the evidence "Reptile relay Switch 0: On": a title and a reading that
disagree; session 26 then kept the notice as last found while missed, and walk 50 read
"Bathroom leak: Wet" for 15 min under a dry sensor. While it is missed its notice keeps
its title, says it has not been found again since when and until when it may end, gives
what was found as "When it was found:" and the evidence as it reads now; once over it says
so ("Over: ...").
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


async def test_a_missed_anomaly_says_since_when_it_is_not_found_until_it_is_over(
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
    assert missed["title"] == found["title"]  # not renamed: the same incident
    message = missed["message"]
    assert message.startswith("Not found again since ")
    assert "**When it was found:** " in message  # the reasoning as a fact of then
    assert "**Evidence, as it reads now**" in message
    assert "Kitchen smoke: Clear" in message
    assert "Detected" not in message

    await pass_time(hass, freezer, DETECTOR_CLEAR_AFTER + SIGNIFICANT_DEBOUNCE)
    over = _note(hass)
    assert over["title"].startswith("Over: ")
    assert "Kitchen smoke: Clear" in over["message"]  # as it reads now

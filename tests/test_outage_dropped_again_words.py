"""An outage back, dropped again and back again says the last drop, and how many.

Walk 56 (real hass): the kitchen smoke detector offline 14:09-14:25, again 14:26-14:27,
read "went offline at 14:09, and was back at 14:27. Offline 16 min": the first drop's
length beside the second's return, the second drop unsaid. And the advice for the one
outage was worded two ways ("... power, battery and connection." when it was told, "...
power, battery and its link to the hub." once offline again).
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.core.offline import OFFLINE_ADVICE

from .helpers import SMOKE, analyze, pass_time, set_calm_home, setup_monitor
from .test_outage_back_title import SMOKY, _told


def _now() -> str:
    return dt_util.as_local(dt_util.utcnow()).strftime("%H:%M")


async def test_a_second_drop_is_said_with_its_return(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    set_calm_home(hass)
    entry = await setup_monitor(hass, learned=True)
    # A blip before the outage (walk 57: HA's own start) is not the outage dropping again.
    hass.states.async_set(SMOKE, "unavailable", SMOKY)
    await pass_time(hass, freezer, timedelta(seconds=10))
    hass.states.async_set(SMOKE, "off", SMOKY)
    await pass_time(hass, freezer, timedelta(minutes=1))
    first = _now()
    hass.states.async_set(SMOKE, "unavailable", SMOKY)
    await pass_time(hass, freezer, timedelta(minutes=20))
    await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)
    title, message, _ = _told(hass)
    assert title == "Kitchen smoke is offline"
    assert f"What to do:** {OFFLINE_ADVICE}" in message, message  # one wording, first to last

    hass.states.async_set(SMOKE, "off", SMOKY)
    await pass_time(hass, freezer, timedelta(minutes=1))
    await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)
    _, message, _ = _told(hass)
    assert "(2 times)" not in message, message
    assert "Longest" not in message, message

    again = _now()
    hass.states.async_set(SMOKE, "unavailable", SMOKY)
    await pass_time(hass, freezer, timedelta(minutes=1))
    await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)
    _, message, _ = _told(hass)
    assert f"What to do:** {OFFLINE_ADVICE}" in message, message

    back = _now()
    hass.states.async_set(SMOKE, "off", SMOKY)
    await pass_time(hass, freezer, timedelta(minutes=1))
    await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)
    title, message, headline = _told(hass)
    assert title == headline == "Kitchen smoke was offline"
    said = f"went offline at {first} (2 times), the last at {again}, and was back at {back}."
    assert said in message, message
    assert "Longest outage 20 min;" in message, message

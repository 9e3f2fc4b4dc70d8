"""An outage seen ending is titled in the past, and its advice says the device answers.

Walk of session 52 and 53 (real hass): the kitchen smoke detector offline 16 min was told
"Kitchen smoke detector is offline"; back online, its reasoning said "went offline at
08:45, and was back at 09:01" above "Kitchen smoke detector (Kitchen): Clear", but the
notification, its repair issue and the event kept the title "… is offline" and the
present "Check the device's power, battery and its link to the hub." for as long as the
outage stayed in the window (two hours).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component

from custom_components.anomaly_monitor.const import DOMAIN

from .helpers import SMOKE, analyze, pass_time, set_calm_home, setup_monitor

SMOKY = {"device_class": "smoke", "friendly_name": "Kitchen smoke"}


def _told(hass: HomeAssistant) -> tuple[str, str, str]:
    """The notification's title and message (markdown escapes dropped), and the repair
    issue's headline."""
    from homeassistant.components.persistent_notification import _async_get_or_create_notifications

    notes: list[dict[str, Any]] = list(_async_get_or_create_notifications(hass).values())
    (note,) = notes
    (issue,) = [i for (d, _), i in ir.async_get(hass).issues.items() if d == DOMAIN]
    assert issue.translation_placeholders is not None
    message = note["message"].replace("\\", "")
    return note["title"], message, issue.translation_placeholders["headline"]


async def test_a_detector_back_online_was_offline(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    set_calm_home(hass)
    entry = await setup_monitor(hass, learned=True)
    await pass_time(hass, freezer, timedelta(minutes=1))
    hass.states.async_set(SMOKE, "unavailable", SMOKY)
    await pass_time(hass, freezer, timedelta(minutes=20))
    await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)
    title, message, headline = _told(hass)
    assert title == headline == "Kitchen smoke is offline"  # offline now: the present

    hass.states.async_set(SMOKE, "off", SMOKY)
    await pass_time(hass, freezer, timedelta(minutes=1))
    await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)
    title, message, headline = _told(hass)
    assert "and was back at" in message
    assert title == headline == "Kitchen smoke was offline"
    assert "It answers again; if it drops off again, check its power" in message
    assert "Check the device's power" not in message

    # Dropped again (walk 55: "It answers again" above "Unavailable" for 15 min, until the
    # outage rule found it anew): the words follow the device at once.
    hass.states.async_set(SMOKE, "unavailable", SMOKY)
    await pass_time(hass, freezer, timedelta(minutes=1))
    await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)
    title, message, headline = _told(hass)
    assert title == headline == "Kitchen smoke is offline", (title, headline)
    assert "It is offline again since" in message, message
    assert "Check the device's power" in message, message
    assert "It answers again" not in message, message

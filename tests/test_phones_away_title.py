"""The title of an away finding says what the reasoning says where somebody lives here
without a phone: only the phones are known away.

Walk of session 52 (real hass, the profile naming Alice's mother who has no phone): the
front door left open and unlocked as Alice and Bob left was told "Front door unlocked and
open while nobody is home" above "Front door lock is unlocked while every tracked phone is
away" (session 51 changed the reasoning, not the title); the notification, its repair
issue and its Over all read "while nobody is home" with the grandmother at home.
"""

from __future__ import annotations

from typing import Any

from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component

from custom_components.anomaly_monitor.const import DOMAIN

from .helpers import ALICE, FRONT_LOCK, SMOKE, analyze, in_area, set_calm_home, setup_monitor

FRONT_DOOR = "binary_sensor.front_door"
DOOR = {"device_class": "door", "friendly_name": "Front door"}
GRANDMOTHER = "Alice lives here with her mother Edith (88), who has no phone."


def _notifications(hass: HomeAssistant) -> list[dict[str, Any]]:
    from homeassistant.components.persistent_notification import _async_get_or_create_notifications

    return list(_async_get_or_create_notifications(hass).values())


async def _told(hass: HomeAssistant, profile: str) -> tuple[str, str, str]:
    """The door left open and unlocked as Alice's phone left: the notification's title,
    its message and the repair issue's headline."""
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    in_area(hass, FRONT_LOCK, "Hall")
    in_area(hass, FRONT_DOOR, "Hall")
    set_calm_home(hass)
    hass.states.async_set(FRONT_DOOR, "off", DOOR)
    entry = await setup_monitor(
        hass,
        learned=True,
        include_entities=[SMOKE, FRONT_LOCK, FRONT_DOOR, ALICE],
        household_profile=profile,
    )
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    hass.states.async_set(FRONT_LOCK, "unlocked", {"friendly_name": "Front door lock"})
    hass.states.async_set(FRONT_DOOR, "on", DOOR)
    await analyze(hass, entry)
    await hass.async_block_till_done()
    (note,) = _notifications(hass)
    (issue,) = [i for (d, _), i in ir.async_get(hass).issues.items() if d == DOMAIN]
    assert issue.translation_placeholders is not None
    return note["title"], note["message"], issue.translation_placeholders["headline"]


async def test_the_title_says_the_phones_are_away_where_somebody_has_none(
    hass: HomeAssistant,
) -> None:
    title, message, headline = await _told(hass, GRANDMOTHER)
    assert "while every tracked phone is away" in message  # the reasoning (session 51)
    assert title == "Front door unlocked and open while every tracked phone is away"
    assert headline == title


async def test_the_title_says_nobody_is_home_where_everybody_has_a_phone(
    hass: HomeAssistant,
) -> None:
    title, message, headline = await _told(hass, "Alice lives here alone.")
    assert "while nobody is home" in message
    assert title == headline == "Front door unlocked and open while nobody is home"

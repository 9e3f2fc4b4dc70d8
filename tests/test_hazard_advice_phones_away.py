"""A hazard's advice where every tracked phone is away but the household names somebody
without one: that somebody may be home, and is called first.

Walk of session 52 (real hass, the profile naming Alice's mother Edith, who has no phone):
the bathroom leak found with Alice's and Bob's phones away advised "Nobody is home: ask
someone to shut off the water supply near the leak." with Edith at home; the reasoning of
the away findings already said "every tracked phone is away" (session 51), the hazards'
advice did not.
"""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant

from .helpers import ALICE, SMOKE, analyze, in_area, set_calm_home, setup_monitor

LEAK = "binary_sensor.bathroom_leak"
WET = {"device_class": "moisture", "friendly_name": "Bathroom leak"}
SMOKY = {"device_class": "smoke", "friendly_name": "Kitchen smoke"}
GRANDMOTHER = "Alice lives here with her mother Edith (88), who has no phone."


def _notifications(hass: HomeAssistant) -> list[dict[str, Any]]:
    from homeassistant.components.persistent_notification import _async_get_or_create_notifications

    return list(_async_get_or_create_notifications(hass).values())


async def _advice(hass: HomeAssistant, profile: str, hazard: str) -> tuple[str, str]:
    """``hazard`` (the leak or the smoke) sounding with Alice's phone away: the advice of
    its finding in ``analyze``, and the notification's message."""
    in_area(hass, LEAK, "Bathroom")
    in_area(hass, SMOKE, "Kitchen")
    set_calm_home(hass)
    hass.states.async_set(LEAK, "off", WET)
    entry = await setup_monitor(
        hass, learned=True, include_entities=[SMOKE, LEAK, ALICE], household_profile=profile
    )
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    hass.states.async_set(hazard, "on", WET if hazard == LEAK else SMOKY)
    findings = (await analyze(hass, entry))["verdict"]["findings"]
    await hass.async_block_till_done()
    (finding,) = [f for f in findings if f["rule"] == "hazard_detected"]
    (note,) = _notifications(hass)
    return finding["recommendation"], note["message"].replace("\\", "")  # markdown escapes


async def test_a_leak_with_the_phones_away_calls_home_where_somebody_has_no_phone(
    hass: HomeAssistant,
) -> None:
    advice, message = await _advice(hass, GRANDMOTHER, LEAK)
    assert not advice.startswith("Nobody is home")
    assert advice.startswith("Every tracked phone is away, but somebody without one may be home")
    assert "call home" in advice
    assert "water shut off near the leak" in advice
    assert advice in message
    assert "Nobody is home" not in message


async def test_smoke_with_the_phones_away_gets_whoever_is_home_out(hass: HomeAssistant) -> None:
    advice, _ = await _advice(hass, GRANDMOTHER, SMOKE)
    assert advice.startswith("Every tracked phone is away")
    assert "get them out" in advice
    assert "fire brigade" in advice


async def test_a_leak_with_everybody_away_sends_someone(hass: HomeAssistant) -> None:
    advice, message = await _advice(hass, "Alice lives here alone.", LEAK)
    assert advice == "Nobody is home: ask someone to shut off the water supply near the leak."
    assert advice in message

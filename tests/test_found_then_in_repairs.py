"""The repair issue of an anomaly not found again says what was found as of then.

Walk of session 52 (real hass): a leak wet, then dry. Its notification read "Not found
again since 08:46 …", "**When it was found:** Moisture detected in Bathroom." and
"Bathroom leak (Bathroom): Dry" under "Evidence, as it reads now"; its repair issue's fix
flow (Settings > Repairs, where the homeowner answers it) read the same note, then
"Moisture detected in Bathroom." in the present above "Dry" (walk 26's contradiction, in
the other surface). Both now frame it alike; found again, it reads as found.
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.const import DOMAIN

from .helpers import SMOKE, analyze, pass_time, set_calm_home, setup_monitor

SMOKY = {"device_class": "smoke", "friendly_name": "Kitchen smoke"}


def _reasoning(hass: HomeAssistant) -> str:
    (issue,) = [i for (d, _), i in ir.async_get(hass).issues.items() if d == DOMAIN]
    assert issue.translation_key == "hazard_anomaly"  # open, not over
    return issue.translation_placeholders["reasoning"]


async def test_a_missed_anomaly_s_repair_issue_says_what_was_found_as_of_then(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    hass.states.async_set(SMOKE, "on", SMOKY)
    await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)
    found = _reasoning(hass)
    assert "When it was found" not in found  # found now: said as it is
    assert "Not found again" not in found

    hass.states.async_set(SMOKE, "off", SMOKY)
    await pass_time(hass, freezer, timedelta(seconds=1))
    await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)
    missed = _reasoning(hass)
    note, said = missed.split("\n\n", 1)
    assert note.startswith("Not found again since ")
    assert said == f"**When it was found:** {found}"

    hass.states.async_set(SMOKE, "on", SMOKY)  # found again: as it is, no note
    await pass_time(hass, freezer, timedelta(seconds=1))
    await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)
    assert _reasoning(hass) == found


async def test_an_outage_seen_ending_says_when_it_began_and_ended_by_the_clock(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Walk 52: the smoke detector back after 16 min offline read "went offline at
    2026-12-07 08:45. Offline 16 min" above "Kitchen smoke detector: Clear" (an ISO
    stamp, and nothing said it was back)."""
    # A fixed hour: an outage that straddles midnight rightly names its day (the test read
    # the wall clock and failed when run near local midnight).
    freezer.move_to(dt_util.now().replace(hour=12, minute=0, second=0, microsecond=0))
    set_calm_home(hass)
    entry = await setup_monitor(hass, learned=True)
    await pass_time(hass, freezer, timedelta(minutes=1))
    went = dt_util.now()
    hass.states.async_set(SMOKE, "unavailable", SMOKY)
    await pass_time(hass, freezer, timedelta(minutes=20))
    back = dt_util.now()
    hass.states.async_set(SMOKE, "off", SMOKY)
    await pass_time(hass, freezer, timedelta(minutes=1))
    findings = (await analyze(hass, entry))["verdict"]["findings"]
    (finding,) = [f for f in findings if f["rule"] == "device_unavailable"]
    assert f"went offline at {went:%H:%M}, and was back at {back:%H:%M}." in finding["reasoning"]
    assert f"{went:%Y-%m-%d}" not in finding["reasoning"]

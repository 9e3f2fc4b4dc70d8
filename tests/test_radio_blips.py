"""A Zigbee radiator that drops off for minutes is not an alarm, however HA writes it."""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant

from custom_components.anomaly_monitor.state_summary import summarize_state

from .helpers import ALICE, FRONT_LOCK, SMOKE, analyze, set_calm_home, setup_monitor

RADIATOR = "climate.office_radiator"
HEATING = {"hvac_action": "heating", "temperature": 21, "friendly_name": "Office radiator"}


def test_an_unreadable_device_is_summarised_bare() -> None:
    assert summarize_state("climate", "heat", HEATING) == "heat (heating)"
    # The integration kept the last hvac_action on an entity it can no longer read.
    assert summarize_state("climate", "unavailable", HEATING) == "unavailable"
    assert summarize_state("climate", "unknown", HEATING) == "unknown"


async def test_a_radiator_blip_is_not_told_an_outage_is(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    set_calm_home(hass)
    hass.states.async_set(RADIATOR, "heat", HEATING)
    entry = await setup_monitor(hass, include_entities=[SMOKE, FRONT_LOCK, RADIATOR, ALICE])

    async def offline_findings() -> list[dict]:
        findings = (await analyze(hass, entry))["verdict"]["findings"]
        return [f for f in findings if RADIATOR in f["evidence"]]

    freezer.tick(timedelta(minutes=5))
    hass.states.async_set(RADIATOR, "unavailable", HEATING)  # attributes left as they were
    freezer.tick(timedelta(minutes=6))
    assert await offline_findings() == []  # six minutes out: a blip
    hass.states.async_set(RADIATOR, "heat", HEATING)
    freezer.tick(timedelta(minutes=5))
    assert await offline_findings() == []  # back: the blip is not told afterwards either

    hass.states.async_set(RADIATOR, "unavailable", HEATING)
    freezer.tick(timedelta(minutes=31))  # past a radiator's 30-minute grace: an outage
    (finding,) = await offline_findings()
    assert finding["rule"] == "device_unavailable"

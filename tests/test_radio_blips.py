"""A Zigbee radiator that drops off for minutes is not an alarm, however HA writes it."""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import async_capture_events

from custom_components.anomaly_monitor.const import EVENT_ANOMALY_DETECTED
from custom_components.anomaly_monitor.live.state_summary import summarize_state

from .helpers import ALICE, FRONT_LOCK, SMOKE, analyze, pass_time, set_calm_home, setup_monitor

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


async def test_a_smoke_detector_offline_is_told_when_its_grace_ends(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The detector drops; 13 minutes later the front door is unlocked and locked again.

    That change's analysis (within the grace) moved the periodic one 15 minutes on: the
    outage waited until then, 13 minutes past its grace. The end of the grace is analysed.
    """
    set_calm_home(hass)
    entry = await setup_monitor(hass, include_entities=[SMOKE, FRONT_LOCK, ALICE])
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    await pass_time(hass, freezer, timedelta(minutes=1))
    smoke = {"device_class": "smoke", "friendly_name": "Kitchen smoke"}
    hass.states.async_set(SMOKE, "unavailable", smoke)
    await pass_time(hass, freezer, timedelta(minutes=13))
    for state in ("unlocked", "locked"):  # somebody goes out
        hass.states.async_set(FRONT_LOCK, state, {"friendly_name": "Front door"})
        await pass_time(hass, freezer, timedelta(seconds=20))
    await pass_time(hass, freezer, timedelta(seconds=30))
    assert detected == []  # within its grace: a blip, perhaps
    await pass_time(hass, freezer, timedelta(minutes=1, seconds=30))  # 15 min 40 s offline
    (told,) = detected
    assert told.data["rule"] == "device_unavailable"
    assert told.data["subject"] == SMOKE
    assert entry.runtime_data.coordinator._offline_check.due is None  # nothing waits now

"""An evidence line never shows HA's raw "unknown" (walk 43: "Bob: unknown" under "Bob not
back home long past the usual time, phone off"): a person or tracker that reads it is a
phone not reporting; any other device reads as HA's frontend shows it."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.texts import async_anomaly_texts
from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.baselines.not_back import NOT_BACK_AS_USUAL

BOB = "person.bob"
HALL = "binary_sensor.hall_motion"
FRONT = "binary_sensor.front_door"


async def _lines(hass: HomeAssistant, evidence: tuple[str, ...]) -> list[tuple[str, str]]:
    finding = NOT_BACK_AS_USUAL.finding(
        evidence=evidence,
        reasoning=f"{BOB} is not home: out since 19:45. {BOB}'s phone stopped reporting at 02:11.",
        subject=evidence[0],
    )
    (anomaly,) = AnomalyTracker(hass, "no-reading").update([finding], dt_util.utcnow()).opened
    texts = await async_anomaly_texts(hass, anomaly)
    return [(line.name, line.state) for line in texts.evidence]


async def test_a_person_whose_phone_went_dark_reads_as_a_phone_not_reporting(
    hass: HomeAssistant,
) -> None:
    hass.states.async_set(BOB, "unknown", {"friendly_name": "Bob"})
    assert await _lines(hass, (BOB,)) == [("Bob", "phone not reporting")]
    hass.states.async_set(BOB, "unavailable", {"friendly_name": "Bob"})
    assert await _lines(hass, (BOB,)) == [("Bob", "phone not reporting")]


async def test_a_person_at_home_or_away_reads_as_ha_says_it(hass: HomeAssistant) -> None:
    hass.states.async_set(BOB, "home", {"friendly_name": "Bob"})
    assert await _lines(hass, (BOB,)) == [("Bob", "Home")]
    hass.states.async_set(BOB, "not_home", {"friendly_name": "Bob"})
    assert await _lines(hass, (BOB,)) == [("Bob", "Away")]


async def test_another_device_without_a_reading_reads_as_the_frontend_shows_it(
    hass: HomeAssistant,
) -> None:
    hass.states.async_set(BOB, "unknown", {"friendly_name": "Bob"})
    hass.states.async_set(HALL, "unavailable", {"device_class": "motion", "friendly_name": "Hall"})
    hass.states.async_set(FRONT, "unknown", {"device_class": "door", "friendly_name": "Door"})
    lines = dict(await _lines(hass, (BOB, HALL, FRONT)))
    assert lines == {"Bob": "phone not reporting", "Hall": "Unavailable", "Door": "Unknown"}

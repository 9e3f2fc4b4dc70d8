"""The learning gate asks who was home when an opening happened, not when it is judged.

Blind set 17 (Ñuñoa): Canela let out to the patio at 07:01 with the family home, no motion
sensor seeing anybody; held while somebody was home, then pushed at Pablo's 07:54
departure as "opened with nobody seen", a home still learning. Cluj: the fridge opened at
13:08 by a tenant without a tracker while a phone was home, pushed at the departure. An
opening made and shut while somebody was home is the household's, whoever is home when it
is judged. One made into the empty home is told at once, and one still standing open
when everybody has gone is judged as it stands now.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import async_capture_events

from custom_components.anomaly_monitor.const import EVENT_ANOMALY_DETECTED
from custom_components.anomaly_monitor.core.learning_gate import pushed_at_once
from custom_components.anomaly_monitor.core.models import Finding
from custom_components.anomaly_monitor.core.statistics.openings import UNACCOMPANIED_OPENING

from .helpers import ALICE, SMOKE, analyze, in_area, set_calm_home, setup_monitor

DOOR = "binary_sensor.patio_door"
HALL = "binary_sensor.living_motion"
PATIO_DOOR = {"device_class": "door", "friendly_name": "Patio door"}
LIVING_MOTION = {"device_class": "motion", "friendly_name": "Living motion"}
SET_UP = datetime(2026, 6, 10, 10, 0, tzinfo=UTC)


def _opening(home_then: bool | None) -> Finding:
    return UNACCOMPANIED_OPENING.finding(
        evidence=(DOOR,), reasoning="Patio door opened with nobody seen.", home_then=home_then
    )


def test_who_was_home_at_the_opening_decides() -> None:
    assert not pushed_at_once(_opening(True), someone_home=False)
    assert pushed_at_once(_opening(False), someone_home=False)
    assert pushed_at_once(_opening(None), someone_home=False)
    assert not pushed_at_once(_opening(None), someone_home=True)


async def _morning(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, *, left: timedelta, shut: bool = True
) -> tuple[set[str], set[str]]:
    """A fresh install at 10:00; the living room moves four times, the patio door opens
    at 10:50 with nobody seen (shut at 10:54 if ``shut``); Alice leaves ``left`` after
    10:00; analysed at 11:45. (rules found, rules pushed)."""
    freezer.move_to(SET_UP)
    set_calm_home(hass)
    in_area(hass, DOOR, "Living")
    in_area(hass, HALL, "Living")
    hass.states.async_set(DOOR, "off", PATIO_DOOR)
    hass.states.async_set(HALL, "off", LIVING_MOTION)
    await setup_monitor(hass, include_entities=[SMOKE, DOOR, HALL, ALICE])
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)

    events = [(timedelta(minutes=m), HALL, s) for m in (5, 15, 25, 35) for s in ("on",)]
    events += [(timedelta(minutes=m + 1), HALL, "off") for m in (5, 15, 25, 35)]
    events += [(timedelta(minutes=50), DOOR, "on")]
    if shut:
        events += [(timedelta(minutes=54), DOOR, "off")]
    events += [(left, ALICE, "not_home")]
    clock = timedelta(0)
    for at, entity_id, state in sorted(events):
        freezer.tick(at - clock)
        clock = at
        attrs = {DOOR: PATIO_DOOR, HALL: LIVING_MOTION}.get(entity_id, {"friendly_name": "Alice"})
        hass.states.async_set(entity_id, state, attrs)
        await hass.async_block_till_done()
    freezer.tick(timedelta(minutes=105) - clock)
    response = await analyze(hass)
    await hass.async_block_till_done()
    verdict = response["verdict"]
    assert isinstance(verdict, dict)
    found = {f["rule"] for f in verdict["findings"]}
    told = {rule for event in detected for rule in event.data["rules"]}
    return found, told


async def test_the_dog_let_out_before_everybody_left_is_not_pushed(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    found, told = await _morning(hass, freezer, left=timedelta(minutes=80))
    assert "unaccompanied_opening" in found
    assert told == set()


async def test_an_opening_into_the_empty_home_is_pushed_at_once(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    found, told = await _morning(hass, freezer, left=timedelta(minutes=40))
    assert "unaccompanied_opening" in found
    assert told


async def test_an_opening_standing_open_when_everybody_left_is_pushed(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    # Opened 8 min before Alice went out, open since: a home standing open.
    found, told = await _morning(hass, freezer, left=timedelta(minutes=58), shut=False)
    assert found & told

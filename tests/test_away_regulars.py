"""A home's regulars while nobody tracked is home, in a real hass.

The monitor has watched the home of ``test_away_normal`` for ten weekdays (stored
baselines): Alice out 08:00-17:00, the dog moving in the living room hourly, a dog-walker
letting herself in at 12:00. The walker at 12:00 and the dog stay quiet; the same entry at
03:00 is told; on a fresh install an entry followed by motion is pushed at once.
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_capture_events

from custom_components.anomaly_monitor.const import (
    CONF_INCLUDE_ENTITIES,
    DOMAIN,
    EVENT_ANOMALY_DETECTED,
)
from custom_components.anomaly_monitor.recorder.baseline_store import baseline_store

from .helpers import analyze, monitor_options, put_in_area
from .test_away_normal import ALICE, BEDROOM, DOOR, HALL, LIVING, LOCK, at, lived

AWAY_RULES = {"motion_while_away", "activity_while_away", "entry_unsecured_while_away"}
WATCHED = [DOOR, LOCK, HALL, LIVING, BEDROOM, ALICE]


async def _home(hass: HomeAssistant, *, learned: bool) -> MockConfigEntry:
    """The empty home set up (``learned``: with the ten days' baselines stored)."""
    await hass.config.async_set_time_zone("UTC")  # the zone the ten days were lived in
    put_in_area(hass, "Hall", DOOR, LOCK, HALL)
    put_in_area(hass, "Living", LIVING)
    put_in_area(hass, "Bedroom", BEDROOM)
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    hass.states.async_set(LOCK, "locked")
    hass.states.async_set(DOOR, "off", {"device_class": "door"})
    for motion in (HALL, LIVING, BEDROOM):
        hass.states.async_set(motion, "off", {"device_class": "motion"})
    entry = MockConfigEntry(
        domain=DOMAIN, title="Home", options=monitor_options(**{CONF_INCLUDE_ENTITIES: WATCHED})
    )
    entry.add_to_hass(hass)
    if learned:
        await baseline_store(hass, entry.entry_id).async_save(lived(10).as_dict())
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


async def _somebody_lets_in(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, hour: float, *moving: str, learned: bool
) -> set[str]:
    """The home set up just before ``hour`` of day 10; then a key-holder comes in and walks
    about: the away rules the homeowner is told."""
    freezer.move_to(at(10, hour - 0.1))
    await _home(hass, learned=learned)
    freezer.move_to(at(10, hour))
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    for entity_id, state in ((LOCK, "unlocked"), (DOOR, "on"), (DOOR, "off"), (LOCK, "locked")):
        attributes = {"device_class": "door"} if entity_id == DOOR else {}
        hass.states.async_set(entity_id, state, attributes)
        await hass.async_block_till_done()
        freezer.tick(timedelta(seconds=10))
    for motion in moving:
        hass.states.async_set(motion, "on", {"device_class": "motion"})
        freezer.tick(timedelta(seconds=30))
    await hass.async_block_till_done()
    freezer.tick(timedelta(minutes=2))
    await analyze(hass)
    await hass.async_block_till_done()
    return {e.data["rule"] for e in detected} & AWAY_RULES


async def test_the_regular_walker_at_her_time_stays_quiet(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    assert await _somebody_lets_in(hass, freezer, 12, HALL, learned=True) == set()


async def test_the_same_entry_at_three_in_the_morning_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    assert await _somebody_lets_in(hass, freezer, 3, HALL, BEDROOM, learned=True)


async def test_the_dog_moving_while_everybody_is_out_stays_quiet(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    freezer.move_to(at(10, 10.1))
    await _home(hass, learned=True)
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    freezer.move_to(at(10, 10.25))
    hass.states.async_set(LIVING, "on", {"device_class": "motion"})
    await hass.async_block_till_done()
    freezer.tick(timedelta(minutes=2))
    response = await analyze(hass)
    await hass.async_block_till_done()
    assert detected == []
    assert response["verdict"]["findings"] == []


async def test_a_fresh_install_pushes_an_entry_and_motion_at_once(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    assert await _somebody_lets_in(hass, freezer, 12, HALL, BEDROOM, learned=False)

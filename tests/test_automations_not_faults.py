"""Automations are not faults: lights that follow motion only in the dark, and lamps that
are no motion lights at all.

A hall light that an automation switches on with motion only while the sun is down stops
following motion at sunrise: that is the automation's condition, not a broken link. A
living-room lamp that somebody switches on by hand 25 s after walking in, once in a while,
is no motion light answering slowly.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry

from .helpers import ALICE, FRONT_LOCK, SMOKE, analyze, put_in_area, set_calm_home, setup_monitor

HALL_MOTION = "binary_sensor.hall_motion"
HALL_LIGHT = "light.hall_ceiling"
BED_MOTION = "binary_sensor.bedroom_motion"
BED_LIGHT = "light.bedroom_ceiling"
LIVING_MOTION = "binary_sensor.living_room_motion"
LIVING_LAMP = "light.living_room_lamp"
# 05:30 in the test time zone (US/Pacific): dark, an hour before sunrise.
BEFORE_DAWN = datetime(2026, 3, 10, 13, 30, tzinfo=dt_util.UTC)
WATCHED = [
    SMOKE,
    FRONT_LOCK,
    ALICE,
    HALL_MOTION,
    HALL_LIGHT,
    BED_MOTION,
    BED_LIGHT,
    LIVING_MOTION,
    LIVING_LAMP,
]


def _set(hass: HomeAssistant, entity_id: str, state: str) -> None:
    domain = entity_id.partition(".")[0]
    attrs = {"device_class": "motion"} if domain == "binary_sensor" else {}
    hass.states.async_set(entity_id, state, {**attrs, "friendly_name": entity_id})


def _sun(hass: HomeAssistant, up: bool) -> None:
    now = dt_util.utcnow()
    hass.states.async_set(
        "sun.sun",
        "above_horizon" if up else "below_horizon",
        {
            "next_rising": (now + timedelta(days=1 if up else 0, hours=0 if up else 1)).isoformat(),
            "next_setting": (now + timedelta(hours=11)).isoformat(),
            "friendly_name": "Sun",
        },
    )


async def _home(hass: HomeAssistant, freezer: FrozenDateTimeFactory) -> MockConfigEntry:
    freezer.move_to(BEFORE_DAWN)
    put_in_area(hass, "Hall", HALL_MOTION, HALL_LIGHT)
    put_in_area(hass, "Bedroom", BED_MOTION, BED_LIGHT)
    put_in_area(hass, "Living room", LIVING_MOTION, LIVING_LAMP)
    set_calm_home(hass)
    for entity_id in WATCHED[3:]:
        _set(hass, entity_id, "off")
    _sun(hass, up=False)
    return await setup_monitor(hass, include_entities=WATCHED)


async def _walk(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    motion: str,
    light: str | None = None,
    lag: int = 1,
) -> None:
    """Somebody walks in; ``light`` comes on ``lag`` s later (None: it stays off)."""
    _set(hass, motion, "on")
    freezer.tick(timedelta(seconds=lag))
    if light is not None:
        _set(hass, light, "on")
    freezer.tick(timedelta(seconds=60))
    _set(hass, motion, "off")
    freezer.tick(timedelta(seconds=90))
    if light is not None:
        _set(hass, light, "off")
    freezer.tick(timedelta(minutes=8))
    await hass.async_block_till_done()


async def _motion_lights_answer(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, times: int
) -> None:
    """The home's motion lights (hall, bedroom) answer at once, ``times`` walks each."""
    for _ in range(times):
        await _walk(hass, freezer, HALL_MOTION, HALL_LIGHT)
        await _walk(hass, freezer, BED_MOTION, BED_LIGHT)


async def _rules(hass: HomeAssistant, entry: MockConfigEntry) -> set[str]:
    findings = (await analyze(hass, entry))["verdict"]["findings"]
    return {f["rule"] for f in findings}


async def test_a_light_that_follows_motion_only_in_the_dark_is_not_broken_at_sunrise(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    entry = await _home(hass, freezer)
    for _ in range(9):  # before dawn: the automation lights the hall (a rule: 8 of 10)
        await _walk(hass, freezer, HALL_MOTION, HALL_LIGHT)
    _sun(hass, up=True)
    for _ in range(2):  # after sunrise its condition keeps the light off
        await _walk(hass, freezer, HALL_MOTION)
    assert "missing_follow_up" not in await _rules(hass, entry)


async def test_a_motion_light_that_stops_answering_in_the_dark_is_still_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The same habit broken while it is still dark: a dead bulb or automation (eight
    answers in the window, the first walk its start, then two misses: 8 of 10)."""
    entry = await _home(hass, freezer)
    for _ in range(9):
        await _walk(hass, freezer, HALL_MOTION, HALL_LIGHT)
    for _ in range(2):
        await _walk(hass, freezer, HALL_MOTION)
    assert "missing_follow_up" in await _rules(hass, entry)


async def test_a_lamp_switched_by_hand_is_no_slow_motion_light(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    entry = await _home(hass, freezer)
    await _motion_lights_answer(hass, freezer, 3)
    # The living room is walked through; once somebody stays and switches the lamp on.
    await _walk(hass, freezer, LIVING_MOTION)
    await _walk(hass, freezer, LIVING_MOTION)
    await _walk(hass, freezer, LIVING_MOTION, LIVING_LAMP, lag=25)
    await _walk(hass, freezer, LIVING_MOTION)
    assert "slow_light_response" not in await _rules(hass, entry)


async def test_a_hand_switched_light_after_sunrise_is_no_slow_motion_light(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The hall light answers motion at once in the dark; in daylight its automation is
    off, and somebody switches it on by hand, 25 s after walking in."""
    entry = await _home(hass, freezer)
    await _motion_lights_answer(hass, freezer, 3)
    _sun(hass, up=True)
    await _walk(hass, freezer, HALL_MOTION, HALL_LIGHT, lag=25)
    await _walk(hass, freezer, HALL_MOTION)
    assert "slow_light_response" not in await _rules(hass, entry)


async def test_a_motion_light_that_answers_slowly_is_still_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The bedroom's motion light answers every walk, now 25 s late: degraded."""
    entry = await _home(hass, freezer)
    await _motion_lights_answer(hass, freezer, 4)
    await _walk(hass, freezer, BED_MOTION, BED_LIGHT, lag=25)
    assert "slow_light_response" in await _rules(hass, entry)

"""Analyses run periodically and shortly after significant changes (debounced)."""

from __future__ import annotations

from datetime import datetime, timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import async_fire_time_changed

from custom_components.anomaly_monitor.const import CONF_PROFILE

from .helpers import ALICE, FRONT_LOCK, LIVING_TEMP, SMOKE, analyze, set_calm_home, setup_monitor


async def test_significant_change_triggers_one_debounced_analysis(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """A burst of significant changes leads to a single analysis after the debounce delay."""
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    coordinator = entry.runtime_data.coordinator
    await hass.async_block_till_done(wait_background_tasks=True)
    start = coordinator.analyses

    hass.states.async_set(SMOKE, "on", {"device_class": "smoke"})
    hass.states.async_set(FRONT_LOCK, "unlocked")
    hass.states.async_set(FRONT_LOCK, "locked")
    await hass.async_block_till_done(wait_background_tasks=True)
    assert coordinator.analyses == start  # debounced, not yet

    freezer.tick(timedelta(seconds=11))
    async_fire_time_changed(hass)
    await hass.async_block_till_done(wait_background_tasks=True)
    assert coordinator.analyses == start + 1
    assert coordinator.data.analysis.verdict.evidence == (SMOKE,)


async def test_insignificant_change_waits_for_the_interval(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """A temperature reading is buffered; the periodic analysis picks it up."""
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    coordinator = entry.runtime_data.coordinator
    await hass.async_block_till_done(wait_background_tasks=True)
    start = coordinator.analyses

    hass.states.async_set(LIVING_TEMP, "22.0", {"device_class": "temperature"})
    freezer.tick(timedelta(seconds=30))
    async_fire_time_changed(hass)
    await hass.async_block_till_done(wait_background_tasks=True)
    assert coordinator.analyses == start

    freezer.tick(timedelta(minutes=16))
    async_fire_time_changed(hass)
    await hass.async_block_till_done(wait_background_tasks=True)
    assert coordinator.analyses == start + 1
    assert coordinator.data.analysis.transitions == 1


async def test_same_window_is_judged_once(hass: HomeAssistant) -> None:
    """Two analyses in a row with nothing new ask the detector once; a change asks again."""
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    coordinator = entry.runtime_data.coordinator
    calls = 0
    judge = coordinator.detector.async_analyze

    async def counting(window):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        return await judge(window)

    coordinator.detector.async_analyze = counting  # type: ignore[method-assign]
    hass.states.async_set(LIVING_TEMP, "22.5", {"device_class": "temperature"})
    await analyze(hass, entry)
    await analyze(hass, entry)
    assert calls == 1
    hass.states.async_set(LIVING_TEMP, "23.0", {"device_class": "temperature"})
    await analyze(hass, entry)
    assert calls == 2


async def test_motion_in_an_empty_home_and_impossible_readings_are_judged_early(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Motion is significant only while nobody is home; a reading that enters (or leaves) a
    possible fire's heat is, once (not each reading of a sauna at 80 °C), and again only when
    it climbs far above its hottest yet."""
    motion = "binary_sensor.hall_motion"
    set_calm_home(hass)
    hass.states.async_set(motion, "off", {"device_class": "motion"})
    entry = await setup_monitor(
        hass, include_entities=[SMOKE, FRONT_LOCK, LIVING_TEMP, motion, ALICE]
    )
    coordinator = entry.runtime_data.coordinator
    await hass.async_block_till_done(wait_background_tasks=True)

    async def analyses_after(state_changes: list[tuple[str, str, dict]]) -> int:
        start = coordinator.analyses
        for entity_id, state, attributes in state_changes:
            hass.states.async_set(entity_id, state, attributes)
        await hass.async_block_till_done(wait_background_tasks=True)
        freezer.tick(timedelta(seconds=11))
        async_fire_time_changed(hass)
        await hass.async_block_till_done(wait_background_tasks=True)
        return coordinator.analyses - start

    moving = {"device_class": "motion"}
    # Alice at home walks about: no early analysis.
    assert await analyses_after([(motion, "on", moving), (motion, "off", moving)]) == 0
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    await analyses_after([])  # her leaving is judged at once
    assert await analyses_after([(motion, "on", moving)]) == 1
    hot = {"device_class": "temperature", "unit_of_measurement": "°C"}
    assert await analyses_after([(LIVING_TEMP, "150", hot)]) == 1
    assert await analyses_after([(LIVING_TEMP, "153", hot)]) == 0  # the next reading climbs
    assert await analyses_after([(LIVING_TEMP, "175", hot)]) == 1  # hotter than ever: a fire
    assert await analyses_after([(LIVING_TEMP, "23", hot)]) == 1  # the heat is over
    assert await analyses_after([(LIVING_TEMP, "24", hot)]) == 0


async def test_a_light_switched_on_in_an_empty_home_is_judged_early(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """In a pet home, what tells a person from the pet is judged while the motion is on."""
    # An evening: a light switched on in the small hours is judged at once whoever is home
    # (``night_lights_due``), so the wall clock must not decide this test.
    freezer.move_to(datetime(2026, 6, 1, 19, 0, tzinfo=dt_util.get_default_time_zone()))
    light = "light.landing"
    set_calm_home(hass)
    hass.states.async_set(light, "off")
    entry = await setup_monitor(
        hass, include_entities=[SMOKE, FRONT_LOCK, light, ALICE], **{CONF_PROFILE: "Alice, a dog"}
    )
    coordinator = entry.runtime_data.coordinator
    await hass.async_block_till_done(wait_background_tasks=True)

    async def analyses_after(state: str) -> int:
        start = coordinator.analyses
        hass.states.async_set(light, state)
        await hass.async_block_till_done(wait_background_tasks=True)
        freezer.tick(timedelta(seconds=11))
        async_fire_time_changed(hass)
        await hass.async_block_till_done(wait_background_tasks=True)
        return coordinator.analyses - start

    assert await analyses_after("on") == 0  # Alice at home switches lights all evening
    assert await analyses_after("off") == 0
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    await analyses_after("off")  # her leaving is judged at once
    assert await analyses_after("on") == 1
    assert await analyses_after("off") == 0  # a light going off is nobody's sign
    # Without pets the motion itself is judged at once: a light adds no early analysis.
    await hass.config_entries.async_remove(entry.entry_id)
    entry = await setup_monitor(hass, include_entities=[SMOKE, FRONT_LOCK, light, ALICE])
    coordinator = entry.runtime_data.coordinator
    await hass.async_block_till_done(wait_background_tasks=True)
    assert await analyses_after("on") == 0

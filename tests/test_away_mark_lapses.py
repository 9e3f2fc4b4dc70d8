"""A false alarm on an entry while nobody is home covers that away spell only.

The mark has no degree: kept for its whole lifetime it would hide every entry at that door
at any hour (the cleaner's visit marked, a night-time break-in at the same door hidden).
The same false alarm teaches the learned away normal that an entry at that time of day is
normal; the mark itself lapses once somebody is home, and stays listed until it expires.
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import async_capture_events

from custom_components.anomaly_monitor.const import DOMAIN, EVENT_ANOMALY_DETECTED
from custom_components.anomaly_monitor.core.feedback import FalseAlarm

from .helpers import ALICE, FRONT_LOCK, analyze, set_calm_home, setup_monitor

LOCK = {"friendly_name": "Front door"}


async def _mark_false_alarm(hass: HomeAssistant) -> None:
    (issue_id,) = [i for (d, i), e in ir.async_get(hass).issues.items() if d == DOMAIN and e.active]
    manager = hass.data["repairs"]["flow_manager"]
    flow = await manager.async_init(DOMAIN, data={"issue_id": issue_id})
    await manager.async_configure(flow["flow_id"], {"next_step_id": "false_alarm"})
    await hass.async_block_till_done()


async def test_a_false_alarm_while_away_covers_that_spell_only(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    tracker = entry.runtime_data.coordinator.tracker
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)

    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    hass.states.async_set(FRONT_LOCK, "unlocked", LOCK)
    await analyze(hass, entry)
    await hass.async_block_till_done()
    assert len(detected) == 1
    await _mark_false_alarm(hass)  # "that is the cleaner", read while still away
    (mark,) = tracker.false_alarms.values()
    assert mark.until_home
    assert not mark.lapsed

    # The rest of the spell: the same door unlocked again is covered.
    hass.states.async_set(FRONT_LOCK, "locked", LOCK)
    freezer.tick(timedelta(minutes=20))
    await analyze(hass, entry)
    hass.states.async_set(FRONT_LOCK, "unlocked", LOCK)
    freezer.tick(timedelta(minutes=1))
    await analyze(hass, entry)
    await hass.async_block_till_done()
    assert len(detected) == 1
    hass.states.async_set(FRONT_LOCK, "locked", LOCK)

    # Alice comes home: the mark lapses, still listed (and stored so).
    freezer.tick(timedelta(hours=2))
    hass.states.async_set(ALICE, "home", {"friendly_name": "Alice"})
    await analyze(hass, entry)
    (mark,) = tracker.false_alarms.values()
    assert mark.lapsed
    assert FalseAlarm.from_stored(mark.as_dict()) == mark

    # Another spell, hours later: the door unlocked while nobody is home is told again.
    freezer.tick(timedelta(hours=1))
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    await analyze(hass, entry)
    freezer.tick(timedelta(hours=9))
    hass.states.async_set(FRONT_LOCK, "unlocked", LOCK)
    await analyze(hass, entry)
    await hass.async_block_till_done()
    assert len(detected) == 2

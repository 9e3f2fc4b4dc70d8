"""A motion light learned from the recorder in a real hass: paired through HA's device
registry (no area, neutral ids), told once it has missed three motions of its hours."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr, entity_registry as er
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.components.recorder.common import (
    async_wait_recording_done,
)

from custom_components.anomaly_monitor.diagnostics import async_get_config_entry_diagnostics

from .helpers import analyze
from .recorder_home import (  # noqa: F401 (fixtures, found by name)
    auto_enable_custom_integrations,
    quiet_sqlalchemy,
    recorder_config,
    setup_learning_monitor,
)

# Ids that say nothing: the floodlight's motion sensor and lamp share one registry device.
MOTION, LIGHT, ROSE = "binary_sensor.a1", "light.b2", "person.rose"
MOTION_ATTRS = {"device_class": "motion"}
EVENING = (19, 20, 21, 22)


def _register(hass: HomeAssistant) -> None:
    owner = MockConfigEntry(domain="test")
    owner.add_to_hass(hass)
    device = dr.async_get(hass).async_get_or_create(
        config_entry_id=owner.entry_id, identifiers={("test", "floodlight-1")}
    )
    registry = er.async_get(hass)
    for entity_id in (MOTION, LIGHT):
        domain, _, object_id = entity_id.partition(".")
        registry.async_get_or_create(
            domain, "test", object_id, suggested_object_id=object_id, device_id=device.id
        )


async def _motion(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, when: datetime, *, lit: bool
) -> None:
    freezer.move_to(when)
    hass.states.async_set(MOTION, "on", MOTION_ATTRS)
    if lit:
        freezer.move_to(when + timedelta(seconds=1))
        hass.states.async_set(LIGHT, "on")
    freezer.move_to(when + timedelta(minutes=2))
    hass.states.async_set(MOTION, "off", MOTION_ATTRS)
    if lit:
        freezer.move_to(when + timedelta(minutes=4))
        hass.states.async_set(LIGHT, "off")
    await hass.async_block_till_done()


def _rules(response: dict[str, Any]) -> list[str]:
    return [f["rule"] for f in response["verdict"]["findings"]]


async def test_a_motion_light_learned_from_the_recorder_is_told_when_it_stops_answering(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Twelve evenings in the recorder: motion at 19, 20, 21 and 22 h, the light on a second
    later each time. Learned on start; today the light stays off: not told after two
    unanswered motions, told after the third, naming the light and its motion sensor."""
    await hass.config.async_set_time_zone("Europe/Brussels")
    _register(hass)
    today = dt_util.start_of_local_day(dt_util.now() - timedelta(days=1))
    freezer.move_to(today - timedelta(days=12))
    hass.states.async_set(ROSE, "home", {"friendly_name": "Rose"})
    hass.states.async_set(MOTION, "off", MOTION_ATTRS)
    hass.states.async_set(LIGHT, "off")
    for day in range(12, 0, -1):
        for hour in EVENING:
            await _motion(hass, freezer, today - timedelta(days=day, hours=-hour), lit=True)
    await async_wait_recording_done(hass)

    freezer.move_to(today + timedelta(hours=18))
    entry = await setup_learning_monitor(hass, [MOTION, LIGHT, ROSE])
    summary = (await async_get_config_entry_diagnostics(hass, entry))["baselines"]
    assert summary["history_status"] == "loaded"
    assert summary["related_pairs"] == 1  # paired through the device: neither has an area

    for hour in (19, 20):
        await _motion(hass, freezer, today + timedelta(hours=hour), lit=False)
    freezer.move_to(today + timedelta(hours=20, minutes=30))
    assert "light_not_answering_motion" not in _rules(await analyze(hass, entry))

    await _motion(hass, freezer, today + timedelta(hours=21), lit=False)
    freezer.move_to(today + timedelta(hours=21, minutes=10))
    response = await analyze(hass, entry)
    finding = next(
        f for f in response["verdict"]["findings"] if f["rule"] == "light_not_answering_motion"
    )
    assert finding["evidence"] == [LIGHT, MOTION]
    assert "has not come on the last 3 times" in finding["reasoning"]
    assert "since 19:00" in finding["reasoning"]
    assert "at 19:00-23:00 it came on within 1 s of movement 48 of 48 times" in finding["reasoning"]

    # The bulb is changed: the light answers again, nothing more to tell.
    await _motion(hass, freezer, today + timedelta(hours=22), lit=True)
    freezer.move_to(today + timedelta(hours=22, minutes=10))
    assert "light_not_answering_motion" not in _rules(await analyze(hass, entry))

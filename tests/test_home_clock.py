"""Times in what the homeowner reads are on the home's clock, not UTC."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.persistent_notification import _async_get_or_create_notifications
from homeassistant.core import HomeAssistant

from custom_components.anomaly_monitor.const import CONF_INCLUDE_ENTITIES, DOMAIN

from .helpers import ALICE, analyze, set_calm_home, setup_monitor

# (A back door: a garage door is "left open" only past an hour, ``usual_judge``.)
DOOR = "binary_sensor.back_door"
BACK_DOOR = {"device_class": "door", "friendly_name": "Back door"}


async def test_a_door_left_open_says_when_on_the_home_clock(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Seen in a live hass in Amsterdam: 'Garage door stayed open for 21 min (from 05:34)'
    at 06:55 local: the checks formatted the watcher's UTC times (a back door here)."""
    await hass.config.async_set_time_zone("Europe/Amsterdam")
    freezer.move_to(datetime(2026, 12, 1, 5, 0, tzinfo=UTC))
    set_calm_home(hass)
    hass.states.async_set(DOOR, "off", BACK_DOOR)
    entry = await setup_monitor(hass, learned=True, **{CONF_INCLUDE_ENTITIES: [DOOR, ALICE]})
    freezer.move_to(datetime(2026, 12, 1, 5, 34, tzinfo=UTC))  # 06:34 in Amsterdam
    hass.states.async_set(DOOR, "on", BACK_DOOR)
    await hass.async_block_till_done()
    freezer.tick(timedelta(minutes=21))

    response = await analyze(hass, entry)
    await hass.async_block_till_done()
    finding = next(f for f in response["verdict"]["findings"] if f["rule"] == "entry_left_open")
    assert "(from 06:34)" in finding["reasoning"]
    (note,) = (
        n
        for key, n in _async_get_or_create_notifications(hass).items()
        if key.startswith(f"{DOMAIN}_{entry.entry_id}_")
    )
    assert "from 06:34" in note["message"]
    assert "05:34" not in note["message"]


async def test_a_door_left_open_across_the_spring_change_says_how_long_it_really_was(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Opened at 01:50 CET the night the clocks go forward, read at 03:25 CEST: 35 min,
    not the 95 the wall clocks' difference says (the watcher's times were of one zone,
    which Python subtracts by wall time)."""
    await hass.config.async_set_time_zone("Europe/Berlin")
    freezer.move_to(datetime(2026, 3, 29, 0, 0, tzinfo=UTC))
    set_calm_home(hass)
    hass.states.async_set(DOOR, "off", BACK_DOOR)
    entry = await setup_monitor(hass, learned=True, **{CONF_INCLUDE_ENTITIES: [DOOR, ALICE]})
    freezer.move_to(datetime(2026, 3, 29, 0, 50, tzinfo=UTC))  # 01:50 CET
    hass.states.async_set(DOOR, "on", BACK_DOOR)
    await hass.async_block_till_done()
    freezer.move_to(datetime(2026, 3, 29, 1, 25, tzinfo=UTC))  # 03:25 CEST

    response = await analyze(hass, entry)
    await hass.async_block_till_done()
    finding = next(f for f in response["verdict"]["findings"] if f["rule"] == "entry_left_open")
    assert "stayed open for 35 min (from 01:50)" in finding["reasoning"], finding["reasoning"]

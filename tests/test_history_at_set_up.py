"""A monitor added (again) does not tell the recorder's past as news.

Seen in the lead's re-walk of walk 9: the entry deleted and added again read the
recorder's last two hours back into its window and told, at set-up, a window opened
while nobody was home 40 minutes before (closed since) as if it were happening. What
still holds (a door standing open in the empty home) is told; what is over is history.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import async_capture_events
from pytest_homeassistant_custom_component.components.recorder.common import (
    async_wait_recording_done,
)

from custom_components.anomaly_monitor.const import (
    CONF_HISTORY_DAYS,
    CONF_INCLUDE_ENTITIES,
    EVENT_ANOMALY_DETECTED,
)

from .helpers import ALICE, analyze, put_in_area, set_calm_home, setup_monitor
from .recorder_home import (  # noqa: F401 (fixtures, found by name)
    auto_enable_custom_integrations,
    quiet_sqlalchemy,
    recorder_config,
)

WINDOW = "binary_sensor.living_room_window"
DOOR = "binary_sensor.front_door"
WINDOW_ATTRS = {"device_class": "window", "friendly_name": "Living room window"}
DOOR_ATTRS = {"device_class": "door", "friendly_name": "Front door"}


async def test_an_entry_over_before_set_up_is_not_told_and_an_open_door_is(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    await hass.config.async_set_time_zone("Europe/Amsterdam")
    put_in_area(hass, "Living Room", WINDOW)
    put_in_area(hass, "Hall", DOOR)
    freezer.move_to(datetime(2026, 12, 1, 19, 0, tzinfo=UTC))
    set_calm_home(hass)
    hass.states.async_set(WINDOW, "off", WINDOW_ATTRS)
    hass.states.async_set(DOOR, "off", DOOR_ATTRS)
    freezer.move_to(datetime(2026, 12, 1, 19, 10, tzinfo=UTC))
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    freezer.move_to(datetime(2026, 12, 1, 19, 30, tzinfo=UTC))
    hass.states.async_set(WINDOW, "on", WINDOW_ATTRS)  # 40 min before the set-up
    freezer.move_to(datetime(2026, 12, 1, 19, 35, tzinfo=UTC))
    hass.states.async_set(WINDOW, "off", WINDOW_ATTRS)
    await async_wait_recording_done(hass)

    freezer.move_to(datetime(2026, 12, 1, 20, 10, tzinfo=UTC))  # the monitor is added
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    entry = await setup_monitor(
        hass, **{CONF_INCLUDE_ENTITIES: [WINDOW, DOOR, ALICE], CONF_HISTORY_DAYS: 0}
    )
    await hass.async_block_till_done(wait_background_tasks=True)
    # As after a restart (walk 10): the window reads nothing, then closed, after the
    # monitor started: a report, no opening.
    hass.states.async_set(WINDOW, "unavailable", WINDOW_ATTRS)
    freezer.tick(5)
    hass.states.async_set(WINDOW, "off", WINDOW_ATTRS)
    response = await analyze(hass, entry)
    # The window's opening is in the window the monitor judges...
    assert any(f["rule"] == "window_opened_while_away" for f in response["verdict"]["findings"])
    # ...but it is history: nothing is told.
    assert [e.data["rule"] for e in detected] == []

    # A door opened now, in the still empty home, is news.
    freezer.move_to(datetime(2026, 12, 1, 20, 12, tzinfo=UTC))
    hass.states.async_set(DOOR, "on", DOOR_ATTRS)
    await analyze(hass, entry)
    await hass.async_block_till_done()
    assert [e.data["rule"] for e in detected] == ["entry_unsecured_while_away"]


async def test_a_door_stay_over_before_set_up_is_not_told_and_one_after_is(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Walk 58's left 5: the entry added again pushed "Front door left open ... It is shut
    now" for a stay in the empty home that was over minutes before it existed."""
    await hass.config.async_set_time_zone("Europe/Amsterdam")
    put_in_area(hass, "Hall", DOOR)
    freezer.move_to(datetime(2026, 12, 1, 19, 0, tzinfo=UTC))
    set_calm_home(hass)
    hass.states.async_set(DOOR, "off", DOOR_ATTRS)
    freezer.move_to(datetime(2026, 12, 1, 19, 25, tzinfo=UTC))
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    freezer.move_to(datetime(2026, 12, 1, 19, 30, tzinfo=UTC))
    hass.states.async_set(DOOR, "on", DOOR_ATTRS)  # open 40 min in the empty home
    freezer.move_to(datetime(2026, 12, 1, 20, 10, tzinfo=UTC))
    hass.states.async_set(DOOR, "off", DOOR_ATTRS)
    freezer.move_to(datetime(2026, 12, 1, 20, 11, tzinfo=UTC))
    hass.states.async_set(ALICE, "home", {"friendly_name": "Alice"})
    await async_wait_recording_done(hass)

    freezer.move_to(datetime(2026, 12, 1, 20, 14, tzinfo=UTC))  # the monitor is added
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    entry = await setup_monitor(hass, **{CONF_INCLUDE_ENTITIES: [DOOR, ALICE]})
    await hass.async_block_till_done(wait_background_tasks=True)
    response = await analyze(hass, entry)
    # The stay is in the window the monitor judges...
    assert any(f["rule"] == "entry_left_open" for f in response["verdict"]["findings"])
    # ...but it was over before the monitor existed: history, not told.
    assert [e.data["rule"] for e in detected] == []

    # The same stay lived while the monitor watches is told.
    freezer.move_to(datetime(2026, 12, 1, 20, 20, tzinfo=UTC))
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    freezer.move_to(datetime(2026, 12, 1, 20, 25, tzinfo=UTC))
    hass.states.async_set(DOOR, "on", DOOR_ATTRS)
    await analyze(hass, entry)
    freezer.move_to(datetime(2026, 12, 1, 21, 5, tzinfo=UTC))
    hass.states.async_set(DOOR, "off", DOOR_ATTRS)
    await analyze(hass, entry)
    await hass.async_block_till_done()
    assert [e.data["rule"] for e in detected] != []

"""The "already told" memories survive a restart (a real hass, the tracker's Store).

Guests told once and acknowledged, a heating failure told once, a problem acknowledged
and just ended: after the tracker is written and loaded again (a restart), the next sign
of each is still shown, not told. A damaged memory loads empty with a warning, and the
open anomalies beside it still load.
"""

from __future__ import annotations

from datetime import timedelta
import logging
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
import pytest

from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.const import DOMAIN
from custom_components.anomaly_monitor.core.models import (
    HOME_SUBJECT,
    AnomalyType,
    Finding,
    Severity,
)

HALL = "binary_sensor.hall_motion"
LOUNGE = "binary_sensor.lounge_motion"
CLIMATE = "climate.hallway"
ROOM = "sensor.hallway_temperature"
PLUG = "switch.dehumidifier"


def _motion(sensor: str) -> Finding:
    return Finding(
        "motion_while_away",
        (sensor,),
        f"Motion on {sensor}.",
        AnomalyType.OCCUPANCY_MISMATCH,
        Severity.HIGH,
        subject=HOME_SUBJECT,
        while_away=True,
    )


def _heating(rule: str, subject: str) -> Finding:
    evidence = (subject, ROOM if subject == CLIMATE else CLIMATE)
    return Finding(
        rule, evidence, f"{rule}.", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM, subject=subject
    )


def _left_on() -> Finding:
    return Finding(
        "state_longer_than_usual",
        (PLUG,),
        "The dehumidifier has been on for 9 h.",
        AnomalyType.BEHAVIOURAL,
        Severity.MEDIUM,
        subject=PLUG,
    )


async def _restarted(hass: HomeAssistant, tracker: AnomalyTracker) -> AnomalyTracker:
    await tracker.async_flush()
    again = AnomalyTracker(hass, "home")
    await again.async_load()
    return again


async def test_a_stay_told_before_a_restart_is_not_told_again(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "home")
    now = dt_util.utcnow()
    (told,) = tracker.update([_motion(HALL)], now).opened
    tracker.acknowledge(told.key)
    for minutes in (2, 4, 6):
        tracker.update([], now + timedelta(minutes=minutes))
    assert tracker.open == {}
    tracker = await _restarted(hass, tracker)
    later = tracker.update([_motion(LOUNGE)], now + timedelta(hours=1))
    assert later.opened == []
    assert [a.acknowledged for a in later.reopened] == [True]


async def test_a_heating_failure_and_an_acknowledgement_survive_a_restart(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "home")
    now = dt_util.utcnow()
    tracker.update([_heating("heating_not_warming", CLIMATE)], now)
    (left_on,) = tracker.update([_left_on()], now).opened
    tracker.acknowledge(left_on.key)
    for minutes in (2, 4, 6):
        tracker.update([], now + timedelta(minutes=minutes), states={PLUG: "on"})
    assert tracker.open == {}
    tracker = await _restarted(hass, tracker)
    later = now + timedelta(hours=2)
    colder = tracker.update([_heating("room_colder_than_kept", ROOM)], later)
    assert colder.opened == []
    again = tracker.update([_left_on()], later, states={PLUG: "on"})
    assert again.opened == []
    assert [a.acknowledged for a in again.reopened] == [True]


@pytest.mark.parametrize(
    "damaged",
    [
        "not a mapping",
        {"away_stay": {"told_at": "yesterday", "severity": 2}},
        {"heat_spells": {CLIMATE: [None, "yes"]}, "acknowledged_hold": [1, 2]},
    ],
)
async def test_a_damaged_memory_loads_empty_with_a_warning(
    hass: HomeAssistant,
    hass_storage: dict[str, Any],
    caplog: pytest.LogCaptureFixture,
    damaged: object,
) -> None:
    tracker = AnomalyTracker(hass, "home")
    now = dt_util.utcnow()
    tracker.update([_motion(HALL)], now)
    await tracker.async_flush()
    hass_storage[f"{DOMAIN}.home"]["data"]["already_told"] = damaged
    caplog.set_level(logging.WARNING)
    loaded = AnomalyTracker(hass, "home")
    await loaded.async_load()
    assert "already_told" in caplog.text
    assert len(loaded.open) == 1  # the open anomaly beside it still loads
    # Its memory is empty: motion after the stay's anomaly ended is told (not a crash).
    for minutes in (2, 4, 6):
        loaded.update([], now + timedelta(minutes=minutes))
    assert len(loaded.update([_motion(LOUNGE)], now + timedelta(hours=1)).opened) == 1

"""A finding that joins an acknowledged incident without making it graver is on record.

Walk of session 17: the front door opened at an hour it is never used (the household
home), told and acknowledged. Alice and Bob left; a minute later the lock was unlocked
while nobody was home. That finding's subject is the same door, its severity the same:
it joined the acknowledged incident, and was shown nowhere (no notification, issue, event
or logbook entry; on 953f7ea only ``analyze`` showed it). Not ringing the phone again is
the incident policy (an acknowledged entry holds what follows it); the logbook now says
what joined, once.
"""

from __future__ import annotations

from datetime import timedelta

from homeassistant.components import persistent_notification
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import async_capture_events

from custom_components.anomaly_monitor.anomalies.telling import async_tell, wording
from custom_components.anomaly_monitor.const import DOMAIN, EVENT_ANOMALY_DETECTED
from custom_components.anomaly_monitor.core.models import Finding, Severity

from .helpers import set_calm_home, setup_monitor

DOOR = "binary_sensor.front_door"
LOCK = "lock.front_door"

NIGHT_ENTRY = Finding(
    "entry_at_an_unused_hour", (DOOR,), "Front door opened from outside at 00:31.",
    "security", Severity.HIGH, subject=DOOR,
)  # fmt: skip
UNLOCKED_AWAY = Finding(
    "entry_unsecured_while_away", (LOCK,), "Front door lock is unlocked while nobody is home.",
    "security", Severity.HIGH, subject=DOOR, while_away=True,
)  # fmt: skip


async def test_an_entry_while_away_joining_the_acknowledged_one_is_logged(
    hass: HomeAssistant,
) -> None:
    set_calm_home(hass)
    hass.states.async_set(DOOR, "off", {"device_class": "door", "friendly_name": "Front door"})
    hass.states.async_set(LOCK, "locked", {"friendly_name": "Front door lock"})
    entry = await setup_monitor(hass)
    coordinator = entry.runtime_data.coordinator
    tracker, announcer = coordinator.tracker, coordinator.announcer
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    logged = async_capture_events(hass, "logbook_entry")
    now = dt_util.utcnow()

    async def _analyse(findings: list[Finding], at: timedelta) -> None:
        before = wording(tracker)
        changes = tracker.update(findings, now + at)
        await async_tell(announcer, tracker, changes, before)
        await hass.async_block_till_done()

    await _analyse([NIGHT_ENTRY], timedelta(0))
    (told,) = detected
    coordinator.async_acknowledge(told.data["anomaly_id"])
    await hass.async_block_till_done()

    hass.states.async_set(LOCK, "unlocked", {"friendly_name": "Front door lock"})
    await _analyse([NIGHT_ENTRY, UNLOCKED_AWAY], timedelta(minutes=1))
    assert len(detected) == 1  # not pushed: the same door, no graver
    assert persistent_notification._async_get_or_create_notifications(hass) == {}
    (line,) = logged
    assert line.data["domain"] == DOMAIN
    assert line.data["entity_id"] == "event.home_anomaly"
    message = line.data["message"]
    assert message.startswith("Front door lock unlocked while nobody is home: joins ")
    assert "which you acknowledged" in message

    await _analyse([NIGHT_ENTRY, UNLOCKED_AWAY], timedelta(minutes=2))  # once, not each time
    assert len(logged) == 1

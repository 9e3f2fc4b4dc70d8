"""A told device found graver minutes after its incident ended, unchanged since: one incident.

Set 49 (Valparaíso): an oven left on, "drawing at hours it never draws" told about its plug
at 17:24, over at 18:11 as that rule's window moved on (the oven still on, its switch
untouched), then "drawing for 2 h 11 min and nobody has moved" (graver, a safety hazard)
pushed at 18:26 as a second incident. Now the second finding opens the oven's incident
again and tells it as graver: one notification, pushed once more. The oven switched off and
on in between, a finding no graver, an end longer ago, or a detector's alarm stay apart.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.graver_after_end import JUST_OVER
from custom_components.anomaly_monitor.anomalies.open_anomaly import CLEAR_AFTER
from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.escalation import Escalation
from custom_components.anomaly_monitor.core.models import EntityState, Severity

from .tracker_home import finding, state

OVEN = "switch.horno"
OVEN_METER = "sensor.horno_consumo_actual"
SMOKE = "binary_sensor.horno_humo"
ODD_HOURS = finding("meter_drawing_at_unusual_hours", (OVEN, OVEN_METER), "energy", magnitude=1.2)
UNATTENDED = finding(
    "cooking_at_an_unusual_hour", OVEN_METER, "safety_hazard", Severity.HIGH, magnitude=2.2
)
OVEN_SMOKE = finding("hazard_detected", SMOKE, "safety_hazard", Severity.CRITICAL)
STILL_ODD = finding(
    "meter_drawing_at_unusual_hours", OVEN_METER, "energy", Severity.MEDIUM, subject=OVEN
)


def _oven(switched: datetime, watts: str, drew: datetime) -> dict[str, EntityState]:
    return {
        OVEN: state(OVEN, "on", "Cocina", changed=switched),
        OVEN_METER: state(OVEN_METER, watts, "Cocina", "power", "W", changed=drew),
        SMOKE: state(SMOKE, "off", "Cocina", "smoke", changed=switched - timedelta(days=2)),
    }


def _told_then_over(tracker: AnomalyTracker, start: datetime) -> datetime:
    """The oven told at ``start`` + 1 h (switched on at ``start``), over 47 min later."""
    home = _oven(start, "1790", start)
    told = start + timedelta(hours=1)
    changes = tracker.update([ODD_HOURS], told, True, states=_states(home), entities=home)
    assert [a.rule for a in changes.opened] == ["meter_drawing_at_unusual_hours"]
    missed = told + timedelta(minutes=45)
    tracker.update([], missed, True, states=_states(home), entities=home)
    tracker.update([], missed + CLEAR_AFTER, True, states=_states(home), entities=home)
    assert not tracker.open
    return missed + CLEAR_AFTER


def _states(home: dict[str, EntityState]) -> dict[str, str]:
    return {e: s.state for e, s in home.items()}


async def test_the_oven_found_graver_after_its_end_is_told_as_its_escalation(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "oven")
    start = dt_util.utcnow()
    gone = _told_then_over(tracker, start)
    (oven,) = tracker.ended.values()
    later = gone + timedelta(minutes=15)
    home = _oven(start, "1010", later - timedelta(minutes=5))  # its thermostat's low step
    changes = tracker.update([UNATTENDED], later, True, states=_states(home), entities=home)
    # The oven's own incident, open again and pushed once more as graver (a hazard now).
    assert [a.signature for a in changes.opened] == [oven.signature]
    assert list(tracker.open) == [oven.signature]
    assert not tracker.ended
    assert oven.ended is None
    assert oven.escalation == Escalation.HAZARD.value
    assert oven.severity == "high"
    assert set(oven.rules) == {"meter_drawing_at_unusual_hours", "cooking_at_an_unusual_hour"}


async def test_the_oven_switched_off_and_on_since_is_a_new_incident(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "oven-again")
    start = dt_util.utcnow()
    gone = _told_then_over(tracker, start)
    (oven,) = tracker.ended.values()
    later = gone + timedelta(minutes=15)
    home = _oven(later - timedelta(minutes=10), "1790", later - timedelta(minutes=10))
    changes = tracker.update([UNATTENDED], later, True, states=_states(home), entities=home)
    assert [a.rule for a in changes.opened] == ["cooking_at_an_unusual_hour"]
    assert changes.opened[0].signature != oven.signature
    assert oven.signature in tracker.ended


async def test_an_end_longer_ago_is_news(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "oven-late")
    start = dt_util.utcnow()
    gone = _told_then_over(tracker, start)
    home = _oven(start, "1790", start)
    for minutes in range(15, 75, 15):  # drawing on, nothing found
        tracker.update(
            [], gone + timedelta(minutes=minutes), True, states=_states(home), entities=home
        )
    later = gone + JUST_OVER + timedelta(minutes=5)
    changes = tracker.update([UNATTENDED], later, True, states=_states(home), entities=home)
    assert [a.rule for a in changes.opened] == ["cooking_at_an_unusual_hour"]
    assert len(tracker.ended) == 1


async def test_a_detectors_alarm_on_the_same_device_is_told_as_its_own(
    hass: HomeAssistant,
) -> None:
    """Smoke by the oven says when the smoke began, in its own notification."""
    tracker = AnomalyTracker(hass, "oven-smoke")
    start = dt_util.utcnow()
    gone = _told_then_over(tracker, start)
    (oven,) = tracker.ended.values()
    later = gone + timedelta(minutes=10)
    home = _oven(start, "1790", start)
    home[SMOKE] = state(SMOKE, "on", "Cocina", "smoke", changed=later - timedelta(seconds=20))
    changes = tracker.update([OVEN_SMOKE], later, True, states=_states(home), entities=home)
    assert [a.rule for a in changes.opened] == ["hazard_detected"]
    assert changes.opened[0].signature != oven.signature
    assert oven.signature in tracker.ended


async def test_a_finding_no_graver_after_the_end_is_not_told_as_graver(
    hass: HomeAssistant,
) -> None:
    """No graver: not this notion's (``told_unchanged`` shows it, not pushed)."""
    tracker = AnomalyTracker(hass, "oven-same")
    start = dt_util.utcnow()
    gone = _told_then_over(tracker, start)
    (oven,) = tracker.ended.values()
    later = gone + timedelta(minutes=15)
    home = _oven(start, "1790", start)
    changes = tracker.update([STILL_ODD], later, True, states=_states(home), entities=home)
    assert changes.opened == []
    assert oven.escalation == ""

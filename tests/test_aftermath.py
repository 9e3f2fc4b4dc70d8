"""A room still off after an acknowledged problem there is over is its aftermath (set 14).

The evaporative cooler's pump seized: "running far below its draw" told, over when the
cooler was switched off, acknowledged late; the living room, hot by then, cooled slowly,
and "above its hours" pushed the same failure again (on 65ba6e3). No further off than
when the problem was over, it opens acknowledged; hotter than then, another room's
reading, a problem never acknowledged, or a hazard, is told.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.acknowledged_hold import HOLD
from custom_components.anomaly_monitor.anomalies.open_anomaly import CLEAR_AFTER
from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.models import EntityState, Severity

from .tracker_home import finding, outcome, state

POWER = "sensor.cooler_power"
LIVING = "sensor.living_temperature"
BEDROOM = "sensor.bedroom_temperature"

# The cooler draws 188 W where it never drew less than 415 W running; the living room
# (and the bedroom) above anything they read at these hours.
FAILING = finding("running_far_below_its_draw", POWER, "device_malfunction", magnitude=227.0)
LIVING_HOT = finding("reading_off_its_hours", LIVING, "device_malfunction", magnitude=7.4)
BEDROOM_HOT = finding("reading_off_its_hours", BEDROOM, "device_malfunction", magnitude=5.0)
LIVING_HAZARD = finding(
    "reading_off_its_hours", LIVING, "safety_hazard", Severity.CRITICAL, magnitude=9.0
)


def _home(watts: str, living: str, now: datetime) -> dict[str, EntityState]:
    return {
        POWER: state(POWER, watts, "Living", "power", "W", changed=now, name="Cooler power"),
        LIVING: state(LIVING, living, "Living", "temperature", "°C", changed=now, name="Living"),
        BEDROOM: state(BEDROOM, "30.0", "Bedroom", "temperature", "°C", changed=now),
    }


def _failed_then_over(tracker: AnomalyTracker, now: datetime, acknowledge: bool) -> datetime:
    """The cooler told failing at ``now``, switched off 3 h later with the living room at
    33.2 °C, over; acknowledged (read late) once over, when ``acknowledge``."""
    assert outcome(tracker, [FAILING], now, _home("188", "26.4", now))[0] == [
        "running_far_below_its_draw"
    ]
    off = now + timedelta(hours=3)
    outcome(tracker, [], off, _home("0.0", "33.2", off))
    over = off + CLEAR_AFTER
    outcome(tracker, [], over, _home("0.0", "33.2", over))
    assert not tracker.open
    if acknowledge:
        (cooler,) = tracker.ended.values()
        tracker.acknowledge(cooler.key)
    read = over + timedelta(minutes=5)
    outcome(tracker, [], read, _home("0.0", "33.2", read))
    return read


async def test_the_room_settling_after_an_acknowledged_failure_is_not_told(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "cooler")
    now = dt_util.utcnow()
    read = _failed_then_over(tracker, now, acknowledge=True)
    later = read + timedelta(hours=2)
    cooling = _home("0.0", "32.6", later)
    assert outcome(tracker, [LIVING_HOT], later, cooling) == ([], ["reading_off_its_hours"])
    assert tracker.open[LIVING_HOT.signature].acknowledged
    # Stored: a restart keeps what the room read.
    await tracker.async_flush()
    again = AnomalyTracker(hass, "cooler")
    await again.async_load()
    assert outcome(again, [LIVING_HOT], later, cooling)[0] == []
    # Another room's reading is news; so is a hazard.
    room = AnomalyTracker(hass, "cooler-room")
    _failed_then_over(room, now, acknowledge=True)
    assert outcome(room, [BEDROOM_HOT], later, cooling)[0] == ["reading_off_its_hours"]
    fresh = AnomalyTracker(hass, "cooler-hazard")
    read = _failed_then_over(fresh, now, acknowledge=True)
    assert outcome(fresh, [LIVING_HAZARD], later, cooling)[0] == ["reading_off_its_hours"]


async def test_hotter_than_then_unacknowledged_or_past_the_hold_is_told(
    hass: HomeAssistant,
) -> None:
    now = dt_util.utcnow()
    hotter = AnomalyTracker(hass, "hotter")
    read = _failed_then_over(hotter, now, acknowledge=True)
    later = read + timedelta(hours=2)
    assert outcome(hotter, [LIVING_HOT], later, _home("0.0", "34.5", later))[0] == [
        "reading_off_its_hours"
    ]
    told = AnomalyTracker(hass, "unacknowledged")
    read = _failed_then_over(told, now, acknowledge=False)
    assert outcome(told, [LIVING_HOT], later, _home("0.0", "32.6", later))[0] == [
        "reading_off_its_hours"
    ]
    held = AnomalyTracker(hass, "past")
    read = _failed_then_over(held, now, acknowledge=True)
    past = read + HOLD
    assert outcome(held, [LIVING_HOT], past, _home("0.0", "32.6", past))[0] == [
        "reading_off_its_hours"
    ]

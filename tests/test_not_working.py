"""An acknowledged device fault lasts until the device is seen working (set 43, Windhoek).

The pool pump's capacitor failed: switched on each morning by its plug, it drew 0 W.
"Switched on, but draws no power" was told, over when the plug switched off, and
acknowledged; the next mornings "the run it makes did not come" was pushed about the same
meter, which had not drawn since. Held while the meter stays at rest, past the usual hold
and its switch turned off and on; news once it drew in between; the device going offline
is never held so; a restart does not forget it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.acknowledged_hold import HOLD
from custom_components.anomaly_monitor.anomalies.already_told import AlreadyTold
from custom_components.anomaly_monitor.anomalies.open_anomaly import CLEAR_AFTER
from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.models import EntityState

from .tracker_home import finding, outcome, state

PUMP = "switch.pool_pump_plug"
METER = "sensor.pool_pump_plug_power"
NO_POWER = finding("switched_on_without_power", (PUMP, METER), "device_malfunction")
RUN_MISSING = finding("meter_run_missing", METER, "device_malfunction")
OFFLINE = finding("device_unavailable", METER, "device_malfunction")


def _pump(switch: str, watts: str, at: datetime) -> dict[str, EntityState]:
    return {
        PUMP: state(PUMP, switch, "Yard", changed=at),
        METER: state(METER, watts, "Yard", "power", "W", changed=at),
    }


def _acknowledged_fault(tracker: AnomalyTracker, start: datetime) -> datetime:
    """Told at 08:30, over once the plug switched off at 14:00, acknowledged at 19:00;
    the time of the next morning's 08:00."""
    told, _ = outcome(tracker, [NO_POWER], start, _pump("on", "0", start))
    assert told == ["switched_on_without_power"]
    off = start + timedelta(hours=5, minutes=30)
    outcome(tracker, [], off, _pump("off", "0", off))
    outcome(tracker, [], off + CLEAR_AFTER, _pump("off", "0", off))
    assert not tracker.open
    (over,) = tracker.ended.values()
    tracker.acknowledge(over.key)
    return start + timedelta(hours=23, minutes=30)


def _days(tracker: AnomalyTracker, morning: datetime, watts: str, days: int) -> datetime:
    """``days`` mornings of the plug on at 08:00 and off at 14:00, the meter at ``watts``;
    the time of the morning after."""
    for day in range(days):
        on = morning + timedelta(days=day)
        off = on + timedelta(hours=6)
        outcome(tracker, [], on + timedelta(minutes=5), _pump("on", watts, on))
        outcome(tracker, [], off + timedelta(minutes=5), _pump("off", "0", off))
    return morning + timedelta(days=days)


async def test_the_fault_found_again_while_nothing_drew_is_shown(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "pump")
    start = dt_util.utcnow()
    morning = _days(tracker, _acknowledged_fault(tracker, start), "0", 1)
    assert morning - start > HOLD  # past the usual hold, its switch off and on since
    found = morning + timedelta(minutes=5)
    told, shown = outcome(tracker, [RUN_MISSING], found, _pump("on", "0", morning))
    assert (told, shown) == ([], ["meter_run_missing"])
    (run,) = tracker.open.values()
    assert run.acknowledged


async def test_a_draw_in_between_makes_it_news(hass: HomeAssistant) -> None:
    """Mended (it drew 750 W one morning), then failing again: a new trouble, told."""
    tracker = AnomalyTracker(hass, "mended")
    start = dt_util.utcnow()
    morning = _days(tracker, _acknowledged_fault(tracker, start), "750", 1)
    found = morning + timedelta(minutes=5)
    told, _ = outcome(tracker, [RUN_MISSING], found, _pump("on", "0", morning))
    assert told == ["meter_run_missing"]


async def test_the_plug_going_offline_is_told(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "offline")
    start = dt_util.utcnow()
    morning = _days(tracker, _acknowledged_fault(tracker, start), "0", 1)
    found = morning + timedelta(minutes=5)
    told, _ = outcome(tracker, [OFFLINE], found, _pump("on", "unavailable", morning))
    assert told == ["device_unavailable"]


async def test_a_restart_does_not_mend_it(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "stored")
    start = dt_util.utcnow()
    _acknowledged_fault(tracker, start)
    told = tracker.already_told
    (signature,) = told.acknowledged_hold.not_working.as_dict()
    warnings: list[str] = []
    back = AlreadyTold.from_stored(told.as_dict(), warnings)
    assert warnings == []
    assert signature in back.acknowledged_hold.not_working
    assert signature in back.acknowledged_hold.seen

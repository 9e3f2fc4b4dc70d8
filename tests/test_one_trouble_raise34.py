"""One trouble, one notification: a pump started by its leak elsewhere, a load left on
across a day the home was lived in, the motion of the person who just forced a door.

Set 27 (Triolet): the roof tank's outlet split at 02:20, the leak sensor on the roof slab
told; the booster pump in the yard lost its pressure, switched on 30 s later and ran on,
and "780 W for 30 min" was pushed apart. A water heater's element left on was told while
the family was out, over when they came home, and pushed again the next morning when
they had left, its switch never off. Set 7 (Baldivis): the lounge's motion 24 s after the
sliding door was forced joined the lounge compressor's incident and was pushed again.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.joining import targets
from custom_components.anomaly_monitor.anomalies.open_anomaly import OpenAnomaly
from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.incidents import by_incident
from custom_components.anomaly_monitor.core.models import EntityState, Finding, Severity

from .tracker_home import finding, state

LEAK = "binary_sensor.roof_tank_leak"
PUMP = "switch.booster"
PUMP_POWER = "sensor.booster_power"
HEATER = "switch.backup_element"
HEATER_POWER = "sensor.backup_element_power"

WATER = finding("hazard_detected", LEAK, "safety_hazard", Severity.HIGH)
PUMP_RUNS_ON = finding("left_on_past_its_routine", (PUMP, PUMP_POWER), "energy", subject=PUMP)
DRAWING_AWAY = finding(
    "appliance_active_while_away",
    (HEATER, HEATER_POWER),
    "occupancy_mismatch",
    subject="home",
    while_away=True,
)


def _update(
    tracker: AnomalyTracker,
    findings: list[Finding],
    now: datetime,
    home: dict[str, EntityState],
    *,
    someone_home: bool = True,
) -> tuple[list[str], list[str], list[str]]:
    """One analysis at ``now``: (pushed, shown, over) by rule."""
    changes = tracker.update(
        findings, now, someone_home, states={e: s.state for e, s in home.items()}, entities=home
    )
    return (
        [a.rule for a in changes.opened],
        [a.rule for a in changes.reopened],
        [a.rule for a in changes.cleared],
    )


def _one_device(entity: EntityState, device: str) -> EntityState:
    return replace(entity, info=replace(entity.info, device=device))


async def test_a_pump_started_with_the_leak_elsewhere_is_the_leak(hass: HomeAssistant) -> None:
    """In the yard below the roof's leak: switched on 30 s after the leak was told (or a
    minute before it), shown with the leak; switched on 10 min later, running since long
    before, or its meter another device's, pushed."""
    cases = (
        (timedelta(seconds=30), "booster", []),
        (-timedelta(minutes=1), "booster", []),
        (timedelta(minutes=10), "booster", ["left_on_past_its_routine"]),
        (-timedelta(hours=5), "booster", ["left_on_past_its_routine"]),
        (timedelta(seconds=30), "fridge", ["left_on_past_its_routine"]),
    )
    for after, meter_device, pushed in cases:
        tracker = AnomalyTracker(hass, f"booster{after}{meter_device}")
        onset = dt_util.utcnow()
        home = {
            LEAK: state(LEAK, "on", "Roof slab", "moisture", changed=onset),
            PUMP: _one_device(state(PUMP, "on", "Yard", changed=onset + after), "booster"),
            PUMP_POWER: _one_device(
                state(PUMP_POWER, "780", "Yard", "power", "W", changed=onset + after),
                meter_device,
            ),
        }
        assert _update(tracker, [WATER], onset, home)[0] == ["hazard_detected"]
        later = onset + timedelta(minutes=30)
        told = _update(tracker, [WATER, PUMP_RUNS_ON], later, home)
        assert told[:2] == (pushed, [] if pushed else ["left_on_past_its_routine"]), after


def _heater(switched: datetime, now: datetime) -> dict[str, EntityState]:
    return {
        HEATER: state(HEATER, "on", "Roof slab", changed=switched),
        HEATER_POWER: state(HEATER_POWER, "2990", "Roof slab", "power", "W", changed=now),
    }


async def test_a_load_left_on_untouched_across_a_lived_in_evening_is_told_once(
    hass: HomeAssistant,
) -> None:
    """Told at 13:02 with the family out, over when they came home at 13:06; drawing
    again at 10:20 the next morning, everyone out again: its switch untouched since 06:00
    the day before, shown, not pushed. Switched off and on again in between: pushed."""
    switched_on = dt_util.utcnow()
    told_at = switched_on + timedelta(hours=7)
    next_day = told_at + timedelta(hours=21)
    for switched_again, pushed in (
        (None, []),
        (next_day - timedelta(hours=1), ["appliance_active_while_away"]),
    ):
        tracker = AnomalyTracker(hass, f"element{switched_again}")
        home = _heater(switched_on, told_at)
        away = _update(tracker, [DRAWING_AWAY], told_at, home, someone_home=False)
        assert away[0] == ["appliance_active_while_away"]
        back = told_at + timedelta(minutes=4)
        assert _update(tracker, [], back, home)[2] == ["appliance_active_while_away"]
        home = _heater(switched_again or switched_on, next_day)
        again = _update(tracker, [DRAWING_AWAY], next_day, home, someone_home=False)
        assert again[:2] == (pushed, [] if pushed else ["appliance_active_while_away"])


def test_motion_after_a_forced_door_joins_the_entry_not_a_meters_incident() -> None:
    """The lounge's compressor told drawing while away and at an odd hour (one incident);
    the sliding door forced; the lounge's motion joins the entry, not the compressor."""
    now = dt_util.utcnow()
    compressor, motion, door = (
        "sensor.lounge_compressor_power",
        "binary_sensor.lounge_motion",
        "binary_sensor.sliding_door",
    )
    away = finding(
        "appliance_active_while_away", (compressor,), "occupancy_mismatch",
        subject="Lounge", while_away=True,
    )  # fmt: skip
    odd_hour = finding("meter_drawing_at_unusual_hours", (compressor,), "energy", subject="Lounge")
    load = OpenAnomaly.from_findings([away, odd_hour], now - timedelta(hours=8))
    entry = OpenAnomaly.from_findings(
        [finding("entry_unsecured_while_away", door, "security", Severity.HIGH, while_away=True)],
        now - timedelta(seconds=24),
    )
    moving = finding(
        "motion_while_away", (motion, door), "occupancy_mismatch", Severity.HIGH,
        subject="Lounge", while_away=True,
    )  # fmt: skip
    joined = targets(by_incident([away, odd_hour, moving]), [load, entry], [], now)
    by_target = {a.signature if a else None: [f.rule for f in m] for a, m in joined}
    assert by_target[entry.signature] == ["motion_while_away"]
    assert sorted(by_target[load.signature]) == [
        "appliance_active_while_away",
        "meter_drawing_at_unusual_hours",
    ]

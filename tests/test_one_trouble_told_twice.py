"""One trouble, told once: set 26's three re-raises.

Kairouan: the cistern pump started at 03:10, the leak sensor at its coupling wet at 03:12
(told), then "the pump has drawn 712 W for 30 min" pushed at 03:40. Dhaka: gas at the
kitchen wall, the detector on and off as the wind came in: told at 11:10, over at 11:17,
pushed again at 11:21. Cusco: the water heater left on at 21:00, "on past its routine"
told at 23:00, the family out at 08:00, "drawing while nobody is home" pushed at 08:07 on
the same switch, never touched since. Each is shown, not pushed; a load in another room,
a switch turned on again, or gas back after a quarter of an hour clear, is told.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.open_anomaly import DETECTOR_CLEAR_AFTER
from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.models import EntityState, Finding, Severity

from .tracker_home import finding, state

LEAK = "binary_sensor.cistern_leak"
PUMP = "switch.cistern_pump"
PUMP_POWER = "sensor.cistern_pump_power"
GAS = "binary_sensor.kitchen_gas"
HEATER = "switch.water_heater"
HEATER_POWER = "sensor.water_heater_power"
KETTLE = "switch.kettle"
KETTLE_POWER = "sensor.kettle_power"
BATH_MOTION = "binary_sensor.bathroom_motion"

WATER = finding("hazard_detected", LEAK, "safety_hazard", Severity.HIGH)
GAS_ON = finding("hazard_detected", GAS, "safety_hazard", Severity.CRITICAL)
PUMP_RUNS_ON = finding("left_on_past_its_routine", (PUMP, PUMP_POWER), "energy", subject=PUMP)
HEATER_LEFT_ON = finding("left_on_past_its_routine", HEATER, "energy")
DRAWING_AWAY = finding(
    "appliance_active_while_away",
    (HEATER, HEATER_POWER),
    "occupancy_mismatch",
    subject="home",
    while_away=True,
)
HEATER_AWAY_STILL = finding(
    "appliance_active_while_away",
    (HEATER, HEATER_POWER, BATH_MOTION),
    "occupancy_mismatch",
    subject="home",
    while_away=True,
)
KETTLE_AWAY = finding(
    "appliance_active_while_away",
    (KETTLE, KETTLE_POWER),
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


def _cistern(onset: datetime, pump_room: str, switched: datetime) -> dict[str, EntityState]:
    return {
        LEAK: state(LEAK, "on", "Cistern", "moisture", changed=onset),
        PUMP: state(PUMP, "on", pump_room, changed=switched),
        PUMP_POWER: state(PUMP_POWER, "712", pump_room, "power", "W", changed=onset),
    }


async def test_the_pump_running_on_by_its_told_leak_is_the_leak(hass: HomeAssistant) -> None:
    """Shown with the leak when it runs in the leak's room, its switch untouched since the
    leak was told; in another room, or switched on after the leak was told, pushed."""
    cases = (
        ("Cistern", timedelta(days=3), []),
        ("Roof", timedelta(days=3), ["left_on_past_its_routine"]),
        ("Cistern", -timedelta(minutes=10), ["left_on_past_its_routine"]),
    )
    for room, switched_before, pushed in cases:
        tracker = AnomalyTracker(hass, f"pump{room}{switched_before}")
        onset = dt_util.utcnow()
        home = _cistern(onset, room, onset - switched_before)
        assert _update(tracker, [WATER], onset, home)[0] == ["hazard_detected"]
        later = onset + timedelta(minutes=28)
        told = _update(tracker, [WATER, PUMP_RUNS_ON], later, home)
        assert told[:2] == (pushed, [] if pushed else ["left_on_past_its_routine"])


async def test_a_gas_detector_quiet_for_minutes_has_not_ended_its_gas(
    hass: HomeAssistant,
) -> None:
    """Off 6 min between two soundings: one gas leak, told once and never over between.
    Clear for a quarter of an hour, it is over; gas again after that is told."""
    tracker = AnomalyTracker(hass, "gas flicker")
    onset = dt_util.utcnow()
    on = {GAS: state(GAS, "on", "Kitchen", "gas", changed=onset)}
    assert _update(tracker, [GAS_ON], onset, on)[0] == ["hazard_detected"]
    quiet = onset + timedelta(minutes=5)
    off = {GAS: state(GAS, "off", "Kitchen", "gas", changed=quiet)}
    for minutes in (0, 3, 5):
        assert _update(tracker, [], quiet + timedelta(minutes=minutes), off) == ([], [], [])
    again = onset + timedelta(minutes=11)
    assert _update(tracker, [GAS_ON], again, on) == ([], [], [])
    cleared = again + timedelta(minutes=1)
    _update(tracker, [], cleared, off)
    _update(tracker, [], cleared + timedelta(minutes=3), off)
    assert tracker.open  # not over yet
    assert _update(tracker, [], cleared + DETECTOR_CLEAR_AFTER, off)[2] == ["hazard_detected"]
    back = cleared + DETECTOR_CLEAR_AFTER + timedelta(minutes=5)
    assert _update(tracker, [GAS_ON], back, on)[0] == ["hazard_detected"]


def _bathroom(switched: datetime, now: datetime, motion: str = "off") -> dict[str, EntityState]:
    return {
        BATH_MOTION: state(BATH_MOTION, motion, "Bathroom", "motion", changed=now),
        HEATER: state(HEATER, "on", "Bathroom", changed=switched),
        HEATER_POWER: state(HEATER_POWER, "1500", "Bathroom", "power", "W", changed=now),
        KETTLE: state(KETTLE, "on", "Kitchen", changed=now - timedelta(minutes=3)),
        KETTLE_POWER: state(KETTLE_POWER, "2000", "Kitchen", "power", "W", changed=now),
    }


async def test_a_heater_told_left_on_drawing_once_everyone_left_is_the_same(
    hass: HomeAssistant,
) -> None:
    """Told left on at 23:00; at 08:07, everybody out, its switch untouched since 21:00:
    shown with it. Switched off and on again since, or another load drawing, pushed."""
    evening = dt_util.utcnow()
    switched_on = evening - timedelta(hours=2)
    morning = evening + timedelta(hours=9)
    cases = (
        (switched_on, [DRAWING_AWAY], []),
        (switched_on, [HEATER_AWAY_STILL], []),  # its room's motion sensor clear beside it
        (morning - timedelta(minutes=30), [DRAWING_AWAY], ["appliance_active_while_away"]),
        (switched_on, [KETTLE_AWAY], ["appliance_active_while_away"]),
    )
    for switched, found, pushed in cases:
        tracker = AnomalyTracker(hass, f"heater{switched}{found[0].evidence}")
        told = _update(tracker, [HEATER_LEFT_ON], evening, _bathroom(switched_on, evening))
        assert told[0] == ["left_on_past_its_routine"]
        home = _bathroom(switched, morning)
        outcome = _update(tracker, [HEATER_LEFT_ON, *found], morning, home, someone_home=False)
        assert outcome[0] == pushed
    # Motion in its room while nobody is home: somebody there, told.
    tracker = AnomalyTracker(hass, "heater moving")
    _update(tracker, [HEATER_LEFT_ON], evening, _bathroom(switched_on, evening))
    home = _bathroom(switched_on, morning, motion="on")
    moving = _update(
        tracker, [HEATER_LEFT_ON, HEATER_AWAY_STILL], morning, home, someone_home=False
    )
    assert moving[0] == ["appliance_active_while_away"]


async def test_a_switch_and_its_meter_named_apart_are_one_load(hass: HomeAssistant) -> None:
    """Set 5: "Geyser Switch 1" told left on, then "Geyser Power" drawing while away, one
    registry device: shown with it. The meter of another device, pushed."""
    switch, meter = "switch.geyser_switch_1", "sensor.geyser_power"
    left_on = finding("left_on_past_its_routine", switch, "energy")
    away = finding(
        "appliance_active_while_away",
        (switch, meter),
        "occupancy_mismatch",
        subject="home",
        while_away=True,
    )
    evening = dt_util.utcnow()
    morning = evening + timedelta(hours=4)
    for meter_device, pushed in (("geyser", []), ("other", ["appliance_active_while_away"])):
        tracker = AnomalyTracker(hass, f"geyser{meter_device}")
        on = state(switch, "on", "Bathroom", changed=evening - timedelta(hours=3))
        power = state(meter, "1990", "Bathroom", "power", "W", changed=morning)
        home = {
            switch: replace(on, info=replace(on.info, device="geyser")),
            meter: replace(power, info=replace(power.info, device=meter_device)),
        }
        assert _update(tracker, [left_on], evening, home)[0] == ["left_on_past_its_routine"]
        told = _update(tracker, [left_on, away], morning, home, someone_home=False)
        assert told[0] == pushed


async def test_a_pump_running_since_before_its_leak_is_the_leak_anywhere(
    hass: HomeAssistant,
) -> None:
    """A pump in another room whose run began before the leak was told (its float stuck,
    the tank overflowing where the leak sensor is), its switch untouched, is shown in the
    leak's notification and acknowledged with it; one whose run began after the leak was
    told is news."""
    cases = (
        (timedelta(minutes=25), []),  # drew since 25 min before the leak
        (-timedelta(minutes=5), ["left_on_past_its_routine"]),  # began after it
    )
    for began_before, pushed in cases:
        tracker = AnomalyTracker(hass, f"overflow{began_before}")
        onset = dt_util.utcnow()
        home = _cistern(onset, "Yard", onset - timedelta(days=3))
        (leak,) = tracker.update([WATER], onset, True, entities=home).opened
        tracker.acknowledge(leak.key)
        later = onset + timedelta(minutes=11)
        ran = (later - (onset - began_before)).total_seconds() / 60
        runs_on = replace(PUMP_RUNS_ON, magnitude=round(ran, 1))
        told = _update(tracker, [WATER, runs_on], later, home)
        assert told[:2] == (pushed, [] if pushed else ["left_on_past_its_routine"])

"""A missed routine and a timer's stay overrun say what, in the title.

Walk of session 17: a home whose front door lock is locked by 23:00 every night was told
"Front door lock: what happens every day did not happen today" (what did not happen is
only in the body), and a bathroom fan on its 10-minute timer left running would read as
the default "Wasted energy: Bathroom fan".
"""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.texts import async_anomaly_texts
from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.baselines.routine_missed import ROUTINE_MISSED
from custom_components.anomaly_monitor.core.baselines.timed_stays import (
    LEFT_ON_PAST_ITS_ROUTINE,
)
from custom_components.anomaly_monitor.core.models import Finding, Severity


def _finding(rule: str, subject: str, anomaly_type: str) -> Finding:
    return Finding(
        rule=rule,
        evidence=(subject,),
        subject=subject,
        reasoning=f"{subject} did not do what it does every day.",
        anomaly_type=anomaly_type,
        severity=Severity.MEDIUM,
        recommendation="Check it.",
    )


async def _headline(hass: HomeAssistant, finding: Finding) -> str:
    tracker = AnomalyTracker(hass, f"routine-{finding.subject}")
    (anomaly,) = tracker.update([finding], dt_util.utcnow()).opened
    return (await async_anomaly_texts(hass, anomaly)).headline


async def test_a_missed_routine_says_what_did_not_happen(hass: HomeAssistant) -> None:
    hass.states.async_set("lock.front_door_lock", "unlocked", {"friendly_name": "Front door lock"})
    hass.states.async_set("alarm_control_panel.house", "disarmed", {"friendly_name": "House alarm"})
    hass.states.async_set("switch.porch_light", "off", {"friendly_name": "Porch light"})
    kind = ROUTINE_MISSED.anomaly_type
    assert await _headline(hass, _finding(ROUTINE_MISSED.rule, "lock.front_door_lock", kind)) == (
        "Front door lock not locked by its usual time"
    )
    assert await _headline(
        hass, _finding(ROUTINE_MISSED.rule, "alarm_control_panel.house", kind)
    ) == ("House alarm not armed by its usual time")
    assert await _headline(hass, _finding(ROUTINE_MISSED.rule, "switch.porch_light", kind)) == (
        "Porch light not switched on by its usual time"
    )


async def test_a_timer_overrun_says_left_on(hass: HomeAssistant) -> None:
    hass.states.async_set("switch.bathroom_fan", "on", {"friendly_name": "Bathroom fan"})
    finding = _finding(
        LEFT_ON_PAST_ITS_ROUTINE.rule, "switch.bathroom_fan", LEFT_ON_PAST_ITS_ROUTINE.anomaly_type
    )
    assert await _headline(hass, finding) == "Bathroom fan on far longer than its routine"


async def test_a_stay_far_longer_than_usual_says_in_what_state(hass: HomeAssistant) -> None:
    """Walk of session 17: the bathroom fan on for an hour (15 min at most here) was told
    as "Unusual routine: Bathroom fan"."""
    hass.states.async_set("switch.bathroom_fan", "on", {"friendly_name": "Bathroom fan"})
    hass.states.async_set("lock.back_door", "unlocked", {"friendly_name": "Back door lock"})
    hass.states.async_set(
        "binary_sensor.garage_door", "on", {"friendly_name": "Garage door", "device_class": "door"}
    )
    rule = "state_longer_than_usual"
    fan = await _headline(hass, _finding(rule, "switch.bathroom_fan", "behavioural"))
    assert fan == "Bathroom fan on far longer than usual"
    lock = await _headline(hass, _finding(rule, "lock.back_door", "security"))
    assert lock == "Back door lock unlocked far longer than usual"
    door = await _headline(hass, _finding(rule, "binary_sensor.garage_door", "security"))
    assert door == "Garage door open far longer than usual"


async def test_a_door_that_rests_open_told_shut_says_shut(hass: HomeAssistant) -> None:
    """Walk of session 25: a bathroom door that rests open, shut far longer than ever with
    nobody seen elsewhere (``shut_behind``), was titled "Bathroom door open far longer than
    usual" while it read shut."""
    hass.states.async_set(
        "binary_sensor.bathroom_door",
        "off",
        {"friendly_name": "Bathroom door", "device_class": "door"},
    )
    door = await _headline(
        hass, _finding("state_longer_than_usual", "binary_sensor.bathroom_door", "security")
    )
    assert door == "Bathroom door shut far longer than usual: somebody may be behind it"


async def test_a_first_use_not_come_says_somebody_may_not_be_up(hass: HomeAssistant) -> None:
    """Walk of session 27: Nan's bedroom door, opened at 06:50 every morning, still shut at
    08:38 (``first_use_missed``) was titled "Nan's bedroom door: what happens every day did
    not happen today": nothing of a person not up, only in the body."""
    attributes = {"friendly_name": "Nan's bedroom door", "device_class": "door"}
    hass.states.async_set("binary_sensor.nan_door", "off", attributes)
    finding = _finding(ROUTINE_MISSED.rule, "binary_sensor.nan_door", ROUTINE_MISSED.anomaly_type)
    assert await _headline(hass, finding) == (
        "Nan's bedroom door still shut this morning: somebody may not be up"
    )
    hass.states.async_set("binary_sensor.nan_door", "on", attributes)  # opened since
    assert await _headline(hass, finding) == "Nan's bedroom door not opened by its usual time"


async def test_a_home_battery_running_down_is_said_so_as_a_power_supply(
    hass: HomeAssistant,
) -> None:
    """Walk of session 27: an EcoFlow's input out 20 min (its outages last 3 h), told as
    its charge fell below anything its outages took it to, read "Home battery AC in power:
    no power, far longer than ever" and "Wasted energy (high)"."""
    hass.states.async_set(
        "sensor.delta_ac_in", "0", {"friendly_name": "Delta AC in", "device_class": "power"}
    )
    hass.states.async_set(
        "sensor.delta_battery", "64", {"friendly_name": "Delta battery", "device_class": "battery"}
    )
    finding = Finding(
        rule="supply_off_far_longer_than_usual",
        evidence=("sensor.delta_battery", "sensor.delta_ac_in"),
        subject="sensor.delta_ac_in",
        reasoning="The input brought in no power.",
        anomaly_type="energy",
        severity=Severity.HIGH,
    )
    tracker = AnomalyTracker(hass, "battery")
    (anomaly,) = tracker.update([finding], dt_util.utcnow()).opened
    texts = await async_anomaly_texts(hass, anomaly)
    assert texts.headline == "Delta AC in: no power, the home battery running down"
    assert texts.type_name == "Power supply"
    # A grid-status meter without a battery: its outage past the longest, as before.
    plain = Finding(
        rule="supply_off_far_longer_than_usual",
        evidence=("sensor.delta_ac_in",),
        reasoning="The input brought in no power.",
        anomaly_type="energy",
    )
    tracker = AnomalyTracker(hass, "grid")
    (anomaly,) = tracker.update([plain], dt_util.utcnow()).opened
    assert (await async_anomaly_texts(hass, anomaly)).headline == (
        "Delta AC in: no power, far longer than ever"
    )


async def test_a_plug_left_off_says_the_appliance_on_it_stopped(hass: HomeAssistant) -> None:
    """Walk of session 28: a chest freezer's plug switched off 80 min (never before longer
    than 15) was told "Chest freezer plug stopped its usual cycle": a plug has no cycle.
    The freezer's own meter, stopped, still reads as before."""
    hass.states.async_set(
        "switch.chest_freezer_plug", "off", {"friendly_name": "Chest freezer plug"}
    )
    hass.states.async_set(
        "sensor.chest_freezer_power", "0.0", {"friendly_name": "Chest freezer power"}
    )
    plug = await _headline(
        hass, _finding("cycle_stopped", "switch.chest_freezer_plug", "device_malfunction")
    )
    assert plug == "Chest freezer plug off longer than ever: the appliance on it has stopped"
    meter = await _headline(
        hass, _finding("cycle_stopped", "sensor.chest_freezer_power", "device_malfunction")
    )
    assert meter == "Chest freezer power stopped its usual cycle"


async def test_a_reading_far_beyond_its_range_says_which_way(hass: HomeAssistant) -> None:
    """Walk of session 28: a rain tank at 3 % (60-90 % in every day learned), shown under
    its dry-running pump's notice, read "Rain tank level far beyond anything it ever read"."""
    hass.states.async_set("sensor.rain_tank_level", "3", {"friendly_name": "Rain tank level"})
    for magnitude, way in ((-57.0, "below"), (12.5, "above")):
        finding = Finding(
            rule="reading_far_beyond_its_range",
            evidence=("sensor.rain_tank_level",),
            subject="sensor.rain_tank_level",
            reasoning="Rain tank level reads 3 %.",
            anomaly_type="device_malfunction",
            severity=Severity.MEDIUM,
            recommendation="Check it.",
            magnitude=magnitude,
        )
        headline = await _headline(hass, finding)
        assert headline == f"Rain tank level far {way} anything it ever read"


async def test_a_bed_still_lain_on_says_somebody_may_not_be_up(hass: HomeAssistant) -> None:
    """A bed left by 05:30 every morning, still lain on at 06:20 (``first_use_bed``): not
    "opened" (a bed sensor reads on while somebody lies in it), nor "shut" once left."""
    attributes = {"friendly_name": "Paati's bed", "device_class": "occupancy"}
    hass.states.async_set("binary_sensor.bed_sensor", "on", attributes)
    subject = "binary_sensor.bed_sensor"
    finding = _finding(ROUTINE_MISSED.rule, subject, ROUTINE_MISSED.anomaly_type)
    assert await _headline(hass, finding) == (
        "Paati's bed still lain on this morning: somebody may not be up"
    )
    hass.states.async_set(subject, "off", attributes)  # she got up since
    assert await _headline(hass, finding) == "Paati's bed not left by its usual time this morning"

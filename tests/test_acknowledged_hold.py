"""An acknowledged problem is not told again under another rule's name (set 3, issue 27).

The boiler locked out; the homeowner acknowledged "heating not warming" and was told four
times more that day about the same thermostat and thermometer. A door that opens again
after its break-in was acknowledged is a new event, and is told.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.acknowledged_hold import HOLD, AcknowledgedHold
from custom_components.anomaly_monitor.anomalies.open_anomaly import CLEAR_AFTER, OpenAnomaly
from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.models import HOME_SUBJECT, Finding, Severity

from .tracker_home import outcome, state

CLIMATE = "climate.hallway"
TEMP = "sensor.hallway_temperature"
DOOR = "binary_sensor.back_door"

NOT_WARMING = Finding(
    "heating_not_warming", (CLIMATE, TEMP), "Heating for 1 h 45 min, the hall did not warm.",
    "device_malfunction", Severity.MEDIUM, subject=CLIMATE,
)  # fmt: skip
COLDER = Finding(
    "room_colder_than_kept", (TEMP, CLIMATE), "The hall reads 14.6 °C.",
    "environmental_conflict", Severity.MEDIUM, subject=TEMP,
)  # fmt: skip
DOOR_OPEN = Finding(
    "entry_unsecured_while_away", (DOOR,), "The back door is open while nobody is home.",
    "security", Severity.HIGH, subject=DOOR,
)  # fmt: skip


def _over(tracker: AnomalyTracker, start: timedelta) -> timedelta:
    """Analyses without any finding until the open anomalies are over; the time after."""
    now = dt_util.utcnow()
    tracker.update([], now + start)
    tracker.update([], now + start + CLEAR_AFTER)
    assert not tracker.open
    return start + CLEAR_AFTER


async def test_the_same_failure_under_another_rule_is_shown_not_told(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "boiler")
    now = dt_util.utcnow()
    (heating,) = tracker.update([NOT_WARMING], now).opened
    tracker.acknowledge(heating.key)
    # While it is open (not found by this analysis: the heating paused), the room colder
    # than kept, on the same two entities.
    changes = tracker.update([COLDER], now + timedelta(hours=2))
    assert changes.opened == []
    (colder,) = changes.reopened
    assert colder.acknowledged
    # Both close; hours later the heating is found failing again: still the same failure.
    later = _over(tracker, timedelta(hours=3))
    changes = tracker.update([NOT_WARMING], now + later + timedelta(hours=3))
    assert changes.opened == []
    assert [a.rule for a in changes.reopened] == ["heating_not_warming"]
    # Past the hold it is news again.
    later = _over(tracker, later + timedelta(hours=4))
    changes = tracker.update([COLDER], now + later + HOLD + timedelta(minutes=1))
    assert [a.rule for a in changes.opened] == ["room_colder_than_kept"]


async def test_an_unacknowledged_graver_or_security_one_is_told(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "told")
    now = dt_util.utcnow()
    tracker.update([NOT_WARMING], now)
    # Not acknowledged: the second rule continues the heating failure already told
    # (``heat_spells``: shown, not pushed) and is not taken as acknowledged.
    changes = tracker.update([COLDER], now + timedelta(minutes=5))
    assert changes.opened == []
    (colder,) = changes.reopened
    assert colder.rule == "room_colder_than_kept"
    assert not colder.acknowledged

    held = AcknowledgedHold()
    heating = OpenAnomaly.from_findings([NOT_WARMING], now)
    heating.acknowledged = True
    held.ended(heating, now)
    later = now + timedelta(hours=1)
    assert held.covers(OpenAnomaly.from_findings([COLDER], later), [], later)
    graver = replace(COLDER, rule="room_too_cold", severity=Severity.HIGH)
    assert not held.covers(OpenAnomaly.from_findings([graver], later), [], later)
    elsewhere = replace(COLDER, evidence=(TEMP, CLIMATE, "sensor.kitchen_temperature"))
    assert not held.covers(OpenAnomaly.from_findings([elsewhere], later), [], later)

    doors = AnomalyTracker(hass, "door")
    (opened,) = doors.update([DOOR_OPEN], now).opened
    doors.acknowledge(opened.key)
    after = _over(doors, timedelta(minutes=5))
    assert doors.update([DOOR_OPEN], now + after + timedelta(hours=2)).opened != []


SWITCH = "switch.cylinder_switch_0"
METER = "sensor.cylinder_switch_0_power"
SMOKE = "binary_sensor.hall_smoke"
WATER_RUNNING = Finding(
    "water_left_running", (SWITCH,), "Water ran through Hot water cylinder for 55 min.",
    "safety_hazard", Severity.HIGH, subject=SWITCH,
)  # fmt: skip
RUNNING_LONG = Finding(
    "appliance_running_far_longer", (SWITCH, METER), "Cylinder drew 3020 W for 4 h 45 min.",
    "energy", Severity.MEDIUM, subject=METER,
)  # fmt: skip


async def test_an_acknowledged_hazard_holds_the_same_device_running_long(
    hass: HomeAssistant,
) -> None:
    """Set 5: the cylinder's thermostat stuck; "water left running" acknowledged, then
    "running far longer" on the switch and its power meter was pushed all the same."""
    tracker = AnomalyTracker(hass, "cylinder")
    now = dt_util.utcnow()
    (running,) = tracker.update([WATER_RUNNING], now).opened
    tracker.acknowledge(running.key)
    changes = tracker.update([WATER_RUNNING, RUNNING_LONG], now + timedelta(hours=2))
    assert changes.opened == []
    (long_run,) = changes.reopened
    assert long_run.rule == "appliance_running_far_longer"
    assert long_run.acknowledged
    # Another device's meter is news; so is a hazard on the same entities.
    dryer = "sensor.dryer_power"
    other = replace(RUNNING_LONG, evidence=(SWITCH, dryer), subject=dryer)
    later = now + timedelta(hours=3)
    assert tracker.update([WATER_RUNNING, other], later).opened != []

    held = AcknowledgedHold()
    smoke = OpenAnomaly.from_findings(
        [Finding("hazard_detected", (SMOKE,), "Smoke.", "safety_hazard", Severity.CRITICAL,
                 subject=SMOKE)], now)  # fmt: skip
    smoke.acknowledged = True
    held.ended(smoke, now)
    offline = Finding(
        "device_unavailable", (SMOKE,), "The smoke detector is offline.", "device_malfunction",
        Severity.HIGH, subject=SMOKE,
    )  # fmt: skip
    assert not held.covers(OpenAnomaly.from_findings([offline], later), [], later)
    again = replace(offline, rule="hazard_detected", anomaly_type="safety_hazard")
    assert not held.covers(OpenAnomaly.from_findings([again], later), [], later)


async def test_acknowledged_after_its_end_it_holds_its_successors(hass: HomeAssistant) -> None:
    """Set 5 as it ran: "water left running" had ended (the relay reported a blip) when the
    homeowner acknowledged it at 14:00; "running far longer" at 15:45 was pushed."""
    tracker = AnomalyTracker(hass, "cylinder-late")
    now = dt_util.utcnow()
    states = {SWITCH: "on", METER: "3020"}
    assert len(tracker.update([WATER_RUNNING], now, states=states).opened) == 1
    later = _over(tracker, timedelta(minutes=5))
    (ended,) = tracker.ended.values()
    tracker.acknowledge(ended.key)  # read late: it had ended
    assert tracker.ended == {}
    changes = tracker.update([RUNNING_LONG], now + later + timedelta(hours=2), states=states)
    assert changes.opened == []
    assert [a.rule for a in changes.reopened] == ["appliance_running_far_longer"]


RADIATOR = "sensor.oil_radiator_power"
LEFT_ON = Finding(
    "appliance_active_while_away", (RADIATOR,), "The oil radiator draws while nobody is home.",
    "occupancy_mismatch", Severity.MEDIUM, subject=RADIATOR, while_away=True,
)  # fmt: skip
UNUSUAL_HOURS = Finding(
    "meter_drawing_at_unusual_hours", (RADIATOR,), "Drawn 1,590 W for 2 h 21 min.",
    "energy", Severity.MEDIUM, subject=RADIATOR,
)  # fmt: skip


async def test_a_meter_acknowledged_drawing_while_away_holds_it_drawing_on(
    hass: HomeAssistant,
) -> None:
    """An oil radiator left on in an empty room (after set 16, Chengdu): "drawing while
    nobody is home" acknowledged once over, then "drawing at unusual hours" on the same
    meter was told (on 65ba6e3): an acknowledged occupancy finding held nothing, as if
    the meter drawing on were a door opening again."""
    tracker = AnomalyTracker(hass, "radiator")
    now = dt_util.utcnow()
    home = {RADIATOR: state(RADIATOR, "1590.0", "Bedroom", "power", "W", changed=now)}
    assert outcome(tracker, [LEFT_ON], now, home, home=False)[0] == ["appliance_active_while_away"]
    # No longer found (it tells a load that began drawing), over, then acknowledged.
    outcome(tracker, [], now + timedelta(minutes=10), home, home=False)
    outcome(tracker, [], now + timedelta(minutes=10) + CLEAR_AFTER, home, home=False)
    assert not tracker.open
    tracker.acknowledge(next(iter(tracker.ended.values())).key)
    later = now + timedelta(minutes=80)
    assert outcome(tracker, [UNUSUAL_HOURS], later, home, home=False) == (
        [],
        ["meter_drawing_at_unusual_hours"],
    )
    # A door acknowledged open while nobody is home still tells it opening again
    # (``test_an_unacknowledged_graver_or_security_one_is_told``).


HALL = "binary_sensor.hall_motion"


async def test_a_home_wide_acknowledgement_holds_every_meter_it_showed(
    hass: HomeAssistant,
) -> None:
    """Set 16 (Chengdu, on b194a63): "appliances draw while nobody is home" about the
    home, the radiator's meter, then the hall's motion joined it and it led; acknowledged,
    over, then "drawing at unusual hours" on the radiator was pushed: the home as a whole
    is no device a later finding shows, and the meter it showed first was forgotten."""
    tracker = AnomalyTracker(hass, "home-wide")
    now = dt_util.utcnow()
    home = {
        RADIATOR: state(RADIATOR, "1590.0", "Bedroom", "power", "W", changed=now),
        HALL: state(HALL, "on", "Hall", "motion", changed=now + timedelta(hours=1)),
    }
    drawing = replace(LEFT_ON, subject=HOME_SUBJECT)
    moving = Finding(
        "activity_while_away", (HALL,), "Motion in the hall while nobody is home.",
        "occupancy_mismatch", Severity.HIGH, subject=HOME_SUBJECT, while_away=True,
    )  # fmt: skip
    assert outcome(tracker, [drawing], now, home, home=False)[0] == ["appliance_active_while_away"]
    outcome(tracker, [moving], now + timedelta(hours=1), home, home=False)
    (anomaly,) = tracker.open.values()
    assert RADIATOR not in anomaly.shown_evidence  # it follows the latest analysis
    tracker.acknowledge(anomaly.key)
    gone = now + timedelta(hours=1, minutes=10)
    outcome(tracker, [], gone, home, home=False)
    outcome(tracker, [], gone + CLEAR_AFTER, home, home=False)
    assert not tracker.open
    later = gone + timedelta(minutes=30)
    assert outcome(tracker, [UNUSUAL_HOURS], later, home, home=False) == (
        [],
        ["meter_drawing_at_unusual_hours"],
    )

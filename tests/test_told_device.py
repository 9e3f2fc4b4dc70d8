"""A new anomaly about a device of an incident told and still open is that incident (set 15).

Lalitpur, on e0e0738: "roof tank far below anything it read" told at 19:15, then "the
motor draws power but the roof tank has not risen" at 19:45 and "the motor on far longer
than usual" at 20:33, each pushed: one pump running dry, told three times. Shown, not
pushed, acknowledged with the tank; the switch turned on again, a door the incident did
not show, a graver finding, or the same devices once the incident is over, are news.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.open_anomaly import CLEAR_AFTER
from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.models import EntityState, Finding, Severity

from .tracker_home import finding, outcome, state

TANK = "sensor.roof_tank_level"
POWER = "sensor.motor_plug_power"
SWITCH = "switch.motor_plug"
DOOR = "binary_sensor.pump_house_door"

# The roof tank reads 18 %; the motor draws power and the tank has not risen; the motor
# on for 1 h 33 min; the pump house door open for 1 h.
TANK_LOW = finding("reading_far_beyond_its_range", TANK, "device_malfunction")
NOT_FILLING = finding("usual_effect_missing", (POWER, TANK), "device_malfunction")
ON_LONG = finding("left_on_past_its_routine", (SWITCH, POWER), "energy")
DOOR_LONG = finding("state_longer_than_usual", (DOOR, SWITCH), "security")


def _home(start: datetime, switched: datetime | None = None) -> dict[str, EntityState]:
    def at(entity_id: str, value: str, cls: str | None, unit: str | None = None):
        changed = switched if entity_id == SWITCH and switched else start
        area = "Roof" if entity_id == TANK else "Yard"
        return state(entity_id, value, area, cls, unit, changed=changed)

    return {
        TANK: at(TANK, "18", None, "%"),
        POWER: at(POWER, "740", "power", "W"),
        SWITCH: at(SWITCH, "on", None),
        DOOR: at(DOOR, "on", "door"),
    }


async def test_the_pump_and_the_tank_it_fills_are_one_incident(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "pump")
    start = dt_util.utcnow()
    home = _home(start)
    now = start + timedelta(minutes=15)
    assert outcome(tracker, [TANK_LOW], now, home) == (["reading_far_beyond_its_range"], [])
    now += timedelta(minutes=30)
    assert outcome(tracker, [TANK_LOW, NOT_FILLING], now, home) == ([], ["usual_effect_missing"])
    now += timedelta(minutes=48)
    found = [TANK_LOW, NOT_FILLING, ON_LONG]
    assert outcome(tracker, found, now, home) == ([], ["left_on_past_its_routine"])
    # A door the incident did not show: news.
    assert outcome(tracker, [*found, DOOR_LONG], now, home) == (["state_longer_than_usual"], [])
    # Acknowledged with the tank (each one's root).
    tracker.acknowledge(tracker.open[TANK_LOW.signature].key)
    assert tracker.open[NOT_FILLING.signature].acknowledged
    assert tracker.open[ON_LONG.signature].acknowledged


async def test_switched_on_again_graver_or_after_the_end_is_news(hass: HomeAssistant) -> None:
    start = dt_util.utcnow()
    now = start + timedelta(minutes=15)
    again = AnomalyTracker(hass, "again")
    outcome(again, [TANK_LOW, NOT_FILLING], now, _home(start))
    later = now + timedelta(minutes=40)
    switched = _home(start, switched=now + timedelta(minutes=20))
    assert outcome(again, [TANK_LOW, NOT_FILLING, ON_LONG], later, switched)[0] == [
        "left_on_past_its_routine"
    ]

    graver = AnomalyTracker(hass, "graver")
    outcome(graver, [TANK_LOW], now, _home(start))
    hot = finding("appliance_running_far_longer", POWER, "energy", Severity.HIGH)
    assert outcome(graver, [TANK_LOW, hot], later, _home(start))[0] == [
        "appliance_running_far_longer"
    ]

    over = AnomalyTracker(hass, "over")
    outcome(over, [TANK_LOW], now, _home(start))
    outcome(over, [], now + timedelta(minutes=5), _home(start))
    outcome(over, [], now + timedelta(minutes=5) + CLEAR_AFTER, _home(start))
    assert not over.open
    assert outcome(over, [NOT_FILLING], later, _home(start))[0] == ["usual_effect_missing"]


GROUND = "sensor.ground_tank_level"


def _far(subject: str, magnitude: float) -> Finding:
    return finding(
        "reading_far_beyond_its_range", subject, "device_malfunction", magnitude=magnitude
    )


async def test_two_tanks_low_in_the_same_analysis_are_one_incident(hass: HomeAssistant) -> None:
    """Set 15 (on e0e0738): the ground tank and the roof tank "far below anything they
    read" pushed in the same second. One water supply: the second is shown. Off the other
    way, or later, it is news."""
    start = dt_util.utcnow()
    home = _home(start)
    home[GROUND] = state(GROUND, "3", "Yard", None, "%")
    now = start + timedelta(minutes=15)
    tracker = AnomalyTracker(hass, "tanks")
    low = [_far(TANK, -25.0), _far(GROUND, -46.0)]
    assert outcome(tracker, low, now, home) == (
        ["reading_far_beyond_its_range"],
        ["reading_far_beyond_its_range"],
    )
    tracker.acknowledge(tracker.open[low[0].signature].key)
    assert tracker.open[low[1].signature].acknowledged

    other_way = AnomalyTracker(hass, "other_way")
    found = [_far(TANK, -25.0), _far(GROUND, 12.0)]
    assert len(outcome(other_way, found, now, home)[0]) == 2
    later = AnomalyTracker(hass, "later")
    outcome(later, [_far(TANK, -25.0)], now, home)
    assert len(outcome(later, low, now + timedelta(minutes=5), home)[0]) == 1

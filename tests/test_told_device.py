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
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState, Finding, Severity

TANK = "sensor.roof_tank_level"
POWER = "sensor.motor_plug_power"
SWITCH = "switch.motor_plug"
DOOR = "binary_sensor.pump_house_door"

TANK_LOW = Finding(
    "reading_far_beyond_its_range", (TANK,), "Roof tank level reads 18 %.",
    "device_malfunction", Severity.MEDIUM, subject=TANK,
)  # fmt: skip
NOT_FILLING = Finding(
    "usual_effect_missing", (POWER, TANK), "The motor draws power; the tank has not risen.",
    "device_malfunction", Severity.MEDIUM, subject=POWER,
)  # fmt: skip
ON_LONG = Finding(
    "left_on_past_its_routine", (SWITCH, POWER), "The motor has been on for 1 h 33 min.",
    "energy", Severity.MEDIUM, subject=SWITCH,
)  # fmt: skip
DOOR_LONG = Finding(
    "state_longer_than_usual", (DOOR, SWITCH), "The pump house door has been open for 1 h.",
    "security", Severity.MEDIUM, subject=DOOR,
)  # fmt: skip


def _home(start: datetime, switched: datetime | None = None) -> dict[str, EntityState]:
    def state(entity_id: str, value: str, cls: str | None, unit: str | None = None):
        info = EntityInfo(entity_id, entity_id, "Roof" if entity_id == TANK else "Yard", cls, unit)
        changed = switched if entity_id == SWITCH and switched else start
        return EntityState(info, value, last_changed=changed)

    return {
        TANK: state(TANK, "18", None, "%"),
        POWER: state(POWER, "740", "power", "W"),
        SWITCH: state(SWITCH, "on", None),
        DOOR: state(DOOR, "on", "door"),
    }


def _update(
    tracker: AnomalyTracker, findings: list[Finding], now: datetime, home: dict[str, EntityState]
) -> tuple[list[str], list[str]]:
    states = {e: s.state for e, s in home.items()}
    changes = tracker.update(findings, now, True, states=states, entities=home)
    return [a.rule for a in changes.opened], [a.rule for a in changes.reopened]


async def test_the_pump_and_the_tank_it_fills_are_one_incident(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "pump")
    start = dt_util.utcnow()
    home = _home(start)
    now = start + timedelta(minutes=15)
    assert _update(tracker, [TANK_LOW], now, home) == (["reading_far_beyond_its_range"], [])
    now += timedelta(minutes=30)
    assert _update(tracker, [TANK_LOW, NOT_FILLING], now, home) == ([], ["usual_effect_missing"])
    now += timedelta(minutes=48)
    found = [TANK_LOW, NOT_FILLING, ON_LONG]
    assert _update(tracker, found, now, home) == ([], ["left_on_past_its_routine"])
    # A door the incident did not show: news.
    assert _update(tracker, [*found, DOOR_LONG], now, home) == (["state_longer_than_usual"], [])
    # Acknowledged with the tank (each one's root).
    tracker.acknowledge(tracker.open[TANK_LOW.signature].key)
    assert tracker.open[NOT_FILLING.signature].acknowledged
    assert tracker.open[ON_LONG.signature].acknowledged


async def test_switched_on_again_graver_or_after_the_end_is_news(hass: HomeAssistant) -> None:
    start = dt_util.utcnow()
    now = start + timedelta(minutes=15)
    again = AnomalyTracker(hass, "again")
    _update(again, [TANK_LOW, NOT_FILLING], now, _home(start))
    later = now + timedelta(minutes=40)
    switched = _home(start, switched=now + timedelta(minutes=20))
    assert _update(again, [TANK_LOW, NOT_FILLING, ON_LONG], later, switched)[0] == [
        "left_on_past_its_routine"
    ]

    graver = AnomalyTracker(hass, "graver")
    _update(graver, [TANK_LOW], now, _home(start))
    hot = Finding(
        "appliance_running_far_longer", (POWER,), "The motor ran 3 h.", "energy",
        Severity.HIGH, subject=POWER,
    )  # fmt: skip
    assert _update(graver, [TANK_LOW, hot], later, _home(start))[0] == [
        "appliance_running_far_longer"
    ]

    over = AnomalyTracker(hass, "over")
    _update(over, [TANK_LOW], now, _home(start))
    _update(over, [], now + timedelta(minutes=5), _home(start))
    _update(over, [], now + timedelta(minutes=5) + CLEAR_AFTER, _home(start))
    assert not over.open
    assert _update(over, [NOT_FILLING], later, _home(start))[0] == ["usual_effect_missing"]


GROUND = "sensor.ground_tank_level"


def _far(subject: str, magnitude: float) -> Finding:
    return Finding(
        "reading_far_beyond_its_range", (subject,), f"{subject} far below its range.",
        "device_malfunction", Severity.MEDIUM, subject=subject, magnitude=magnitude,
    )  # fmt: skip


async def test_two_tanks_low_in_the_same_analysis_are_one_incident(hass: HomeAssistant) -> None:
    """Set 15 (on e0e0738): the ground tank and the roof tank "far below anything they
    read" pushed in the same second. One water supply: the second is shown. Off the other
    way, or later, it is news."""
    start = dt_util.utcnow()
    home = _home(start)
    home[GROUND] = EntityState(EntityInfo(GROUND, GROUND, "Yard", None, "%"), "3")
    now = start + timedelta(minutes=15)
    tracker = AnomalyTracker(hass, "tanks")
    low = [_far(TANK, -25.0), _far(GROUND, -46.0)]
    assert _update(tracker, low, now, home) == (
        ["reading_far_beyond_its_range"],
        ["reading_far_beyond_its_range"],
    )
    tracker.acknowledge(tracker.open[low[0].signature].key)
    assert tracker.open[low[1].signature].acknowledged

    other_way = AnomalyTracker(hass, "other_way")
    found = [_far(TANK, -25.0), _far(GROUND, 12.0)]
    assert len(_update(other_way, found, now, home)[0]) == 2
    later = AnomalyTracker(hass, "later")
    _update(later, [_far(TANK, -25.0)], now, home)
    assert len(_update(later, low, now + timedelta(minutes=5), home)[0]) == 1

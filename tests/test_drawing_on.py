"""A told meter that drew on since its incident was over is that run (set 17, Cluj).

On b194a63: a radiator left on over the weekend, "drawn 1,980 W since Fri 15:20" told at
02:00, over by day (the rule's window moved on), pushed again the next night: one run told
twice, 26 h apart. The same meter found again is shown while it never stopped since; a
stop in between, or a restart (not known to have drawn on), makes it news.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.open_anomaly import CLEAR_AFTER
from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.models import HOME_SUBJECT, EntityState

from .tracker_home import finding, outcome, state

RADIATOR = "sensor.radiator_plug_power"
UNUSUAL = finding("meter_drawing_at_unusual_hours", RADIATOR, "energy", magnitude=3.0)


def _home(watts: str, since: datetime) -> dict[str, EntityState]:
    return {RADIATOR: state(RADIATOR, watts, "Bedroom", "power", "W", changed=since)}


def _told_then_over(tracker: AnomalyTracker, start: datetime) -> datetime:
    home = _home("1980", start)
    assert outcome(tracker, [UNUSUAL], start, home)[0] == ["meter_drawing_at_unusual_hours"]
    outcome(tracker, [], start + timedelta(hours=12), home)
    gone = start + timedelta(hours=12) + CLEAR_AFTER
    outcome(tracker, [], gone, home)
    assert not tracker.open
    return gone


async def test_the_same_run_found_again_the_next_night_is_shown(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "radiator")
    start = dt_util.utcnow()
    gone = _told_then_over(tracker, start)
    for hour in range(1, 13):  # by day the radiator draws on, nothing found
        outcome(tracker, [], gone + timedelta(hours=hour), _home(f"{1975 + hour}", start))
    later = gone + timedelta(hours=13)
    assert outcome(tracker, [UNUSUAL], later, _home("1982", start)) == (
        [],
        ["meter_drawing_at_unusual_hours"],
    )


async def test_a_stop_in_between_makes_it_news(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "stopped")
    start = dt_util.utcnow()
    gone = _told_then_over(tracker, start)
    outcome(tracker, [], gone + timedelta(hours=2), _home("0", start))  # switched off a while
    outcome(tracker, [], gone + timedelta(hours=6), _home("1980", start))
    later = gone + timedelta(hours=13)
    assert outcome(tracker, [UNUSUAL], later, _home("1980", start))[0] == [
        "meter_drawing_at_unusual_hours"
    ]


PUMP = "switch.water_pump_plug"
PUMP_METER = "sensor.water_pump_plug_power"
ON_ITS_SWITCH = finding(
    "meter_drawing_at_unusual_hours", (PUMP, PUMP_METER), "energy", magnitude=35.0
)


def _pump(watts: str, switched: datetime, started: datetime) -> dict[str, EntityState]:
    return {
        PUMP: state(PUMP, "on", "Tank", changed=switched),
        PUMP_METER: state(PUMP_METER, watts, "Tank", "power", "W", changed=started),
    }


async def test_a_plug_told_by_its_switch_drawing_on_is_the_same_run(hass: HomeAssistant) -> None:
    """Set 28: a pump on a plug left on for days, told at 09:40 drawing at hours it never
    draws (about its switch, its meter shown), over as its usual hours came, drawing on,
    found again at 14:37: the same run. Its switch turned off and on again is news."""
    for toggled in (False, True):
        tracker = AnomalyTracker(hass, f"pump{toggled}")
        start = dt_util.utcnow()
        switched = start - timedelta(days=3)
        home = _pump("480", switched, start)
        assert outcome(tracker, [ON_ITS_SWITCH], start, home)[0] == [
            "meter_drawing_at_unusual_hours"
        ]
        outcome(tracker, [], start + timedelta(minutes=20), home)
        gone = start + timedelta(minutes=20) + CLEAR_AFTER
        outcome(tracker, [], gone, home)
        assert not tracker.open
        for hour in range(1, 5):  # its usual hours: drawing on, nothing found
            outcome(tracker, [], gone + timedelta(hours=hour), _pump("472", switched, start))
        later = gone + timedelta(hours=5)
        if toggled:  # off and on again since: a new run
            switched = later - timedelta(minutes=30)
        told, shown = outcome(tracker, [ON_ITS_SWITCH], later, _pump("468", switched, start))
        assert (told, shown) == (
            (["meter_drawing_at_unusual_hours"], [])
            if toggled
            else ([], ["meter_drawing_at_unusual_hours"])
        )


SPLIT = "sensor.bedroom_split_power"
LEFT_ON_AT_HOME = finding(
    "appliance_active_while_away", SPLIT, "occupancy_mismatch", subject=HOME_SUBJECT,
    while_away=True,
)  # fmt: skip
SPLIT_UNUSUAL = finding("meter_drawing_at_unusual_hours", SPLIT, "energy", magnitude=9.0)


async def test_a_load_told_about_the_home_drawing_on_is_the_same_run(hass: HomeAssistant) -> None:
    """Set 18 (Rincón): the bedroom mini-split left on as the family drove home, "appliances
    draw power while nobody is home" told about the home at 10:30, over at 19:45 with the
    unit drawing on, then "drawn 720 W since 10:30 at hours it never draws" about its meter
    pushed at 19:57. Drawing on since: the same run, shown. Stopped in between: news."""
    for stopped in (False, True):
        tracker = AnomalyTracker(hass, f"split{stopped}")
        start = dt_util.utcnow()
        home = {SPLIT: state(SPLIT, "720", "Bedroom", "power", "W", changed=start)}
        told, _ = outcome(tracker, [LEFT_ON_AT_HOME], start, home, home=False)
        assert told == ["appliance_active_while_away"]
        outcome(tracker, [], start + timedelta(hours=9), home, home=False)
        gone = start + timedelta(hours=9) + CLEAR_AFTER
        outcome(tracker, [], gone, home, home=False)
        assert not tracker.open
        if stopped:
            outcome(tracker, [], gone + timedelta(minutes=5), _split("0", gone), home=False)
        later = gone + timedelta(minutes=12)
        told, shown = outcome(tracker, [SPLIT_UNUSUAL], later, _split("710", gone), home=False)
        expected = (
            (["meter_drawing_at_unusual_hours"], []) if stopped else ([], [SPLIT_UNUSUAL.rule])
        )
        assert (told, shown) == expected


def _split(watts: str, since: datetime) -> dict[str, EntityState]:
    return {SPLIT: state(SPLIT, watts, "Bedroom", "power", "W", changed=since)}

"""A load told once across its thermostat's pause (session 39).

Set 33, Quito: a fan heater on its plug told "drawing at hours it never draws" at 11:50,
over in its thermostat's pause, then at its next heat "drawing while nobody is home" and
"on past its routine" found together and pushed again, its switch on throughout: shown
with the heater's told incident. Its switch turned off and on again since, it is news.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.open_anomaly import CLEAR_AFTER
from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.models import EntityState, Finding

from .tracker_home import finding, state

PLUG = "switch.enchufe_inteligente"
PLUG_POWER = "sensor.enchufe_inteligente_power"
BED = "binary_sensor.cama_abuela"

ODD_HOURS = finding("meter_drawing_at_unusual_hours", (PLUG, PLUG_POWER), "energy", subject=PLUG)
PAST_ROUTINE = finding("left_on_past_its_routine", (PLUG, PLUG_POWER), "energy", subject=PLUG)
DRAWING_AWAY = finding(
    "appliance_active_while_away",
    (PLUG, PLUG_POWER, BED),
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
    someone_home: bool = False,
) -> tuple[list[str], list[str]]:
    """One analysis at ``now`` (``home`` None: a safety check, which reads no states):
    (pushed, shown) by rule."""
    states = None if home is None else {e: s.state for e, s in home.items()}
    keep = set(tracker.open) if home is None else set()  # a safety check misses nothing
    changes = tracker.update(findings, now, someone_home, keep=keep, states=states, entities=home)
    return [a.rule for a in changes.opened], [a.rule for a in changes.reopened]


def _bedroom(switched: datetime, watts: str, now: datetime) -> dict[str, EntityState]:
    return {
        PLUG: state(PLUG, "on", "Dormitorio", changed=switched),
        PLUG_POWER: state(PLUG_POWER, watts, "Dormitorio", "power", "W", changed=now),
        BED: state(BED, "off", "Dormitorio", "occupancy", changed=now - timedelta(hours=2)),
    }


async def test_a_heater_told_then_drawing_while_away_at_its_next_heat_is_shown(
    hass: HomeAssistant,
) -> None:
    """Its thermostat paused it after it was told (the told incident over, the meter at
    0 W), and it heats again: shown with it while its switch stays untouched; switched off
    and on again since, pushed."""
    for switched_again, pushed in ((False, []), (True, ["appliance_active_while_away"])):
        tracker = AnomalyTracker(hass, f"heater{switched_again}")
        on_at = dt_util.utcnow()
        told = on_at + timedelta(minutes=45)
        home = _bedroom(on_at, "1480", told)
        assert _update(tracker, [ODD_HOURS], told, home)[0] == ["meter_drawing_at_unusual_hours"]
        pause = told + timedelta(minutes=15)
        resting = _bedroom(on_at, "0", pause)
        _update(tracker, [], pause, resting)
        _update(tracker, [], pause + CLEAR_AFTER, resting)
        assert not tracker.open
        heat = pause + CLEAR_AFTER + timedelta(minutes=20)
        switched = heat - timedelta(minutes=5) if switched_again else on_at
        home = _bedroom(switched, "1480", heat)
        pushed_now, shown = _update(tracker, [DRAWING_AWAY, PAST_ROUTINE], heat, home)
        assert pushed_now == pushed
        assert bool(shown) is not bool(pushed)

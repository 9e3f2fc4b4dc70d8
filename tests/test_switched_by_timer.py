"""A switch turned on by its timer in an armed, empty home is not an intruder (core).

The synthetic home of ``test_away_habits``: the pool pump's meter draws 10:00-14:00 every
day, whoever is home. Bea arms the alarm and goes out; the pump switches on at 10:00. The
window holds this morning only (no other day to see the routine in), but the pump's meter
has drawn at 10:00 on every day learned: its timer, not a remote command. A lamp on the
same kind of plug switched on at an hour its meter never draws is told as before.
"""

from __future__ import annotations

from datetime import timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import Finding, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment
from .test_away_habits import BEA, DAYS, HEATER, PUMP, at, lived

PANEL = "alarm_control_panel.home"
PUMP_SWITCH = "switch.pool_pump"
HEATER_SWITCH = "switch.patio_heater"
RULE = "activation_while_armed_away"


def _armed_morning(baselines: HomeBaselines, switch: str, meter: str, hour: float) -> list[Finding]:
    now = at(DAYS, hour + 0.2)
    shown = [
        Transition(at(DAYS, 8.9), PANEL, "armed_away", None),
        Transition(at(DAYS, 9), BEA, "not_home", None),
        Transition(at(DAYS, hour), switch, "on", None),
        Transition(at(DAYS, hour), meter, "1140", None),
    ]
    for transition in shown:
        baselines.learn(transition)
    baselines.advance(now)
    states = [
        entity(PANEL, "armed_away"),
        entity(BEA, "not_home"),
        entity(switch, "on", area="Garden"),
        entity(meter, "1140", area="Garden", device_class="power", unit="W"),
    ]
    window = build_window(
        states, environment(now, persons_home=0), shown, start=now - timedelta(hours=3)
    )
    detector = CombinedDetector(baselines=lambda: baselines)
    return [f for f in detector.findings(window) if f.rule == RULE]


def test_a_pump_switched_on_by_its_timer_while_armed_away_is_not_told() -> None:
    assert _armed_morning(lived(DAYS), PUMP_SWITCH, PUMP, 10) == []


def test_a_heater_switched_on_at_an_hour_its_meter_never_draws_is_told() -> None:
    (finding,) = _armed_morning(lived(DAYS), HEATER_SWITCH, HEATER, 10)
    assert finding.evidence == (HEATER_SWITCH,)

"""A generic alert this home lives with, told low (``routine_alerts``).

``hazard_detected`` tells every sensor of a hazard class going on, high. For the generic
classes only (``safety``, ``problem``, ``tamper``), a sensor that went on and cleared by
itself ``MIN_TIMES`` times on ``MIN_DAYS`` earlier days, with no hazard of the home
following, is this home's routine signal (an air-raid alert, a NAS's status): it is told
low (shown at sensitivity high only, never pushed), saying how often it goes on here, and
typed as what it is: a ``problem`` flag a device fault, a ``tamper`` one security. Its first times
on are told as before; smoke, gas, CO, heat and leaks are never judged here; a sensor
that dropped off while it alarmed stays told (it may be damaged).
"""

from __future__ import annotations

from dataclasses import replace

from ..home import GENERIC_ALERT_CLASSES as ROUTINE_CLASSES, HomeView, is_on
from ..models import AnomalyType, Finding, Severity
from .home_baselines import HomeBaselines

ROUTINE_RULES = frozenset({"hazard_detected"})
# What a routine flag of each class is (walk26: a boiler's daily ``problem`` flag read
# "Safety hazard (low)"): a device reporting its own fault, a tamper switch's security;
# a ``safety`` alert (an air-raid siren's service) stays a safety hazard.
_ROUTINE_TYPES = {
    "problem": AnomalyType.DEVICE_MALFUNCTION,
    "tamper": AnomalyType.SECURITY,
}


def shown_not_pushed(rule: str, severity: str) -> bool:
    """A generic alert told low (this home's routine signal, or a web service's alert):
    shown at sensitivity high, where low findings are, but neither an event nor a push
    (walk26: the boiler's daily flag fired ``anomaly_detected`` like a fire would)."""
    return rule in ROUTINE_RULES and severity == Severity.LOW


def told_as_routine(finding: Finding, baselines: HomeBaselines, home: HomeView) -> Finding:
    """``finding`` told low when its alert is this home's routine signal; else as it is."""
    if finding.rule not in ROUTINE_RULES or finding.subject is None:
        return finding
    if finding.severity.rank <= Severity.LOW.rank:
        return finding  # told low already (a web service's alert): said once, not twice
    state = home.info(finding.subject)
    if state is None or state.info.device_class not in ROUTINE_CLASSES or not is_on(state):
        return finding
    rate = baselines.alerts.routine(state.entity_id, home.end)
    if rate is None:
        return finding
    # Shown at sensitivity high only, never pushed (``shown_not_pushed``): the text says
    # what this home shows of the sensor, not how it is delivered.
    return replace(
        finding,
        severity=Severity.LOW,
        anomaly_type=_ROUTINE_TYPES.get(state.info.device_class or "", finding.anomaly_type),
        reasoning=f"{finding.reasoning} It goes on {how_often(rate)} here and clears by"
        " itself, with nothing in the home following.",
    )


def how_often(per_day: float) -> str:
    """``per_day`` said as a person would: "about twice a day", "about once every 3 days"."""
    if per_day >= 2.5:
        return f"about {round(per_day)} times a day"
    if per_day >= 1.5:
        return "about twice a day"
    if per_day >= 0.75:
        return "about once a day"
    return f"about once every {max(2, round(1 / per_day))} days"

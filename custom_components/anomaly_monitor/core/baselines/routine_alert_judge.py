"""A generic alert this home lives with, told low: no push (``routine_alerts``).

``hazard_detected`` tells every sensor of a hazard class going on, high. For the generic
classes only (``safety``, ``problem``, ``tamper``), a sensor that went on and cleared by
itself ``MIN_TIMES`` times on ``MIN_DAYS`` earlier days, with no hazard of the home
following, is this home's routine signal (an air-raid alert, a NAS's status): it is told
low, saying how often it goes on here. Its first times on are told as before; smoke, gas,
CO, heat and leaks are never judged here; a sensor that dropped off while it alarmed
stays told (it may be damaged).
"""

from __future__ import annotations

from dataclasses import replace

from ..home import GENERIC_ALERT_CLASSES as ROUTINE_CLASSES, HomeView, is_on
from ..models import Finding, Severity
from .home_baselines import HomeBaselines

ROUTINE_RULES = frozenset({"hazard_detected"})


def told_as_routine(finding: Finding, baselines: HomeBaselines, home: HomeView) -> Finding:
    """``finding`` told low when its alert is this home's routine signal; else as it is."""
    if finding.rule not in ROUTINE_RULES or finding.subject is None:
        return finding
    state = home.info(finding.subject)
    if state is None or state.info.device_class not in ROUTINE_CLASSES or not is_on(state):
        return finding
    rate = baselines.alerts.routine(state.entity_id, home.end)
    if rate is None:
        return finding
    often = f"about {rate:.1f} times a day" if rate >= 1 else "most days"
    return replace(
        finding,
        severity=Severity.LOW,
        reasoning=f"{finding.reasoning} It goes on {often} here and clears by itself, with"
        " nothing in the home following: told without a push.",
    )

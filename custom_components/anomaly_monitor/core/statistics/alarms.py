"""Alarms that sounded again and again inside the window, even if cleared since."""

from __future__ import annotations

from collections.abc import Iterator

from ..finding_kind import FindingKind
from ..home import HomeView, is_on
from ..models import AnomalyType, Finding, Severity

# Detectors whose "on" is a danger signal.
SOUNDED_DEVICE_CLASSES = frozenset({"smoke", "gas", "carbon_monoxide", "heat"})
# One alarm that cleared is reported while it sounds and then clears (the snapshot
# rules do that); an alarm that keeps coming back is a recurring hazard or a failing
# detector, and stays worth reporting after each clears.
MIN_ALARMS = 2


HAZARD_ALARM_SOUNDED = FindingKind("hazard_alarm_sounded", AnomalyType.SAFETY_HAZARD, Severity.HIGH)


def hazard_alarm_sounded(home: HomeView) -> Iterator[Finding]:
    """A smoke, gas, CO or heat detector went off repeatedly during the window.

    Magnitude: how many times it went off.
    """
    for entity_id in home.history_of("binary_sensor"):
        device_class = home.device_class(entity_id)
        if device_class not in SOUNDED_DEVICE_CLASSES:
            continue
        current = home.states.get(entity_id)
        if current is not None and is_on(current):
            continue  # sounding now: hazard_detected tells it, once
        alarms = [t for t in home.changes(entity_id) if t.state.lower() == "on"]
        if len(alarms) < MIN_ALARMS:
            continue
        times = ", ".join(f"{t.when:%H:%M}" for t in alarms[:4])
        yield HAZARD_ALARM_SOUNDED.finding(
            evidence=(entity_id,),
            # The homeowner's words: no "time(s)", no "window" (a live walk read "went
            # off 2 time(s) in the window (09:41, 09:42)").
            reasoning=f"{entity_id} ({device_class.replace('_', ' ')}) went off "
            f"{len(alarms)} times ({times}).",
            recommendation="Check the area; if nothing was wrong, test or replace the detector.",
            magnitude=float(len(alarms)),
        )

"""Toggle storms: an actuator or sensor flipping back and forth far faster than people do."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from itertools import pairwise

from ..finding_kind import FindingKind
from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView
from ..models import AnomalyType, Finding, Severity, Transition
from ..start_settling import set_while_starting
from ..state_blips import is_no_state

# Actuators people switch by hand or automations switch on events.
_ACTUATOR_DOMAINS = frozenset({"light", "switch", "fan", "cover", "lock", "valve", "siren"})
# This many state changes, each within STORM_GAP of the previous, make a storm.
STORM_CHANGES = 4
STORM_GAP = timedelta(seconds=15)
# Motion sensors re-trigger often; a storm for them is far denser.
SENSOR_STORM_CHANGES = 10
SENSOR_STORM_GAP = timedelta(seconds=2)


def storm_limits(domain: str, device_class: str | None) -> tuple[int, timedelta] | None:
    """(changes that make a storm, largest gap between them) for this kind of entity, or
    None when its changes are never judged as a storm (a connectivity sensor, a reading)."""
    if domain in _ACTUATOR_DOMAINS:
        return STORM_CHANGES, STORM_GAP
    if domain == "binary_sensor" and device_class in OCCUPANCY_DEVICE_CLASSES:
        return SENSOR_STORM_CHANGES, SENSOR_STORM_GAP
    if domain == "binary_sensor" and device_class != "connectivity":
        return STORM_CHANGES + 2, STORM_GAP
    return None


def _switches(home: HomeView, entity_id: str) -> list[Transition]:
    """The entity's changes from one real state to another: the changes HA made as it
    started are not the device's (``start_settling``), and neither is a no-state (a plug
    that only went ``unknown`` → ``unavailable`` at two quick starts switched nothing:
    a walk of session 36); a device dropping off and back is device health's."""
    started = home.env.ha_started
    switches: list[Transition] = []
    for change in home.changes(entity_id):
        if is_no_state(change.state) or set_while_starting(started, change.when):
            continue
        if switches and switches[-1].state == change.state:
            continue  # back as it was after a drop: no switch
        switches.append(change)
    return switches


def _longest_burst(home: HomeView, entity_id: str, gap: timedelta) -> int:
    """Length (in changes) of the longest run of switches each closer than ``gap``."""
    changes = _switches(home, entity_id)
    best = run = 1 if changes else 0
    for previous, current in pairwise(changes):
        run = run + 1 if current.when - previous.when <= gap else 1
        best = max(best, run)
    return best


TOGGLE_STORM = FindingKind("toggle_storm", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM)


def toggle_storm(home: HomeView) -> Iterator[Finding]:
    """A light, switch or cover toggled many times within seconds (automation loop, fault).

    Magnitude: the number of changes in the longest burst.
    """
    for entity_id in home.history:
        limits = storm_limits(home.domain(entity_id), home.device_class(entity_id))
        if limits is None:
            continue
        needed, gap = limits
        burst = _longest_burst(home, entity_id, gap)
        if burst < needed:
            continue
        yield TOGGLE_STORM.finding(
            evidence=(entity_id,),
            reasoning=f"{entity_id} changed state {burst} times in quick succession, "
            "faster than anyone uses it: an automation loop or a failing device.",
            recommendation="Look for two automations fighting over it, or a loose contact.",
            magnitude=float(burst),
        )

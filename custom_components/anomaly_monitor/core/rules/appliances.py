"""Appliances that must never stop: a fridge or freezer whose compressor stopped cycling."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..device_roles import Role, has_role, severity_for
from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, EntityState, Finding, Severity, parse_number
from ..power_units import RUNNING_WATTS

# A working fridge or freezer runs its compressor every hour or so (off for 20-60 min);
# two hours without it, the food is warming (a dead appliance, a tripped breaker).
SILENT_FOR = timedelta(hours=2)


def is_cold_appliance(home: HomeView, entity_id: str) -> bool:
    """A power meter of a fridge or freezer (``device_roles``: never its id's words)."""
    return has_role(home, entity_id, Role.COLD_APPLIANCE)


FRIDGE_STOPPED_CYCLING = FindingKind("fridge_stopped_cycling", AnomalyType.DEVICE_MALFUNCTION)


def fridge_stopped_cycling(home: HomeView) -> Iterator[Finding]:
    """A fridge or freezer has drawn no running power for two hours.

    Magnitude: minutes without running power (at least what the window shows).
    """
    for meter in home.of("sensor", "power"):
        if meter.number is None or meter.number >= RUNNING_WATTS:
            continue
        if not is_cold_appliance(home, meter.entity_id):
            continue
        since = _idle_since(home, meter)
        if since is None or home.end - since < SILENT_FOR:
            continue
        minutes = (home.end - since).total_seconds() / 60
        yield FRIDGE_STOPPED_CYCLING.finding(
            evidence=(meter.entity_id,),
            reasoning=f"{meter.info.name} has drawn under {RUNNING_WATTS:g} W for "
            f"{minutes:.0f} min: the compressor stopped cycling.",
            severity=severity_for(home, (meter.entity_id,), Severity.HIGH),
            recommendation="Check that it is plugged in and cold, and its breaker.",
            magnitude=minutes,
        )


def _idle_since(home: HomeView, meter: EntityState) -> datetime | None:
    """Since when the meter has shown no running power, as far as the data proves it.

    The first of the trailing idle readings in the window, or when its current (idle)
    state began if that is earlier (a dead meter reports 0 once and then nothing).
    """
    since = meter.last_changed
    for transition in reversed(home.history.get(meter.entity_id, [])):
        value = parse_number(transition.state)
        if value is None or value >= RUNNING_WATTS:
            break
        since = transition.when if since is None else min(since, transition.when)
    return since

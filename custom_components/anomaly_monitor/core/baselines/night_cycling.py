"""An appliance starting again and again in the small hours, at hours it never runs here.

A pressure pump runs when somebody opens a tap; a sump or septic pump when water comes
in. A pipe that split in the night, a float stuck, a tap left dripping: the pump starts
every few minutes for hours while the household sleeps. No check asked: it is a short run
each time (not "running far longer"), it draws a normal load (not "above its range"),
and it is no cooker. ``MeterHours`` knows, per power meter and local hour, on which of
the last four weeks' days it ran then: a meter that ran ``MIN_RUNS`` times (runs ended)
within ``RECENT``, each begun in a small hour (00-05 local) at which it ran on none of the
``MIN_DAYS`` or more days watched, is told. A fridge, a heat pump or a dehumidifier that
cycles at night has those hours in its normal; a dishwasher on a night tariff starts
once, at an hour it is used to.

A meter that does run at these hours (a pressure pump answering the night's trips to the
toilet, a minute each) is judged by how much it runs: ``MIN_RUNS`` runs and ``MIN_MINUTES``
running within ``RECENT``, ``FACTOR`` times the most it ran in one small hour of any night
learned (``NightRunMinutes``, ``MIN_NIGHTS`` days watched): a pump running nine minutes in
every twelve where it ran two in an hour at most (a line cracked in the ground, set 23).

HA's vocabulary only (a ``sensor`` of device_class ``power``, its unit); no word is read.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity
from ..statistics.night import SMALL_HOURS_END, SMALL_HOURS_START
from .clock import local
from .home_baselines import HomeBaselines
from .power import RUNNING, power_state

# Days the meter must have been watched before an hour without use is its normal.
MIN_DAYS = 7
# Runs ended within ``RECENT``: a pump answering a leak, not one glass of water.
MIN_RUNS = 3
RECENT = timedelta(hours=1)
# Nights watched before the most of a night's hour is known (``durations.MIN_STAYS``).
MIN_NIGHTS = 5
# A meter that runs at these hours: told at this many minutes within ``RECENT``...
MIN_MINUTES = 20.0
# ...and this many times the most it ran in one small hour of a night learned (a sliding
# hour can hold two clock hours' runs: more than twice).
FACTOR = 3.0

APPLIANCE_CYCLING_AT_NIGHT = FindingKind(
    "appliance_cycling_at_night", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def _runs(home: HomeView, entity_id: str, unit: str | None, since: datetime) -> list[datetime]:
    """When each run that ended after ``since`` began (a run under way at the window's
    start has no known beginning: its end stands for it)."""
    runs: list[datetime] = []
    began: datetime | None = None
    running = False
    for when, value in home.numbers(entity_id):
        spell = power_state(value, unit)
        if spell is None:
            continue
        if spell == RUNNING and not running:
            began = when
        elif spell != RUNNING and running and when > since:
            runs.append(began or when)
        running = spell == RUNNING
    return runs


def _minutes(home: HomeView, entity_id: str, unit: str | None, since: datetime) -> float:
    """Minutes the meter ran after ``since`` (a run under way counted to now)."""
    total, began = 0.0, None
    for when, value in home.numbers(entity_id):
        spell = power_state(value, unit)
        if spell is None:
            continue
        if spell == RUNNING and began is None:
            began = when
        elif spell != RUNNING and began is not None:
            total += max(0.0, (when - max(began, since)).total_seconds() / 60)
            began = None
    if began is not None:
        total += max(0.0, (home.end - max(began, since)).total_seconds() / 60)
    return total


def _far_more_than_any_night(
    home: HomeView, baselines: HomeBaselines, entity_id: str, unit: str | None
) -> tuple[float, float] | None:
    """(minutes run within ``RECENT``, the most of a small hour learned) when the meter
    runs at night here and now runs ``FACTOR`` times that, ``MIN_MINUTES`` or more."""
    most = baselines.durations.night.most_before(entity_id, home.end)
    if most is None or most <= 0:
        return None  # never ran at these hours: judged by the hours it runs at
    minutes = _minutes(home, entity_id, unit, home.end - RECENT)
    if minutes < max(MIN_MINUTES, FACTOR * most):
        return None
    return minutes, most


def appliance_cycling_at_night(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A power meter that ran ``MIN_RUNS`` times within ``RECENT``, in small hours it
    never runs at.

    Magnitude: runs within ``RECENT``.
    """
    now = home.end
    zone = baselines.zone
    if not SMALL_HOURS_START <= local(now, zone).hour < SMALL_HOURS_END:
        return
    learned = baselines.meters
    for meter in home.of("sensor", "power"):
        entity_id = meter.entity_id
        days = baselines.usual.days_watched(entity_id, now)
        if days < MIN_NIGHTS:
            continue
        unit = meter.info.unit
        runs = _runs(home, entity_id, unit, now - RECENT)
        if len(runs) < MIN_RUNS:
            continue
        hours = {local(s, zone) for s in runs}
        if any(not SMALL_HOURS_START <= h.hour < SMALL_HOURS_END for h in hours):
            continue  # the evening's use went on
        first = local(runs[0], zone)
        name = meter.info.name or entity_id
        if days < MIN_DAYS or any(
            learned.days_at(entity_id, h.hour, h.toordinal(), home_only=False)[0] > 0 for h in hours
        ):  # it runs at this hour here (or may): judged by how much
            if (more := _far_more_than_any_night(home, baselines, entity_id, unit)) is None:
                continue
            habit = (
                f"ran {more[0]:.0f} min in the last hour, {len(runs)} runs since "
                f"{first:%H:%M}; in the {int(days)} days learned it ran at most "
                f"{more[1]:.0f} min in any hour of the night."
            )
        else:
            habit = (
                f"ran {len(runs)} times since {first:%H:%M}; in the {int(days)} days learned "
                "it never ran at this hour."
            )
        yield APPLIANCE_CYCLING_AT_NIGHT.finding(
            evidence=(entity_id,),
            reasoning=f"{name} {habit}",
            recommendation=(
                "Check what it supplies or drains: a pump starting again and again at night "
                "can mean a leak or a stuck float."
            ),
            magnitude=float(len(runs)),
        )

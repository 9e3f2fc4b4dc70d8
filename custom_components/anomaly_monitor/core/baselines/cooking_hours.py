"""A hob or oven drawing power at an hour it is never on here, the household gone quiet.

``MeterHours`` knows, per power meter and local hour, on which days it ran then. A
cooking appliance (``device_roles``: the homeowner, or its name as a hint; never an id's
words) that has been running for ``MIN_RUN`` at an hour of the day it never ran on any
of the ``MIN_DAYS`` or more days watched, while someone is home and no motion sensor has
seen anybody for ``QUIET`` (the household in bed, or dozing in front of the television),
was probably left on: told as a safety matter. A home that cooks late has those hours in
its normal and is not told. Before a meter's hours are learned, the prior judges: the
night hours ``PRIOR_NIGHT_HOURS``, except those it ran at on the days watched so far.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from ..device_roles import severity_for
from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity
from .clock import hour_start, local, next_hour
from .home_baselines import HomeBaselines
from .long_stays import duration_text
from .unattended_cookers import unattended_cookers

# Days the meter must have been watched before an hour without use is its normal.
MIN_DAYS = 7
# Before then (the prior of an unlearned meter): the hours no home is taken to cook in.
PRIOR_NIGHT_HOURS = frozenset({22, 23, 0, 1, 2, 3, 4, 5})
# Running at least this long (a kettle-sized use on the hob is not told).
MIN_RUN = timedelta(minutes=20)
# Nobody has moved for this long: the household is not at the stove.
QUIET = timedelta(minutes=30)


COOKING_AT_AN_UNUSUAL_HOUR = FindingKind("cooking_at_an_unusual_hour", AnomalyType.SAFETY_HAZARD)


def cooking_at_an_unusual_hour(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A cooking appliance running at hours it never runs here, the household quiet.

    Magnitude: minutes it has been running.
    """
    found = unattended_cookers(home, baselines, MIN_RUN, QUIET)
    if found is None:
        return
    meters, _ = found
    now = home.end
    zone = baselines.zone
    running = baselines.durations.current
    hours = baselines.meters
    for meter in meters:
        since = running[meter.entity_id][1]
        days = baselines.usual.days_watched(meter.entity_id, since)
        learned = days >= MIN_DAYS
        # Every hour of this run, judged on the other days (this run marked its own);
        # before the meter's hours are learned, only the prior's night hours are judged.
        start = max(since, now - timedelta(hours=24))
        slot, used = hour_start(local(start, zone)), False
        while slot <= local(now, zone) and not used:
            ran, _ = hours.days_at(meter.entity_id, slot.hour, slot.toordinal(), home_only=False)
            used = ran > 0
            used = used or not (learned or slot.hour in PRIOR_NIGHT_HOURS)
            slot = next_hour(slot)
        if used:
            continue
        normal = (
            f"in the {int(days)} days learned it never ran at this hour"
            if learned
            else "its hours are still being learned, and it does not run at night in most homes"
        )
        evidence = (meter.entity_id,)
        yield COOKING_AT_AN_UNUSUAL_HOUR.finding(
            evidence=evidence,
            reasoning=f"{meter.entity_id} has been drawing power for "
            f"{duration_text(now - since)}, since {local(since, zone):%H:%M}, and nobody "
            f"has moved for {duration_text(QUIET)} or more; {normal}.",
            severity=severity_for(home, evidence, Severity.HIGH),
            recommendation="Check the cooker: it may have been left on.",
            magnitude=round((now - since).total_seconds() / 60, 1),
        )

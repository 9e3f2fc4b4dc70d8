"""A hob or oven drawing power at an hour it is never on here, the household gone quiet.

``DailyRhythm`` knows, per power meter and local hour, on how many days it ran then. A
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

from ..device_roles import Role, has_role, severity_for
from ..finding_kind import FindingKind
from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView, is_unavailable
from ..models import AnomalyType, Finding, Severity
from ..occupancy import Occupancy
from ..statistics.timeline import turned
from .clock import ONE_HOUR, hour_start, local
from .held_on import moving_now
from .home_baselines import HomeBaselines
from .long_stays import duration_text
from .power import RUNNING

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
    if home.occupancy is not Occupancy.OCCUPIED:
        return
    now = home.end
    zone = baselines.zone
    running = baselines.durations.current
    meters = [
        m
        for m in home.of("sensor", "power")
        if (spell := running.get(m.entity_id)) is not None
        and spell[0] == RUNNING
        and now - spell[1] >= MIN_RUN
    ]
    # The roles are asked last: the first to ask pays for every device's.
    meters = [m for m in meters if has_role(home, m.entity_id, Role.COOKING_APPLIANCE)]
    if not meters:
        return
    motion = [
        s for s in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES) if not is_unavailable(s)
    ]
    if not motion or any(moving_now(home, baselines, s) for s in motion):
        return  # somebody about (a bed sensor held on is somebody in bed: ``held_on``)
    if any(when > now - QUIET for s in motion for when in turned(home.changes(s.entity_id), "on")):
        return
    moved = baselines.quiet.quiet_since  # the last movement learned (beyond the window too)
    if moved is None or now - moved < QUIET:
        return
    rhythm = baselines.rhythm
    for meter in meters:
        since = running[meter.entity_id][1]
        days = baselines.usual.days_watched(meter.entity_id, since)
        learned = days >= MIN_DAYS
        # Every hour of this run, judged on the other days (this run marked its own);
        # before the meter's hours are learned, only the prior's night hours are judged.
        start = max(since, now - timedelta(hours=24))
        slot, used = hour_start(local(start, zone)), False
        while slot <= local(now, zone) and not used:
            used = rhythm.days_running_at(meter.entity_id, slot.hour, slot.toordinal()) > 0
            used = used or not (learned or slot.hour in PRIOR_NIGHT_HOURS)
            slot += ONE_HOUR
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

"""A burst of changes judged by this home's own bursts at that time of day.

A cupboard opened six times in two minutes at dinner time is cooking where it does so on
most days; told only beyond ``BURST_FACTOR`` times (or ``BURST_SLACK`` changes more than)
the day's usual burst, or where the homeowner's mark said no bigger is normal.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from ..feedback import MARGIN
from ..home import HomeView
from ..models import Finding
from ..statistics.toggles import storm_limits
from .home_baselines import HomeBaselines

BURST_FACTOR = 1.5
BURST_SLACK = 2


def judged_burst(
    finding: Finding, entity_id: str, baselines: HomeBaselines, home: HomeView
) -> Finding | None:
    """A burst of changes (a toggle storm) as this home's bursts at this hour judge it."""
    limits = storm_limits(home.domain(entity_id), home.device_class(entity_id))
    if limits is None or finding.magnitude is None:
        return finding
    when = longest_burst_start(home, entity_id, limits[1])
    usual = baselines.usual.usual_burst(entity_id, when)
    taught = baselines.usual.taught_value(entity_id, "burst")
    if taught is not None and finding.magnitude <= taught * MARGIN:
        return None  # no bigger than what the homeowner marked normal, by a mark's degree
    if usual is None:
        days = int(baselines.usual.days_watched(entity_id, home.end))
        why = f" In the {days} days learned it has not changed in bursts like this."
    else:
        changes, days = usual
        if finding.magnitude <= max(changes * BURST_FACTOR, changes + BURST_SLACK):
            return None
        why = (
            f" At this time of day its bursts are at most {changes:.0f} changes on most days "
            f"(learned over {days} days with bursts)."
        )
    return replace(finding, reasoning=finding.reasoning + why)


def longest_burst_start(home: HomeView, entity_id: str, gap: timedelta) -> datetime:
    """When the longest run of changes no more than ``gap`` apart began (the burst judged)."""
    changes = home.changes(entity_id)
    best_start, best, run_start, run = home.end, 0, home.end, 0
    for index, change in enumerate(changes):
        if index and change.when - changes[index - 1].when <= gap:
            run += 1
        else:
            run_start, run = change.when, 1
        if run > best:
            best_start, best = run_start, run
    return best_start

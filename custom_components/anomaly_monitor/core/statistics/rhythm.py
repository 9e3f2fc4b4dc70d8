"""The daily rhythm: a home's motion has a rest period every night.

People sleep; a room's motion sensor fires at some hours of the day and is quiet for
several hours every night. A sensor that fires at nearly every hour of the clock, in
the small hours on most nights, has lost that rhythm: somebody up all night, night after
night (illness, confusion, insomnia), or a sensor triggered by something that is not a
person. Pets do this too, so a home whose profile names pets is not judged.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from ..finding_kind import FindingKind
from ..home import HomeView, is_motion
from ..models import AnomalyType, Finding, Severity
from ..pets import has_pets
from .daily_profile import local_time

# Enough nights to speak of a rhythm.
MIN_NIGHTS = 5
# The small hours (local): a household at home is normally asleep.
SMALL_HOURS_START, SMALL_HOURS_END = 0, 5
# Fired at this many of the 24 clock hours: no rest period is left.
MIN_CLOCK_HOURS = 20
# ...and in the small hours on at least this share of the nights in the window.
MIN_NIGHT_SHARE = 0.5
# Other motion sensors awake in the small hours on this many nights join the evidence.
COMPANION_NIGHTS = 2


def _onsets(home: HomeView, entity_id: str) -> list[datetime]:
    return [local_time(home, t.when) for t in home.changes(entity_id) if t.state == "on"]


def _night_count(onsets: list[datetime]) -> int:
    return len({t.date() for t in onsets if SMALL_HOURS_START <= t.hour < SMALL_HOURS_END})


ACTIVITY_WITHOUT_NIGHT_REST = FindingKind(
    "activity_without_night_rest", AnomalyType.BEHAVIOURAL, Severity.MEDIUM
)


def activity_without_night_rest(home: HomeView) -> Iterator[Finding]:
    """A motion sensor fires at nearly every hour, in the small hours on most nights.

    Magnitude: the nights with small-hours motion.
    """
    if has_pets(home.window.profile) or not home.window.transitions:
        return
    start = local_time(home, home.window.transitions[0].when)
    nights = (local_time(home, home.end).date() - start.date()).days
    if nights < MIN_NIGHTS:
        return
    sensors = [
        s.entity_id for s in home.window.snapshot if is_motion(s) and s.entity_id in home.history
    ]
    onsets = {entity_id: _onsets(home, entity_id) for entity_id in sensors}
    for entity_id, times in onsets.items():
        night_count = _night_count(times)
        if len({t.hour for t in times}) < MIN_CLOCK_HOURS:
            continue
        if night_count < MIN_NIGHT_SHARE * nights:
            continue
        companions = [
            other
            for other, other_times in onsets.items()
            if other != entity_id and _night_count(other_times) >= COMPANION_NIGHTS
        ]
        yield ACTIVITY_WITHOUT_NIGHT_REST.finding(
            evidence=(entity_id, *companions),
            reasoning=f"{entity_id} saw motion at {len({t.hour for t in times})} of the 24 "
            f"hours of the day and in the small hours on {night_count} of {nights} nights: "
            "the home's daily rhythm, with a rest period at night, is gone.",
            recommendation="Check on the household; if nobody is up at night, check what "
            "sets off the sensor.",
            magnitude=float(night_count),
        )

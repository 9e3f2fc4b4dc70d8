"""Motion in more rooms at the same moment than the household has people.

A person is in one room at a time. When motion sensors in several rooms switch on in
the same few seconds, again and again, either more people are in the home than live
there, or the sensors are not reporting people at all (a shared fault, interference).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
import re

from ..finding_kind import FindingKind
from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView
from ..models import HOME_SUBJECT, AnomalyType, Finding, Severity
from .timeline import real_changes

# Onsets this close together are "at the same moment" (one person cannot cross a home).
TOGETHER = timedelta(seconds=5)
# Rooms at once that no household member could explain, when the household size is unknown.
MIN_ROOMS = 3
# A single coincidence can be a visitor; a pattern is repeated.
MIN_MOMENTS = 2
# Household descriptions (the integration's household profile) that name its size.
_SIZE_WORDS = (
    (re.compile(r"\b(single|alone|solo|one person|bachelor|widow(er)?)\b"), 1),
    (re.compile(r"\b(couple|two adults|pair)\b"), 2),
)


def household_size(home: HomeView) -> int | None:
    """How many people live here: person entities, else the household profile's words."""
    if home.env.persons_total:
        return home.env.persons_total
    people = home.of("person")
    if people:
        return len(people)
    text = home.window.profile.lower()
    if re.search(r"\b(family|children|kids|roommates|shared)\b", text):
        return None
    for pattern, size in _SIZE_WORDS:
        if pattern.search(text):
            return size
    return None


MOTION_IN_MANY_ROOMS_AT_ONCE = FindingKind(
    "motion_in_many_rooms_at_once", AnomalyType.OCCUPANCY_MISMATCH, Severity.MEDIUM
)


def motion_in_many_rooms_at_once(home: HomeView) -> Iterator[Finding]:
    """Motion sensors in more rooms than there are residents fired together, repeatedly.

    Magnitude: how many such moments the window holds.
    """
    onsets: list[tuple[datetime, str, str]] = []
    for entity_id in home.history_of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES):
        area = home.area(entity_id)
        if area is None:
            continue
        onsets.extend(
            (c.when, area, entity_id) for c in real_changes(home, entity_id) if c.state == "on"
        )
    if len(onsets) < MIN_ROOMS * MIN_MOMENTS:
        return
    size = household_size(home)
    needed = max(MIN_ROOMS, size + 1) if size is not None else MIN_ROOMS + 1
    onsets.sort()
    moments: list[tuple[datetime, set[str]]] = []
    start = 0
    for index, (when, _, _) in enumerate(onsets):
        while onsets[start][0] < when - TOGETHER:
            start += 1
        group = onsets[start : index + 1]
        areas = {area for _, area, _ in group}
        if len(areas) < needed:
            continue
        if moments and when - moments[-1][0] <= TOGETHER:
            moments[-1][1].update(e for _, _, e in group)
            continue
        moments.append((when, {e for _, _, e in group}))
    if len(moments) < MIN_MOMENTS:
        return
    sensors = sorted(set().union(*(ids for _, ids in moments)))
    who = f"the household has {size} resident(s)" if size else "nobody is in several rooms at once"
    yield MOTION_IN_MANY_ROOMS_AT_ONCE.finding(
        evidence=tuple(sensors),
        subject=HOME_SUBJECT,
        reasoning=f"Motion sensors in {needed} or more rooms fired within seconds of each other "
        f"{len(moments)} times (first at {moments[0][0]:%Y-%m-%d %H:%M}); {who}.",
        recommendation="Check who is in the home, or the motion sensors if nobody was.",
        magnitude=float(len(moments)),
    )

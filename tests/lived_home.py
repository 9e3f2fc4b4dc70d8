"""A home lived for days, learned as the recorder's history teaches it (core, no HA).

The tests of trips through doors (a WC, a bathroom at night, the front door) each build a
home of a few sensors and one person: described, watched from the first day, the person
home, then every change of every day observed in time order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.models import EntityInfo, Transition

# (when, entity id, state), one change each.
type Events = list[tuple[datetime, str, str]]


def observe(baselines: HomeBaselines, events: Events, areas: Mapping[str, str]) -> None:
    """Each of ``events`` learned in time order, with its entity's area (if it has one)."""
    for when, entity_id, state in sorted(events):
        baselines.observe(when, entity_id, state, areas.get(entity_id))


def lived(
    zone: str,
    areas: Mapping[str, str],
    classes: Mapping[str, str],
    person: str,
    *,
    start: datetime,
    days: Iterable[Events],
) -> HomeBaselines:
    """The sensors of ``areas`` (of ``classes``) watched from ``start``, ``person`` home
    then, and each day's events learned."""
    baselines = HomeBaselines(ZoneInfo(zone))
    baselines.describe(EntityInfo(e, "", area=areas[e], device_class=classes[e]) for e in areas)
    baselines.watching(list(areas), start)
    baselines.observe(start, person, "home")
    observe(baselines, [event for day in days for event in day], areas)
    return baselines


def ticked(baselines: HomeBaselines, events: Events, start: datetime, until: datetime) -> None:
    """``events`` learned in time order with the baselines advanced every five minutes
    from ``start`` up to ``until`` (the day masks are kept at the ticks)."""
    events = sorted(events)
    moment, index = start, 0
    while moment < until:
        while index < len(events) and events[index][0] <= moment:
            baselines.observe(*events[index])
            index += 1
        baselines.advance(moment)
        moment += timedelta(minutes=5)


def walked(
    baselines: HomeBaselines,
    start: datetime,
    steps: Iterable[tuple[float, str, str]],
    areas: Mapping[str, str],
) -> list[Transition]:
    """``steps`` ((minutes after ``start``, entity id, state)) learned as they happen, and
    the window's transitions they make."""
    seen = []
    for minutes, entity_id, state in steps:
        when = start + timedelta(minutes=minutes)
        baselines.observe(when, entity_id, state, areas[entity_id])
        seen.append(Transition(when, entity_id, state))
    return seen


def blip(at: datetime, sensor: str) -> Events:
    """``sensor`` on at ``at`` and off a minute later (somebody passing by)."""
    return [(at, sensor, "on"), (at + timedelta(minutes=1), sensor, "off")]


def through_a_door(at: datetime, seen_by: str, door: str, *, back: bool = True) -> Events:
    """``seen_by`` sees them, into the room behind ``door`` and shut; out four minutes
    later (``back``)."""
    steps = [(0, seen_by, "on"), (0.5, seen_by, "off"), (1, door, "on"), (1.1, door, "off")]
    if back:
        steps += [(5, door, "on"), (5.1, door, "off")]
    return [(at + timedelta(minutes=m), e, s) for m, e, s in steps]

"""Who is home and awake when: daily routines with jitter, weekends, holidays, overrides.

Pure Python (no Home Assistant). Each person's day plan (wake, leave, return, sleep) is
laid out from its wake time on every simulated day (times earlier than the wake time fall
after midnight), jittered; sorted, the actions drive a small state machine, so plans that
cross midnight (a night-shift worker) need no special case. Holidays and incidents that
need the home empty (``while: away``) or occupied (``while: home``) override the plan for
their interval.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
import random
from typing import Any

from .scenario import Scenario
from .scenario_schema import DAY_NAMES
from .streams import Streams

HOLIDAY_LEAVE = time(10, 0)
HOLIDAY_RETURN = time(17, 0)
# Forced absences start this long before the incident and end this long after it.
FORCE_MARGIN = timedelta(minutes=20)


@dataclass(frozen=True, slots=True)
class Action:
    """One person doing one thing: wake, leave, return or sleep."""

    when: datetime
    person: str
    kind: str


@dataclass(frozen=True, slots=True)
class Interval:
    """A half-open stretch of time."""

    start: datetime
    end: datetime


@dataclass(slots=True)
class PersonTimeline:
    """A person's actions and the intervals they produce."""

    person: str
    actions: list[Action]
    home: list[Interval]
    awake_home: list[Interval]


def jitter_offset(rng: random.Random, minutes: float) -> timedelta:
    """A clipped normal offset: within ±``minutes``, mostly within half of it."""
    if minutes <= 0:
        return timedelta(0)
    offset = max(-minutes, min(minutes, rng.gauss(0.0, minutes / 2)))
    return timedelta(minutes=offset)


def _in_any(day: date, periods: Sequence[Mapping[str, date]]) -> bool:
    return any(p["from"] <= day <= p["to"] for p in periods)


def person_actions(
    scenario: Scenario, routine: Mapping[str, Any], streams: Streams
) -> list[Action]:
    """The jittered plan of every simulated day, holidays applied (each day and each
    holiday draws from its own stream: changing one leaves the others as they were)."""
    start = scenario.data["start"]
    person, jitter = routine["person"], routine["jitter"]
    actions: list[Action] = []
    for offset in range(scenario.days + 1):
        day = start + timedelta(days=offset)
        plan = routine_of_day(routine, day)
        rng = streams.daily(f"person-{person}", day)
        for kind in ("wake", "leave", "return", "sleep"):
            clock = plan.get(kind)
            if clock is None:
                continue
            # A plan's day starts when the person wakes: earlier clock times are after
            # midnight (sleep at 00:30, or a night shift ending at 07:00).
            moved = day + timedelta(days=1) if clock < plan["wake"] else day
            when = scenario.local(moved, clock) + jitter_offset(rng, jitter)
            actions.append(Action(when, person, kind))
    periods = [*scenario.data["household"]["holidays"], *routine["holidays"]]
    for period in periods:
        rng = streams.named(f"holiday-{person}", period["from"].isoformat())
        leave = scenario.local(period["from"], HOLIDAY_LEAVE) + jitter_offset(rng, jitter)
        back = scenario.local(period["to"], HOLIDAY_RETURN) + jitter_offset(rng, jitter)
        actions = force(actions, person, Interval(leave, back), away=True)
    return sorted(actions, key=lambda a: a.when)


def routine_of_day(routine: Mapping[str, Any], day: date) -> Mapping[str, Any]:
    """The day's own routine (``mon``…``sun``), else ``weekends`` on Sat/Sun, else
    ``weekdays`` (the schema's cross-check makes sure one of them is there)."""
    number = day.weekday()
    own = routine.get(DAY_NAMES[number])
    weekend = routine.get("weekends") if number >= 5 else None
    return own or weekend or routine["weekdays"]


def force(actions: list[Action], person: str, span: Interval, *, away: bool) -> list[Action]:
    """Replace the plan inside ``span`` by being away (or home) throughout.

    Forced home, a person who is already home keeps sleeping and waking as planned: an
    incident that needs somebody home does not wake a sleeping household (that made the
    house move at night where the household was asleep). Only someone out comes back,
    awake, at the span's start.
    """
    ordered = sorted(actions, key=lambda a: a.when)
    home_before, _ = _state_at(ordered, span.start)
    home_after, awake_after = _state_at(ordered, span.end)
    kept = [a for a in ordered if not span.start <= a.when <= span.end]
    if not away and home_before:
        inside = [
            a for a in ordered if span.start <= a.when <= span.end and a.kind in ("wake", "sleep")
        ]
        kept += inside
        if not home_after:
            kept.append(Action(span.end, person, "leave"))
    elif away:
        kept.append(Action(span.start, person, "leave"))
        if home_after:
            kept.append(Action(span.end, person, "return"))
            if not awake_after:
                kept.append(Action(span.end + timedelta(seconds=1), person, "sleep"))
    else:
        kept.append(Action(span.start, person, "return"))
        kept.append(Action(span.start + timedelta(seconds=1), person, "wake"))
        if not home_after:
            kept.append(Action(span.end, person, "leave"))
        elif not awake_after:
            kept.append(Action(span.end, person, "sleep"))
    return sorted(kept, key=lambda a: a.when)


def _state_at(actions: Sequence[Action], moment: datetime) -> tuple[bool, bool]:
    """(home, awake) after every action up to ``moment``; people start home and asleep."""
    home, awake = True, False
    for action in actions:
        if action.when > moment:
            break
        home, awake = _apply(home, awake, action.kind)
    return home, awake


def _apply(home: bool, awake: bool, kind: str) -> tuple[bool, bool]:
    if kind == "wake":
        return home, True
    if kind == "sleep":
        return home, False if home else awake
    if kind == "leave":
        return False, True
    return True, True  # return: home and awake


def timeline(person: str, actions: list[Action], begin: datetime, end: datetime) -> PersonTimeline:
    """Intervals at home and awake-at-home between ``begin`` and ``end``.

    Actions that change nothing (a return while home) are dropped, so every action left is
    something the house sees.
    """
    home, awake = True, False
    effective: list[Action] = []
    home_iv: list[Interval] = []
    awake_iv: list[Interval] = []
    home_since: datetime | None = begin
    awake_since: datetime | None = None
    for action in actions:
        new_home, new_awake = _apply(home, awake, action.kind)
        if (new_home, new_awake) == (home, awake):
            continue
        when = min(max(action.when, begin), end)
        if action.when >= begin:
            effective.append(action)
        if home and not new_home and home_since is not None:
            home_iv.append(Interval(home_since, when))
            home_since = None
        if new_home and not home:
            home_since = when
        was, now = home and awake, new_home and new_awake
        if was and not now and awake_since is not None:
            awake_iv.append(Interval(awake_since, when))
            awake_since = None
        if now and not was:
            awake_since = when
        home, awake = new_home, new_awake
    if home_since is not None:
        home_iv.append(Interval(home_since, end))
    if awake_since is not None:
        awake_iv.append(Interval(awake_since, end))
    clip = [i for i in effective if begin <= i.when < end]
    return PersonTimeline(person, clip, _nonempty(home_iv), _nonempty(awake_iv))


def _nonempty(intervals: list[Interval]) -> list[Interval]:
    return [i for i in intervals if i.end > i.start]


def union(groups: Sequence[Sequence[Interval]]) -> list[Interval]:
    """Merged union of interval lists."""
    items = sorted((i for g in groups for i in g), key=lambda i: i.start)
    merged: list[Interval] = []
    for item in items:
        if merged and item.start <= merged[-1].end:
            if item.end > merged[-1].end:
                merged[-1] = Interval(merged[-1].start, item.end)
        else:
            merged.append(item)
    return merged


def intersect(first: Sequence[Interval], second: Sequence[Interval]) -> list[Interval]:
    """Pairwise intersection of two sorted, merged interval lists."""
    out: list[Interval] = []
    i = j = 0
    while i < len(first) and j < len(second):
        start = max(first[i].start, second[j].start)
        end = min(first[i].end, second[j].end)
        if start < end:
            out.append(Interval(start, end))
        if first[i].end < second[j].end:
            i += 1
        else:
            j += 1
    return out


def household(scenario: Scenario, streams: Streams) -> list[PersonTimeline]:
    """Every person's timeline, with incident overrides applied."""
    begin, end = scenario.start, scenario.end
    people = []
    routines = {r["person"]: r for r in scenario.data["household"]["people"]}
    for person in scenario.data["home"]["persons"]:
        routine = routines.get(person["id"])
        # Without a routine a person is simply at home and awake throughout.
        actions = (
            person_actions(scenario, routine, streams)
            if routine
            else [Action(begin, person["id"], "wake")]
        )
        for incident in scenario.data["incidents"]:
            if "while" not in incident:
                continue
            at = scenario.at(incident["at"])
            span = Interval(
                at - FORCE_MARGIN, at + timedelta(minutes=incident["duration"]) + FORCE_MARGIN
            )
            actions = force(actions, person["id"], span, away=incident["while"] == "away")
        people.append(timeline(person["id"], actions, begin, end))
    return people

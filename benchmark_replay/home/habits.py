"""Habits: recurring things people do with devices (``household.habits``).

A habit happens on its days at each of its times (jittered, with a probability), if the
household is in the state its ``when`` asks for, and runs its steps (``repeat``: a burst of
runs with a gap between them). Each habit draws from its own random stream, so adding one
leaves the rest of the plan as it was. Pure Python (no Home Assistant).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
import random
from typing import Any

from .effects import Change
from .presence import Interval, PersonTimeline, jitter_offset
from .scenario import Scenario


def _inside(spans: Sequence[Interval], moment: datetime) -> bool:
    return any(span.start <= moment < span.end for span in spans)


def fits(habit: Mapping[str, Any], people: Sequence[PersonTimeline], moment: datetime) -> bool:
    """Is the household as ``when`` (and ``person``) asks at ``moment``?

    ``home``/``awake``/``asleep`` ask it of ``person`` if given, else of anybody
    (``asleep`` without a person: somebody home and nobody up); ``away``: nobody home;
    ``any``: always (``person``, if given, still has to be home).
    """
    when = habit["when"]
    home = [p for p in people if _inside(p.home, moment)]
    if when == "away":
        return not home
    if "person" in habit:
        subject = [p for p in home if p.person == habit["person"]]
        if not subject:
            return False
    else:
        subject = home
    awake = [p for p in subject if _inside(p.awake_home, moment)]
    if when == "any":
        return True
    if when == "home":
        return bool(subject)
    if when == "awake":
        return bool(awake)
    # asleep: the person (without one: everybody at home) is home and not up.
    return bool(subject) and not awake


def habit_changes(scenario: Scenario, people: Sequence[PersonTimeline]) -> list[Change]:
    """Every habit's changes over the run (source ``habit``), in time order."""
    out: list[Change] = []
    for index, habit in enumerate(scenario.data["household"]["habits"]):
        rng = random.Random(f"{scenario.data['seed']}-habits-{index}")
        for day in scenario.dates(habit["days"]):
            for clock in habit["at"]:
                happens = rng.random() < habit["probability"]
                begin = scenario.local(day, clock) + jitter_offset(rng, habit["jitter"])
                if happens and fits(habit, people, begin):
                    out += _runs(habit, begin, rng)
    return sorted(out, key=lambda c: c.when)


def _runs(habit: Mapping[str, Any], begin: datetime, rng: random.Random) -> list[Change]:
    """The habit's steps once, or ``repeat.count`` times with ``repeat.gap`` minutes
    between the end of one run and the start of the next."""
    repeat = habit.get("repeat")
    runs = rng.randint(*repeat["count"]) if repeat else 1
    changes: list[Change] = []
    t = begin
    for run in range(runs):
        last = t
        for step in habit["steps"]:
            when = t + timedelta(minutes=step["after"])
            changes.append(
                Change(when, step["entity"], step["state"], step["attributes"] or None, "habit")
            )
            last = max(last, when)
        if repeat and run < runs - 1:
            t = last + timedelta(minutes=rng.uniform(*repeat["gap"]))
    return changes

"""A sensor whose every *on* lasts seconds, held on for minutes: what it watches is happening.

A seizure mat under a mattress, a bed-exit pad, a pump's float switch, a vibration sensor:
each goes on for a few seconds when something stirs it (a child turning over, somebody
sitting up, the sump filling) and off again. Held on for minutes, the thing it watches is
happening now (a seizure, a fall across the pad, the pump running dry). ``long_stays``
judges a binary sensor only as an opening (a door left open an hour is everyday life);
nothing else asked how long a sensor of this kind holds *on*.

What a sensor is, is learned (``StateDurations``): its *on* stays, every quarter pooled.
Judged: one whose learned *on* lasts ``SHORT`` or less on average over ``MIN_ONS`` or more
stays. The mean, not the longest: the one long *on* that was the thing happening (told and
dealt with) must not teach that the next one is normal; a sensor that is held on for long
as part of life (a bed sensor, a sound sensor while a baby cries) has a long mean and is
not judged. Told once it has been on ``FACTOR`` times its usual, and never sooner than
``FLOOR`` (a child bouncing on the bed keeps a mat on for a minute or two), nor sooner
than a stay the homeowner marked normal (false alarm).

Which sensors: a binary sensor with no device class, or one whose class says it is stirred
(``vibration``), and not read as an opening or as motion by its behaviour
(``classless_roles``). A class that says what it is (a door, motion, smoke, a plug) is
judged by the checks that read that class. Cold start: a sensor with fewer learned *on*
stays than ``MIN_ONS`` is not judged, except a ``vibration`` sensor, whose *on* is brief by
what it is (``PRIOR_ONS`` short stays are taken as known): it needs ``MIN_ONS - PRIOR_ONS``
of its own, so a sensor never seen on says nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, EntityState, Finding, Severity
from .classless_roles import reads_as_opening_or_motion
from .clock import local
from .home_baselines import HomeBaselines
from .long_stays import duration_text, marked_normal, stay_since

# On this long at most, on average: a sensor of moments, not of states.
SHORT = timedelta(minutes=1)
# Learned on stays before the sensor is judged...
MIN_ONS = 5
# ...of which a vibration sensor's class stands for this many (its on is brief by nature).
PRIOR_ONS = 3
BRIEF_BY_CLASS = frozenset({"vibration"})
# Told at this many times the usual on...
FACTOR = 5.0
# ...and never sooner than this (a child bouncing on the bed keeps a mat on a minute or two).
FLOOR = timedelta(minutes=3)

BRIEF_SENSOR_HELD_ON = FindingKind("brief_sensor_held_on", AnomalyType.SAFETY_HAZARD, Severity.HIGH)


@dataclass(frozen=True, slots=True)
class _Held:
    state: EntityState
    since: datetime
    limit: timedelta
    count: int
    usual: float  # mean minutes on


def _judged_class(state: EntityState) -> bool:
    return state.info.device_class is None or state.info.device_class in BRIEF_BY_CLASS


def _usual_on(baselines: HomeBaselines, state: EntityState) -> tuple[int, float] | None:
    """(stays, mean minutes) of the sensor's learned *on*, when it is a sensor of moments."""
    count, mean = baselines.durations.whole_mean(state.entity_id, "on")
    prior = PRIOR_ONS if state.info.device_class in BRIEF_BY_CLASS else 0
    if count < 1 or count + prior < MIN_ONS:
        return None  # too little of its own life is known
    if timedelta(minutes=mean) > SHORT:
        return None  # held on as part of life
    return count, mean


def _held(home: HomeView, baselines: HomeBaselines) -> Iterator[_Held]:
    """Every sensor of moments on now, and the limit its on is judged by."""
    for state in home.of("binary_sensor"):
        if state.state != "on" or not _judged_class(state):
            continue
        if state.info.device_class is None and reads_as_opening_or_motion(home, state.entity_id):
            continue
        since = stay_since(home, baselines, state)
        if since is None or since >= home.end or marked_normal(baselines, state.entity_id):
            continue
        usual = _usual_on(baselines, state)
        if usual is None:
            continue
        count, mean = usual
        taught = baselines.usual.taught_value(state.entity_id, "stay") or 0.0
        limit = max(FLOOR, FACTOR * timedelta(minutes=mean), timedelta(minutes=taught))
        yield _Held(state, since, limit, count, mean)


def brief_sensor_held_on_due(home: HomeView, baselines: HomeBaselines | None) -> datetime | None:
    """The earliest moment, after now, that such a sensor passes its limit: the glue
    analyses then (a seizure cannot wait for the periodic analysis)."""
    if baselines is None:
        return None
    due = [h.since + h.limit for h in _held(home, baselines) if h.since + h.limit > home.end]
    return min(due, default=None)


def brief_sensor_held_on(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A sensor whose on lasts seconds has been on for minutes.

    Magnitude: minutes on so far.
    """
    for held in _held(home, baselines):
        stayed = home.end - held.since
        if stayed <= held.limit:
            continue
        entity_id = held.state.entity_id
        begun = local(held.since, home.env.zone)
        yield BRIEF_SENSOR_HELD_ON.finding(
            evidence=(entity_id,),
            reasoning=f"{entity_id} has been on for {duration_text(stayed)}, since "
            f"{begun:%H:%M}; in this home it is usually on for "
            f"{duration_text(timedelta(minutes=held.usual))} at a time "
            f"(learned from {held.count} times it went on). "
            "It has not gone off since: what it watches is happening now, not a passing stir.",
            recommendation="Check on what this sensor watches now (a person in bed, a "
            "pump, a machine): somebody may need help.",
            magnitude=round(stayed.total_seconds() / 60, 1),
        )

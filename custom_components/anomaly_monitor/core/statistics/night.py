"""The small hours (midnight to 5 am), when a household sleeps.

- A light comes on then because somebody got up: a motion sensor, a door or a lock
  says so within minutes. A light that switches itself on then, again and again,
  while every motion sensor, door and lock stays quiet is a faulty switch or dimmer,
  a stray automation or schedule, or a device someone else controls.
- An entry door unlocked and opened then, night after night, is a pattern the
  household should know about (somebody leaving or coming in unseen, a lock
  operated remotely); a single late return is left alone.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import ENTRY_DEVICE_CLASSES, OCCUPANCY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES, HomeView
from ..home_clock import on_home_clock
from ..models import AnomalyType, Finding, Severity
from .timeline import turned

# The small hours, local time: everybody who is home is normally asleep.
SMALL_HOURS_START, SMALL_HOURS_END = 0, 5
# A person who gets up moves past a sensor or through a door within this time.
NOBODY_WITHIN = timedelta(minutes=10)
# Once can be a person in a room without a sensor; repeated, it is the device.
MIN_ACTIVATIONS = 2
# An entry door used in the small hours on this many different nights is a pattern.
MIN_NIGHTS = 2
# Motion this close to a night-time opening is the person who used the door.
ON_THE_WAY = timedelta(minutes=5)
_PEOPLE_CLASSES = OCCUPANCY_DEVICE_CLASSES | OPENING_DEVICE_CLASSES | ENTRY_DEVICE_CLASSES


def _people_signals(home: HomeView) -> list[datetime]:
    """When any motion sensor, opening or lock in the home changed."""
    times: list[datetime] = []
    for entity_id in home.history:
        domain = home.domain(entity_id)
        person = domain == "lock" or (
            domain == "binary_sensor" and home.device_class(entity_id) in _PEOPLE_CLASSES
        )
        if person:
            times.extend(change.when for change in home.changes(entity_id))
    return sorted(times)


def _in_small_hours(home: HomeView, when: datetime) -> bool:
    return SMALL_HOURS_START <= on_home_clock(when, home.env.zone).hour < SMALL_HOURS_END


LIGHT_ON_WITH_NOBODY_ABOUT = FindingKind(
    "light_on_with_nobody_about", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def light_on_with_nobody_about(home: HomeView) -> Iterator[Finding]:
    """A light switched on in the small hours, repeatedly, with no sign of anybody.

    Magnitude: how many such switch-ons the window holds.
    """
    has_motion = any(
        home.domain(e) == "binary_sensor" and home.device_class(e) in OCCUPANCY_DEVICE_CLASSES
        for e in home.history
    )
    if not has_motion:
        return  # without a motion sensor, "nobody about" cannot be known
    signals = _people_signals(home)
    start = home.window.start
    for entity_id in home.history_of("light"):
        ghostly: list[datetime] = []
        for when in turned(home.changes(entity_id), "on"):
            if start is not None and when <= start:
                continue  # only records the state the window started in
            if not _in_small_hours(home, when):
                continue
            index = bisect_left(signals, when - NOBODY_WITHIN)
            if index < len(signals) and signals[index] <= when + NOBODY_WITHIN:
                continue
            ghostly.append(when)
        if len(ghostly) < MIN_ACTIVATIONS:
            continue
        yield LIGHT_ON_WITH_NOBODY_ABOUT.finding(
            evidence=(entity_id,),
            reasoning=f"{entity_id} switched on {len(ghostly)} times between midnight and 5 am "
            f"(first {ghostly[0]:%Y-%m-%d %H:%M}) with no motion, door or lock anywhere in "
            "the home within 10 minutes.",
            recommendation="Check the light's automations and schedules, and the switch itself.",
            magnitude=float(len(ghostly)),
        )


def _local(home: HomeView, when: datetime) -> datetime:
    return on_home_clock(when, home.env.zone)


def _near(times: list[datetime], when: datetime, reach: timedelta) -> bool:
    index = bisect_left(times, when - reach)
    return index < len(times) and times[index] <= when + reach


ENTRY_USED_IN_SMALL_HOURS = FindingKind(
    "entry_used_in_small_hours", AnomalyType.SECURITY, Severity.MEDIUM
)


def entry_used_in_small_hours(home: HomeView) -> Iterator[Finding]:
    """An entry door opened between midnight and 5 am on several different nights.

    Magnitude: the number of nights.
    """
    start = home.window.start
    for door in home.history_of("binary_sensor", *ENTRY_DEVICE_CLASSES):
        openings = [
            when
            for when in turned(home.changes(door), "on")
            if (start is None or when > start) and _in_small_hours(home, when)
        ]
        nights = {_local(home, when).date() for when in openings}
        if len(nights) < MIN_NIGHTS:
            continue
        # The locks and motion sensors that moved with the openings: the way taken.
        evidence = [door]
        for other in home.history:
            domain = home.domain(other)
            if domain == "lock":
                reach = timedelta(minutes=1)
            elif domain == "binary_sensor" and home.device_class(other) in (
                OCCUPANCY_DEVICE_CLASSES
            ):
                reach = ON_THE_WAY
            else:
                continue
            moves = [change.when for change in home.changes(other)]
            if sum(1 for when in openings if _near(moves, when, reach)) * 2 >= len(openings):
                evidence.append(other)
        yield ENTRY_USED_IN_SMALL_HOURS.finding(
            evidence=tuple(evidence),
            reasoning=f"{door} was opened between midnight and 5 am on {len(nights)} nights "
            f"({len(openings)} times, first {openings[0]:%Y-%m-%d %H:%M}).",
            recommendation="Check who uses this door at night, and the lock's access log.",
            magnitude=float(len(nights)),
        )

"""Occupancy contradictions over time: activity while everyone is away or asleep."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..home import ABSENT_STATES, OCCUPANCY_DEVICE_CLASSES, HomeView
from ..models import AnomalyType, Finding, Severity, parse_number
from .timeline import intervals

# Motion right after the last person left or just before one arrives is that person.
LEAVE_GRACE = timedelta(minutes=3)
ARRIVE_GRACE = timedelta(minutes=3)
# The phone's sleep confidence (Android companion app, %) above which the user sleeps.
ASLEEP_CONFIDENCE = 90.0
# Sleep confidence climbs gradually as one falls asleep; a leap of this many points in
# one reading is a sudden "deep sleep" claim worth checking against activity.
SLEEP_LEAP = 30.0
# Motion this close to such a leap contradicts it; recognised activity (walking...) is
# reported by the phone with more delay, so it gets a wider window.
SLEEP_MOTION_WINDOW = timedelta(minutes=2)
# A person still walking about before and after the claim (each within this) was awake.
SLEEP_SURROUND = timedelta(minutes=5)
SLEEP_ACTIVITY_WINDOW = timedelta(minutes=15)
# Activity recognition states (companion app) that mean the person is moving.
MOVING_ACTIVITIES = frozenset(
    {"walking", "running", "on_foot", "on_bicycle", "cycling", "in_vehicle"}
)


def _presence_ids(home: HomeView) -> list[str]:
    ids = {s.entity_id for s in home.presence_entities}
    ids.update(e for e in home.history if home.domain(e) in ("person", "device_tracker"))
    return sorted(ids)


def _motion_ids(home: HomeView) -> list[str]:
    return [
        e
        for e in home.history
        if home.domain(e) == "binary_sensor" and home.device_class(e) in OCCUPANCY_DEVICE_CLASSES
    ]


def away_periods(home: HomeView) -> list[tuple[datetime, datetime]]:
    """Spans when every tracked person was away (grace periods trimmed)."""
    people = _presence_ids(home)
    if not people:
        return []
    points = sorted({t.when for e in people for t in home.history.get(e, [])})
    spans: list[tuple[datetime, datetime]] = []
    state: dict[str, str] = {}
    for entity_id in people:
        snapshot = home.states.get(entity_id)
        if snapshot is not None and not home.history.get(entity_id):
            state[entity_id] = snapshot.state.lower()
    timeline = sorted(
        (t.when, t.entity_id, t.state.lower()) for e in people for t in home.history.get(e, [])
    )
    start: datetime | None = None
    index = 0
    for point in [*points, home.end]:
        while index < len(timeline) and timeline[index][0] <= point:
            state[timeline[index][1]] = timeline[index][2]
            index += 1
        away = len(state) == len(people) and all(s in ABSENT_STATES for s in state.values())
        if away and start is None:
            start = point
        elif not away and start is not None:
            if point - ARRIVE_GRACE > start + LEAVE_GRACE:
                spans.append((start + LEAVE_GRACE, point - ARRIVE_GRACE))
            start = None
    if start is not None and home.end > start + LEAVE_GRACE:
        spans.append((start + LEAVE_GRACE, home.end))
    return spans


def activity_while_away(home: HomeView) -> Iterator[Finding]:
    """Motion inside while every tracked person is away: an intruder, a pet or a bad tracker.

    Magnitude: how many times motion started while everyone was away.
    """
    spans = away_periods(home)
    if not spans:
        return
    fired: list[str] = []
    onsets = 0
    for entity_id in _motion_ids(home):
        count = sum(
            1
            for interval in intervals(home, entity_id)
            if interval.state.lower() == "on"
            and any(start <= interval.start <= end for start, end in spans)
        )
        if count:
            fired.append(entity_id)
            onsets += count
    if not fired:
        return
    people = [e for e in _presence_ids(home) if home.history.get(e)]
    yield Finding(
        rule="activity_while_away",
        evidence=(*fired, *people),
        reasoning=f"Motion was detected by {', '.join(fired)} while everyone tracked was away.",
        anomaly_type=AnomalyType.OCCUPANCY_MISMATCH,
        severity=Severity.HIGH,
        recommendation="Check the cameras or ask a neighbour; check the presence trackers.",
        magnitude=float(onsets),
    )


def _sleep_sensors(home: HomeView) -> list[str]:
    return [
        e for e in home.history if home.domain(e) == "sensor" and "sleep_confidence" in e.lower()
    ]


def _activity_sensors(home: HomeView) -> list[str]:
    return [e for e in home.history if home.domain(e) == "sensor" and e.endswith("activity")]


def _moving_around(onsets: list[datetime], when: datetime) -> bool:
    """Motion right at the sleep claim, or motion on both sides of it a few minutes apart."""
    if any(abs(o - when) <= SLEEP_MOTION_WINDOW for o in onsets):
        return True
    before = any(when - SLEEP_SURROUND <= o < when for o in onsets)
    after = any(when < o <= when + SLEEP_SURROUND for o in onsets)
    return before and after


def activity_while_asleep(home: HomeView) -> Iterator[Finding]:
    """The phone says its owner sleeps soundly while they walk around or motion fires.

    Magnitude: how many activity reports or motion onsets contradict the sleep claims.
    """
    for sleep_id in _sleep_sensors(home):
        asleep: list[datetime] = []
        previous: float | None = None
        for t in home.history.get(sleep_id, []):
            value = parse_number(t.state)
            if value is None:
                continue
            if value >= ASLEEP_CONFIDENCE and (previous is None or value - previous >= SLEEP_LEAP):
                asleep.append(t.when)
            previous = value
        if not asleep:
            continue
        movers: list[str] = []
        events = 0
        for activity_id in _activity_sensors(home):
            moving = sum(
                1
                for t in home.history.get(activity_id, [])
                if t.state.lower() in MOVING_ACTIVITIES
                and any(abs(t.when - when) <= SLEEP_ACTIVITY_WINDOW for when in asleep)
            )
            if moving:
                movers.append(activity_id)
                events += moving
        if not movers:
            for motion_id in _motion_ids(home):
                onsets = [
                    t.when for t in home.history.get(motion_id, []) if t.state.lower() == "on"
                ]
                if any(_moving_around(onsets, when) for when in asleep):
                    movers.append(motion_id)
                    events += sum(
                        1
                        for onset in onsets
                        if any(abs(onset - when) <= SLEEP_SURROUND for when in asleep)
                    )
        if not movers:
            continue
        yield Finding(
            rule="activity_while_asleep",
            evidence=(*movers, sleep_id),
            reasoning=f"{sleep_id} reports deep sleep while {', '.join(movers)} shows activity "
            "at the same time.",
            anomaly_type=AnomalyType.OCCUPANCY_MISMATCH,
            severity=Severity.MEDIUM,
            recommendation="Check on the person, or the phone's sleep tracking.",
            magnitude=float(events),
        )

"""A motion or opening sensor firing far more often than its area ever is active at this hour.

``event_rate_burst`` (statistics) compares an entity's busiest hour with its other hours
in the window, which needs six hours of them: a live home's window holds two. The
baselines keep every area's activity per hour of the week (``ActivityProfile``: motion
starting, doors and windows opening, lights and locks operated, per watched hour). Here
the last hour's onsets of one motion/occupancy/presence or opening sensor are compared with
its area's learned rate around this hour of the day (every weekday pooled, ± 1 hour):
``MIN_ONSETS`` or more, and ``FACTOR`` times the learned rate or more.

People who are busy make a room busy, but they also move elsewhere: a hallway, a kitchen,
lights. So it is told only when that one sensor makes ``DOMINANT`` or more of all the
activity of the home in that hour: a sensor re-triggering on its own (a failing sensor,
a curtain or a heater's draught in front of it, a contact chattering), which also
drains its battery and floods automations. HA's vocabulary only (domain, device_class,
area); the learned counts of the current hour are not counted as its normal.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import OCCUPANCY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES, HomeView
from ..models import AnomalyType, Finding, Severity
from .clock import local
from .home_baselines import HomeBaselines

RECENT = timedelta(hours=1)
MIN_ONSETS = 30
FACTOR = 10.0
DOMINANT = 0.8
# The area's hours around now must have been watched this often (two weeks of 3 hours).
MIN_WATCHED_HOURS = 42
_LOCK_STATES = frozenset({"locked", "unlocked"})


def _onsets(home: HomeView, entity_id: str, since_when: datetime) -> int:
    """Activities of one entity since ``since_when``, counted as the baselines count them
    (a sensor's "on" even as the window's first change; a light or lock only from a known
    state)."""
    domain = home.domain(entity_id)
    count = 0
    before: str | None = None
    for change in home.changes(entity_id):
        previous, before = before, change.state
        if change.when <= since_when or previous == change.state:
            continue
        if domain == "binary_sensor":
            count += change.state == "on"
        elif domain == "light":
            count += previous is not None
        elif domain == "lock":
            count += previous in _LOCK_STATES and change.state in _LOCK_STATES
    return count


SENSOR_FIRING_FAR_ABOVE_ITS_HOUR = FindingKind(
    "sensor_firing_far_above_its_hour", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def sensor_firing_far_above_its_hour(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """One sensor fired far more than its area is ever active at this hour, alone.

    Magnitude: its onsets in the last hour.
    """
    if home.nobody_home:
        return  # activity in an empty home is ``activity_while_away``'s
    now = home.end
    since = now - RECENT
    sensors = home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES, *OPENING_DEVICE_CLASSES)
    history = home.history
    candidates = [  # an onset is a change: fewer changes in the window, fewer onsets
        s for s in sensors if s.info.area and len(history.get(s.entity_id, ())) >= MIN_ONSETS
    ]
    onsets = {s.entity_id: _onsets(home, s.entity_id, since) for s in candidates}
    candidates = [s for s in candidates if onsets[s.entity_id] >= MIN_ONSETS]
    if not candidates:
        return  # nearly always: the rest is counted only for a sensor this busy
    counted = [*sensors, *home.of("light"), *home.of("lock")]
    for state in counted:
        if state.entity_id not in onsets:
            onsets[state.entity_id] = _onsets(home, state.entity_id, since)
    total = sum(onsets.values())
    hour = local(now, home.env.zone).hour
    for sensor in candidates:
        count, area = onsets[sensor.entity_id], sensor.info.area
        if count < DOMINANT * total:
            continue  # the home is busy: people, not a sensor
        activities, watched = baselines.activity.rate_of_day(area, hour)
        if watched < MIN_WATCHED_HOURS:
            continue
        # The live stream is learned before each analysis: this hour's onsets are not normal.
        area_recent = sum(onsets[s.entity_id] for s in counted if s.info.area == area)
        usual = max(0.0, activities - area_recent) / watched
        if count < FACTOR * usual:
            continue
        yield SENSOR_FIRING_FAR_ABOVE_ITS_HOUR.finding(
            evidence=(sensor.entity_id,),
            reasoning=f"{sensor.entity_id} went on {count} times in the last hour, nearly "
            f"all the activity in the home; at this time of day {area} usually has about "
            f"{usual:.1f} an hour (learned over {watched / 3:.0f} days): the sensor is "
            "firing on its own, or something keeps moving in front of it.",
            recommendation="Check the sensor (battery, mounting, a curtain, plant or heater "
            "in its view; a door contact's magnet).",
            magnitude=float(count),
        )

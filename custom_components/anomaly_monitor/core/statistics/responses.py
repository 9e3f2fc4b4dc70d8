"""Slow responses, judged against the whole home's motion-lighting habit.

A single room rarely gives enough motion events to learn its own light's response
time, but a home's motion-activated lights all respond alike (the same hub, the same
kind of automation). The lag is pooled over every area; a light that took many times
longer than the home's usual response is slow. A light answers the area's motion
nearest before it: an earlier onset of another sensor (a camera that sees the stairs half a
minute before their own sensor) is not answered slowly.

Only a motion light is judged, in the light it is one in: it followed at least
``MIN_FOLLOWED`` of the motion in its area while it was off, in the same daylight (or
darkness) as its slow answer, and if it answered fast only in the other (an automation
that lights it only in the dark), it is not judged. A lamp somebody switches on by hand
now and then follows motion only sometimes; a light switched on by hand in daylight, its
automation's condition false: neither answers slowly.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from datetime import datetime, timedelta
from statistics import median

from ..finding_kind import FindingKind
from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView
from ..models import HOME_SUBJECT, MAX_CANDIDATES, AnomalyType, Finding, Severity
from .timeline import real_changes

# A light turning on within this after motion in its area is taken as the response;
# later than that, a person more likely switched it by hand.
RESPONSE_REACH = timedelta(seconds=40)
SAME_INSTANT = timedelta(seconds=1)
# Enough responses home-wide to know the habit, and the habit must be automatic (fast).
# Three are enough when the slow one is the exception: two fast answers are the habit
# (a morning with the bedroom and living-room lights at 0 s and the kitchen's at 30 s).
MIN_RESPONSES = 3
MAX_TYPICAL = timedelta(seconds=3)
# A response this slow (and this many times the habit) is a degraded automation.
SLOW_RESPONSE = timedelta(seconds=15)
SLOW_FACTOR = 5.0
# Slow responses must be the exception (at most one in three), or slowness is simply this
# home's habit.
MAX_SLOW_SHARE = 1 / 3
# A motion light follows at least this share of its area's motion while it is off.
MIN_FOLLOWED = 0.5


def _nearer_onset(area_onsets: list[datetime], when: datetime, lit: datetime) -> bool:
    """Another motion onset of the area came after ``when`` and before the light came on
    at ``lit``: the light answered that one (a camera sees the stairs half a minute before
    the stairs' own sensor, whose light comes on at once)."""
    index = bisect_left(area_onsets, when + SAME_INSTANT)
    return index < len(area_onsets) and area_onsets[index] < lit


def _state_before(timeline: list[tuple[datetime, str]], when: datetime) -> str | None:
    index = bisect_left(timeline, (when - SAME_INSTANT,)) - 1
    return timeline[index][1] if index >= 0 else None


def _motion_light(
    home: HomeView,
    answers: list[tuple[datetime, timedelta | None]],
    slow: timedelta,
    limit: timedelta,
) -> bool:
    """Whether the light whose motion onsets (while off) got ``answers`` is a motion light
    in the daylight (or darkness) of its ``slow`` answer (see the module's text)."""
    daylight = home.env.daylight_at
    when = next(w for w, lag in answers if lag == slow)
    alike = [(w, lag) for w, lag in answers if daylight(w) == daylight(when)]
    followed = [lag for _, lag in alike if lag is not None]
    fast_otherwise = any(
        lag is not None and lag < limit for w, lag in answers if daylight(w) != daylight(when)
    )
    if fast_otherwise and not any(lag < limit for lag in followed):
        return False  # a motion light only in the other light
    return len(followed) >= MIN_FOLLOWED * len(alike)


SLOW_LIGHT_RESPONSE = FindingKind(
    "slow_light_response", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def slow_light_response(home: HomeView) -> Iterator[Finding]:
    """A motion-activated light came on much later than the home's lights usually do.

    Magnitude: the slowest response, in seconds.
    """
    lags: list[tuple[timedelta, str, str]] = []
    answers: dict[str, list[tuple[datetime, timedelta | None]]] = {}
    lights: dict[str | None, list[str]] = {}  # per area, in the window's order
    for entity_id in home.history:
        if home.domain(entity_id) == "light":
            lights.setdefault(home.area(entity_id), []).append(entity_id)
    sensors = home.history_of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES)
    onsets_of = {
        motion: [t.when for t in real_changes(home, motion) if t.state.lower() == "on"]
        for motion in sensors
    }
    area_onsets: dict[str | None, list[datetime]] = {}
    for motion in sensors:
        area_onsets.setdefault(home.area(motion), []).extend(onsets_of[motion])
    for moments in area_onsets.values():
        moments.sort()
    for motion in sensors:
        area = home.area(motion)
        if area is None:
            continue
        onsets = onsets_of[motion]
        for light in lights.get(area, ()):
            lit = [t.when for t in real_changes(home, light) if t.state.lower() == "on"]
            timeline = [(t.when, t.state.lower()) for t in home.changes(light)]
            for when in onsets:
                index = bisect_left(lit, when - SAME_INSTANT)
                lag = None
                if index < len(lit) and lit[index] - when <= RESPONSE_REACH:
                    if _nearer_onset(area_onsets[area], when, lit[index]):
                        continue  # it answered a later onset of the area, nearer to it
                    lag = max(lit[index] - when, timedelta(0))
                    lags.append((lag, light, motion))
                if lag is not None or _state_before(timeline, when) != "on":
                    answers.setdefault(light, []).append((when, lag))
    if len(lags) < MIN_RESPONSES:
        return
    typical = timedelta(seconds=median(lag.total_seconds() for lag, _, _ in lags))
    if typical > MAX_TYPICAL:
        return  # lights switched by hand: lags vary, nothing to compare with
    limit = max(SLOW_RESPONSE, typical * SLOW_FACTOR)
    slow: dict[str, timedelta] = {}
    triggers: list[str] = []  # the motion sensors the slow lights answered: candidates
    count = 0
    for lag, light, motion in lags:
        if lag >= limit and _motion_light(home, answers[light], lag, limit):
            count += 1
            slow[light] = max(lag, slow.get(light, timedelta(0)))
            if motion not in triggers:
                triggers.append(motion)
    if not slow or count > MAX_SLOW_SHARE * len(lags):
        return  # slow is the rule here, not the exception
    yield SLOW_LIGHT_RESPONSE.finding(
        evidence=tuple(sorted(slow)),
        candidates=tuple(triggers[:MAX_CANDIDATES]),
        subject=HOME_SUBJECT,
        reasoning=f"Lights in this home come on about {typical.total_seconds():.0f} s after "
        "motion, but "
        + ", ".join(f"{light} took {lag.total_seconds():.0f} s" for light, lag in slow.items())
        + ".",
        recommendation="Check the hub, the light's radio link and the automation's conditions.",
        magnitude=max(slow.values()).total_seconds(),
    )

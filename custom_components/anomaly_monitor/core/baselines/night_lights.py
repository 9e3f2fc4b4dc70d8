"""A light switched on in the night stays on far longer than it ever does then, nobody moving.

At night a bathroom or hall light goes on for a toilet trip and off again minutes later;
``StateDurations`` knows how long each light stays on when switched on at night (00-06
local, its own night-time stays, never the evening's long bath). A light switched on in
the small hours (00-05) that has stayed on ``FACTOR`` times its longest night-time stay,
and never less than ``FLOOR``, while its area's motion sensors are off and no motion
sensor of the home has seen anybody since the first ``ENTERING`` minutes of it (and for
``STILL`` at least), someone home when it went on, may be a person who fell where the light
is: told as a safety matter (and still told when a tracker leaves later, the light on and
nobody moving: the other one going to work, a phone dropping out). A room lived in at
night, or a light left on by somebody who went elsewhere, shows movement, and is not
judged; nor is a light its area's motion did not see anybody
switch on. Lights with too few night-time stays, areas without a motion sensor
(``night_lights_unseen`` judges those by the home's) and stays that began before the
analysed window are not judged; what the homeowner marked normal ("false
alarm") stands beside the learned stays.

A few night stays (a toilet trip, minutes) say how long the light is on when used at
night, not how often the household walks away from it: a light this home was seen
leaving on with its room still, at other hours (``left_on_lights``: on half an hour and
more, nobody under it for the last 20 min), reads at 03:00 exactly as on those evenings.
Its light then says nothing of a fall, and is not judged (the stillness checks judge the
whole home's stillness, whatever the lights do).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView, is_on, is_unavailable
from ..home_then import someone_home_at
from ..models import AnomalyType, EntityState, Finding, Severity
from ..statistics.night import SMALL_HOURS_END, SMALL_HOURS_START
from ..statistics.timeline import turned
from .clock import local
from .home_baselines import HomeBaselines
from .long_stays import at_most, duration_text, stay_since
from .night_outings import motion_onsets

# Far longer than a night-time use: this many times the longest learned one...
FACTOR = 3.0
# ...and never less than this (someone unwell may sit a while).
FLOOR = timedelta(minutes=30)
# Nobody moved in the light's area for this long...
STILL = timedelta(minutes=20)
# ...nor at all since the first minutes after it went on (going in, sitting down).
ENTERING = timedelta(minutes=5)
# Seen left on, its room still, this many times at other hours: a light this home forgets
# (the chance of a forgotten light is then that of its stays, far above a fall's).
LEFT_ON_SEEN = 1


LIGHT_ON_LONG_AT_NIGHT = FindingKind(
    "light_on_long_at_night", AnomalyType.SAFETY_HAZARD, Severity.HIGH
)


def light_on_long_at_night(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A night-time light on far beyond its learned night stays, its area still.

    Magnitude: minutes the light has been on.
    """
    now = home.end
    zone = baselines.zone
    window_start = home.window.start
    onsets = motion_onsets(home)
    for light in home.of("light"):
        if not is_on(light) or not light.info.area:
            continue
        past = on_past_its_night_stays(home, baselines, light)
        if past is None or not someone_home_at(home, past[0]):
            continue
        since, count, longest = past
        motion = [
            s
            for s in home.in_area(light.info.area)
            if s.domain == "binary_sensor" and s.info.device_class in OCCUPANCY_DEVICE_CLASSES
        ]
        readable = [s for s in motion if not is_unavailable(s)]
        if not readable or any(is_on(s) for s in readable):
            continue
        # Nobody moved anywhere since going in (a few minutes to settle), nor lately: a room
        # lived in at night (a student's kitchen, a sleepless reader) shows movement, and
        # so does a person who left the light on and went elsewhere.
        quiet_from = min(since + ENTERING, now - STILL)
        if window_start is None or since < window_start:
            continue  # the movement since it went on is not all in the window
        if any(when > quiet_from for when in onsets):
            continue
        # Somebody went in: its area's motion saw them as the light went on.
        went_in = (
            when
            for s in readable
            for when in turned(home.changes(s.entity_id), "on")
            if abs(when - since) <= ENTERING
        )
        if next(went_in, None) is None:
            continue
        yield LIGHT_ON_LONG_AT_NIGHT.finding(
            evidence=(light.entity_id, *sorted(s.entity_id for s in readable)),
            reasoning=f"{light.entity_id} has been on for {duration_text(now - since)}, since "
            f"{local(since, zone):%H:%M}, and nobody has moved in {light.info.area} for "
            f"{duration_text(STILL)} or more; switched on at night it is usually on for "
            f"{at_most(longest, count, 'night-time stays')}.",
            recommendation=f"Check on whoever is in {light.info.area}: they may have fallen.",
            magnitude=round((now - since).total_seconds() / 60, 1),
        )


def on_past_its_night_stays(
    home: HomeView, baselines: HomeBaselines, light: EntityState
) -> tuple[datetime, int, float] | None:
    """(since, night stays learned, the longest in minutes) of a light switched on in the
    small hours and on for more than ``FACTOR`` times its longest learned night-time stay
    (never less than ``FLOOR``); None otherwise."""
    limit = night_stay_limit(home, baselines, light)
    if limit is None or home.end - limit.since <= limit.limit:
        return None
    return limit.since, limit.count, limit.longest


@dataclass(frozen=True, slots=True)
class NightStayLimit:
    """A light switched on in the small hours, and how long it may stay on."""

    since: datetime
    count: int  # night-time stays learned
    longest: float  # the longest of them (or taught), minutes
    limit: timedelta  # ``FACTOR`` times it, never less than ``FLOOR``


def night_stay_limit(
    home: HomeView, baselines: HomeBaselines, light: EntityState
) -> NightStayLimit | None:
    """The limit of a light on since the small hours, with learned night-time stays."""
    since = stay_since(home, baselines, light)
    if since is None or since >= home.end:
        return None
    if not SMALL_HOURS_START <= local(since, baselines.zone).hour < SMALL_HOURS_END:
        return None
    if baselines.left_lights.times_left(light.entity_id) >= LEFT_ON_SEEN:
        return None  # a light this home leaves on, its room still (``left_on_lights``)
    learned = baselines.durations.longest(light.entity_id, "on", since)
    if learned is None or learned[2]:
        return None  # too few night-time stays (or only every quarter pooled)
    count, longest, _ = learned
    longest = max(longest, baselines.usual.taught_value(light.entity_id, "stay") or 0.0)
    return NightStayLimit(since, count, longest, max(FLOOR, FACTOR * timedelta(minutes=longest)))

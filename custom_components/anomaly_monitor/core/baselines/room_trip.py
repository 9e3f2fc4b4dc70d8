"""A trip out of the room somebody sleeps in, at night, that never came back to it.

``bed_left`` and ``bed_trip`` judge a night trip by a bed; most homes have none. What a
home without one still shows is the room: after the night's rest the first sign is in the
room somebody sleeps in, then one outside it, and within minutes one back in it
(``RoomReturns``: a grandmother's door opened, the kitchen, her door shut six minutes
later, every night). A trip under way that left such a room and stopped in a room this
home always leaves within minutes (``night_trips.PASSING`` at every learned quarter: a
kitchen, a bathroom, a stair; never the living room somebody sleepless sits up in), with
nothing moving anywhere since, is somebody who did not come back: judged from the first
sign outside the room, as ``bed_returns`` judges a bed's trips (twice the longest, at
least ``MARGIN`` more, never under ``FLOOR``), never before ``STILL`` of nothing moving;
a quiet begun after that limit is somebody up and about (or come to help), no trip's stop.

Only where the room's trips are short (``SHORT``: a trip of forty minutes to the kitchen
is reading, not the toilet), learned at the quarter the trip left it in (no prior: a
room is known as slept in only by its trips); not when a sensor of that room cannot be
read (the way back would not be seen), nor when the room stopped in may be a pet's.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import NamedTuple

from ..home import (
    ENTRY_DEVICE_CLASSES,
    OCCUPANCY_DEVICE_CLASSES,
    OPENING_DEVICE_CLASSES,
    HomeView,
    is_unavailable,
)
from ..phoneless_residents import people_move_at_any_hour
from .bed_returns import FACTOR, FLOOR, MARGIN
from .home_baselines import HomeBaselines
from .lived_while_away import maybe_a_pet
from .night_trips import PASSING
from .trip_quarters import LearnedTrips
from .ways_in import way_out

# The room's trips came back within this: somebody's toilet trips, not a night up...
SHORT = timedelta(minutes=20)
# ...and went somewhere: back within seconds every time is a door opened and shut again
# (a glance out of a one-room flat's front door), no walk anywhere.
WALK = timedelta(minutes=1)
# Never told before this long with nothing moving anywhere (``bed_left.QUIET``).
STILL = timedelta(minutes=15)
# Seen outside the room within this of the trip's first sign in it: somebody walking out
# of it. Later, whoever opened its door at 03:10 stayed in it, and the bathroom door an
# hour after is no step of that trip.
LEFT_WITHIN = timedelta(minutes=10)
# A door the household came in by this many times while the home was empty is a way out
# (``still_home.LEARNED_ENTRIES``).
LEARNED_ENTRIES = 2


class RoomTrip(NamedTuple):
    """A night trip out of a room its trips come back to, not back."""

    limit: timedelta  # from the quiet's start
    room: str  # the room the trip left
    out: datetime  # the first sign outside it
    trips: LearnedTrips  # what the room's night trips taught


def room_trip(
    home: HomeView, baselines: HomeBaselines, area: str, since: datetime
) -> RoomTrip | None:
    """The limit of a quiet from ``since`` in ``area`` when it stopped a night trip out
    of a room whose trips come back (see the module); None when it is not one."""
    returns = baselines.room_quiet.returns
    trip = returns.trip
    if trip is None or trip.out is None or area == trip.room or since < trip.out:
        return None
    if trip.out - trip.began > LEFT_WITHIN:
        return None
    if _by_a_way_out(home, baselines, (trip.room, area), trip.began):
        return None  # out of the home (a one-room flat's front door): no trip inside
    learned = returns.learned(trip.room, trip.out)
    if learned is None or not WALK <= learned.longest <= SHORT:
        return None
    quarters = baselines.room_quiet.learned_quarters(area)
    if not quarters or any(quiet.longest >= PASSING for quiet in quarters):
        return None  # somebody may sit up there (the sofa), or nothing is known of it
    classes = (*OCCUPANCY_DEVICE_CLASSES, *OPENING_DEVICE_CLASSES)
    if any(
        is_unavailable(s) for s in home.of("binary_sensor", *classes) if s.info.area == trip.room
    ):
        return None  # the way back would not be seen
    if not people_move_at_any_hour(home.window) and any(
        maybe_a_pet(baselines, home, s.entity_id, since)
        for s in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES)
        if s.info.area == area
    ):
        return None
    longest = learned.longest
    due = trip.out + max(FLOOR, longest * FACTOR, longest + MARGIN)
    if since >= due:
        return None  # moving past the trip's limit: up and about (or found), not stopped
    return RoomTrip(max(due - since, STILL), trip.room, trip.out, learned)


def _by_a_way_out(
    home: HomeView, baselines: HomeBaselines, rooms: tuple[str, str], since: datetime
) -> bool:
    """A way out of the home in ``rooms`` (an entry door beside a lock or one the household
    came in by, a lock, a cover) moved since ``since``: somebody may have gone out."""
    for state in [s for room in rooms for s in home.in_area(room)]:
        entity_id = state.entity_id
        entry = state.domain == "binary_sensor" and state.info.device_class in ENTRY_DEVICE_CLASSES
        if not (
            way_out(home, entity_id)
            or (entry and len(baselines.away.entries.get(entity_id, ())) >= LEARNED_ENTRIES)
        ):
            continue
        if entry or state.domain in ("lock", "cover"):
            moved = [change.when for change in home.changes(entity_id)[1:]]
            if state.last_changed is not None:
                moved.append(state.last_changed)
            if any(when >= since - timedelta(minutes=1) for when in moved):
                return True
    return False

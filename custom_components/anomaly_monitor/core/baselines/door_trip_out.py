"""Through a door and not back: the WC door shut behind him, nothing since, far longer
than any trip through it here.

``still_where_last_seen`` judges the quiet after the last sign by the room it was in. A
room without a motion sensor (a separate WC) or a door out of a granny flat at night (to
the outhouse) says little that way: after the WC door, the home is often quiet for an
hour (he went back to his desk), and the granny flat at night is the night. But the door
says more: somebody who went through it (opened and shut, after a sign of somebody
anywhere else) comes back through it, in this home, within minutes (``DoorTrips``: per
door and quarter of the day, the longest trip back). When the last sign anywhere is such
a passage, and nothing anywhere has shown anybody since for ``FACTOR`` times the longest
trip back learned at this quarter, ``MARGIN`` more and never under ``MIN_LIMIT``, the one
who went through has not come back.

By day only a door into a room nobody can be seen in (no motion sensor of its own: a WC),
or into one whose own sensor saw them inside after the door shut behind them
(``shut_in``: a bathroom with a motion sensor; they went in, not out; judged then no
sooner than ``still_in_room`` judges a room that keeps somebody, a bath takes longer
than a trip to the WC), and no way out of the home (``ways_in.way_out``, or one the
tracked household comes and goes by, ``used_from_inside.came_and_went_by``, or one in an
area named as a place outside the house, ``outdoor_areas``: the back door on the porch,
the children in and out of the yard on a Sunday with no phone to say so; a WC's door
that people without a tracker open while the trackers say the home is empty is still no
way out):
out of a room people are seen in (a granny flat, a ger), somebody goes to the yard, the
shed or the neighbours and may stay; in the hours this home rests at
(``still_in_room.resting_hours``) a trip out of it is a toilet trip either way, but for a
door into an area named as outside the house (a porch, a yard): out to the garage on a
late-rising household's Saturday morning they may stay, unless the door is the night's way
to the toilet (its night quarter's own short trips learned: an outhouse).
But by day a door out of the house or out of a room people are seen in is judged for **the
one tracked person home alone** (``QuietSpells.one_home_alone``: their phone still says
home, nobody else's place unknown): whoever went through was them, and they did not come
back (the washing line, the grapes under the parral, the bins). Judged by that door's own
trips back, whatever their length (the yard's potter time is learned like a WC's minutes),
never under the hours' floor (``room_limit.MIN_LIMIT``); begun by day, it is judged on
through hours the home rests at (a siesta is the household's, not a trip to the yard).

By day and by night, the motion that came after the passage only on sensors that keep no
person's hours (the dog in the living room, the cat in the lounge at 02:42:
``pet_motion_after``) is not them coming back: the way back is the door, still shut. Those
sensors reading on are then nobody moving now either (``still_home``). Only through a door
this home also goes through and comes back within minutes at night (its night quarter's
own trips learned: a bathroom, a WC): out to the patio or the yard somebody may stay while
the dog moves inside (set 33 c's patio door, two false alarms before this).

Not judged: a door whose quarter is not learned (``door_trips.MIN_TRIPS`` trips back on
``MIN_DAYS`` days; while it has seen a trip back, the door's whole day stands in), or
whose trips back took ``SHORT`` or more (a way to the yard or the shed, where people
potter); a door after which the home was once quiet that long without them coming back
through it (people leave by it, or go to bed behind it: that quarter is theirs); an
arrival or a departure since (somebody's phone came or went); a passage that was itself
the way back (the door shut right before it opened); a passage within ``BACK_WITHIN`` of
the window's start (the way in before it is not read: it may be the way back).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import pairwise
from typing import NamedTuple

from ..home import (
    OCCUPANCY_DEVICE_CLASSES,
    OPENING_DEVICE_CLASSES,
    UNAVAILABLE_STATES,
    HomeView,
)
from ..outdoor_areas import outdoor_area
from ..pets import has_pets
from ..statistics.timeline import real_changes
from .clock import local
from .door_trips import BACK_WITHIN, PASSAGE, DoorTrips, LearnedTrips
from .home_baselines import HomeBaselines
from .pet_motion_after import Sign, without_pet_after
from .room_limit import MIN_LIMIT as OUT_FLOOR
from .shut_in import shut_in
from .still_in_room import MIN_LIMIT as SHUT_IN_FLOOR, resting_hours
from .ways_in import way_out

FACTOR = 2.0
MARGIN = timedelta(minutes=10)
MIN_LIMIT = timedelta(minutes=20)
# Only a door this home always comes back through within this (a WC, a night's outhouse
# trip): one whose trips back take longer is a way to the yard, the shed, the neighbours.
SHORT = timedelta(minutes=15)
# An hour of the night quarter, whose trips say the door is used for the toilet at night.
NIGHT_TRIP_HOUR = 3


class DoorTrip(NamedTuple):
    """A trip through a door under way: since it shut, the door, its limit."""

    since: datetime
    door: str
    area: str | None
    limit: timedelta
    learned: LearnedTrips
    # by day, the pet's sensors that moved since (``pet_motion_after``): not them
    pets: frozenset[str] = frozenset()


def _signs(home: HomeView) -> list[tuple[datetime, str, str]]:
    """Every sign of somebody in the window: a motion sensor turning on, a door opening or
    shutting, a lock or cover moved (when, entity, state), in time order."""
    signs: list[tuple[datetime, str, str]] = []
    sensors = [
        *((s.entity_id, True) for s in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES)),
        *((s.entity_id, False) for s in home.of("binary_sensor", *OPENING_DEVICE_CLASSES)),
        *((e, False) for e in [*home.history_of("lock"), *home.history_of("cover")]),
    ]
    for entity_id, motion in sensors:
        changes = home.changes(entity_id)
        recorded = len(changes) - len(real_changes(home, entity_id))  # the state at the start
        for index in range(recorded, len(changes)):  # the first change in it is one too
            after, before = changes[index], changes[index - 1].state if index else None
            if after.state in UNAVAILABLE_STATES or before in UNAVAILABLE_STATES:
                continue
            if not motion or after.state == "on":
                signs.append((after.when, entity_id, after.state))
    return sorted(signs)


def _without_pets_between(
    signs: list[tuple[datetime, str, str]], doors: set[str]
) -> list[tuple[datetime, str, str]]:
    """The signs without motion that came, with nothing else, between a door shutting and
    the same door opening again within ``BACK_WITHIN``: in a home with pets, motion alone
    between two passes of one door may be the cat in the kitchen, not a person; the second
    pass is the way back (the first was the way in), not another way in."""
    others = [i for i, sign in enumerate(signs) if sign[1] in doors or sign[2] != "on"]
    dropped: set[int] = set()
    for before, after in pairwise(others):
        (shut, door, state), (opened, again, new) = signs[before], signs[after]
        if door == again and state == "off" and new == "on" and opened - shut <= BACK_WITHIN:
            dropped.update(range(before + 1, after))
    return [sign for i, sign in enumerate(signs) if i not in dropped]


def door_trip_out(home: HomeView, baselines: HomeBaselines) -> DoorTrip | None:
    """The trip under way through a door, when the last sign anywhere is its passage and
    it is judged (see the module); None otherwise."""
    signs = _signs(home)
    doors = {s.entity_id for s in home.of("binary_sensor", *OPENING_DEVICE_CLASSES)}
    if has_pets(home.window.profile):
        signs = _without_pets_between(signs, doors)
    trip = _trip_out(home, baselines, signs, doors)
    if trip is not None or (after := without_pet_after(home, baselines, signs)) is None:
        return trip
    # By day, the pet moving since is not them coming back (``pet_motion_after``).
    trip = _trip_out(home, baselines, after.signs, doors)
    if trip is None:
        return None
    if not _a_night_trip_door(baselines, trip.door, trip.since):
        return None  # a door to the yard or the patio: they may stay out there
    return trip._replace(pets=after.sensors)


def _a_night_trip_door(baselines: HomeBaselines, door: str, since: datetime) -> bool:
    """Whether this home goes through ``door`` and comes back within minutes in the night
    too (its own night quarter learned: the toilet at night), a room people go into and
    come out of, not a way to the yard, where they potter while the dog moves inside."""
    night = local(since, baselines.zone).replace(hour=NIGHT_TRIP_HOUR, minute=0)
    learned = baselines.door_trips.learned(door, night)
    return learned is not None and not learned.whole_day and learned.longest < SHORT


def _trip_out(
    home: HomeView, baselines: HomeBaselines, signs: list[Sign], doors: set[str]
) -> DoorTrip | None:
    """The trip under way when the last of ``signs`` is a passage out that is judged."""
    if not signs:
        return None
    out = _passages(home, baselines, signs, doors).under_way()
    if out is None or out != (signs[-1][0], signs[-1][1]):
        return None  # the last sign is no passage out (none, or the way back through it)
    shut, door = out
    opened = shut - PASSAGE
    start = home.window.start
    if start is not None and opened - BACK_WITHIN < start:
        return None  # a way in before the window is unseen: this may be the way back
    for person in home.presence_entities:
        if any(change.when > opened for change in real_changes(home, person.entity_id)):
            return None  # somebody came or went
    learned = baselines.door_trips.learned(door, shut)
    if learned is None:
        return None
    info = home.info(door)
    area = info.info.area if info else None
    resting = resting_hours(home, baselines, shut, shut)
    if not resting and _out_of_the_house(home, baselines, door, area):
        # By day, out of the home or of a room people are seen in (the yard, the shed, the
        # neighbours): they may stay, unless nobody else is home and their phone is inside.
        return _out_alone(baselines, shut, door, area, learned)
    if learned.longest >= SHORT:
        return None
    limit = max(MIN_LIMIT, learned.longest * FACTOR, learned.longest + MARGIN)
    if area and outdoor_area(area) and not (resting and _a_night_trip_door(baselines, door, shut)):
        # Out to the yard (a porch, a garden) in the hours this home rests too (a
        # late-rising household's Saturday morning at the garage), unless the door is the
        # night's way to the toilet (an outhouse across the yard).
        return None
    if not resting and area and _seen_in(home, area):  # shut in (above): a bath by day,
        limit = max(limit, SHUT_IN_FLOOR)  # as ``still_in_room`` waits
    if learned.left >= limit:
        return None  # the home goes on that long without them coming back this way
    return DoorTrip(shut, door, area, limit, learned)


def _out_of_the_house(
    home: HomeView, baselines: HomeBaselines, door: str, area: str | None
) -> bool:
    """Whether ``door`` leads out of the house (a way out, one the household comes and goes
    by, one in an area named as outside) or out of a room people are seen in that did not
    keep them (``shut_in``): where somebody may stay, not a WC they come back from."""
    if way_out(home, door) or baselines.inside.came_and_went_by(door):
        return True
    if not area:
        return False
    return outdoor_area(area) or (_seen_in(home, area) and not shut_in(home, area))


def _out_alone(
    baselines: HomeBaselines, shut: datetime, door: str, area: str | None, learned: LearnedTrips
) -> DoorTrip | None:
    """Out through ``door`` by day, judged only for the one tracked person home alone (their
    phone still home, nobody else's sign since): whoever went out was them, and this home
    comes back through that door within ``learned.longest`` (the washing, the bins, the
    garden at this time of day); ``FACTOR`` times it, ``MARGIN`` more and never under the
    hours' floor (``room_limit.MIN_LIMIT``), unless the home once went on that long after it
    without anybody coming back that way (people leave by it)."""
    if not baselines.quiet.one_home_alone:
        return None
    limit = max(OUT_FLOOR, learned.longest * FACTOR, learned.longest + MARGIN)
    if learned.left >= limit:
        return None
    return DoorTrip(shut, door, area, limit, learned)


def _passages(
    home: HomeView, baselines: HomeBaselines, signs: list[Sign], doors: set[str]
) -> DoorTrips:
    """The window's signs read through the doors as the learning reads them."""
    passages = DoorTrips(baselines.zone)
    seen = {s.info.area for s in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES)} - {None}
    for when, entity_id, state in signs:
        info = home.info(entity_id) if entity_id in doors else None
        room_seen = info is not None and info.info.area in seen
        passages.sign(when, entity_id, state, door=entity_id in doors, room_seen=room_seen)
    return passages


def came_back_through(home: HomeView, baselines: HomeBaselines) -> tuple[datetime, str] | None:
    """The last sign anywhere, when it shut a door passed on the way back (when, the door)
    into a room nobody is seen in (no motion sensor of its own: the yard's porch, a WC):
    whoever went through is back on this side of it, not in that room. The dog let out at
    06:07 and in at 06:13, then the household back in bed: nobody was left on the porch."""
    signs = _signs(home)
    doors = {s.entity_id for s in home.of("binary_sensor", *OPENING_DEVICE_CLASSES)}
    if has_pets(home.window.profile):
        signs = _without_pets_between(signs, doors)
    if not signs:
        return None
    back = _passages(home, baselines, signs, doors).came_back()
    if back is None or back != (signs[-1][0], signs[-1][1]):
        return None
    info = home.info(back[1])
    area = info.info.area if info else None
    return None if area is None or _seen_in(home, area) else back


def _seen_in(home: HomeView, area: str) -> bool:
    """Whether ``area`` has a motion sensor: its door leads out of a room people are seen
    in (a granny flat's door to the yard), not into one nobody can be seen in (a WC)."""
    return any(s.info.area == area for s in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES))

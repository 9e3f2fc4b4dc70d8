"""The quiet under way in a home somebody is in, where they were last seen, and its limit.

What ``still_where_last_seen`` judges (its module says how, and what is not judged): the
last movement or sign, the room it was in, and the limit of the quiet since, by the hours
(``QuietSpells``), the room (``RoomQuiet``), a door passed (``door_trip_out``), a night
trip (``night_trips``), a bed left (``bed_left``, ``bed_trip``, ``bed_exits``); None when
the quiet is not judged (nobody home, somebody moving now, an arrival or a departure
since, shut in a room, gone by the way out).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import pairwise
from typing import NamedTuple

from ..home import (
    ENTRY_DEVICE_CLASSES,
    OCCUPANCY_DEVICE_CLASSES,
    UNAVAILABLE_STATES,
    HomeView,
    is_unavailable,
)
from ..occupancy import Occupancy
from ..pets import has_pets
from ..phoneless_residents import people_move_at_any_hour
from .bed_left import BedExit, BedLeft, bed_exit, bed_left
from .bed_lived_in import lived_in_limit
from .bed_trip import BedTrip, bed_trip
from .door_trip_out import DoorTrip, came_back_through, door_trip_out
from .held_on import moving_now
from .home_baselines import HomeBaselines
from .lived_while_away import lived_while_away, maybe_a_pet
from .night_trips import NightTrip, night_trip
from .presence_moves import came_or_went_since
from .room_limit import MIN_LIMIT, room_limit
from .room_quiet import LearnedQuiet
from .room_trip import RoomTrip, room_trip
from .shut_in import shut_in, window_signs
from .somebody_in import inside_now
from .still_in_room import resting_hours
from .unlearned_hours import typical_over_with_prior
from .watch_gaps import watched_since
from .ways_in import way_out

# The quiet must pass the home's usual longest quiet at these hours this many times...
FACTOR = 3.0
# ...and never be less than ``room_limit.MIN_LIMIT``; the room last seen is judged by
# ``room_limit`` (as ``night_trips`` judges it in the night).

# A quiet that began this near another quarter of the day is judged by it too.
NEAR = timedelta(hours=1)
# A way out that moved this near the last sign by it: somebody went out.
LEFT_REACH = timedelta(minutes=15)
# A door the household comes in by is learned from this many entries into the empty home.
LEARNED_ENTRIES = 2


class StillHome(NamedTuple):
    """The last movement, the room last seen in, and the limit of the quiet since."""

    since: datetime
    area: str | None
    limit: timedelta
    usual: timedelta | None  # the usual longest quiet of these hours
    room: LearnedQuiet | None  # the longest after a sign in the room last seen
    trip: NightTrip | None = None  # begun in the night in a room left within minutes
    door: DoorTrip | None = None  # through a door, and not back through it
    untracked: bool = False  # every tracker away: somebody untracked inside
    bed: BedLeft | None = None  # begun in the night after a bed there was left, still empty
    # since ``since``: out of a bed, still empty, in a room left within minutes, nowhere else
    bed_trip: BedTrip | None = None
    # since ``since``: out of a bed, still empty, never seen outside its room, though its
    # leaver always is within minutes
    exit: BedExit | None = None
    # since ``since``: stopped on a night trip out of a room its trips come back to
    room_trip: RoomTrip | None = None


def _tracked_home(home: HomeView, baselines: HomeBaselines) -> bool:
    return home.occupancy is Occupancy.OCCUPIED and baselines.quiet.occupied is not False


def _untracked_home(home: HomeView, baselines: HomeBaselines) -> bool:
    """Every tracker away, and somebody untracked is inside (see the module)."""
    if not home.nobody_home or has_pets(home.window.profile):
        return False  # with pets, motion in the empty home may be theirs
    if _last_moved_a_pet(home, baselines):
        return False  # the quiet would be read from the pet's motion, not the person's
    return inside_now(baselines, home) is not None and lived_while_away(baselines, home)


def _last_moved_a_pet(home: HomeView, baselines: HomeBaselines) -> bool:
    """The window's last motion (a sensor turning on or off) was on a sensor the away
    normal takes for a pet's (``somebody_in.maybe_a_pet``: it moves at every hour while
    the home is empty), unless the profile says who stays in without a phone and names
    no pet (``people_move_at_any_hour``: then it is theirs)."""
    latest: tuple[datetime, str] | None = None
    for sensor in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES):
        moved = [
            after.when
            for before, after in pairwise(home.changes(sensor.entity_id))
            if after.state == "on" or before.state == "on"
        ]
        if sensor.state in ("on", "off") and sensor.last_changed is not None:
            moved.append(sensor.last_changed)  # its last motion may lie before the window
        for when in moved:
            if latest is None or when > latest[0]:
                latest = (when, sensor.entity_id)
    if latest is None or people_move_at_any_hour(home.window):
        return False
    return maybe_a_pet(baselines, home, latest[1], latest[0])


def _last_movement(home: HomeView, baselines: HomeBaselines) -> datetime | None:
    """When somebody last moved (a motion sensor turning on or off) or came home."""
    last = baselines.quiet.quiet_since
    for sensor in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES):
        for before, after in pairwise(home.changes(sensor.entity_id)):
            if after.state == "on" or before.state == "on":
                last = after.when if last is None else max(last, after.when)
    return last


def _readable_since(home: HomeView, since: datetime) -> datetime:
    """When every motion sensor could be read again after ``since`` (a sensor or HA itself
    down meanwhile: nobody knows what moved then)."""
    back = since
    for sensor in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES):
        for before, after in pairwise(home.changes(sensor.entity_id)):
            if after.when > since and before.state in UNAVAILABLE_STATES:
                back = max(back, after.when)
    return back


def _usual(
    baselines: HomeBaselines, since: datetime, until: datetime, untracked: bool
) -> timedelta | None:
    """The usual longest quiet of the hours from ``since`` to ``until`` on other days (each
    hour's ``TYPICAL_QUANTILE`` day: one odd day does not teach that a fall is normal; for
    one tracked person home alone at most the longest reached on two days, as below ten
    days the quantile is the longest of all: their stillness is the home's, while a home
    of several is still only when all of them are). An hour never learned with somebody
    tracked home is judged by a prior (``unlearned_hours``: the nearest learned hours'),
    never by nothing. For somebody untracked, the days the trackers were out and somebody
    moved inside count too (the hours the phones are always out are learned from those
    days), and the longest of them stands: that anybody is inside at all is read from
    motion a pet may have made; None while one of those hours is not learned."""
    alone = not untracked and baselines.quiet.one_home_alone
    usual = baselines.quiet.typical_over(since, until, lived=untracked, twice=alone)
    if usual is None and not untracked:  # hours never learned with somebody home: a prior
        usual = typical_over_with_prior(baselines.quiet, since, until, twice=alone)
    return None if usual is None else timedelta(minutes=usual)


def room_longest(baselines: HomeBaselines, area: str, when: datetime) -> LearnedQuiet | None:
    """The longest this home stayed quiet after a sign in ``area`` at the quarters of the
    day within ``NEAR`` of ``when`` (bedtime an hour early is still bedtime); None when
    none of them is learned."""
    learned = [
        found
        for near in (when - NEAR, when, when + NEAR)
        if (found := baselines.room_quiet.learned(area, near)) is not None
    ]
    return max(learned, key=lambda found: found.longest, default=None)


def limit_of(
    baselines: HomeBaselines,
    since: datetime,
    until: datetime,
    area: str | None,
    untracked: bool = False,
) -> tuple[timedelta, timedelta, LearnedQuiet | None] | None:
    usual = _usual(baselines, since, until, untracked)
    if usual is None:
        return None
    limit = max(MIN_LIMIT, usual * FACTOR)
    room = room_longest(baselines, area, since) if area else None
    if room is not None:  # a room people sit still in (the sofa, the bed) keeps them long
        limit = max(limit, room_limit(room.longest))
    return limit, usual, room


def _ways_out(home: HomeView, baselines: HomeBaselines, area: str) -> list[str]:
    """What in ``area`` a person leaves the home by: an entry door beside a lock or one
    the household came in by while the home was empty, a lock, a cover (a garage door, a
    shop's shutter) where there is such a door or lock."""
    doors = [
        s.entity_id
        for s in home.in_area(area)
        if s.domain == "binary_sensor"
        and s.info.device_class in ENTRY_DEVICE_CLASSES
        and (
            way_out(home, s.entity_id)
            or len(baselines.away.entries.get(s.entity_id, ())) >= LEARNED_ENTRIES
        )
    ]
    locks = [s.entity_id for s in home.in_area(area) if s.domain == "lock"]
    if not doors and not locks:
        return []
    covers = [s.entity_id for s in home.in_area(area) if s.domain == "cover"]
    return [*doors, *locks, *covers]


def _went_out(home: HomeView, baselines: HomeBaselines, seen: datetime, area: str) -> bool:
    """The last sign was by the way out, and it moved near that sign or after it."""
    return any(
        when >= seen - LEFT_REACH
        for entity_id in _ways_out(home, baselines, area)
        for when in _moved(home, entity_id)
    )


def _moved(home: HomeView, entity_id: str) -> list[datetime]:
    """When ``entity_id`` changed: in the window, and its state's last change (a quiet may
    be older than the window)."""
    times = [change.when for change in home.changes(entity_id)[1:]]
    state = home.info(entity_id)
    if state is not None and state.last_changed is not None:
        times.append(state.last_changed)
    return times


def _last_sign(
    home: HomeView, baselines: HomeBaselines, untracked: bool = False
) -> tuple[datetime, str] | None:
    """The last sign of somebody with its area: a motion sensor turning on, a door or
    window opening or closing (``RoomQuiet``'s, and the window's), a lock or a cover
    moved (somebody's hand, or an automation: either way not a person lying still).
    For somebody untracked, also a motion spell ending (they were there until then) and
    the home's last sign whoever's phones were out (``RoomQuiet.home_last``): the last
    sign may be older than the window, and the trackers leaving does not forget it."""
    last = baselines.room_quiet.last
    signs = window_signs(home)
    if untracked:
        signs.extend(_motion_ends(home))
        if (home_last := baselines.room_quiet.home_last) is not None:
            signs.append(home_last)
    for entity_id in [*home.history_of("lock"), *home.history_of("cover")]:
        area = home.area(entity_id)
        for before, after in pairwise(home.changes(entity_id)):
            if area and not {before.state, after.state} & UNAVAILABLE_STATES:
                signs.append((after.when, area))
    for sign in signs:
        if last is None or sign[0] > last[0]:
            last = sign
    return last


def _motion_ends(home: HomeView) -> list[tuple[datetime, str]]:
    """The window's motion spells ending, with their area (somebody was there until then)."""
    return [
        (after.when, sensor.info.area)
        for sensor in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES)
        if sensor.info.area
        for before, after in pairwise(home.changes(sensor.entity_id))
        if before.state == "on" and after.state == "off"
    ]


def still_home(home: HomeView, baselines: HomeBaselines) -> StillHome | None:
    """The quiet under way and its limit; None when it is not judged (see the module)."""
    tracked = _tracked_home(home, baselines)
    if not tracked and not _untracked_home(home, baselines):
        return None
    readable = [
        s for s in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES) if not is_unavailable(s)
    ]
    if not readable:
        return None
    moving = {s.entity_id for s in readable if moving_now(home, baselines, s)}
    door = door_trip_out(home, baselines)
    if moving and (door is None or not moving <= door.pets):
        return None  # somebody moves now (by day, the pet's sensors are not them after a door)
    if door is not None:
        return StillHome(door.since, door.area, door.limit, None, None, door=door)
    since = _last_movement(home, baselines)
    if since is None or since >= home.end:
        return None
    last = _last_sign(home, baselines, untracked=not tracked)
    area = last[1] if last is not None else None
    if area is None and not tracked:
        return None  # somebody untracked, seen nowhere the window or the baselines know
    seen = last[0] if last is not None else since
    back = came_back_through(home, baselines) if area is not None else None
    if back is not None and back[0] == seen and home.area(back[1]) == area:
        area = None  # back through a door from a room nobody is seen in: not in it
        if not tracked:
            return None
    since = max(since, seen)  # a door shut after the last motion: somebody was there then
    since = watched_since(max(since, _readable_since(home, since)), baselines.unwatched)
    if came_or_went_since(home, baselines, min(seen, since), arrivals_only=not tracked):
        return None  # an arrival or a departure since (untracked: an arrival)
    if area is not None and (shut_in(home, area) or _went_out(home, baselines, seen, area)):
        return None  # shut in: ``still_in_room``'s; by the way out: somebody left
    if area is not None and (out_of_bed := bed_exit(home, baselines, area)) is not None:
        return StillHome(
            out_of_bed.left, area, out_of_bed.limit, None, None, exit=out_of_bed,
            untracked=not tracked,
        )  # fmt: skip
    if area is not None and resting_hours(home, baselines, since, since + NEAR):
        # Begun in or near the night: sleep, unless in a room this home leaves within minutes.
        if (out := bed_trip(home, baselines)) is not None:
            return StillHome(
                out.arrived, out.area, out.limit, None, out.room, bed_trip=out,
                untracked=not tracked,
            )  # fmt: skip
        trip = night_trip(home, baselines, area, since)
        gone = room_trip(home, baselines, area, since)  # the room's own trips: sooner
        if gone is not None and (trip is None or gone.limit < trip.limit):
            return StillHome(
                since, area, gone.limit, None, None, room_trip=gone, untracked=not tracked
            )
        if trip is not None:
            return StillHome(since, area, trip.limit, None, trip.room, trip, untracked=not tracked)
        if (bed := bed_left(home, baselines, area, since)) is not None:
            return StillHome(since, area, bed.limit, None, None, bed=bed, untracked=not tracked)
    found = limit_of(baselines, since, home.end, area, untracked=not tracked)
    if found is None:
        return None
    if area is not None and (lying := lived_in_limit(home, baselines, area, since)) is not None:
        found = (max(found[0], lying), *found[1:])  # a bedbound person still in her bed
    return StillHome(since, area, *found, untracked=not tracked)

"""Last seen somewhere, nothing anywhere since, far longer than this home is ever quiet then.

``still_in_room`` judges a room that keeps somebody (its door closed behind them). A fall
on a stair, in a shower without a door sensor, in an open-plan flat has no such door: the
person is still where they were last seen, and the whole home has been still since. This
judges that stillness by what this home does, learned from its own history, twice:

- the **hours**: the quiet since the last movement passes ``FACTOR`` times the home's
  usual longest quiet of the hours it covers (``QuietSpells``: per hour of the day the
  longest the home went without movement while somebody was home, its 90th percentile
  over the other days), never under ``MIN_LIMIT``;
- the **room** last seen, when learned: it passes, by ``room_limit``, the longest this
  home was quiet after a sign in that room at this quarter of the day (``RoomQuiet``;
  the quarters within ``NEAR`` too). The bedroom in the evening is the night, the sofa
  an hour's film; a bathroom, a stair or a shower is left within minutes;
- a **door** passed (``door_trip_out``): somebody went through it after a sign elsewhere
  and shut it, and nothing since; judged by how soon this home comes back through it.

Nothing is told while an hour is not learned (``quiet_spells.MIN_DAYS`` days): no fixed
prior, ``no_movement_while_home`` covers a new install.

Not judged:

- over the hours the home rests at, or within ``NEAR`` of them (its usual longest quiet
  of those hours ≥ 1 h; before they are learned, the night): sleep, wherever they were
  last seen, unless the quiet began on a trip out of the rest
  (``still_in_room.judged_by_room``); but a quiet begun then in a room this home always
  leaves within minutes (a bathroom, a stair) is a night trip that never came back, judged
  by that room (``night_trips``); and one begun after a bed in the room last seen was
  left, still empty, is somebody out of bed who did not come back, judged by that bed
  (``bed_left``);
- when the last sign was in the room of a way out of the home (an entry door beside a
  lock or one the household came in by while the home was empty, a lock, a cover there)
  and it moved within ``LEFT_REACH`` of that sign or after it: somebody probably went out
  (a carer or a visitor leaving, a resident without a tracker); a fall in the toilet is
  last seen in the toilet;
- when the trackers changed since the last sign (somebody came or went; a phone's blink
  to unknown and back is neither: ``presence_moves``).

A lock or a cover moved, or a door shut, after the last motion is itself a sign: the quiet
counts from it. A motion sensor unreadable meanwhile, or HA down for a while (a power cut:
``watch_gaps``), restarts the quiet when it is read again. Somebody is home when the
persons say so, or, with every tracker away, when somebody untracked showed inside since
and nobody went out (``somebody_in.inside_now``) in a home lived in while the trackers are
away (a grandmother minding the shop), without pets in the profile (a pet moving in the
empty home is not a person), nor when the last motion is on a sensor the away normal
learned as a pet's (it moves at every hour while the home is empty: the cat of a profile
written in a language ``pets`` does not read, moving in the living room hours after a
neighbour fed it, was taken for the neighbour lying still), and with the room they were
last seen in known. Such a person's stillness is judged as anybody's: their last sign is
the home's, kept whoever's phones are out (``RoomQuiet.home_last``; a motion spell ending
counts, they were there until then), so it is judged after the sign left the window; the
hours are learned from the days the home was lived in while the trackers were out too
(``QuietSpells.lived``: the hours they are always out have a limit); and only an arrival
since voids it (a tracker leaving after the last sign is whoever left, not who stayed in:
``inside_now`` saw somebody after it).
The glue analyses again when the limit passes (``still_where_last_seen_due``).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, tzinfo
from itertools import pairwise
from typing import NamedTuple

from ..home import (
    ENTRY_DEVICE_CLASSES,
    OCCUPANCY_DEVICE_CLASSES,
    UNAVAILABLE_STATES,
    HomeView,
    is_unavailable,
)
from ..models import HOME_SUBJECT, Finding
from ..occupancy import Occupancy
from ..pets import has_pets
from ..phoneless_residents import people_move_at_any_hour
from .bed_left import BedExit, BedLeft, bed_exit, bed_left
from .bed_lived_in import lived_in_limit
from .bed_trip import BedTrip, bed_trip
from .clock import local
from .door_trip_out import DoorTrip, door_trip_out
from .held_on import moving_now
from .home_baselines import HomeBaselines
from .long_stays import duration_text
from .night_trips import NightTrip, night_trip
from .presence_moves import came_or_went_since
from .room_limit import MIN_LIMIT, room_limit
from .room_quiet import LearnedQuiet
from .shut_in import shut_in, window_signs
from .somebody_in import inside_now, lived_while_away, maybe_a_pet
from .still_in_room import STILL_IN_ROOM, judged_by_room, resting_hours
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
    hour's ``TYPICAL_QUANTILE`` day: one odd day does not teach that a fall is normal);
    None while one of those hours is not learned. For somebody untracked, the days the
    trackers were out and somebody moved inside count too (the hours the phones are always
    out are learned from those days)."""
    usual = baselines.quiet.typical_over(since, until, lived=untracked)
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


def _limit(
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
    if not readable or any(moving_now(home, baselines, s) for s in readable):
        return None
    if (door := door_trip_out(home, baselines)) is not None:
        return StillHome(door.since, door.area, door.limit, None, None, door=door)
    since = _last_movement(home, baselines)
    if since is None or since >= home.end:
        return None
    last = _last_sign(home, baselines, untracked=not tracked)
    area = last[1] if last is not None else None
    if area is None and not tracked:
        return None  # somebody untracked, seen nowhere the window or the baselines know
    seen = last[0] if last is not None else since
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
        if trip is not None:
            return StillHome(since, area, trip.limit, None, trip.room, trip, untracked=not tracked)
        if (bed := bed_left(home, baselines, area, since)) is not None:
            return StillHome(since, area, bed.limit, None, None, bed=bed, untracked=not tracked)
    found = _limit(baselines, since, home.end, area, untracked=not tracked)
    if found is None:
        return None
    if area is not None and (lying := lived_in_limit(home, baselines, area, since)) is not None:
        found = (max(found[0], lying), *found[1:])  # a bedbound person still in her bed
    return StillHome(since, area, *found, untracked=not tracked)


def _by_night(still: StillHome) -> bool:
    """Judged by what the night says (a trip, a door, a bed), not by the hours."""
    return (
        still.trip is not None
        or still.door is not None
        or still.bed is not None
        or still.bed_trip is not None
        or still.exit is not None
    )


def _awake(home: HomeView, baselines: HomeBaselines, since: datetime, at: datetime) -> bool:
    """Not the hours the home rests at, nor within ``NEAR`` of them: bedtime an hour early
    is still bedtime (``still_in_room.judged_by_room``)."""
    return judged_by_room(home, baselines, since, at + NEAR)


def still_where_last_seen_due(home: HomeView, baselines: HomeBaselines | None) -> datetime | None:
    """When the quiet under way passes its limit, if that is ahead and it is judged then."""
    if baselines is None:
        return None
    still = still_home(home, baselines)
    if still is None:
        return None
    due = still.since + still.limit
    if _by_night(still):
        return due if due > home.end else None
    for _ in range(4):  # the hours up to the due time may teach a longer quiet
        found = _limit(baselines, still.since, due, still.area, still.untracked)
        if found is None or still.since + found[0] <= due:
            break
        due = still.since + found[0]
    if due <= home.end or not _awake(home, baselines, still.since, due):
        return None
    return due


def _bed_of(still: StillHome) -> set[str]:
    if still.exit is not None:
        return {still.exit.bed}
    return {still.bed_trip.bed} if still.bed_trip is not None else set()


def _seen(still: StillHome, where: str, quiet: timedelta, since: datetime) -> str:
    """Where somebody was seen and since when (a stay in a room, or the last sign)."""
    if still.exit is not None:
        return (
            f"Someone got out of bed{where} {duration_text(quiet)} ago (at {since:%H:%M}) "
            "and has not been seen anywhere else since. "
        )
    if still.bed_trip is not None:
        return (
            f"Someone got out of bed and has been{where} for {duration_text(quiet)} (since "
            f"{since:%H:%M}), seen nowhere else since. "
        )
    return (
        f"Someone is home and was last seen{where} {duration_text(quiet)} ago "
        f"(at {since:%H:%M}); nothing has moved anywhere since. "
    )


def _judged_by(still: StillHome, room: str, zone: tzinfo | None) -> str:
    """What the limit rests on: the hours learned, or a night trip's room (learned or not)."""
    if (door := still.door) is not None:
        return (
            f"Somebody went through {door.door} and shut it; in this home the way back through "
            f"it came within {duration_text(door.learned.longest)} "
            f"{'at any time of day' if door.learned.whole_day else 'at this time of day'} "
            f"({door.learned.trips} times on {door.learned.days} days)"
        )
    if (bed := still.bed) is not None:
        return bed.why(zone)
    if (out_of_bed := still.exit) is not None:
        return out_of_bed.why(zone)
    if (out := still.bed_trip) is not None:
        return (
            f"It began in the hours this home rests at: {out.name} was left at "
            f"{local(out.left, zone):%H:%M} and nobody has lain on it since; after somebody "
            f"was in {out.area} at this time of day this home was never quiet for longer than "
            f"{duration_text(out.room.longest)} ({out.room.quiets} times on {out.room.days} days)"
        )
    trip = still.trip
    if trip is None:
        usual = duration_text(still.usual or timedelta())
        return f"At these hours this home is usually still for at most {usual}{room}"
    learned = trip.room
    return (
        "It began in the hours this home rests at, but in a room it always leaves within "
        f"minutes: after somebody was in {still.area}"
        f"{' at this time of night' if trip.learned_here else ''} it was never quiet for longer "
        f"than {duration_text(learned.longest)} ({learned.quiets} times on {learned.days} days)"
        + (
            ""
            if trip.learned_here
            else f"; its nights are not learned yet, so at least {duration_text(trip.limit)} is "
            "waited (a prior)"
        )
    )


def still_where_last_seen(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """Nothing has moved anywhere since somebody was last seen, far longer than this home
    is ever quiet at these hours.

    Magnitude: minutes of quiet beyond the limit.
    """
    still = still_home(home, baselines)
    if still is None:
        return
    quiet = home.end - still.since
    if quiet <= still.limit:
        return
    if not _by_night(still) and not _awake(home, baselines, still.since, home.end):
        return
    sensors = [
        s
        for s in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES)
        if not is_unavailable(s) and (still.area is None or s.info.area == still.area)
    ]
    if not sensors:
        sensors = [
            s for s in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES) if not is_unavailable(s)
        ]
    door = {still.door.door} if still.door is not None else set()  # the way they went
    since = local(still.since, home.env.zone)
    where = f" in {still.area}" if still.area else " moving"
    room = (
        f"; after somebody was in {still.area} it was never quiet for longer than "
        f"{duration_text(still.room.longest)} ({still.room.quiets} times on {still.room.days} days)"
        if still.room is not None
        else ""
    )
    yield STILL_IN_ROOM.finding(
        evidence=tuple(sorted({s.entity_id for s in sensors} | door | _bed_of(still))),
        reasoning=_seen(still, where, quiet, since) + f"{_judged_by(still, room, home.env.zone)}.",
        recommendation=f"Check on the person{f' in {still.area}' if still.area else ''}: "
        "they may have fallen or be unwell.",
        magnitude=round((quiet - still.limit).total_seconds() / 60, 1),
        subject=HOME_SUBJECT,
    )

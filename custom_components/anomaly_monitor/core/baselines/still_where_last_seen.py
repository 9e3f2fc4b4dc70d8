"""Last seen somewhere, nothing anywhere since, far longer than this home is ever quiet then.

``still_in_room`` judges a room that keeps somebody (its door closed behind them). A fall
on a stair, in a shower without a door sensor, in an open-plan flat has no such door: the
person is still where they were last seen, and the whole home has been still since. This
judges that stillness by what this home does, learned from its own history, twice:

- the **hours**: the quiet since the last movement passes ``FACTOR`` times the home's
  usual longest quiet of the hours it covers (``QuietSpells``: per hour of the day the
  longest the home went without movement while somebody was home, its 90th percentile
  over the other days; for one tracked person home alone at most the longest reached on
  two of them: one odd morning is not the usual), never under ``MIN_LIMIT``;
- the **room** last seen, when learned: it passes, by ``room_limit``, the longest this
  home was quiet after a sign in that room at this quarter of the day (``RoomQuiet``;
  the quarters within ``NEAR`` too). The bedroom in the evening is the night, the sofa
  an hour's film; a bathroom, a stair or a shower is left within minutes;
- a **door** passed (``door_trip_out``): somebody went through it after a sign elsewhere
  and shut it, and nothing since (by day, nothing but a pet's round-the-clock sensor:
  ``pet_motion_after``); judged by how soon this home comes back through it.

Nothing is told while no hour is learned (``quiet_spells.MIN_DAYS`` days): no fixed
prior, ``no_movement_while_home`` covers a new install. Once some are, an hour never
learned with somebody tracked home (the household is out then on most days) is judged by
the nearest learned hours (``unlearned_hours``): a fall on a day off is not left unjudged.

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

from ..home import OCCUPANCY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES, HomeView, is_unavailable
from ..models import HOME_SUBJECT, Finding
from .bed_left import trips_text
from .clock import local
from .home_baselines import HomeBaselines
from .long_stays import duration_text
from .still_home import NEAR, StillHome, limit_of, still_home
from .still_in_room import STILL_IN_ROOM, judged_by_room

# A door of the room moved this near the quiet's start is the way they went in.
_WENT_IN = timedelta(minutes=10)


def _by_night(still: StillHome) -> bool:
    """Judged by what the night says (a trip, a door, a bed), not by the hours."""
    return (
        still.trip is not None
        or still.door is not None
        or still.bed is not None
        or still.bed_trip is not None
        or still.exit is not None
        or still.room_trip is not None
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
        found = limit_of(baselines, still.since, due, still.area, still.untracked)
        if found is None or still.since + found[0] <= due:
            break
        due = still.since + found[0]
    if due <= home.end or not _awake(home, baselines, still.since, due):
        return None
    return due


def _by_prior(baselines: HomeBaselines, still: StillHome, now: datetime) -> bool:
    """The quiet's hours are judged by ``unlearned_hours``'s prior (one never learned)."""
    if still.untracked or _by_night(still):
        return False
    quiet = baselines.quiet
    return quiet.typical_over(still.since, now, twice=quiet.one_home_alone) is None


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
    if still.door is not None and still.door.pets:
        return (
            f"Someone is home and was last seen{where} {duration_text(quiet)} ago "
            f"(at {since:%H:%M}); since then only {', '.join(sorted(still.door.pets))} "
            "moved, which moves at nearly every hour, day and night, on most days (a pet's, "
            "not theirs). "
        )
    return (
        f"Someone is home and was last seen{where} {duration_text(quiet)} ago "
        f"(at {since:%H:%M}); nothing has moved anywhere since. "
    )


def _judged_by(still: StillHome, room: str, zone: tzinfo | None, prior: bool = False) -> str:
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
    if (gone := still.room_trip) is not None:
        return (
            f"It began in the hours this home rests at: somebody left {gone.room} at "
            f"{local(gone.out, zone):%H:%M} and has not been back in it since; at this time "
            f"of night whoever left it was back within {duration_text(gone.trips.longest)} "
            f"({gone.trips.trips} times on {gone.trips.days} nights)"
        )
    if (out := still.bed_trip) is not None and out.by_trips:
        return (
            f"It began in the hours this home rests at: {out.name} was left at "
            f"{local(out.left, zone):%H:%M} and nobody has lain on it since; "
            f"{trips_text(out.trips)}"
        )
    if out is not None:
        return (
            f"It began in the hours this home rests at: {out.name} was left at "
            f"{local(out.left, zone):%H:%M} and nobody has lain on it since; after somebody "
            f"was in {out.area} at this time of day this home was never quiet for longer than "
            f"{duration_text(out.room.longest)} ({out.room.quiets} times on {out.room.days} days)"
        )
    trip = still.trip
    if trip is None:
        usual = duration_text(still.usual or timedelta())
        if prior:  # ``unlearned_hours``: the home is usually empty at these hours
            return (
                "These hours were never learned with somebody home; at the nearest hours "
                f"learned this home is usually still for at most {usual}{room}"
            )
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
    door = {still.door.door} if still.door is not None else set()  # the way they went
    # The door of the room where they are, moved as the quiet began (the bathroom's, opened
    # as she went in): a finding told about it before is this stillness's beginning
    # (``anomalies.graver_of_told``). One unmoved for long is no sign of where they went.
    room_doors = {
        s.entity_id
        for s in home.of("binary_sensor", *OPENING_DEVICE_CLASSES)
        if still.area is not None
        and s.info.area == still.area
        and not is_unavailable(s)
        and s.last_changed is not None
        and abs(s.last_changed - still.since) <= _WENT_IN
    }
    shown = {s.entity_id for s in sensors} | door | room_doors | _bed_of(still)
    if not sensors and not (still.area is not None and shown):
        # Nowhere known: every sensor that could have seen them. A room without a motion
        # sensor (a WC, a porch) is shown by its door and the way they went: every sensor
        # of the home would name another room (its first by name) and join another's
        # incident (a bed still lain on: walk 42).
        shown |= {
            s.entity_id
            for s in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES)
            if not is_unavailable(s)
        }
    since = local(still.since, home.env.zone)
    where = f" in {still.area}" if still.area else " moving"
    room = (
        f"; after somebody was in {still.area} it was never quiet for longer than "
        f"{duration_text(still.room.longest)} ({still.room.quiets} times on {still.room.days} days)"
        if still.room is not None
        else ""
    )
    yield STILL_IN_ROOM.finding(
        evidence=tuple(sorted(shown)),
        reasoning=_seen(still, where, quiet, since)
        + f"{_judged_by(still, room, home.env.zone, _by_prior(baselines, still, home.end))}.",
        recommendation=f"Check on the person{f' in {still.area}' if still.area else ''}: "
        "they may have fallen or be unwell.",
        magnitude=round((quiet - still.limit).total_seconds() / 60, 1),
        subject=HOME_SUBJECT,
    )

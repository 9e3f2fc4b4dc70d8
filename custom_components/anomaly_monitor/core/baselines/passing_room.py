"""By day, a room this home always leaves within minutes judges the quiet after it.

``still_where_last_seen`` judges a quiet by day against the home's hours (three times the
usual longest quiet of those hours, ``still_home.FACTOR``); the room last seen only ever
raised that limit (the sofa keeps somebody long). But the hours pool every room: an
afternoon whose usual quiet is 50 min (somebody reading, at a desk) waits two and a half
hours, even when the last sign was on the basement stairs or in the hall, after which
this home was never quiet for even an hour at that time of day. Somebody who fell there
lies still for those two and a half hours.

So by day (the quiet began neither in nor near the hours this home rests at), when the
room last seen is learned at the quarters of the day the quiet began near (``RoomQuiet``,
``still_home.NEAR``) and this home was never quiet for ``PASSING`` or longer after a sign
there (a hall, a stair, a basement, a bathroom; never a bedroom or a living room somebody
sits in), the room judges the quiet: ``room_limit`` of its usual
day's longest (``RoomQuiet.typical``: one odd day does not teach that lying there is
normal), instead of the hours'. The night's trips are ``night_trips``'s (the same room
limit); this is the day's reading of the same notion.

Only for one person tracked home, alone by the trackers: then the last sign is theirs. With
every tracker away, the last sign may be a pet's or a visitor's (the cat crossing the
living room of a home gone out to the fair); with several home, whoever was seen last in
the kitchen may have gone to the others in a room no sensor sees (a share house's
Saturday afternoon, an hour without a sign after the kitchen). Such a quiet keeps the
hours' limit.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..home import HomeView
from .home_baselines import HomeBaselines
from .night_trips import PASSING
from .room_limit import room_limit
from .still_in_room import resting_hours


def passing_room_limit(
    home: HomeView, baselines: HomeBaselines, area: str, since: datetime, near: timedelta
) -> timedelta | None:
    """The limit of a quiet begun at ``since`` after a sign in ``area``, when ``area`` is a
    room this home leaves within minutes at the quarters within ``near`` of ``since``
    (every one of them learned there is, and at least the quarter of ``since``); None
    when it is not, or not learned, when not exactly one tracked person is home, or when
    the quiet began in or near the hours this home rests at (the night's: ``night_trips``
    judges a trip out of them, and a bathroom seen alone at 03:00 may be followed by a way
    back to bed nobody sees)."""
    if home.env.persons_home != 1:
        return None  # the last sign may be anybody's (see the module)
    if resting_hours(home, baselines, since, since + near):
        return None
    quiet = baselines.room_quiet
    if quiet.learned(area, since) is None:
        return None
    typical: list[timedelta] = []
    for when in (since - near, since, since + near):
        learned = quiet.learned(area, when)
        if learned is None:
            continue
        if learned.longest >= PASSING:
            return None  # somebody stays after it at these hours
        if (usual := quiet.typical(area, when)) is not None:
            typical.append(usual)
    return room_limit(max(typical)) if typical else None
